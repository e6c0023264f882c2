package qemulog

import (
	"context"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"testing"

	"androprof/emulator/qemutest"
	"androprof/formats/bbprofile"
	"androprof/internal/benchmem"
	"androprof/model/cost"
)

// BenchmarkImportLog1GB measures ImportLogs on a realistic 1 GB `-d in_asm,exec,nochain` log
// (the issue asks for ≥ 300 MB/s and a peak under 100 MB). The log is real: qemu-arm's log of
// the -marm sieve with the largest input (about 64 MB, ARM and Thumb blocks), written again
// and again into one file until it reaches the size, so later copies re-translate blocks the
// importer already knows, as a long run does. Building it takes a few seconds and happens once,
// outside the timed part; with -short the log is 128 MB. Benchmarks run only under -bench.
//
//	CGO_ENABLED=0 go test ./formats/qemulog/ -run '^$' -bench ImportLog1GB -benchtime 3x
func BenchmarkImportLog1GB(b *testing.B) {
	size := int64(1 << 30)
	if testing.Short() {
		size = 128 << 20
	}
	tg := qemutest.Targets[0]
	bin := qemutest.Build(b, tg, filepath.Join(qemutest.SamplesDir(), "sieve.c"))
	one := qemutest.Log(b, tg, bin, []string{"-d", "in_asm,exec,nochain"}, "200000")
	big := filepath.Join(b.TempDir(), "sieve-1g.log")
	written := repeatFile(b, one, big, size)
	isas := []cost.ISA{cost.ARM, cost.Thumb}

	// A sub-benchmark, so the log is built once however often the framework calls it.
	b.Run("import", func(b *testing.B) {
		b.SetBytes(written)
		b.ReportAllocs()
		runtime.GC()
		var peak uint64
		stop := benchmem.Sample(&peak)
		b.ResetTimer()
		for range b.N {
			c := bbprofile.NewCollector()
			if err := ImportLogs(context.Background(), []string{big}, isas, c, nil); err != nil {
				b.Fatal(err)
			}
			if c.Instructions() == 0 {
				b.Fatal("no instructions")
			}
		}
		b.StopTimer()
		stop()
		b.ReportMetric(float64(peak)/(1<<20), "peak-MB")
	})
}

// repeatFile writes src to dst until dst holds at least size bytes, and returns its size.
func repeatFile(b *testing.B, src, dst string, size int64) int64 {
	b.Helper()
	out, err := os.Create(dst)
	if err != nil {
		b.Fatal(err)
	}
	var n int64
	for n < size {
		in, err := os.Open(src)
		if err != nil {
			b.Fatal(err)
		}
		m, err := io.Copy(out, in)
		in.Close()
		if err != nil {
			b.Fatal(err)
		}
		n += m
	}
	if err := out.Close(); err != nil {
		b.Fatal(err)
	}
	return n
}
