package analysis

import (
	"context"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"

	"androprof/assets"
	"androprof/controller"
	"androprof/model"
	"androprof/store"
)

// openSieves opens the analysis window on a workspace holding the demo's sieve runs: one
// program built for ARM, Thumb and MIPS.
func openSieves(t *testing.T) *View {
	t.Helper()
	db, err := store.Open(filepath.Join(t.TempDir(), "w.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	demos := map[string]controller.DemoRun{}
	for _, d := range assets.DemoRuns() {
		if strings.HasPrefix(d.Name, "demo-sieve-") {
			demos[d.Name] = d
		}
	}
	if _, err := controller.NewWorkspace(db).Importer().ImportDemo(context.Background(), demos); err != nil {
		t.Fatal(err)
	}
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

// The Estimate tab says in one sentence why its two estimates differ, and rounds its results to
// three digits with units; the exact values are a copy away.
func TestEstimateExplainsAndRounds(t *testing.T) {
	v := openSieves(t)
	showRun(v, "demo-sieve-arm", "ARMv7-A Cortex-A8")
	e := v.Estimate
	if strings.Count(e.Why.Text, ". ") != 0 || !strings.HasSuffix(e.Why.Text, ".") || !strings.Contains(e.Why.Text, "CPI measured on reference benchmarks") ||
		!strings.Contains(e.Why.Text, "stalls") || !strings.Contains(e.Why.Text, "categories count core cycles") {
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
	v.Compare.Pick(model.CompareItem{Run: "demo-sieve-arm"}, true)
	v.Compare.Pick(model.CompareItem{Run: "demo-sieve-mips"}, true)
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
	v.Compare.Pick(model.CompareItem{Run: "demo-sieve-arm"}, true)
	v.Compare.Pick(model.CompareItem{Run: "demo-sieve-mips"}, true)
	v.Wait()
	if v.Compare.Hint.Text == hint || len(v.Compare.Table.Rows()) != 2 {
		t.Fatalf("no results arrived: %q", v.Compare.Hint.Text)
	}
	if after := where(); after != before {
		t.Errorf("list and Clear moved from %v to %v when the results arrived", before, after)
	}
}
