package traceview_test

import (
	"context"
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
// timeline spans, one SQLite transaction), then its profile table is opened from the workspace
// the way the window does (load the aggregates, make the table). Targets: import < 60 s with
// < 400 MB peak; table < 300 ms. -short makes the trace 20 MB.
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
	n := 0
	for b.Loop() {
		db, err := store.Open(filepath.Join(dir, "w.db"))
		if err != nil {
			b.Fatal(err)
		}
		run := "big" + string(rune('a'+n))
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
		db.Close()
		n++
		b.StartTimer()
	}
	b.ReportMetric(float64(peak)/(1<<20), "peak-MB")
	b.ReportMetric(float64(table.Milliseconds())/float64(n), "table-open-ms")
}
