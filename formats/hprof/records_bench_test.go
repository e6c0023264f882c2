package hprof

import (
	"bufio"
	"os"
	"runtime"
	"testing"

	"androprof/internal/benchmem"
)

// BenchmarkReadRecords100MB is the object level's pass over a 100 MB Android dump made by
// hproftest (about a million instances and arrays): every reachable object's record spilled
// to a temporary file, after the retention (worked out before the timed part). It reports MB/s
// of the file, peak-MB (the Go runtime's memory, the retention included), spill-MB (what the
// workspace will keep of the records) and records. -short makes the dump 10 MB.
func BenchmarkReadRecords100MB(b *testing.B) {
	path, _, st := benchDump(b)
	f, err := os.Open(path)
	if err != nil {
		b.Fatal(err)
	}
	defer f.Close()
	defer LowGC(st.Size())() // as the importer does
	d, err := SummarizeWithRetention(f, path, GraphOptions{})
	if err != nil {
		b.Fatal(err)
	}
	runtime.GC()
	b.SetBytes(st.Size())
	var peak uint64
	var spill int64
	for b.Loop() {
		if _, err := f.Seek(0, 0); err != nil {
			b.Fatal(err)
		}
		stop := benchmem.Sample(&peak)
		o, err := ReadRecords(bufio.NewReaderSize(f, 1<<20), path, d.Retention)
		stop()
		if err != nil {
			b.Fatal(err)
		}
		spill = 0
		for _, c := range o.Chunks {
			spill += int64(c.Size)
		}
		o.Close()
	}
	b.ReportMetric(float64(peak)/(1<<20), "peak-MB")
	b.ReportMetric(float64(spill)/(1<<20), "spill-MB")
	b.ReportMetric(float64(d.Retention.Objects.Len()), "records")
}
