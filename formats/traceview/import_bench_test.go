package traceview_test

import (
	"context"
	"os"
	"path/filepath"
	"runtime"
	"testing"
	"time"

	"androprof/controller"
	"androprof/formats/traceview"
	"androprof/internal/benchmem"
	"androprof/model/calls"
	"androprof/store"
)

// BenchmarkWorkbenchImport500MB is the measure end to end: a 500 MB version-3 trace made
// by the writer is imported by `androprof import`'s code (reader, call builder, call tree,
// timeline spans, every call in chunks spooled to a temporary file, one SQLite transaction),
// then its profile table is opened from the workspace the way the window does (load the
// aggregates, make the table). Targets: import < 60 s with < 400 MB peak; table < 300 ms.
// It also reports the workspace's size, the timeline of a narrow window deep in the trace
// (issue 28: < 100 ms) and how fast EachCall hands every call. -short makes the trace 20 MB.
func BenchmarkWorkbenchImport500MB(b *testing.B) {
	size := int64(500 << 20)
	if testing.Short() {
		size = 20 << 20
	}
	dir := b.TempDir()
	path := filepath.Join(dir, "big.trace")
	traceview.WriteBigTrace(b, path, size)
	runtime.GC()
	b.SetBytes(size)
	var peak uint64
	var table time.Duration
	var timeline [3]time.Duration // windows of 1/10,000, 1/100 and all of thread 1's time
	var workspace int64
	var each float64
	n := 0
	for b.Loop() {
		dbPath := filepath.Join(dir, "w"+string(rune('a'+n))+".db")
		db, err := store.Open(dbPath)
		if err != nil {
			b.Fatal(err)
		}
		run := "big"
		stop := benchmem.Sample(&peak)
		if err := controller.NewWorkspace(db).Importer().ImportFiles(context.Background(), run, []string{path}, nil); err != nil {
			b.Fatal(err)
		}
		stop()
		b.StopTimer()
		t0 := time.Now()
		ma := controller.NewWorkspace(db).Methods
		rep, err := ma.Report(context.Background(), calls.MethodReportOptions{Run: run, By: calls.ByMethod})
		if err != nil || len(rep.Rows) < 1000 {
			b.Fatalf("table: %v", err)
		}
		table += time.Since(t0)
		for i, part := range []uint64{10_000, 100, 1} {
			timeline[i] += window(b, ma, run, part)
		}
		each += eachCallRate(b, ma, run)
		db.Close()
		workspace += fileSize(b, dbPath)
		os.Remove(dbPath)
		n++
		b.StartTimer()
	}
	b.ReportMetric(float64(peak)/(1<<20), "peak-MB")
	b.ReportMetric(float64(table.Milliseconds())/float64(n), "table-open-ms")
	b.ReportMetric(float64(workspace)/float64(n)/(1<<20), "workspace-MB")
	for i, unit := range []string{"timeline-deep-ms", "timeline-1pct-ms", "timeline-all-ms"} {
		b.ReportMetric(float64(timeline[i].Microseconds())/1000/float64(n), unit)
	}
	b.ReportMetric(each/float64(n), "eachcall-Mcalls/s")
}

// window times the timeline of the first thread over 1/part of its wall time, 90 % of the way
// in (all of it for part 1), as the window asks it (a limit of 20,000 calls); the narrowest
// must hold every call of the window.
func window(b *testing.B, ma *controller.MethodAnalysis, run string, part uint64) time.Duration {
	tr, err := ma.Load(context.Background(), run)
	if err != nil {
		b.Fatal(err)
	}
	th := tr.Profile.Threads[0]
	span := th.LastWall - th.FirstWall
	from, to := th.FirstWall+span/10*9, th.FirstWall+span/10*9+span/part
	if part == 1 {
		from, to = th.FirstWall, th.LastWall+1
	}
	t0 := time.Now()
	tw, err := ma.Timeline(context.Background(), run, th.TID, from, to, 20_000)
	d := time.Since(t0)
	if err != nil || part == 10_000 && !tw.Every || len(tw.Calls) == 0 {
		b.Fatalf("timeline of [%d, %d): %d calls, every %v (%v)", from, to, len(tw.Calls), tw.Every, err)
	}
	b.Logf("window 1/%d of thread %d: %d calls (every %v, ≥ %d µs) in %v", part, th.TID, len(tw.Calls), tw.Every, tw.MinMicros, d)
	return d
}

// eachCallRate is how many million calls a second EachCall hands over the whole run.
func eachCallRate(b *testing.B, ma *controller.MethodAnalysis, run string) float64 {
	t0 := time.Now()
	n := 0
	if err := ma.EachCall(context.Background(), run, 0, 0, 0, func(calls.Call) error { n++; return nil }); err != nil {
		b.Fatal(err)
	}
	d := time.Since(t0)
	b.Logf("EachCall: %d calls in %v", n, d)
	return float64(n) / d.Seconds() / 1e6
}

func fileSize(b *testing.B, path string) int64 {
	st, err := os.Stat(path)
	if err != nil {
		b.Fatal(err)
	}
	return st.Size()
}
