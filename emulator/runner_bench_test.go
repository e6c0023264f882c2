package emulator

import (
	"context"
	"os/exec"
	"path/filepath"
	"testing"
	"time"

	"androprof/emulator/qemutest"
)

// BenchmarkPluginOverhead runs the CPU-bound sample (assets/samples/cpu.c, about a second of
// plain emulation) under plain qemu-user and through Run with the plugin (counting, writing
// and reading the profile; the plugin build is cached), and reports plugin time over plain
// time. The issue asks for at most 1.5×.
//
//	go test -run '^$' -bench PluginOverhead -benchtime 3x ./emulator
func BenchmarkPluginOverhead(b *testing.B) {
	qemutest.Require(b, "gcc")
	src := filepath.Join(qemutest.SamplesDir(), "cpu.c")
	const rounds = "50"
	for _, tg := range qemutest.Targets {
		b.Run(tg.Name, func(b *testing.B) {
			bin := qemutest.Build(b, tg, src)
			var plain, plugin time.Duration
			for i := 0; i < b.N; i++ {
				t0 := time.Now()
				if out, err := exec.Command(tg.QEMU, bin, rounds).CombinedOutput(); err != nil {
					b.Fatalf("%s: %v\n%s", tg.QEMU, err, out)
				}
				t1 := time.Now()
				c := NewCollector()
				if err := Run(context.Background(), RunOptions{Program: bin, Args: []string{rounds}, CacheDir: testCacheDir}, c, nil); err != nil {
					b.Fatal(err)
				}
				plugin += time.Since(t1)
				plain += t1.Sub(t0)
				if c.Instructions() < 1e8 {
					b.Fatalf("only %d instructions: not CPU-bound", c.Instructions())
				}
			}
			ratio := float64(plugin) / float64(plain)
			b.ReportMetric(ratio, "x-plugin/plain")
			b.ReportMetric(plain.Seconds()/float64(b.N), "s-plain/op")
			if ratio > 1.5 {
				b.Errorf("plugin run takes %.2f× plain qemu; the issue allows 1.5×", ratio)
			}
		})
	}
}
