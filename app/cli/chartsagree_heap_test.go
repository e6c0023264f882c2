package cli

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"androprof/chart"
	"androprof/controller"
	"androprof/formats/heaplog/heaplogtest"
	"androprof/store/workspacedb"
)

// One chart per question (issue 25): every figure `androprof chart --figure` writes of a heap
// log or a heap dump is, byte for byte in CSV and SVG, the drawing the window's heap and dump
// tabs get from the controller (HeapLogs.Figure at the cohort chooser's factor, HeapDumps.Figure
// for the heap chooser's heap).
func TestHeapChartsAgree(t *testing.T) {
	t.Parallel()
	db := heapChartsWorkspace(t)
	ws, err := controller.OpenWorkspace(workspacedb.Databases(), db, false)
	if err != nil {
		t.Fatal(err)
	}
	defer ws.Close()
	ctx := context.Background()
	for _, f := range chart.HeapFigures {
		for _, c := range []struct {
			flag   string // --cohort, "" for the imported one
			factor int    // the window's Cohort chooser step for it
		}{{"", 1}, {"64K", 2}} {
			window, err := ws.HeapLogs.Figure(ctx, logRun, c.factor, f)
			if err != nil {
				t.Fatal(err)
			}
			args := []string{"--run", logRun, "--figure", f.Seed}
			if c.flag != "" {
				args = append(args, "--cohort", c.flag)
			}
			if diff := chartsDiffer(t, db, window, args...); diff != "" {
				t.Errorf("heap figure %s at cohort ×%d: %s", f.Name, c.factor, diff)
			}
		}
	}
	for _, f := range chart.DumpFigures {
		for _, heap := range []string{"", "app"} {
			window, err := ws.HeapDumps.Figure(ctx, dumpRun, heap, f)
			if err != nil {
				t.Fatal(err)
			}
			if diff := chartsDiffer(t, db, window, "--run", dumpRun, "--figure", f.Name, "--heap", heap); diff != "" {
				t.Errorf("dump figure %s of heap %q: %s", f.Name, heap, diff)
			}
		}
	}

	// The comparison sees a change of input: the window at another cohort size, or of another
	// heap, is not what the command line drew.
	other, err := ws.HeapLogs.Figure(ctx, logRun, 2, chart.HeapFigures[0])
	if err != nil {
		t.Fatal(err)
	}
	if chartsDiffer(t, db, other, "--run", logRun, "--figure", chart.HeapFigures[0].Seed) == "" {
		t.Error("figure 5.1 at cohort ×2 compares equal to the command line's at ×1")
	}
	other, err = ws.HeapDumps.Figure(ctx, dumpRun, "app", chart.DumpFigures[0])
	if err != nil {
		t.Fatal(err)
	}
	if chartsDiffer(t, db, other, "--run", dumpRun, "--figure", chart.DumpFigures[0].Name) == "" {
		t.Error("the app heap's dump-classes compares equal to the command line's of every heap")
	}
}

// The runs of heapChartsWorkspace.
const logRun, dumpRun = "log", "dump"

// heapChartsWorkspace imports a synthetic heap log at 32 KB cohorts (about twenty of them) as
// run logRun and hproftest's Android-shaped dump (image, zygote and app heaps) as run dumpRun,
// through `androprof import`.
func heapChartsWorkspace(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	db := filepath.Join(dir, "w.db")
	log := filepath.Join(dir, "syn.heaplog")
	f, err := os.Create(log)
	if err != nil {
		t.Fatal(err)
	}
	if err := heaplogtest.Synthetic(f, 20000, 1); err != nil {
		t.Fatal(err)
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
	for _, imp := range [][]string{{"--run", logRun, "--cohort", "32K", log}, {"--run", dumpRun, synthDump(t, dir, 1)}} {
		if code, out, errOut := runCLI(t, db, append([]string{"import"}, imp...)...); code != 0 {
			t.Fatalf("import %v: exit %d\n%s%s", imp, code, out, errOut)
		}
	}
	return db
}
