package heaplog_test

import (
	"bytes"
	"io"
	"sync"
	"testing"

	"androprof/formats/heaplog"
	"androprof/formats/heaplog/heaplogtest"
	"androprof/model/heap"
)

var (
	benchOnce sync.Once
	benchLog  []byte
)

// benchData is a synthetic log of one million records, made once.
func benchData(b *testing.B) []byte {
	benchOnce.Do(func() {
		var buf bytes.Buffer
		if err := heaplogtest.Synthetic(&buf, 1_000_000, 1); err != nil {
			b.Fatal(err)
		}
		benchLog = buf.Bytes()
	})
	return benchLog
}

func readRecords(b *testing.B, data []byte) int {
	r := heaplog.NewReader(bytes.NewReader(data), "bench")
	n := 0
	for {
		_, err := r.Next()
		if err == io.EOF {
			return n
		}
		if err != nil {
			b.Fatal(err)
		}
		n++
	}
}

// BenchmarkReader reads a 1M-record synthetic log from memory; the target is well over a
// million records per second.
func BenchmarkReader(b *testing.B) {
	data := benchData(b)
	b.SetBytes(int64(len(data)))
	n := 0
	for b.Loop() {
		n += readRecords(b, data)
	}
	b.ReportMetric(float64(n)/b.Elapsed().Seconds(), "records/s")
}

// BenchmarkReaderGzip is BenchmarkReader on the gzip-compressed log: what decompression costs.
func BenchmarkReaderGzip(b *testing.B) {
	data := gzipped(b, benchData(b))
	b.SetBytes(int64(len(data)))
	n := 0
	for b.Loop() {
		n += readRecords(b, data)
	}
	b.ReportMetric(float64(n)/b.Elapsed().Seconds(), "records/s")
}

// BenchmarkWriter writes the 1M records of the synthetic log again, as read.
func BenchmarkWriter(b *testing.B) {
	h, evs, err := readAll(b, benchData(b), "bench")
	if err != nil {
		b.Fatal(err)
	}
	n := 0
	for b.Loop() {
		w, err := heaplog.NewWriter(io.Discard, h)
		if err != nil {
			b.Fatal(err)
		}
		for i := range evs {
			if err := w.Write(&evs[i]); err != nil {
				b.Fatal(err)
			}
		}
		if err := w.Flush(); err != nil {
			b.Fatal(err)
		}
		n += len(evs)
	}
	b.ReportMetric(float64(n)/b.Elapsed().Seconds(), "records/s")
}

// BenchmarkSynthetic is what making a benchmark log costs.
func BenchmarkSynthetic(b *testing.B) {
	for b.Loop() {
		if err := heaplogtest.Synthetic(io.Discard, 1_000_000, 1); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(1e6*float64(b.N)/b.Elapsed().Seconds(), "records/s")
}

// Reading allocations, deaths, mutations, GCs and snapshots allocates nothing.
func TestNextDoesNotAllocate(t *testing.T) {
	evs := []heap.HeapEvent{
		{Kind: heap.HeapThreadStart, Thread: 1, Name: "main"},
		{Kind: heap.HeapClass, Class: 1, Name: "[I", Array: true},
	}
	var total uint64
	for i := range uint64(3000) {
		evs = append(evs,
			heap.HeapEvent{Kind: heap.HeapAlloc, Object: i + 1, Time: total, Size: 24, Thread: 1, Class: 1, Array: true},
			heap.HeapEvent{Kind: heap.HeapMutation, Time: total + 24, Object: i + 1, Offset: 16, Target: i/2 + 1},
			heap.HeapEvent{Kind: heap.HeapGCStart, Time: total + 24, GCKind: heap.GCForMalloc},
			heap.HeapEvent{Kind: heap.HeapFree, Object: i + 1, Time: total + 24},
			heap.HeapEvent{Kind: heap.HeapGCEnd, Time: total + 24},
			heap.HeapEvent{Kind: heap.HeapSnapshot, Time: total + 24, Distance: -3, Count: i})
		total += 24
	}
	r := heaplog.NewReader(bytes.NewReader(writeAll(t, heap.HeapHeader{}, evs)), "allocs")
	r.Next()
	r.Next()
	if n := testing.AllocsPerRun(10000, func() {
		if _, err := r.Next(); err != nil {
			t.Fatal(err)
		}
	}); n != 0 {
		t.Errorf("%v allocations per record", n)
	}
}
