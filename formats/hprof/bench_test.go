package hprof

import (
	"bufio"
	"bytes"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"testing"

	"androprof/formats/hprof/hproftest"
	"androprof/internal/benchmem"
)

// BenchmarkSummarize100MB summarises a 100 MB Android dump made by hproftest before the timed
// part (about a million instances with reference fields, and arrays, in three heaps, class
// dumps last): what importing a large dump costs. The target is under 10 s and 500 MB. It
// reports MB/s of the file (read twice), peak-MB (memory the Go runtime holds from the OS,
// sampled every 5 ms) and VmHWM-MB (the process's peak resident memory, reset before the
// timed part where the kernel allows). -short makes the dump 10 MB.
func BenchmarkSummarize100MB(b *testing.B) {
	path, syn, st := benchDump(b)
	runtime.GC()
	os.WriteFile("/proc/self/clear_refs", []byte("5"), 0) // resets VmHWM; may be refused
	b.SetBytes(st.Size())
	var peak uint64
	for b.Loop() {
		stop := benchmem.Sample(&peak)
		d, err := summarizeFile(path)
		stop()
		if err != nil {
			b.Fatal(err)
		}
		var objects uint64
		for _, c := range d.Classes {
			objects += c.Objects
		}
		if want := uint64(syn.Instances + syn.ObjArrays + syn.PrimArrays); objects != want || len(d.Heaps) != 3 {
			b.Fatalf("%d objects in heaps %q, want %d in 3", objects, d.Heaps, want)
		}
	}
	b.ReportMetric(float64(peak)/(1<<20), "peak-MB")
	if hwm := vmHWM(); hwm > 0 {
		b.ReportMetric(float64(hwm)/(1<<20), "VmHWM-MB")
	}
	b.ReportMetric(float64(syn.Instances), "instances")
}

// vmHWM is the process's peak resident memory in bytes, 0 when /proc does not say.
func vmHWM() uint64 {
	status, err := os.ReadFile("/proc/self/status")
	if err != nil {
		return 0
	}
	for line := range bytes.Lines(status) {
		if rest, ok := bytes.CutPrefix(line, []byte("VmHWM:")); ok {
			kb, _ := strconv.ParseUint(string(bytes.TrimSuffix(bytes.TrimSpace(rest), []byte(" kB"))), 10, 64)
			return kb << 10
		}
	}
	return 0
}

// benchDump writes the benchmarks' 100 MB Android dump (10 MB with -short) with hproftest
// before the timed part: what it holds and the file's size.
func benchDump(b *testing.B) (string, hproftest.Synthetic, os.FileInfo) {
	b.Helper()
	size := int64(100 << 20)
	if testing.Short() {
		size = 10 << 20
	}
	path := filepath.Join(b.TempDir(), "big.hprof")
	f, err := os.Create(path)
	if err != nil {
		b.Fatal(err)
	}
	bw := bufio.NewWriterSize(f, 1<<20)
	syn, err := hproftest.Generate(bw, hproftest.Options{Version: "1.0.3"}, size, 1)
	if err == nil {
		err = bw.Flush()
	}
	if err == nil {
		err = f.Close()
	}
	if err != nil {
		b.Fatal(err)
	}
	st, err := os.Stat(path)
	if err != nil {
		b.Fatal(err)
	}
	return path, syn, st
}
