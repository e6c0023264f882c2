package controller

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"androprof/formats/traceview"
	"androprof/internal/corpus"
	"androprof/model/calls"
	"androprof/model/flame"
)

// writeDiffTrace writes a dual-clock Traceview trace: thread tid "main" runs main, which calls
// method i+2 for selfs[i] µs of thread-CPU time (twice that of real time).
func writeDiffTrace(t *testing.T, path string, tid int, selfs []uint64) {
	t.Helper()
	var buf bytes.Buffer
	w, err := traceview.NewWriter(&buf, traceview.WriterOptions{Version: 3, Clock: calls.ClockDual})
	if err != nil {
		t.Fatal(err)
	}
	w.Thread(calls.ThreadInfo{TID: tid, Name: "main"})
	for id := uint64(1); id <= uint64(len(selfs))+1; id++ {
		w.Method(calls.MethodInfo{ID: 4 * id, Class: "com/example/Work", Name: fmt.Sprint("m", id), Signature: "()V"})
	}
	var now uint64
	ev := func(m uint64, a calls.MethodAction) {
		w.Event(calls.MethodEvent{TID: tid, Method: 4 * m, Action: a, ThreadCPU: now, Wall: 2 * now})
	}
	ev(1, calls.Enter)
	for i, us := range selfs {
		ev(uint64(i+2), calls.Enter)
		now += us
		ev(uint64(i+2), calls.Exit)
	}
	ev(1, calls.Exit)
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, buf.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
}

// Two traces written by the Traceview writer and imported, one method's time doubled and the
// thread's id changed: the diff shows that method alone above 1 point, on thread-CPU time by
// default and on real time when asked, and diff(B, A) is diff(A, B) negated.
func TestDiffMethodRuns(t *testing.T) {
	ctx := context.Background()
	ws := NewWorkspace(openStore(t))
	dir := t.TempDir()
	selfs := []uint64{50, 60, 45, 55, 50, 40, 50, 50, 48, 52, 50, 50, 58, 42, 50, 50, 51, 49, 50, 50}
	writeDiffTrace(t, filepath.Join(dir, "a.trace"), 101, selfs)
	selfs[6] *= 2
	writeDiffTrace(t, filepath.Join(dir, "b.trace"), 202, selfs)
	importMethodRun(t, ws.Importer(), "a", filepath.Join(dir, "a.trace"))
	importMethodRun(t, ws.Importer(), "b", filepath.Join(dir, "b.trace"))
	for _, clock := range []string{"", "wall"} {
		res, err := ws.Diff(ctx, "a", "b", DiffOptions{Threshold: 0.01, Clock: clock})
		if err != nil {
			t.Fatal(err)
		}
		scale := int64(1 + len(clock)/4) // real time runs twice as fast as thread-CPU time
		if res.TotalA != 1000*scale || res.TotalB != 1050*scale || res.Unit != "µs" {
			t.Errorf("clock %q: totals %d, %d %s", clock, res.TotalA, res.TotalB, res.Unit)
		}
		if want := map[string]string{"": "thread-CPU time", "wall": "real time"}[clock]; res.Measure != want {
			t.Errorf("clock %q: measure %q (%s), want %q", clock, res.Measure, res.Why, want)
		}
		var changed []string
		for _, r := range res.Rows {
			if !r.Unchanged {
				changed = append(changed, r.Key)
			}
		}
		if len(changed) != 1 || changed[0] != "com/example/Work.m8 ()V" {
			t.Errorf("clock %q: changed %q", clock, changed)
		}
		if th := res.Tree.Children; len(th) != 1 || th[0].Name != "thread main" || th[0].TotalA == 0 || th[0].TotalB == 0 {
			t.Errorf("clock %q: threads not matched by name: %+v", clock, th)
		}
	}
	ab, _ := ws.Diff(ctx, "a", "b", DiffOptions{By: flame.DiffByPath})
	ba, _ := ws.Diff(ctx, "b", "a", DiffOptions{By: flame.DiffByPath})
	back := map[string]flame.DiffRow{}
	for _, r := range ba.Rows {
		back[r.Key] = r
	}
	for _, r := range ab.Rows {
		if s := back[r.Key]; r.Change != -s.Change || r.SelfChange != -s.SelfChange {
			t.Errorf("%q: %v %v, swapped %v %v", r.Key, r.Change, r.SelfChange, s.Change, s.SelfChange)
		}
	}
	if len(ab.Rows) != 22 || len(ba.Rows) != 22 {
		t.Errorf("%d and %d paths, want 22 (the thread, main, its 20 callees)", len(ab.Rows), len(ba.Rows))
	}
}

// Runs of two kinds, runs the workspace does not hold, and a grouping emulator runs cannot
// have are errors that name them.
func TestDiffRefuses(t *testing.T) {
	ctx := context.Background()
	db := openStore(t)
	ws := NewWorkspace(db)
	demos := demoRuns()
	keep := map[string]DemoRun{}
	for _, name := range []string{"demo-methods", "demo-sieve-arm"} {
		keep[name] = demos[name]
	}
	if _, err := ws.Importer().ImportDemo(ctx, keep); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		a, b string
		by   flame.DiffBy
		want string
	}{
		{"demo-methods", "demo-sieve-arm", "", `run "demo-methods" is a method trace and run "demo-sieve-arm" an emulator run`},
		{"demo-methods", "nope", "", `run "nope" is not in`},
		{"demo-sieve-arm", "demo-sieve-arm", flame.DiffByPath, "emulator runs have no stacks"},
		{"demo-methods", "demo-methods", "tree", `unknown grouping "tree"`},
	} {
		_, err := ws.Diff(ctx, c.a, c.b, DiffOptions{By: c.by})
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s, %s by %q: %v, want %q", c.a, c.b, c.by, err, c.want)
		}
	}
}

// The demo's emulator runs diff by function and image (they name no image: one row), and the
// totals are the runs' own instruction counts; a sampled run against itself changes nothing.
func TestDiffEmulatorAndSampledRuns(t *testing.T) {
	ctx := context.Background()
	ws := NewWorkspace(openStore(t))
	demos := demoRuns()
	keep := map[string]DemoRun{}
	for _, name := range []string{"demo-sieve-arm", "demo-sieve-thumb", "demo-vertical-phases", "demo-forker-arm"} {
		keep[name] = demos[name]
	}
	if _, err := ws.Importer().ImportDemo(ctx, keep); err != nil {
		t.Fatal(err)
	}
	counts := map[string]int64{}
	for _, run := range []string{"demo-sieve-arm", "demo-sieve-thumb"} {
		d, err := ws.Costs.Load(ctx, run)
		if err != nil {
			t.Fatal(err)
		}
		for _, b := range d.Blocks {
			counts[run] += b.Executions * int64(b.Insns)
		}
	}
	for _, by := range []flame.DiffBy{flame.DiffByFunction, flame.DiffByOrigin} {
		res, err := ws.Diff(ctx, "demo-sieve-arm", "demo-sieve-thumb", DiffOptions{By: by, Threshold: 0.01})
		if err != nil {
			t.Fatal(err)
		}
		if res.TotalA != counts["demo-sieve-arm"] || res.TotalB != counts["demo-sieve-thumb"] || res.Tree != nil || len(res.Rows) < map[flame.DiffBy]int{flame.DiffByFunction: 2, flame.DiffByOrigin: 1}[by] {
			t.Errorf("by %s: totals %d, %d (want %v), rows %+v", by, res.TotalA, res.TotalB, counts, res.Rows)
		}
	}
	// A run of several processes names its functions "pid:symbol" in reports; a diff matches them
	// by symbol, as the pids of two runs differ.
	forks, err := ws.Diff(ctx, "demo-forker-arm", "demo-sieve-arm", DiffOptions{})
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range forks.Rows {
		if pid, _, ok := strings.Cut(r.Key, ":"); ok && strings.Trim(pid, "0123456789") == "" {
			t.Errorf("row %q keeps its pid", r.Key)
		}
	}
	if d, _ := ws.Costs.Load(ctx, "demo-forker-arm"); len(d.Processes) < 2 || len(forks.Rows) == 0 {
		t.Errorf("demo-forker-arm: %d processes, %d rows", len(d.Processes), len(forks.Rows))
	}
	res, err := ws.Diff(ctx, "demo-vertical-phases", "demo-vertical-phases", DiffOptions{Threshold: 0.0001})
	if err != nil {
		t.Fatal(err)
	}
	if res.Unit != "samples" || res.TotalA == 0 || res.TotalA != res.TotalB || res.Tree == nil {
		t.Errorf("samples: %s, totals %d, %d", res.Unit, res.TotalA, res.TotalB)
	}
	for _, r := range res.Rows {
		if !r.Unchanged || r.Change != 0 {
			t.Errorf("a run against itself: %+v", r)
		}
	}
}

// Every corpus trace's graph, written as folded stacks and read back, is the same graph (its
// names through flame.FoldedName), on each clock the trace has.
func TestFoldedRoundTripOnCorpusTraces(t *testing.T) {
	ctx := context.Background()
	ws := NewWorkspace(openStore(t))
	for _, name := range []string{"perflib-basic.trace", "perflib-exception.trace", "jag-dmtrace.trace", "sns-logout.trace", "art-trace-regular.trace.gz"} {
		run := strings.SplitN(name, ".", 2)[0]
		importMethodRun(t, ws.Importer(), run, corpus.File(t, name))
		tr, err := ws.Methods.Load(ctx, run)
		if err != nil {
			t.Fatal(err)
		}
		cpu, real := ChartClocks(tr.Profile.Clock)
		for _, wall := range []bool{false, true} {
			if wall && !real || !wall && !cpu {
				continue
			}
			g, err := ws.Methods.Flame(ctx, run, FlameOptions{Wall: wall})
			if err != nil {
				t.Fatal(err)
			}
			var buf bytes.Buffer
			if err := flame.WriteFolded(&buf, g); err != nil {
				t.Fatal(err)
			}
			back, err := flame.ReadFolded(&buf, name)
			if err != nil {
				t.Fatal(err)
			}
			if got, want := foldedDump(back), foldedDump(g); got != want || back.Total != g.Total {
				t.Errorf("%s (wall %v): read back differs, total %d want %d", name, wall, back.Total, g.Total)
			}
		}
	}
}

// foldedDump is a graph below its root as folded stacks keep it: one "path self/total" line a
// frame, names through flame.FoldedName, in order, origins left out.
func foldedDump(root *flame.Node) string {
	var sb strings.Builder
	var walk func(n *flame.Node, path string)
	walk = func(n *flame.Node, path string) {
		path += ";" + flame.FoldedName(n.Name)
		fmt.Fprintf(&sb, "%s %d/%d\n", path, n.Self, n.Total)
		for _, c := range n.Children {
			walk(c, path)
		}
	}
	for _, c := range root.Children {
		walk(c, "")
	}
	return sb.String()
}
