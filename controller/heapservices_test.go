package controller

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"androprof/chart"
	"androprof/formats/heaplog/heaplogtest"
	"androprof/formats/hprof/hproftest"
)

// importHeapFile writes a heap log or dump with write and imports it as run into ws.
func importHeapFile(t *testing.T, ws *Workspace, run, name string, cohort uint64, write func(f *os.File) error) {
	t.Helper()
	path := filepath.Join(t.TempDir(), name)
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := write(f); err != nil {
		t.Fatal(err)
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
	im := ws.Importer()
	im.Cohort = cohort
	if err := im.ImportFiles(context.Background(), run, []string{path}, nil); err != nil {
		t.Fatal(err)
	}
}

// A cohort size is regrouped once however many figures draw it, figures are drawn from that
// profile, and a forgotten run is loaded again.
func TestHeapLogsRegroupOncePerCohort(t *testing.T) {
	ctx := context.Background()
	ws := NewWorkspace(openStore(t))
	importHeapFile(t, ws, "h", "syn.heaplog", 4096, func(f *os.File) error { return heaplogtest.Synthetic(f, 5000, 1) })
	p1, err := ws.HeapLogs.Profile(ctx, "h", 1)
	if err != nil {
		t.Fatal(err)
	}
	p2, err := ws.HeapLogs.Profile(ctx, "h", 2)
	if err != nil {
		t.Fatal(err)
	}
	if again, _ := ws.HeapLogs.Profile(ctx, "h", 2); again != p2 {
		t.Error("cohort ×2 was regrouped twice")
	}
	if p2.Cohort != 2*p1.Cohort || !reflect.DeepEqual(p2, p1.Regroup(2)) {
		t.Errorf("cohort ×2: %d bytes, not the imported %d regrouped", p2.Cohort, p1.Cohort)
	}
	fig := chart.HeapFigures[0]
	if d, err := ws.HeapLogs.Figure(ctx, "h", 2, fig); err != nil || !reflect.DeepEqual(d, fig.Draw(p2, "h")) {
		t.Errorf("figure %s at ×2 is not drawn from the ×2 profile (%v)", fig.Name, err)
	}
	ws.Forget("h")
	if after, _ := ws.HeapLogs.Profile(ctx, "h", 2); after == p2 {
		t.Error("a forgotten run's regrouped profile was kept")
	}
}

// An object is found by its id or by its class's name, as the window's Retained tab and
// `report --path-to` and `--of` name it; what is not there is an error naming the run.
func TestFindDumpObject(t *testing.T) {
	ctx := context.Background()
	ws := NewWorkspace(openStore(t))
	importHeapFile(t, ws, "d", "syn.hprof", 0, func(f *os.File) error {
		_, err := hproftest.Generate(f, hproftest.Options{Version: "1.0.3"}, 200<<10, 1)
		return err
	})
	r, err := ws.HeapDumps.Retention(ctx, "d")
	if err != nil {
		t.Fatal(err)
	}
	class := r.Dominated(-1, 1)[0].ClassOf // the largest retainer's class is reachable
	o, err := FindDumpObject(r, "d", class)
	if err != nil || o.ClassOf != class {
		t.Fatalf("by class %s: %+v, %v", class, o, err)
	}
	if byID, err := FindDumpObject(r, "d", fmt.Sprintf("%#x", o.ID)); err != nil || byID != o {
		t.Errorf("by id %#x: %+v, %v", o.ID, byID, err)
	}
	for _, what := range []string{"no.such.Class", "0x1"} {
		if _, err := FindDumpObject(r, "d", what); err == nil || !strings.Contains(err.Error(), `run "d"`) {
			t.Errorf("%s: %v", what, err)
		}
	}
}
