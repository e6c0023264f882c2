package analysis

import (
	"context"
	gocsv "encoding/csv"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/widget"

	"androprof/assets"
	"androprof/chart"
	"androprof/chart/render"
	"androprof/controller"
	"androprof/model/cost"
	"androprof/store"
	"androprof/view/ui"
)

// sieves is a workspace holding the demo's sieve runs: one program built for ARM, Thumb, MIPS,
// AArch64 and x86-64, the ARM and AArch64 builds also cache-simulated.
var sieves = sharedWorkspace{build: func(db *store.DB) error {
	demos := map[string]controller.DemoRun{}
	for _, d := range assets.DemoRuns() {
		if strings.HasPrefix(d.Name, "demo-sieve-") {
			demos[d.Name] = d
		}
	}
	_, err := controller.NewWorkspace(db).Importer().ImportDemo(context.Background(), demos)
	return err
}}

// openSieves opens the analysis window on a copy of sieves.
func openSieves(t *testing.T) *View {
	t.Helper()
	db := sieves.open(t)
	v := openWindow(test.NewTempApp(t), controller.NewWorkspace(db), &scriptedImporter{db: db})
	v.Wait()
	return v
}

// showRun selects a run and, when profile is not "", a profile, as a user does.
func showRun(v *View, run, profile string) {
	v.SelectRun(run)
	v.Wait()
	if profile != "" {
		v.Profile.SetSelected(profile)
		v.Wait()
	}
}

// The MIPS run under the Cortex-A8: every instruction Undefined at 13.03 cycles. The numbers
// stay, and every place that shows them says why they are a guess.
func TestMIPSRunUnderAnARMProfileSaysSo(t *testing.T) {
	v := openSieves(t)
	showRun(v, "demo-sieve-mips", "")
	if !strings.Contains(v.Profile.Selected, "MIPS") || strings.Contains(v.Problem.Text, "not in this profile") {
		t.Fatalf("the MIPS run opened under %q with problem %q", v.Profile.Selected, v.Problem.Text)
	}
	showRun(v, "demo-sieve-mips", "ARMv7-A Cortex-A8")
	if v.Profile.Selected != "ARMv7-A Cortex-A8" {
		t.Fatalf("the user's choice did not stand: %q", v.Profile.Selected)
	}
	for _, want := range []string{"ARMv7-A Cortex-A8 prices ARM and Thumb, not MIPS",
		"100 % of instructions are not in this profile (priced as Undefined, 13.03 cycles each)"} {
		if !v.Problem.Visible() || !strings.Contains(v.Problem.Text, want) {
			t.Errorf("problem area %q (shown %v) lacks %q", v.Problem.Text, v.Problem.Visible(), want)
		}
		if !strings.Contains(v.Estimate.Fit.Text, want) {
			t.Errorf("Estimate tab's note %q lacks %q", v.Estimate.Fit.Text, want)
		}
	}
	if c := v.Processes.Table.Count.Text; !strings.Contains(c, "6.45 M cycles") ||
		!strings.Contains(c, "100 % of instructions not in profile, which lacks MIPS") {
		t.Errorf("Processes count line %q", c)
	}
	if s := v.Estimate.Source.Text; !strings.Contains(s, "does not run MIPS: choose a profile for MIPS") {
		t.Errorf("the figure 5.2 calculator's source line %q", s)
	}

	// Back to a profile of the run's own: no warning left behind.
	v.Profile.SetSelected("MIPS32 Release 2 74K")
	v.Wait()
	if v.Problem.Visible() || v.Estimate.Fit.Text != "" || strings.Contains(v.Processes.Table.Count.Text, "not in profile") {
		t.Errorf("a fitting profile still warns: %q, %q", v.Problem.Text, v.Estimate.Fit.Text)
	}
}

// The MIPS 24K has no power figure: its energy is unknown, not 0 J.
func TestUnknownPowerIsNotZeroJoules(t *testing.T) {
	v := openSieves(t)
	showRun(v, "demo-sieve-mips", "MIPS32 Release 2 24K")
	if !strings.Contains(v.Problem.Text, "Power unknown: energy not estimated") {
		t.Errorf("problem area %q", v.Problem.Text)
	}
	if c := v.Processes.Table.Count.Text; !strings.Contains(c, "energy unknown") || strings.Contains(c, "0 J") {
		t.Errorf("Processes count line %q", c)
	}
	for pid, row := range processCells(v) {
		if e := row["Energy (J)"]; e != "unknown" {
			t.Errorf("pid %s energy %q", pid, e)
		}
	}
	e := v.Estimate
	if !strings.Contains(e.Totals.Text, "energy and power unknown") || strings.Contains(e.Totals.Text, "0 J") {
		t.Errorf("per-category totals %q", e.Totals.Text)
	}
	// No reference data: the calculator asks for a CPI instead of showing 0 cycles.
	if e.Cycles.Text != "—" || e.Error.Text == "" {
		t.Errorf("calculator without a CPI: cycles %q, error %q", e.Cycles.Text, e.Error.Text)
	}
	e.CPI.SetText("2")
	test.Tap(e.Calculate)
	if !strings.HasSuffix(e.Cycles.Text, "cycles") || !strings.HasPrefix(e.PowerW.Text, "unknown") || !strings.HasPrefix(e.EnergyJ.Text, "not estimated") {
		t.Errorf("calculator without a power: %q, %q, %q", e.Cycles.Text, e.PowerW.Text, e.EnergyJ.Text)
	}
}

// The Estimate tab says in one sentence why its two estimates differ (the waterfall's gap, named), and rounds its results to
// three digits with units; the exact values are a copy away.
func TestEstimateExplainsAndRounds(t *testing.T) {
	v := openSieves(t)
	showRun(v, "demo-sieve-arm", "ARMv7-A Cortex-A8")
	e := v.Estimate
	if strings.Count(e.Why.Text, ". ") != 0 || !strings.HasPrefix(e.Why.Text, "Why they differ: figure 5.2's measured CPI 13.03 gives 5.14 M cycles") ||
		!strings.HasSuffix(e.Why.Text, ".") || !strings.Contains(e.Why.Text, "memory stalls (not simulated") {
		t.Errorf("why the estimates differ: %q", e.Why.Text)
	}
	insns, _ := strconv.ParseFloat(e.Instructions.Text, 64)
	rounded := regexp.MustCompile(`^\d{1,3}(\.\d{1,2})? ?[kMGmµn]? ?(cycles|s|W|J)$`)
	for _, l := range []string{e.Cycles.Text, e.TimeS.Text, e.PowerW.Text, e.EnergyJ.Text} {
		if !rounded.MatchString(l) {
			t.Errorf("result %q is not rounded with a unit", l)
		}
	}
	if e.Cycles.Text != "5.14 M cycles" || e.TimeS.Text != "5.14 ms" || e.PowerW.Text != "893 mW" {
		t.Errorf("results %q, %q, %q for %g instructions at CPI 13.03", e.Cycles.Text, e.TimeS.Text, e.PowerW.Text, insns)
	}
	exact := e.ExactText()
	if !strings.Contains(exact, "cycles\t"+strconv.FormatFloat(insns*13.03, 'g', -1, 64)+"\n") ||
		!strings.Contains(exact, "power_w\t0.8926691053428465\n") {
		t.Errorf("exact values %q", exact)
	}
	test.Tap(e.CopyExact)
	if got := fyne.CurrentApp().Clipboard().Content(); got != exact {
		t.Errorf("clipboard %q", got)
	}
	if strings.ContainsAny(e.Totals.Text, "e") && regexp.MustCompile(`\de-\d`).MatchString(e.Totals.Text) {
		t.Errorf("per-category totals in scientific notation: %q", e.Totals.Text)
	}
}

// Compare prices the ARM run with the chosen ARM profile and the MIPS run with a MIPS one,
// and says which priced which.
func TestCompareEachRunWithAProfileOfItsISA(t *testing.T) {
	v := openSieves(t)
	showRun(v, "demo-sieve-arm", "ARMv7-A Cortex-A8")
	v.Compare.Pick(cost.CompareItem{Run: "demo-sieve-arm"}, true)
	v.Compare.Pick(cost.CompareItem{Run: "demo-sieve-mips"}, true)
	v.Wait()
	if rows := v.Compare.Table.Rows(); len(rows) != 2 || !strings.HasPrefix(rows[1].Profile, "MIPS32") {
		t.Fatalf("the MIPS run is priced by %+v", rows)
	}
	v.Compare.PriceWith[cost.MIPS].SetSelected("MIPS32 Release 2 24K") // no power: energy unknown
	v.Wait()
	rows := v.Compare.Table.Rows()
	if len(rows) != 2 || rows[0].Profile != "ARMv7-A Cortex-A8" || rows[1].Profile != "MIPS32 Release 2 24K" ||
		rows[1].Coverage.Undefined != 0 {
		t.Fatalf("comparison %+v", rows)
	}
	tb := v.Compare.Table
	cell := func(row int, title string) string {
		for c, col := range tb.Columns() {
			if col.Title == title {
				return tb.Cell(row, c)
			}
		}
		t.Fatalf("no column %q", title)
		return ""
	}
	if cell(1, "Profile") != "MIPS32 Release 2 24K" || cell(1, "Not in profile") != "0 %" ||
		cell(1, "Energy (J)") != "unknown" || cell(1, "Energy ratio") != "unknown" {
		t.Errorf("MIPS row reads %q, %q, %q, %q", cell(1, "Profile"), cell(1, "Not in profile"), cell(1, "Energy (J)"), cell(1, "Energy ratio"))
	}
	h := v.Compare.Hint.Text
	for _, want := range []string{"ARMv7-A Cortex-A8 for demo-sieve-arm", "MIPS32 Release 2 24K for demo-sieve-mips",
		"demo-sieve-mips: Power unknown: energy not estimated"} {
		if !strings.Contains(h, want) {
			t.Errorf("hint %q lacks %q", h, want)
		}
	}
}

// Ticking items while results arrive: the check boxes and Clear stay where the pointer is.
func TestCompareControlsStayPutWhenResultsArrive(t *testing.T) {
	v := openSieves(t)
	selectTab(t, v.Tabs, "Compare")
	v.Window.Resize(fyne.NewSize(1200, 760))
	d := fyne.CurrentApp().Driver()
	where := func() [2]fyne.Position {
		v.Window.Content().Refresh() // lays the window out again, as a real driver does when a size changes
		return [2]fyne.Position{d.AbsolutePositionForObject(v.Compare.Choices), d.AbsolutePositionForObject(v.Compare.Clear)}
	}
	before := where()
	hint := v.Compare.Hint.Text
	v.Compare.Pick(cost.CompareItem{Run: "demo-sieve-arm"}, true)
	v.Compare.Pick(cost.CompareItem{Run: "demo-sieve-mips"}, true)
	v.Wait()
	if v.Compare.Hint.Text == hint || len(v.Compare.Table.Rows()) != 2 {
		t.Fatalf("no results arrived: %q", v.Compare.Hint.Text)
	}
	if after := where(); after != before {
		t.Errorf("list and Clear moved from %v to %v when the results arrived", before, after)
	}
}

// columnTexts are the cells of tb's column whose title starts with prefix, as shown and as
// Save CSV writes them.
func columnTexts[T any](t *testing.T, tb *ui.SortTable[T], prefix string) (shown, csv []string) {
	t.Helper()
	col := slices.IndexFunc(tb.Columns(), func(c ui.Column[T]) bool { return strings.HasPrefix(c.Title, prefix) })
	if col < 0 {
		t.Fatalf("no column %q", prefix)
	}
	for r := range tb.Rows() {
		shown = append(shown, tb.Cell(r, col))
	}
	var b strings.Builder
	if err := tb.WriteCSV(&b); err != nil {
		t.Fatal(err)
	}
	recs, err := gocsv.NewReader(strings.NewReader(b.String())).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	for _, rec := range recs[1:] {
		csv = append(csv, rec[col])
	}
	return shown, csv
}

// Under a profile with no power every table's energy is "unknown", on screen and in its CSV:
// Basic blocks, Instructions and Functions showed "0.00" and wrote 0.
func TestUnknownEnergyInEveryTable(t *testing.T) {
	v := openSieves(t)
	showRun(v, "demo-sieve-mips", "MIPS32 Release 2 24K")
	v.Blocks.Table.Select(0)
	v.Wait()
	check := func(name string, shown, csv []string) {
		if len(shown) == 0 {
			t.Errorf("%s: no rows", name)
		}
		for i := range shown {
			if shown[i] != "unknown" || csv[i] != "unknown" {
				t.Errorf("%s row %d: energy %q on screen, %q in the CSV", name, i, shown[i], csv[i])
				return
			}
		}
	}
	for name, tb := range map[string]*ui.SortTable[cost.ReportRow]{"Basic blocks": v.Blocks.Table,
		"Instructions": v.Insns.Insns, "Categories": v.Insns.Categories, "Functions": v.Functions.Table} {
		shown, csv := columnTexts(t, tb, "Energy")
		check(name, shown, csv)
	}
	shown, csv := columnTexts(t, v.Processes.Table, "Energy")
	check("Processes", shown, csv)
	// Under a profile with power the numbers are back.
	showRun(v, "demo-sieve-mips", "MIPS32 Release 2 74K")
	if shown, csv := columnTexts(t, v.Functions.Table, "Energy"); shown[0] == "unknown" || csv[0] == "unknown" {
		t.Errorf("74K: energy %q, %q", shown[0], csv[0])
	}
}

// Compare prices each instruction set with the profile chosen for it in the tab: the
// Cortex-A8 (the seed's reference data) beside the MIPS 74K (the MIPS profile with power),
// whatever the top bar's profile. A row whose energy is unknown keeps its bar, as "unknown".
func TestComparePricesEachISAWithTheProfileChosen(t *testing.T) {
	v := openSieves(t)
	showRun(v, "demo-sieve-arm", "ARMv7-A Cortex-A15")
	c := v.Compare
	c.Pick(cost.CompareItem{Run: "demo-sieve-arm"}, true)
	c.Pick(cost.CompareItem{Run: "demo-sieve-mips"}, true)
	v.Wait()
	choose := func(isa cost.ISA, profile string) {
		t.Helper()
		sel, ok := c.PriceWith[isa]
		if !ok || !sel.Visible() {
			t.Fatalf("no profile chooser for %s: %v", isa, c.PriceWith)
		}
		if !slices.Contains(sel.Options, profile) {
			t.Fatalf("%s chooser offers %v", isa, sel.Options)
		}
		sel.SetSelected(profile)
		v.Wait()
	}
	if got := c.PriceWith[cost.ARM].Selected; got != "ARMv7-A Cortex-A15" {
		t.Errorf("the ARM chooser opens on %q, the profile that priced the ARM run", got)
	}
	choose(cost.ARM, "ARMv7-A Cortex-A8")
	choose(cost.MIPS, "MIPS32 Release 2 74K")
	rows := c.Table.Rows()
	if len(rows) != 2 || rows[0].Profile != "ARMv7-A Cortex-A8" || rows[1].Profile != "MIPS32 Release 2 74K" || rows[1].EnergyJ == 0 {
		t.Fatalf("priced as %+v", rows)
	}
	if v.Profile.Selected != "ARMv7-A Cortex-A15" {
		t.Errorf("the Compare choosers changed the top bar's profile to %q", v.Profile.Selected)
	}
	// The MIPS 24K has no power: its bar stays in the energy chart, as unknown.
	choose(cost.MIPS, "MIPS32 Release 2 24K")
	v.Metric.SetSelected(string(chart.Energy))
	v.Wait()
	bars := c.Chart.Chart().Bars
	if i := slices.IndexFunc(bars, func(b chart.Bar) bool { return b.Label == "demo-sieve-mips" }); i < 0 || !bars[i].Unknown {
		t.Errorf("energy chart bars %+v", bars)
	}
	if !strings.Contains(c.Chart.Chart().Caveat, "demo-sieve-mips: Power unknown") {
		t.Errorf("energy chart caveat %q", c.Chart.Chart().Caveat)
	}
}

// A tap anywhere on a line of the Compare list ticks it, not only on the box or its label.
func TestCompareLineTicksOnATapAnywhere(t *testing.T) {
	v := openSieves(t)
	selectTab(t, v.Tabs, "Compare")
	layOut(v, fyne.NewSize(1366, 768))
	c := v.Compare
	if len(c.choices) == 0 {
		t.Fatal("Compare lists nothing")
	}
	measure(c.Choices) // as a real driver's painting does: a Check takes taps on its own size only
	at := fyne.CurrentApp().Driver().AbsolutePositionForObject(c.Choices)
	line := widget.NewCheck("x", nil).MinSize().Height
	test.TapCanvas(v.Window.Canvas(), at.Add(fyne.NewPos(c.Choices.Size().Width-30, line/2)))
	if !c.isPicked(c.choices[0].item) {
		t.Errorf("a tap at the right end of %q's line did not tick it", c.choices[0].label)
	}
}

// measure asks every object under o its minimum size, as a real driver does when it paints.
func measure(o fyne.CanvasObject) {
	o.MinSize()
	switch x := o.(type) {
	case *fyne.Container:
		for _, c := range x.Objects {
			measure(c)
		}
	case fyne.Widget:
		for _, c := range test.WidgetRenderer(x).Objects() {
			measure(c)
		}
	}
}

// Doubling the clock halves the energy because the profile's power is held; the window says
// so where the clock is chosen and beside the estimates, and says nothing at the profile's own.
func TestClockSaysThePowerIsHeld(t *testing.T) {
	v := openSieves(t)
	showRun(v, "demo-sieve-arm", "ARMv7-A Cortex-A8") // measured at 1 GHz
	if v.Estimate.Clock.Visible() {
		t.Errorf("at the profile's own clock the Estimate tab says %q", v.Estimate.Clock.Text)
	}
	v.Frequency.SetText("2")
	v.Wait()
	note := v.Estimate.Clock.Text
	for _, want := range []string{"energy = power × time", "measured at 1 GHz", "held at 2 GHz", "0.5×", "real chip draws more power"} {
		if !v.Estimate.Clock.Visible() || !strings.Contains(note, want) {
			t.Errorf("Estimate tab's clock note %q lacks %q", note, want)
		}
	}
	if n := v.FrequencyNote.Text; !strings.Contains(n, "power as at 1 GHz") {
		t.Errorf("top bar's frequency note %q", n)
	}
}

// A chart saved under a profile that does not fit the run carries the warning in the file.
func TestSavedChartCarriesTheCaveat(t *testing.T) {
	v := openSieves(t)
	showRun(v, "demo-sieve-mips", "ARMv7-A Cortex-A8")
	path := filepath.Join(t.TempDir(), "c.svg")
	if err := ui.SaveChart(v.Processes.Chart.Drawing(), render.SVG, path); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(b), "100 % of instructions are not in this profile") {
		t.Errorf("the saved chart says nothing of the profile not fitting")
	}
	if c := v.Functions.Chart.Chart().Caveat; !strings.Contains(c, "prices ARM and Thumb, not MIPS") {
		t.Errorf("functions chart caveat %q", c)
	}
}
