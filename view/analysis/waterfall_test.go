package analysis

import (
	"bytes"
	"context"
	gocsv "encoding/csv"
	"fmt"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/widget"

	"androprof/chart"
	"androprof/controller"
	"androprof/internal/fastlane"
	"androprof/internal/viewtest"
	"androprof/isaprofiles"
	"androprof/model"
	"androprof/model/cost"
)

// loopMisses is what simulatedRun's simulation counted for its loop: 300 fetches (100 runs of
// 3 instructions), 2 of them missing L1I and 1 L2; 100 loads, 10 missing L1D and 5 L2.
var loopMisses = cost.CacheCounts{FetchMiss: [3]int64{2, 1, 0}, Reads: 100, ReadMiss: [3]int64{10, 5, 0}}

// simulatedRun feeds the store a cache-simulated run of geometry g: process 10 runs a
// 3-instruction load loop 100 times on one thread, with loopMisses.
func simulatedRun(g cost.CacheGeometry, source string) func(cost.BlockSink) error {
	return func(s cost.BlockSink) error {
		cs, ok := s.(cost.CacheSink)
		if !ok {
			return fmt.Errorf("the store's sink %T keeps no misses", s)
		}
		loop := &cost.Block{PC: 0x1000, ISA: cost.ARM, Symbol: "loop", Insns: []cost.Insn{
			{Addr: 0x1000, Encoding: "e5912000", Mnemonic: "ldr", Class: "LDR", Operands: "r2, [r1]"},
			{Addr: 0x1004, Encoding: "e2800001", Mnemonic: "add", Class: "ADD", Operands: "r0, r0, #1"},
			{Addr: 0x1008, Encoding: "1afffffc", Mnemonic: "bne", Class: "BNE", Operands: "#0x1000"},
		}}
		for _, err := range []error{
			s.Process(model.Process{PID: 10, Name: "loader"}),
			cs.Geometry(10, g, source),
			s.Block(10, loop),
			s.Count(10, 1, 0x1000, cost.ARM, 100),
			cs.Misses(10, 1, 0x1000, cost.ARM, loopMisses),
		} {
			if err != nil {
				return err
			}
		}
		return nil
	}
}

// openSimulated opens the analysis window on run "sim", simulated with profile's hierarchy.
func openSimulated(t *testing.T, profile *cost.Profile) *View {
	t.Helper()
	db := viewtest.OpenDB(t, filepath.Join(t.TempDir(), "w.db"))
	viewtest.Must(t, db.ImportRun(context.Background(), "sim", "test", simulatedRun(profile.Memory.Geometry(), "profile "+profile.Name)))
	v := openWindow(test.NewTempApp(t), controller.NewWorkspace(db), &scriptedImporter{db: db})
	v.Wait()
	showRun(v, "sim", profile.Name)
	return v
}

// levelRows reads the waterfall's table of levels, by level name.
func levelRows(p *waterfallPanel) map[string][]string {
	out := map[string][]string{}
	cells := p.Levels.Objects
	for i := 0; i+6 <= len(cells); i += 6 {
		row := make([]string, 6)
		for j := range row {
			row[j] = cells[i+j].(*widget.Label).Text
		}
		out[row[0]] = row
	}
	return out
}

// A cache-simulated run's Estimate tab says which geometry its misses are for and where it came
// from, prices each level's misses at the profile's cycles per miss, and adds them to the
// total; its Functions table has the misses, stall cycles and miss rate, saved under the
// command line's keys, and offers Misses first.
func TestWaterfallOfASimulatedRun(t *testing.T) {
	profile, err := isaprofiles.Builtin("cortex-a8")
	viewtest.Must(t, err)
	if profile.Memory.IsZero() {
		t.Fatalf("%s has no memory hierarchy", profile.Name)
	}
	v := openSimulated(t, profile)
	w := v.Estimate.Waterfall
	g := profile.Memory.Geometry()
	if want := "Misses simulated for " + g.String() + " (profile " + profile.Name + ")"; w.Geometry.Text != want {
		t.Errorf("geometry line %q, want %q", w.Geometry.Text, want)
	}
	l1i, l1d, l2 := profile.Memory.Level(cost.L1I), profile.Memory.Level(cost.L1D), profile.Memory.Level(cost.L2)
	stall := 2*l1i.MissCycles + 10*l1d.MissCycles + 6*l2.MissCycles
	if !strings.HasPrefix(w.Memory.Text, cyclesText(stall)+":") || !strings.Contains(w.Memory.Text, profile.Name) {
		t.Errorf("memory step %q, want %s of stalls under %s", w.Memory.Text, cyclesText(stall), profile.Name)
	}
	rows := levelRows(w)
	for level, want := range map[string][]string{
		"l1i": {"l1i", "300", "2", "0.7 %", perMissCell(l1i.MissCycles)},
		"l1d": {"l1d", "100", "10", "10 %", perMissCell(l1d.MissCycles)},
		"l2":  {"l2", "12", "6", "50 %", perMissCell(l2.MissCycles)},
	} {
		if got := rows[level]; len(got) != 6 || !slices.Equal(got[:5], want) {
			t.Errorf("level %s reads %q, want %q", level, got, want)
		}
	}
	if !strings.Contains(w.Title.Text, profile.Name) || !strings.Contains(w.Total.Text, "GHz") {
		t.Errorf("title %q or total %q does not say the profile and the clock", w.Title.Text, w.Total.Text)
	}

	f := v.Functions
	if !f.MissesFirst.Visible() {
		t.Error("no Misses first for a simulated run")
	}
	col := viewtest.ColIndex(f.Table, "L1D misses")
	if col < 0 || f.Table.Cell(0, col) != "10" {
		t.Fatalf("Functions columns %q: no L1D misses of 10", f.Table.Headers())
	}
	if c := viewtest.ColIndex(f.Table, "L1 miss rate"); c < 0 || f.Table.Cell(0, c) != cost.Percent(12.0/400) {
		t.Errorf("L1 miss rate column %d reads %q, want %s", c, f.Table.Cell(0, max(c, 0)), cost.Percent(12.0/400))
	}
	f.Show.SetSelected(ChartSources)
	v.Wait()
	if c := f.Chart.Chart(); !strings.HasPrefix(c.Title, "Cycles by source") || !slices.Contains(c.Series, chart.SourceMemory) {
		t.Errorf("the Functions chart by source is %q with series %q", c.Title, c.Series)
	}
	var buf bytes.Buffer
	viewtest.Must(t, f.Table.WriteCSV(&buf))
	recs, err := gocsv.NewReader(&buf).ReadAll()
	viewtest.Must(t, err)
	if i := slices.Index(recs[0], "l1d_misses"); i < 0 || recs[1][i] != "10" {
		t.Errorf("the CSV has no l1d_misses of 10: %q", recs)
	}
	if i := slices.Index(recs[0], "stall_cycles"); i < 0 || recs[1][i] != fmt.Sprint(stall) {
		t.Errorf("the CSV's stall_cycles are not %g: %q", stall, recs)
	}
}

// perMissCell is a cycles-per-miss cell as the levels table writes it.
func perMissCell(c float64) string {
	return levelCells([]cost.LevelCost{{MissCycles: c, MissKnown: true}})[1][4]
}

// A run that was not simulated says so and how to simulate it, leaves the memory step unknown
// (never 0), holds figure 5.2's estimate beside the total and names the gap; its tables get no
// miss columns and no Misses first.
func TestWaterfallOfARunNotSimulated(t *testing.T) {
	v := openSieves(t)
	showRun(v, "demo-sieve-arm", "ARMv7-A Cortex-A8")
	w := v.Estimate.Waterfall
	if w.Geometry.Text != "Not cache-simulated: run it again with Simulate caches." {
		t.Errorf("geometry line %q", w.Geometry.Text)
	}
	if !strings.HasPrefix(w.Memory.Text, "unknown") || !strings.Contains(w.Memory.Text, "not simulated") {
		t.Errorf("memory step %q, want unknown because not simulated", w.Memory.Text)
	}
	if len(w.Levels.Objects) != 0 {
		t.Errorf("%d level cells for a run without levels", len(w.Levels.Objects))
	}
	if ref := v.Estimate.Cycles.Text; !strings.HasPrefix(w.Reference.Text, ref) {
		t.Errorf("figure 5.2 line %q, want the calculator's %s", w.Reference.Text, ref)
	}
	if gap := v.Estimate.Why.Text; !strings.Contains(gap, "13.03") || !strings.Contains(gap, "memory stalls") {
		t.Errorf("gap %q does not name figure 5.2's CPI and the missing memory step", gap)
	}
	if !strings.HasPrefix(w.Total.Text, "of the known steps") || !strings.Contains(w.Total.Text, "GHz") {
		t.Errorf("total %q", w.Total.Text)
	}
	if v.Functions.MissesFirst.Visible() || v.Blocks.MissesFirst.Visible() {
		t.Error("Misses first offered for a run without misses")
	}
	if viewtest.ColIndex(v.Functions.Table, "L1D misses") >= 0 {
		t.Errorf("miss columns for a run without misses: %q", v.Functions.Table.Headers())
	}
}

// Under a profile that names a machine model, the waterfall's pipeline step is llvm-mca's cycles
// for the run's hottest blocks, naming the model, and the Functions table has each function's
// pipeline cycles. A pricing the user cancelled keeps the category cycles and says so.
func TestWaterfallPipelineStep(t *testing.T) {
	fastlane.Needs(t, "llvm-mca-19")
	if _, err := exec.LookPath("llvm-mca-19"); err != nil {
		t.Skip("llvm-mca-19 is not installed (scripts/deps.sh installs it)")
	}
	v := openSieves(t)
	showRun(v, "demo-sieve-arm64", "ARMv8.2-A Cortex-A55")
	w := v.Estimate.Waterfall
	model := "llvm-mca-19 -mcpu=cortex-a55"
	if pipe := v.res.funcs.Waterfall.PipelineCycles; !strings.HasPrefix(w.Pipeline.Text, cyclesText(pipe)) || !strings.Contains(w.Pipeline.Text, model) ||
		!v.res.funcs.Waterfall.PipelineKnown {
		t.Fatalf("pipeline step %q, want %s by %s", w.Pipeline.Text, cyclesText(pipe), model)
	}
	col := viewtest.ColIndex(v.Functions.Table, "Pipeline cycles")
	if col < 0 || v.Functions.Table.Cell(0, col) == "unknown" {
		t.Fatalf("Functions columns %q: no pipeline cycles for %s", v.Functions.Table.Headers(), v.Functions.Table.Cell(0, 0))
	}

	v.unpriced[unpricedKey("demo-sieve-arm64", v.res.profile.Pipeline)] = true // as Cancel in the pricing's bar leaves it
	v.SelectRun("demo-sieve-arm")
	v.Wait()
	showRun(v, "demo-sieve-arm64", "ARMv8.2-A Cortex-A55")
	if !strings.Contains(w.Pipeline.Text, cancelledNote) || v.res.funcs.Waterfall.PipelineKnown {
		t.Errorf("after Cancel the pipeline step reads %q", w.Pipeline.Text)
	}
}
