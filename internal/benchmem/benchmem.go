// Package benchmem measures what the issues' memory limits mean: the most memory the Go
// runtime holds from the operating system while some work runs. Benchmarks share it.
package benchmem

import (
	"runtime/metrics"
	"sync"
	"time"
)

// Sample polls the runtime's mapped memory (less what it released back) every 5 ms and keeps
// the largest value in *peak until stop is called.
func Sample(peak *uint64) (stop func()) {
	samples := []metrics.Sample{{Name: "/memory/classes/total:bytes"}, {Name: "/memory/classes/heap/released:bytes"}}
	done := make(chan struct{})
	var wg sync.WaitGroup
	wg.Add(1)
	read := func() {
		metrics.Read(samples)
		if v := samples[0].Value.Uint64() - samples[1].Value.Uint64(); v > *peak {
			*peak = v
		}
	}
	go func() {
		defer wg.Done()
		t := time.NewTicker(5 * time.Millisecond)
		defer t.Stop()
		for {
			select {
			case <-done:
				read()
				return
			case <-t.C:
				read()
			}
		}
	}()
	return func() { close(done); wg.Wait() }
}
