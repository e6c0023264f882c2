package analysis

import (
	"context"
	"encoding/csv"
	"errors"
	"image/png"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"

	"androprof/chart/render"
	"androprof/controller"
	"androprof/internal/viewtest"
	"androprof/isaprofiles"
	"androprof/model/cost"
	"androprof/store"
	"androprof/store/storetest"
	"androprof/view/ui"
)

// scriptedImporter imports every file as the small run (through the real store), or waits for
// Cancel when block is set: the window's dialogs need an import whose timing and ending the
// test decides. TestImportThroughControllerImporter runs the real importer on a real file.
type scriptedImporter struct {
	db      *store.DB
	block   bool
	paths   []string
	exitErr error // RunProgram's error after importing, as for a program exiting non-zero
}

func (f *scriptedImporter) ImportFiles(ctx context.Context, run string, paths []string, progress func(done, total int64)) error {
	f.paths = paths
	if f.block {
		<-ctx.Done()
		return ctx.Err()
	}
	progress(1, 2)
	progress(2, 2)
	return f.db.ImportRun(ctx, run, strings.Join(paths, " "), storetest.SmallRun)
}

func (f *scriptedImporter) RunProgram(ctx context.Context, run, program string, args []string, progress func(string)) error {
	progress("running " + program)
	if err := f.db.ImportRun(ctx, run, program, storetest.SmallRun); err != nil {
		return err
	}
	return f.exitErr
}

// openWindow opens the analysis window of app a on ws at its first size, as the workbench does,
// with no editor: its Editor command and its profiles' Edit do nothing.
func openWindow(a fyne.App, ws *controller.Workspace, importer RunImporter) *View {
	return openWindowWith(a, ws, importer, func() {}, func(*cost.Profile) {})
}

// openWindowWith is openWindow with what opening the editor and editing a profile do.
func openWindowWith(a fyne.App, ws *controller.Workspace, importer RunImporter, openEditor func(), edit func(*cost.Profile)) *View {
	win := a.NewWindow("AndroProf — Analysis")
	win.Resize(Size)
	v := New(win, ui.NewQueuedBackground(), a.Preferences(), ws, importer, openEditor, edit)
	win.Show()
	return v
}

// small is a workspace holding run "small".
var small = sharedWorkspace{build: func(db *store.DB) error {
	return db.ImportRun(context.Background(), "small", "test", storetest.SmallRun)
}}

// openAnalysis opens the analysis window on a copy of small.
func openAnalysis(t *testing.T) (*View, *scriptedImporter) {
	t.Helper()
	return openAnalysisWith(t, func() {})
}

// openAnalysisWith is openAnalysis with what opening the editor does.
func openAnalysisWith(t *testing.T, openEditor func()) (*View, *scriptedImporter) {
	t.Helper()
	db := small.open(t)
	imp := &scriptedImporter{db: db}
	v := openWindowWith(test.NewTempApp(t), controller.NewWorkspace(db), imp, openEditor, func(*cost.Profile) {})
	v.Wait()
	return v, imp
}

// cycles is what a profile says n runs of an instruction cost.
func cycles(t *testing.T, profile string, in cost.Instruction, n float64) float64 {
	p, err := isaprofiles.Builtin(profile)
	if err != nil {
		t.Fatal(err)
	}
	return n * cost.NewClassifier(p).Classify(in).Cycles
}

func arm(m string) cost.Instruction { return cost.Instruction{ISA: cost.ARM, Mnemonic: m} }

// processCells reads the Processes table as pid → column title → text.
func processCells(v *View) map[string]map[string]string {
	out := map[string]map[string]string{}
	tb := v.Processes.Table
	for r := range tb.Rows() {
		row := map[string]string{}
		for c, col := range tb.Columns() {
			row[col.Title] = tb.Cell(r, c)
		}
		out[row["PID"]] = row
	}
	return out
}

func TestAnalysisShowsRunProcesses(t *testing.T) {
	v, _ := openAnalysis(t)
	if got := v.RunNames(); !slices.Equal(got, []string{"small"}) {
		t.Fatalf("runs %v", got)
	}
	if v.Runs.Import.Disabled() || v.Runs.Delete.Disabled() {
		t.Error("Import or Delete disabled with an importer and a selected run")
	}
	if v.Profile.Selected != "ARMv7-A Cortex-A8" { // the default for ARM: controller.Profiles.DefaultProfile
		t.Errorf("profile %q chosen for an ARM run", v.Profile.Selected)
	}
	v.Profile.SetSelected("ARMv7-A Cortex-A15")
	v.Wait()
	cells := processCells(v)
	if cells["10"]["Instructions"] != "300" || cells["11"]["Instructions"] != "2" || cells["10"]["Name"] != "parent" || cells["10"]["Blocks executed"] != "100" {
		t.Fatalf("processes table %v", cells)
	}
	a15 := 100 * (cycles(t, "cortex-a15", arm("ADD"), 1) + cycles(t, "cortex-a15", arm("CMP"), 1) + cycles(t, "cortex-a15", arm("BNE"), 1))
	if got := cells["10"]["Cycles"]; got != ui.FormatFloat(a15, 0) {
		t.Errorf("cycles under A15 %s, want %s", got, ui.FormatFloat(a15, 0))
	}
	if v.FrequencyNote.Text != "assumed 1 GHz" {
		t.Errorf("frequency note %q for a profile without a frequency", v.FrequencyNote.Text)
	}

	// Switching profile recomputes at once.
	v.Profile.SetSelected("ARMv7-A Cortex-A8")
	v.Wait()
	a8 := 100 * (cycles(t, "cortex-a8", arm("ADD"), 1) + cycles(t, "cortex-a8", arm("CMP"), 1) + cycles(t, "cortex-a8", arm("BNE"), 1))
	if got := processCells(v)["10"]["Cycles"]; got != ui.FormatFloat(a8, 0) || a8 == a15 {
		t.Errorf("cycles under A8 %s, want %s (A15: %g)", got, ui.FormatFloat(a8, 0), a15)
	}
	if v.FrequencyNote.Text != "profile: 1 GHz" {
		t.Errorf("frequency note %q", v.FrequencyNote.Text)
	}
	if c := v.Processes.Chart.Chart(); len(c.Bars) != 2 || c.Bars[0].Value != a8 || c.YLabel != "cycles" {
		t.Errorf("PID chart %+v", c)
	}

	// A frequency halves the time; the metric changes the charts only.
	v.Frequency.SetText("2")
	v.Wait()
	if got := processCells(v)["10"]["Time (s)"]; got != ui.Fixed(a8/2e9*1e9, 2) || v.Processes.Table.Headers()[5] != "Time (ns)" {
		t.Errorf("time at 2 GHz %s", got)
	}
	v.Metric.SetSelected("energy")
	v.Wait()
	if c := v.Functions.Chart.Chart(); c.YLabel != "energy (J)" || !strings.HasPrefix(c.Title, "Energy (J) by function") {
		t.Errorf("functions chart after choosing energy: %q, %q", c.Title, c.YLabel)
	}
	if v.Processes.Chart.Image() == nil {
		t.Error("the PID chart was never drawn")
	}
}

func TestAnalysisDrillsFromProcessToInstructions(t *testing.T) {
	v, _ := openAnalysis(t)
	rows := v.Processes.Table.Rows()
	i := slices.IndexFunc(rows, func(r processRow) bool { return r.PID == 10 })
	v.Processes.Table.Select(i)
	v.Wait()
	if v.Tabs.SelectedIndex() != 1 || v.Process.Selected != "10 parent" {
		t.Fatalf("tab %d, process %q after tapping pid 10", v.Tabs.SelectedIndex(), v.Process.Selected)
	}
	blocks := v.Blocks.Table.Rows()
	if len(blocks) != 1 || blocks[0].Key != "10:loop@0x1000(ARM)" || blocks[0].Blocks != 100 {
		t.Fatalf("blocks of pid 10: %+v", blocks)
	}
	if !strings.Contains(v.Blocks.Title.Text, "process 10 parent") {
		t.Errorf("blocks title %q", v.Blocks.Title.Text)
	}
	// Other tabs follow the process too.
	if v.Estimate.Instructions.Text != "300" || v.Insns.Insns.Count.Text != "3 distinct instructions · 300 executed" {
		t.Errorf("estimate %q, instructions %q for pid 10", v.Estimate.Instructions.Text, v.Insns.Insns.Count.Text)
	}

	v.Blocks.Table.Select(0)
	v.Wait()
	insns := v.Blocks.Insns
	if len(insns.Rows()) != 3 {
		t.Fatalf("instructions of the loop: %+v", insns.Rows())
	}
	p, _ := isaprofiles.Builtin(v.Profile.Selected)
	want := cost.NewClassifier(p).Classify(arm("BNE")).Name
	got := []string{}
	for c := range insns.Columns() {
		got = append(got, insns.Cell(2, c))
	}
	if strings.Join(got[:6], "|") != "0x1008|1afffffc|bne #0x1000|BNE|ARM|"+want || want == cost.UndefinedCategory {
		t.Errorf("third instruction reads %v (want category %q)", got, want)
	}

	// Back to all processes through the chooser.
	v.Process.SetSelected(allProcesses)
	v.Wait()
	if len(v.Blocks.Table.Rows()) != 2 {
		t.Errorf("all processes show %d blocks", len(v.Blocks.Table.Rows()))
	}
}

func TestAnalysisBarClickDrills(t *testing.T) {
	v, _ := openAnalysis(t)
	p := v.Processes.Chart
	c := p.Chart()
	size, px := p.Area.Size(), [2]int{} // the area's, and the pixels of the image drawn for it
	if img := p.Image(); img != nil {
		px = [2]int{img.Bounds().Dx(), img.Bounds().Dy()}
	}
	for y := float32(0); y < size.Height; y++ {
		x := size.Width / 2
		if c.BarAt(px[0], px[1], int(x/size.Width*float32(px[0])), int(y/size.Height*float32(px[1]))) == 0 {
			test.TapAt(p.Area, fyne.NewPos(x, y))
			v.Wait()
			if v.sel.pid != v.Processes.rows[0].PID || v.Tabs.SelectedIndex() != 1 {
				t.Fatalf("tap on the first bar selected pid %d, tab %d", v.sel.pid, v.Tabs.SelectedIndex())
			}
			return
		}
	}
	t.Fatalf("no bar found in a %v chart drawn at %v", size, px)
}

// The figure 5.2 inputs give the figure's results (instructions of the seed's benchmark).
func TestEstimateCalculatorMatchesFigure52(t *testing.T) {
	v, _ := openAnalysis(t)
	e := v.Estimate
	for _, f := range []struct {
		e interface{ SetText(string) }
		s string
	}{{e.Instructions, "56750218825"}, {e.CPI, "13.03"}, {e.FrequencyGHz, "1"}, {e.ProcessorPowerW, "0.89"},
		{e.BaseInstructions, "39171751755"}, {e.BaseCacheMisses, "521966483"}, {e.MemoryEnergyNJ, "2.61"}} {
		f.e.SetText(f.s)
	}
	test.Tap(e.Calculate)
	// Shown rounded with units; the figure's digits are in the exact values.
	for _, r := range [][2]string{{e.TimeS.Text, "739 s"}, {e.PowerW.Text, "893 mW"}, {e.EnergyJ.Text, "660 J"}} {
		if r[0] != r[1] {
			t.Errorf("result %q, want %q", r[0], r[1])
		}
	}
	for _, want := range []string{"time_s\t739.455", "power_w\t0.8926691053428465", "energy_j\t660.088"} {
		if !strings.Contains(e.ExactText(), want) {
			t.Errorf("exact values %q lack %q", e.ExactText(), want)
		}
	}
	e.CPI.SetText("x")
	test.Tap(e.Calculate)
	if e.Error.Text == "" || e.TimeS.Text != "—" {
		t.Errorf("a bad CPI gives %q, time %q", e.Error.Text, e.TimeS.Text)
	}
	// Prefill: the A8's reference data and the run's instructions.
	v.Profile.SetSelected("ARMv7-A Cortex-A8")
	v.Wait()
	if e.CPI.Text != "13.03" || e.Instructions.Text != "302" || e.BaseCacheMisses.Text != "521966483" || e.Error.Text != "" {
		t.Errorf("prefilled CPI %q, instructions %q, misses %q, error %q", e.CPI.Text, e.Instructions.Text, e.BaseCacheMisses.Text, e.Error.Text)
	}
	if rows := e.Categories.Rows(); len(rows) == 0 || !strings.Contains(e.Totals.Text, "302 instructions") {
		t.Errorf("per-category estimate %+v, %q", rows, e.Totals.Text)
	}
}

func TestAnalysisExportsCSVAndCharts(t *testing.T) {
	v, _ := openAnalysis(t)
	dir := t.TempDir()
	path := filepath.Join(dir, "p.csv")
	v.Processes.Table.SortBy(0) // PID, largest first
	if err := ui.WriteFile(path, v.Processes.Table.WriteCSV); err != nil {
		t.Fatal(err)
	}
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	recs, err := csv.NewReader(f).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	if len(recs) != 3 || strings.Join(recs[0], ",") != "PID,Name,Instructions,Blocks executed,Cycles,Time (s),Energy (J)" ||
		recs[1][0] != "11" || recs[2][0] != "10" || recs[2][2] != "300" {
		t.Errorf("CSV %v", recs)
	}
	for _, f := range []render.Format{render.PNG, render.SVG} {
		out := filepath.Join(dir, "c")
		if err := ui.SaveChart(v.Processes.Chart.Chart(), f, out); err != nil {
			t.Fatal(err)
		}
		if f != render.PNG {
			continue
		}
		r, _ := os.Open(out)
		img, err := png.Decode(r)
		r.Close()
		if err != nil || img.Bounds().Dx() != ui.ExportWidth || img.Bounds().Dy() != ui.ExportHeight {
			t.Errorf("exported PNG: %v", err)
		}
	}
}

func TestAnalysisComparesProcesses(t *testing.T) {
	v, _ := openAnalysis(t)
	if len(v.Compare.choices) != 3 { // small, small:10, small:11
		t.Fatalf("choices %+v", v.Compare.choices)
	}
	v.Compare.Pick(cost.CompareItem{Run: "small", PID: 10}, true)
	v.Compare.Pick(cost.CompareItem{Run: "small", PID: 11}, true)
	v.Wait()
	rows := v.Compare.Table.Rows()
	if len(rows) != 2 || rows[0].Item != "small:10" || rows[0].InsnsPerBlock != 3 || rows[1].InstructionRatio != 2.0/300 {
		t.Fatalf("comparison %+v", rows)
	}
	if c := v.Compare.Chart.Chart(); len(c.Bars) != 2 {
		t.Errorf("comparison chart %+v", c)
	}
}

func TestImportAndDeleteRuns(t *testing.T) {
	v, imp := openAnalysis(t)
	dir := t.TempDir()
	for _, n := range []string{"a.log", "b.log", ".hidden"} {
		os.WriteFile(filepath.Join(dir, n), []byte("x"), 0o644)
	}
	var got error = errors.New("never finished")
	v.Runs.ImportFrom("second", dir, func(err error) { got = err })
	v.Wait()
	if got != nil || len(imp.paths) != 1 || imp.paths[0] != dir { // the importer reads folders itself
		t.Fatalf("import: %v, paths %v", got, imp.paths)
	}
	if !slices.Equal(v.RunNames(), []string{"second", "small"}) && !slices.Equal(v.RunNames(), []string{"small", "second"}) {
		t.Fatalf("runs after import %v", v.RunNames())
	}
	if v.sel.run != "second" || len(v.Processes.Table.Rows()) != 2 {
		t.Errorf("selected %q with %d processes after the import", v.sel.run, len(v.Processes.Table.Rows()))
	}

	// Cancel stops an import and leaves the runs alone.
	imp.block = true
	v.Runs.ImportFrom("third", filepath.Join(dir, "a.log"), func(err error) { got = err })
	viewtest.TapDialogButton(t, v.Window, "Cancel")
	v.Wait()
	if !errors.Is(got, context.Canceled) || len(v.RunNames()) != 2 {
		t.Errorf("cancelled import: %v, runs %v", got, v.RunNames())
	}

	v.Runs.Run("ran", "/bin/prog", []string{"1"}, func(err error) { got = err })
	v.Wait()
	if got != nil || v.sel.run != "ran" {
		t.Errorf("run program: %v, selected %q", got, v.sel.run)
	}
	// A program that exits non-zero is imported all the same, and the window says how it ended.
	imp.exitErr = errors.New("prog exited with status 3")
	v.Runs.Run("failed", "/bin/prog", nil, func(err error) { got = err })
	v.Wait()
	if got != imp.exitErr || v.sel.run != "failed" {
		t.Errorf("run program exiting 3: %v, selected %q", got, v.sel.run)
	}
	viewtest.TapDialogButton(t, v.Window, "OK")

	test.Tap(v.Runs.Delete)
	viewtest.TapDialogButton(t, v.Window, "Yes")
	v.Wait()
	if slices.Contains(v.RunNames(), "failed") || len(v.RunNames()) != 3 {
		t.Errorf("runs after deleting failed: %v", v.RunNames())
	}
}

func TestEmptyWorkspaceSaysSo(t *testing.T) {
	db, err := store.Open(filepath.Join(t.TempDir(), "w.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	v := openWindow(test.NewTempApp(t), controller.NewWorkspace(db), nil)
	v.Wait()
	if v.Runs.Empty.Text != NoRunsText || !v.Runs.Import.Disabled() || !v.Runs.RunProgram.Disabled() {
		t.Errorf("empty workspace: %q, import disabled %v", v.Runs.Empty.Text, v.Runs.Import.Disabled())
	}
	if len(v.Processes.Table.Rows()) != 0 || !v.Processes.Chart.Chart().Empty() {
		t.Error("tabs show something without a run")
	}
}

// The window, the real importer and the real store together: a basic-block profile the plugin
// wrote imports as a run with its two processes; a file of no known format is refused with its
// name, and the runs stay as they were.
func TestImportThroughControllerImporter(t *testing.T) {
	db := viewtest.OpenDB(t, filepath.Join(t.TempDir(), "w.db"))
	ws := controller.NewWorkspace(db)
	v := openWindow(test.NewTempApp(t), ws, ws.Importer())
	v.Wait()
	var got error = errors.New("never finished")
	v.Runs.ImportFrom("forker", "../../formats/bbprofile/testdata/forker-arm.bbprofile", func(err error) { got = err })
	v.Wait()
	if got != nil || !slices.Equal(v.RunNames(), []string{"forker"}) || len(v.Processes.Table.Rows()) != 2 {
		t.Fatalf("import: %v, runs %v, %d processes", got, v.RunNames(), len(v.Processes.Table.Rows()))
	}
	v.Runs.ImportFrom("readme", "../../README.md", func(err error) { got = err })
	v.Wait()
	if got == nil || !strings.Contains(got.Error(), "README.md") || !slices.Equal(v.RunNames(), []string{"forker"}) {
		t.Errorf("foreign file: %v, runs %v", got, v.RunNames())
	}
}
