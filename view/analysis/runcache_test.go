package analysis

import (
	"errors"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/widget"

	"androprof/controller"
	"androprof/emulator/qemutest"
	"androprof/internal/viewtest"
	"androprof/isaprofiles"
	"androprof/model/cost"
)

// dialogButton is the top dialog's button labelled text.
func dialogButton(t *testing.T, w fyne.Window, text string) *widget.Button {
	t.Helper()
	for _, o := range test.LaidOutObjects(w.Canvas().Overlays().Top()) {
		if b, ok := o.(*widget.Button); ok && b.Text == text {
			return b
		}
	}
	t.Fatalf("the dialog has no %q button", text)
	return nil
}

// Run program's Simulate caches offers the hierarchy of the profile the run shown is priced
// with, refuses a geometry as it is typed (saying which level and which part is wrong, with Run
// disabled), and says where the geometry run comes from: the profile's when unchanged, --cache
// when typed.
func TestRunDialogSimulateCaches(t *testing.T) {
	v, _ := openAnalysis(t) // run "small" under ARMv7-A Cortex-A8
	profile := v.res.profile
	if profile.Memory.IsZero() {
		t.Fatalf("%s has no memory hierarchy to offer", profile.Name)
	}
	v.Runs.askRunProgram()
	c, run := v.Runs.Caches, dialogButton(t, v.Window, "Run")
	if !c.Geometry.Disabled() || c.Message.Text != "" {
		t.Error("the geometry can be typed, or says something, before Simulate caches is checked")
	}
	if g, _ := c.choice(); g != nil {
		t.Fatalf("unchecked, the run simulates %v", g)
	}
	test.Tap(c.Simulate)
	want := profile.Memory.Geometry().String()
	if c.Geometry.Disabled() || c.Geometry.Text != want {
		t.Fatalf("checked: geometry %q (disabled %v), want the profile's %q", c.Geometry.Text, c.Geometry.Disabled(), want)
	}
	if g, src := c.choice(); g == nil || g.String() != want || src != "profile "+profile.Name {
		t.Fatalf("the profile's geometry runs as %v from %q", g, src)
	}
	for _, bad := range []struct{ spec, says string }{
		{"l1i=32k:4:64,l1d=32:4:64,l2=512k:8:64", "cache level l1d: size 32 bytes is smaller than a line"},
		{"l1i=32k:4:64,l1d=256:8:64,l2=512k:8:64", "cache level l1d: 8 ways is more than its 4 lines"},
		{"l1i=32k:4:64,l1d=32k:4:48,l2=512k:8:64", "line size 48 bytes is not a power of two"},
		{"l1i=32k:4:64,l1d=32k:4:64", "no l2"},
		{"l1i=32k:4:64,l1d=32k:4:64,l2=512k:8", "cache level l2"},
	} {
		c.Geometry.SetText(bad.spec)
		if !strings.Contains(c.Message.Text, bad.says) {
			t.Errorf("%s: the dialog says %q, want %q", bad.spec, c.Message.Text, bad.says)
		}
		if !run.Disabled() {
			t.Errorf("%s: Run can be pressed", bad.spec)
		}
	}
	typed := "l1i=16k:2:32,l1d=16k:4:32:lru:nwa,l2=256k:8:64"
	c.Geometry.SetText(typed)
	if run.Disabled() || c.Message.Importance == widget.DangerImportance {
		t.Fatalf("a good geometry leaves Run disabled %v, message %q", run.Disabled(), c.Message.Text)
	}
	g, src := c.choice()
	if parsed, _ := cost.ParseCacheGeometry(typed); g == nil || !g.SameGeometry(parsed) || src != "--cache" {
		t.Fatalf("a typed geometry runs as %v from %q", g, src)
	}
	c.Geometry.SetText("l1i=0:1:64")
	test.Tap(c.Simulate) // unchecked: a bad geometry no longer matters
	if run.Disabled() || c.Message.Text != "" {
		t.Errorf("unchecked, Run is disabled (%v) or the message %q stays", run.Disabled(), c.Message.Text)
	}
}

// The Run program dialog's choice, run by the real importer under the real QEMU: the sieve runs
// with the Cortex-A8's hierarchy simulated, and the new run's Estimate tab says so, with each
// level's misses, and its Functions table has them per function.
func TestRunProgramSimulatesCaches(t *testing.T) {
	bin := qemutest.Build(t, qemutest.Targets[0], filepath.Join(qemutest.SamplesDir(), "sieve.c"))
	db := viewtest.OpenDB(t, filepath.Join(t.TempDir(), "w.db"))
	ws := controller.NewWorkspace(db)
	v := openWindow(test.NewTempApp(t), ws, ws.Importer())
	v.Wait()
	profile, err := isaprofiles.Builtin("cortex-a8")
	viewtest.Must(t, err)
	g := profile.Memory.Geometry()
	var got error = errors.New("never finished")
	v.Runs.RunCached("sieve-cache", bin, []string{"20000"}, &g, "profile "+profile.Name, func(err error) { got = err })
	v.Wait()
	if got != nil {
		t.Fatalf("run: %v", got)
	}
	showRun(v, "sieve-cache", profile.Name)
	w := v.Estimate.Waterfall
	if want := "Misses simulated for " + g.String() + " (profile " + profile.Name + ")"; w.Geometry.Text != want {
		t.Errorf("geometry line %q, want %q", w.Geometry.Text, want)
	}
	rows := levelRows(w)
	if l1d := rows[cost.L1D]; len(l1d) != 6 || l1d[1] == "0" || l1d[2] == "0" {
		t.Errorf("the L1D of a sieve over 20000 bytes reads %q: no accesses or no misses", l1d)
	}
	f := v.Functions.Table
	col := viewtest.ColIndex(f, "L1D misses")
	if col < 0 {
		t.Fatalf("Functions columns %q: no L1D misses", f.Headers())
	}
	if !slices.ContainsFunc(f.Rows(), func(r cost.ReportRow) bool {
		return r.Key == "main" && r.Cache != nil && r.Cache.ReadMiss[0]+r.Cache.WriteMiss[0] > 0
	}) {
		t.Errorf("no L1D misses in the sieve's main among %d functions", len(f.Rows()))
	}

	// Misses first: the blocks listed are those that miss L1 most, the most first.
	test.Tap(v.Blocks.MissesFirst)
	v.Wait()
	blocks := v.Blocks.Table.Rows()
	if !strings.Contains(v.Blocks.Title.Text, "most misses first") || len(blocks) < 2 || !v.Functions.MissesFirst.Checked {
		t.Fatalf("Misses first: title %q, %d blocks, Functions' toggle %v", v.Blocks.Title.Text, len(blocks), v.Functions.MissesFirst.Checked)
	}
	for _, b := range blocks[1:] {
		if b.Cache.Misses(0) > blocks[0].Cache.Misses(0) {
			t.Fatalf("block %s misses L1 %d times, more than the first listed, %s (%d)", b.Key, b.Cache.Misses(0), blocks[0].Key, blocks[0].Cache.Misses(0))
		}
	}
}
