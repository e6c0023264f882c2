package controller

import (
	"fmt"
	"io"
	"runtime"
	"testing"

	"androprof/internal/benchmem"
	"androprof/model/calls"
)

// syntheticCalls hands n calls of one thread in the order they end: outermost calls of four
// callees each, or, with open, all of them under one call that spans the thread (a call still
// open when tracing ended), the case that makes the nester hold the whole thread.
func syntheticCalls(n int, open bool) (p *calls.CallProfile, each func(fn func(calls.Call) error) error) {
	p = &calls.CallProfile{Methods: map[uint64]calls.MethodInfo{}, Threads: []calls.ThreadTimes{{TID: 1, Name: "main"}}}
	for m := range uint64(8) {
		p.Methods[m] = calls.MethodInfo{ID: m, Class: "com/example/C", Name: fmt.Sprint("m", m), Signature: "()V"}
	}
	base := 0
	if open {
		base = 1
	}
	return p, func(fn func(calls.Call) error) error {
		var t uint64
		for i := 0; i < n; i += 5 {
			start := t
			for k := range uint64(4) {
				if err := fn(calls.Call{TID: 1, Method: k + 1, Depth: base + 1, StartWall: t, EndWall: t + 2}); err != nil {
					return err
				}
				t += 3
			}
			if err := fn(calls.Call{TID: 1, Method: 5, Depth: base, StartWall: start, EndWall: t}); err != nil {
				return err
			}
			t++
		}
		if open {
			return fn(calls.Call{TID: 1, Method: 6, StartWall: 0, EndWall: t, End: calls.EndOfTrace})
		}
		return nil
	}
}

// The slice formats' time and peak memory per call, over 2,000,000 calls of one thread: with
// outermost calls that end (memory stays flat) and under one call open to the end (the thread is
// held, 40 bytes a call; docs/export.md "Memory").
func BenchmarkExportCalls(b *testing.B) {
	const n = 2_000_000
	for _, open := range []bool{false, true} {
		for _, format := range []string{"chrome", "perfetto", "speedscope"} {
			b.Run(fmt.Sprintf("%s/open=%v", format, open), func(b *testing.B) {
				p, each := syntheticCalls(n, open)
				m := methodCalls{p: p, run: "bench", at: clockOf(true), each: each}
				write := map[string]func(io.Writer) (ExportSummary, error){"chrome": m.chrome, "perfetto": m.perfetto, "speedscope": m.speedscope}[format]
				runtime.GC()
				var peak uint64
				for b.Loop() {
					stop := benchmem.Sample(&peak)
					if _, err := write(io.Discard); err != nil {
						b.Fatal(err)
					}
					stop()
				}
				b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/n, "ns/call")
				b.ReportMetric(float64(peak)/(1<<20), "peak-MB")
			})
		}
	}
}
