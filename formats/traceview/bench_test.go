package traceview

import (
	"bufio"
	"os"
	"path/filepath"
	"runtime"
	"testing"

	"androprof/internal/benchmem"
	"androprof/model/calls"
)

// BenchmarkImport500MB reads a 500 MB version-3 dual-clock trace, made by the writer before the
// timed part, through a CallBuilder: what importing a large trace costs. The target is under
// 60 s with under 400 MB of memory on a 2-core machine. It reports MB/s and peak-MB (memory the
// Go runtime holds from the OS, sampled every 5 ms). -short makes the trace 20 MB.
func BenchmarkImport500MB(b *testing.B) {
	size := int64(500 << 20)
	if testing.Short() {
		size = 20 << 20
	}
	path := filepath.Join(b.TempDir(), "big.trace")
	events := writeBigTrace(b, path, size)
	st, err := os.Stat(path)
	if err != nil {
		b.Fatal(err)
	}
	runtime.GC()
	b.SetBytes(st.Size())
	var peak uint64
	for b.Loop() {
		stop := benchmem.Sample(&peak)
		f, err := os.Open(path)
		if err != nil {
			b.Fatal(err)
		}
		cb := calls.NewCallBuilder()
		spans := 0
		cb.OnCall = func(c calls.Call) {
			if c.EndWall-c.StartWall > 1000 {
				spans++ // what a timeline would keep
			}
		}
		r := NewReader(f, path)
		if err := r.Feed(cb); err != nil {
			b.Fatal(err)
		}
		p := cb.Finish()
		f.Close()
		stop()
		if r.Events() != events || len(p.Threads) != 8 {
			b.Fatalf("%d events in %d threads, want %d in 8", r.Events(), len(p.Threads), events)
		}
	}
	b.ReportMetric(float64(peak)/(1<<20), "peak-MB")
}

// writeBigTrace writes about size bytes of trace with the generator: 8 threads, 2000 methods,
// calls up to 40 deep.
func writeBigTrace(b *testing.B, path string, size int64) int64 {
	f, err := os.Create(path)
	if err != nil {
		b.Fatal(err)
	}
	defer f.Close()
	g := newTraceGen(1, 8, 2000, 40, 0)
	bw := bufio.NewWriterSize(f, 1<<20)
	events := size / 14
	w, err := NewWriter(bw, WriterOptions{Version: 3, Clock: calls.ClockDual, VM: "art", PID: 1234, NumMethodCalls: events})
	if err != nil {
		b.Fatal(err)
	}
	for _, th := range g.threadInfos() {
		w.Thread(th)
	}
	for _, m := range g.methods {
		w.Method(m)
	}
	for range events {
		if err := w.Event(g.next()); err != nil {
			b.Fatal(err)
		}
	}
	if err := w.Close(); err != nil {
		b.Fatal(err)
	}
	if err := bw.Flush(); err != nil {
		b.Fatal(err)
	}
	return events
}
