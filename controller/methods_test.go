package controller

import (
	"compress/gzip"
	"context"
	"io"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"androprof/chart"
	"androprof/formats/traceview"
	"androprof/internal/corpus"
	"androprof/model/calls"
	"androprof/model/javaname"
)

func importMethodRun(t *testing.T, im Importer, run, path string) {
	t.Helper()
	if err := im.ImportFiles(context.Background(), run, []string{path}, nil); err != nil {
		t.Fatal(err)
	}
}

// perflib-basic through the importer and the store gives dmtracedump's numbers (derived by
// hand in formats/traceview/dmtracedump_test.go): Basic.foo 5 µs exclusive, 7 inclusive,
// calling Basic.bar (2/2).
func TestMethodReportMatchesDmtracedump(t *testing.T) {
	ctx := context.Background()
	db := openStore(t)
	ma := &MethodAnalysis{store: db}
	im := NewWorkspace(db).Importer()
	importMethodRun(t, im, "basic", corpus.File(t, "perflib-basic.trace"))
	rep, err := ma.Report(ctx, calls.MethodReportOptions{Run: "basic", By: calls.ByMethod, Find: "Basic."})
	if err != nil {
		t.Fatal(err)
	}
	got := map[string][2]uint64{}
	var foo uint64
	for _, r := range rep.Rows {
		got[r.Key] = [2]uint64{r.Times.ExclusiveCPU, r.Times.InclusiveCPU}
		if strings.Contains(r.Key, ".foo") {
			foo = r.Method
		}
	}
	if len(rep.Rows) != 2 || foo == 0 {
		t.Fatalf("rows = %+v", rep.Rows)
	}
	for key, want := range map[string][2]uint64{"foo": {5, 7}, "bar": {2, 2}} {
		for k, v := range got {
			if strings.Contains(k, "."+key) && v != want {
				t.Errorf("%s: excl/incl CPU %v, dmtracedump %v", k, v, want)
			}
		}
	}
	parents, children, err := ma.Relatives(ctx, "basic", foo, 0)
	if err != nil || len(children) != 1 || !strings.Contains(children[0].Name, ".bar") || children[0].Calls != 1 ||
		len(parents) != 1 || parents[0].Method != calls.TopLevelMethod {
		t.Errorf("relatives of foo: parents %+v children %+v (%v)", parents, children, err)
	}
}

// Every corpus trace imports, and the stored tables give back exactly what the call builder
// computed from the file.
func TestCorpusTracesRoundTripThroughTheStore(t *testing.T) {
	ctx := context.Background()
	for _, name := range []string{"perflib-basic.trace", "perflib-exception.trace", "perflib-mismatched.trace",
		"jag-dmtrace.trace", "sns-logout.trace", "art-trace-regular.trace.gz"} {
		t.Run(name, func(t *testing.T) {
			path := corpus.File(t, name)
			if strings.HasSuffix(name, ".gz") {
				path = gunzipTo(t, path)
			}
			db := openStore(t)
			ma := &MethodAnalysis{store: db}
			importMethodRun(t, NewWorkspace(db).Importer(), "r", path)
			stored, err := db.MethodTrace(ctx, "r")
			if err != nil {
				t.Fatal(err)
			}
			if stored.Profile.Edges, err = db.CallEdges(ctx, "r"); err != nil {
				t.Fatal(err)
			}
			f, _ := os.Open(path)
			defer f.Close()
			b := calls.NewCallBuilder()
			if err := traceview.NewReader(f, path).Feed(b); err != nil {
				t.Fatal(err)
			}
			direct := b.Finish()
			for _, c := range []struct {
				what       string
				got, wantV any
			}{
				{"per-thread", stored.Profile.PerThread, direct.PerThread},
				{"edges", stored.Profile.Edges, direct.Edges},
				{"classes", stored.Profile.Classes, direct.Classes},
				{"threads", stored.Profile.Threads, direct.Threads},
			} {
				if !reflect.DeepEqual(c.got, c.wantV) {
					t.Errorf("%s differ after the store", c.what)
				}
			}
			// Parents and children, recursive rows apart, are the direct profile's (which
			// formats/traceview holds to dmtracedump's) for every method.
			rec := calls.RecursiveEdges(direct.Tree)
			for id := range direct.ByMethod() {
				parents, children, err := ma.Relatives(ctx, "r", id, 0)
				wp, wc := direct.Relatives(direct.Edges, rec, id, 0)
				if err != nil || !reflect.DeepEqual(parents, wp) || !reflect.DeepEqual(children, wc) {
					t.Fatalf("relatives of %#x after the store: %v\n parents %+v\n want    %+v\n children %+v\n want     %+v", id, err, parents, wp, children, wc)
				}
			}
			rep, err := ma.Report(ctx, calls.MethodReportOptions{Run: "r", By: calls.ByThread})
			if err != nil || len(rep.Rows) == 0 {
				t.Fatalf("thread report: %v", err)
			}
			busiest := rep.Rows[0].TID
			spans, err := ma.Timeline(ctx, "r", busiest, 0, 0, 0)
			if err != nil || len(spans.Calls) == 0 || !spans.Every {
				t.Errorf("timeline of thread %d: %d calls (every %v), %v", busiest, len(spans.Calls), spans.Every, err)
			}
		})
	}
}

// Issue 23 finding 4 through the store: ViewGroup.drawChild's parent ViewGroup.dispatchDraw is
// two rows, as dmtracedump prints them: 9/103 calls in 846,218 µs, and below its "+++++" line
// the 94 recursive calls in 2,615,473 µs; never one row of 103 calls and 3,461,691 µs.
func TestRecursiveParentsApartThroughTheStore(t *testing.T) {
	db := openStore(t)
	ma := &MethodAnalysis{store: db}
	importMethodRun(t, NewWorkspace(db).Importer(), "sns", corpus.File(t, "sns-logout.trace"))
	const drawChild, dispatchDraw = 0x410fdf40, 0x410fdc00
	parents, _, err := ma.Relatives(context.Background(), "sns", drawChild, 0)
	if err != nil {
		t.Fatal(err)
	}
	readable := javaname.Name{Short: "ViewGroup.dispatchDraw(Canvas)", Package: "android.view"}
	want := []calls.Relative{
		{Method: dispatchDraw, Name: "android/view/ViewGroup.dispatchDraw (Landroid/graphics/Canvas;)V", Readable: readable,
			EdgeTimes: calls.EdgeTimes{Calls: 9, InclusiveCPU: 846218}, TotalCalls: 103},
		{Method: dispatchDraw, Name: "android/view/ViewGroup.dispatchDraw (Landroid/graphics/Canvas;)V", Readable: readable,
			EdgeTimes: calls.EdgeTimes{Calls: 94, InclusiveCPU: 2615473}, TotalCalls: 103, Recursive: true},
	}
	if !reflect.DeepEqual(parents, want) {
		t.Errorf("drawChild's parents:\n %+v\nwant\n %+v", parents, want)
	}
}

func gunzipTo(t *testing.T, path string) string {
	t.Helper()
	// The importer reads gzip itself; this copy is only for comparing with a direct read.
	out := filepath.Join(t.TempDir(), strings.TrimSuffix(filepath.Base(path), ".gz"))
	g, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer g.Close()
	w, err := os.Create(out)
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	if err := copyGunzip(w, g); err != nil {
		t.Fatal(err)
	}
	return out
}

// A truncated trace is refused with its byte offset and leaves the workspace as it was.
func TestBadTraceChangesNothing(t *testing.T) {
	ctx := context.Background()
	db := openStore(t)
	im := NewWorkspace(db).Importer()
	full, err := os.ReadFile(corpus.File(t, "jag-dmtrace.trace"))
	if err != nil {
		t.Fatal(err)
	}
	cut := filepath.Join(t.TempDir(), "cut.trace")
	os.WriteFile(cut, full[:len(full)-7], 0o644)
	err = im.ImportFiles(ctx, "cut", []string{cut}, nil)
	if err == nil || !strings.Contains(err.Error(), "cut.trace") || !strings.Contains(err.Error(), "byte ") {
		t.Errorf("truncated trace: %v", err)
	}
	if runs, _ := db.Runs(ctx); len(runs) != 0 {
		t.Errorf("runs after a failed import: %+v", runs)
	}
}

func TestCompareMethods(t *testing.T) {
	ctx := context.Background()
	db := openStore(t)
	ma := &MethodAnalysis{store: db}
	im := NewWorkspace(db).Importer()
	importMethodRun(t, im, "basic", corpus.File(t, "perflib-basic.trace"))
	importMethodRun(t, im, "exception", corpus.File(t, "perflib-exception.trace"))
	rows, err := ma.CompareMethods(ctx, "basic", "exception", calls.ByMethod)
	if err != nil || len(rows) == 0 {
		t.Fatalf("compare: %v", err)
	}
	for _, r := range rows {
		if strings.HasSuffix(r.Key, "VMDebug.startMethodTracing (Ljava/lang/String;II)V") && (r.A.InclusiveCPU != 3 || r.B.InclusiveCPU != 3 || r.InclCPURate != 1) {
			t.Errorf("startMethodTracing: %+v", r)
		}
	}
}

func copyGunzip(w *os.File, r *os.File) error {
	zr, err := gzip.NewReader(r)
	if err != nil {
		return err
	}
	_, err = io.Copy(w, zr)
	return err
}

// The method chart both front ends draw (issue 25): exclusive time on the chosen clock, without
// the time outside every traced call, titled with the threads it covers. perflib-basic's
// Basic.foo has 5 µs exclusive thread-CPU time (dmtracedump).
func TestMethodChart(t *testing.T) {
	ctx := context.Background()
	ws := NewWorkspace(openStore(t))
	importMethodRun(t, ws.Importer(), "basic", corpus.File(t, "perflib-basic.trace"))
	trace, err := ws.Methods.Load(ctx, "basic")
	if err != nil {
		t.Fatal(err)
	}
	th := trace.Profile.Threads[0]
	for _, c := range []struct {
		tid   int
		cpu   bool
		title string
	}{
		{0, true, "Exclusive thread-CPU time by method — basic, all threads"},
		{th.TID, true, "Exclusive thread-CPU time by method — basic, thread " + ThreadLabel(th)},
		{0, false, "Exclusive real time by method — basic, all threads"},
	} {
		got, err := ws.Methods.Chart(ctx, MethodChartOptions{Run: "basic", By: calls.ByMethod, TID: c.tid, CPU: c.cpu, Kind: chart.Pie})
		if err != nil {
			t.Fatal(err)
		}
		if got.Title != c.title || got.Kind != chart.Pie {
			t.Errorf("title %q, kind %v; want %q, a pie", got.Title, got.Kind, c.title)
		}
		for _, b := range got.Bars {
			if strings.HasPrefix(b.Label, "(toplevel)") {
				t.Errorf("%q: the time outside every call is charted: %+v", c.title, b)
			}
			if c.cpu && strings.Contains(b.Label, "Basic.foo") && b.Value != 5 {
				t.Errorf("Basic.foo %v µs, dmtracedump says 5", b.Value)
			}
		}
	}
	if _, err := ws.Methods.Chart(ctx, MethodChartOptions{Run: "nope", By: calls.ByMethod}); err == nil {
		t.Error("a chart of a run that is not there")
	}
}

// A chart offers the clocks a trace has; one with neither is charted on thread-CPU time.
func TestChartClocks(t *testing.T) {
	for clock, want := range map[calls.Clock][2]bool{calls.ClockThreadCPU: {true, false}, calls.ClockWall: {false, true},
		calls.ClockDual: {true, true}, "": {true, false}} {
		if cpu, real := ChartClocks(clock); cpu != want[0] || real != want[1] {
			t.Errorf("%q: cpu %v real %v, want %v", clock, cpu, real, want)
		}
	}
}
