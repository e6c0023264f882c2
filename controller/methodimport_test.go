package controller

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"androprof/formats/traceview"
	"androprof/internal/corpus"
	"androprof/model/calls"
)

// builtCalls is every call the call builder makes of a trace, per thread in the order they ended.
func builtCalls(t *testing.T, path string) map[int][]calls.Call {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	out := map[int][]calls.Call{}
	b := calls.NewCallBuilder()
	b.OnCall = func(c calls.Call) { out[c.TID] = append(out[c.TID], c) }
	if err := traceview.NewReader(f, path).Feed(b); err != nil {
		t.Fatal(err)
	}
	b.Finish()
	return out
}

// Every call of every corpus trace comes back from the workspace exactly as the call builder
// made it, per thread in the order the calls ended; a window gives exactly the calls
// overlapping it, and the timeline every call of a window that holds fewer than its limit.
func TestEveryCallRoundTripsThroughTheStore(t *testing.T) {
	ctx := context.Background()
	for _, name := range []string{"perflib-basic.trace", "perflib-exception.trace", "perflib-mismatched.trace",
		"jag-dmtrace.trace", "sns-logout.trace", "art-trace-regular.trace.gz"} {
		t.Run(name, func(t *testing.T) {
			path := corpus.File(t, name)
			if strings.HasSuffix(name, ".gz") {
				path = gunzipTo(t, path)
			}
			want := builtCalls(t, path)
			ws := NewWorkspace(openStore(t))
			importMethodRun(t, ws.Importer(), "r", path)
			got := map[int][]calls.Call{}
			last := 0
			if err := ws.Methods.EachCall(ctx, "r", 0, 0, 0, func(c calls.Call) error {
				if c.TID < last {
					t.Fatalf("thread %d after thread %d", c.TID, last)
				}
				last = c.TID
				got[c.TID] = append(got[c.TID], c)
				return nil
			}); err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(got, want) {
				t.Fatalf("stored calls differ from the call builder's: %d threads, want %d", len(got), len(want))
			}
			checkWindow(t, ws.Methods, want)
		})
	}
}

// checkWindow reads the middle third of the busiest thread's wall time both ways.
func checkWindow(t *testing.T, ma *MethodAnalysis, all map[int][]calls.Call) {
	ctx := context.Background()
	tid := 0
	for k, cs := range all {
		if tid == 0 || len(cs) > len(all[tid]) {
			tid = k
		}
	}
	cs := all[tid]
	var end uint64
	for _, c := range cs {
		end = max(end, c.EndWall, c.EndCPU)
	}
	tr, err := ma.Load(ctx, "r")
	if err != nil {
		t.Fatal(err)
	}
	wall := tr.Profile.Clock.HasWall()
	from, to := end/3, 2*end/3+1
	var want []calls.Call
	for _, c := range cs {
		s, e := c.StartCPU, c.EndCPU
		if wall {
			s, e = c.StartWall, c.EndWall
		}
		if s < to && e >= from {
			want = append(want, c)
		}
	}
	var got []calls.Call
	if err := ma.EachCall(ctx, "r", tid, from, to, func(c calls.Call) error {
		got = append(got, c)
		return nil
	}); err != nil || !reflect.DeepEqual(got, want) {
		t.Errorf("thread %d [%d, %d): %d calls, want %d (%v)", tid, from, to, len(got), len(want), err)
	}
	tw, err := ma.Timeline(ctx, "r", tid, from, to, len(want))
	if err != nil || !tw.Every || len(tw.Calls) != len(want) {
		t.Errorf("timeline of %d calls: %d, every %v (%v)", len(want), len(tw.Calls), tw.Every, err)
	}
	if len(want) > 2 {
		tw, err := ma.Timeline(ctx, "r", tid, from, to, 2)
		if err != nil || tw.Every || len(tw.Calls) > 2 || tw.MinMicros == 0 {
			t.Errorf("timeline limited to 2 of %d calls: %d, every %v, min %d (%v)", len(want), len(tw.Calls), tw.Every, tw.MinMicros, err)
		}
	}
}

// A cancelled or failed method import leaves no run, no chunk and no spool behind.
func TestMethodImportLeavesNothingBehind(t *testing.T) {
	tmp := t.TempDir()
	t.Setenv("TMPDIR", tmp)
	db := openStore(t)
	ws := NewWorkspace(db)
	path := corpus.File(t, "sns-logout.trace")
	cancelled, cancel := context.WithCancel(context.Background())
	cancel()
	if err := ws.Importer().ImportFiles(cancelled, "c", []string{path}, nil); !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled import: %v", err)
	}
	full, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	cut := filepath.Join(t.TempDir(), "cut.trace")
	os.WriteFile(cut, full[:len(full)*2/3], 0o644)
	if err := ws.Importer().ImportFiles(context.Background(), "cut", []string{cut}, nil); err == nil {
		t.Error("a cut trace imported")
	}
	if runs, _ := db.Runs(context.Background()); len(runs) != 0 {
		t.Errorf("runs after failed imports: %+v", runs)
	}
	importMethodRun(t, ws.Importer(), "ok", path)
	if left, _ := filepath.Glob(filepath.Join(tmp, "androprof-calls-*")); len(left) != 0 {
		t.Errorf("spools left: %v", left)
	}
}

// A method log without a call (DPA's header and comment only) has no method for the chunks to
// index: it imports, or is refused naming its file, never "NOT NULL constraint failed:
// trace_info.call_methods" (the hostile-input battery found it).
func TestMethodLogWithoutCalls(t *testing.T) {
	whole, err := os.ReadFile(filepath.Join("..", "formats", "dpa", "testdata", "figure4.dpa"))
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "nocalls.dpa")
	if err := os.WriteFile(path, whole[:113], 0o644); err != nil {
		t.Fatal(err)
	}
	ws := NewWorkspace(openStore(t))
	if err := ws.Importer().ImportFiles(context.Background(), "empty", []string{path}, nil); err != nil && !strings.Contains(err.Error(), path) {
		t.Errorf("a log without calls: %v", err)
	}
}
