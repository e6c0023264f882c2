package controller

import (
	"context"
	"os"
	"strings"
	"testing"

	"androprof/assets"
	"androprof/isaprofiles"
	"androprof/model"
)

func demoRuns() map[string]DemoRun {
	out := map[string]DemoRun{}
	for _, d := range assets.DemoRuns() {
		out[d.Name] = d
	}
	return out
}

// The demo data set imports, once, and every instruction it executed has a real category in
// the built-in profiles of its architecture.
func TestImportDemo(t *testing.T) {
	ctx := context.Background()
	db := openStore(t)
	im := NewWorkspace(db).Importer()
	names, err := im.ImportDemo(ctx, demoRuns())
	if err != nil {
		t.Fatal(err)
	}
	if len(names) < 5 {
		t.Fatalf("imported %v", names)
	}
	if again, err := im.ImportDemo(ctx, demoRuns()); err != nil || len(again) != 0 {
		t.Errorf("second ImportDemo imported %v, %v", again, err)
	}
	// Each run names the demo file a user can find, not the temporary copy it was read from.
	runs, err := db.Runs(ctx)
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range runs {
		if want := "demo: " + r.Name + "."; !strings.HasPrefix(r.Source, want) || !strings.HasSuffix(r.Source, " (built in)") || strings.Contains(r.Source, os.TempDir()) {
			t.Errorf("run %s: source %q", r.Name, r.Source)
		}
	}
	a := &Analysis{store: db}
	heap := &HeapAnalysis{store: db}
	for _, run := range names {
		if run == "demo-heap-dump" {
			d, err := heap.Dump(ctx, run)
			if err != nil || d.IDSize != 8 || d.Characteristics().Objects < 10_000 {
				t.Errorf("demo heap dump: %v", err)
			}
			continue
		}
		if strings.HasPrefix(run, "demo-heap-") {
			p, err := heap.Profile(ctx, run, 1)
			if err != nil {
				t.Fatal(err)
			}
			if ch := p.Characteristics(); ch.TotalObjects < 10_000 || ch.GCs == 0 || ch.FreedObjects == 0 {
				t.Errorf("demo heap log %s: %+v", run, ch)
			}
			continue
		}
		if run == "demo-methods" {
			rep, err := (&MethodAnalysis{store: db}).Report(ctx, model.MethodReportOptions{Run: run, By: model.ByMethod, Top: 3})
			if err != nil || len(rep.Rows) != 3 || rep.TotalCPU == 0 {
				t.Errorf("demo method trace: %+v, %v", rep, err)
			}
			continue
		}
		profile := "cortex-a9"
		if run == "demo-sieve-mips" {
			profile = "mips-74k"
		}
		p, err := isaprofiles.Builtin(profile)
		if err != nil {
			t.Fatal(err)
		}
		rep, err := a.Report(ctx, model.ReportOptions{Run: run, Profile: p, By: model.ByCategory})
		if err != nil {
			t.Fatal(err)
		}
		for _, r := range rep.Rows {
			if r.Key == model.UndefinedCategory && r.Instructions > 0 {
				t.Errorf("%s: %d instructions in Undefined under %s", run, r.Instructions, p.Name)
			}
		}
		if rep.Total.Instructions < 100_000 {
			t.Errorf("%s: only %d instructions", run, rep.Total.Instructions)
		}
	}
	procs, err := db.Processes(ctx, "demo-forker-arm")
	if err != nil || len(procs) != 2 || procs[1].ParentPID != procs[0].PID {
		t.Errorf("forker processes = %+v, %v", procs, err)
	}
}
