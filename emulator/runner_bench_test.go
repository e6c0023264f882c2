package emulator

import (
	"context"
	"fmt"
	"math"
	"os/exec"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"androprof/emulator/qemutest"
	"androprof/formats/bbprofile"
	"androprof/internal/benchmem"
	"androprof/model/cost"
)

// BenchmarkPluginOverhead runs the CPU-bound sample (assets/samples/cpu.c, about a second of
// plain emulation) under plain qemu-user and through Run with the plugin (counting, writing
// and reading the profile; the plugin build is cached), and reports plugin time over plain
// time: the median over b.N pairs of a plain run and a plugin run one after the other, in
// turns first. Issue 13 asks for at most 1.25× with images and system calls counted. On this
// project's 2-core virtual machine single runs of either vary by ±15%, so scripts/test.sh takes
// 21 pairs: with 7, a plugin at about 1.1× (QEMU 7.2's inline add alone costs that on Thumb's
// short blocks) measured 1.30× once.
//
//	go test -run '^$' -bench PluginOverhead -benchtime 21x ./emulator
//
// The 64-bit guests (issue 26) run too: -bench 'PluginOverhead/(aarch64|x86_64)'. AArch64
// measured 1.11–1.17×. x86-64 measured 1.30–1.33× (1.45× on a host at load 19), over the goal:
// QEMU runs an x86-64 guest on this x86-64 host at about a block per nanosecond, so one inline
// add per block, the least a block counter can do in QEMU 7.2, costs 1.2× on its own (a plugin
// that only does that: 0.52 s against 0.44 s of plain user time on cpu.c, 50 rounds).
func BenchmarkPluginOverhead(b *testing.B) {
	qemutest.Require(b, "gcc")
	src := filepath.Join(qemutest.SamplesDir(), "cpu.c")
	const rounds = "50"
	for _, tg := range qemutest.Targets {
		b.Run(tg.Name, func(b *testing.B) {
			bin := qemutest.Build(b, tg, src)
			runPlain, runPlugin := timedRuns(b, tg, bin, rounds, nil)
			ratio, plain := pairedRatio(b, runPlain, runPlugin)
			b.ReportMetric(ratio, "x-plugin/plain")
			b.ReportMetric(plain.Seconds(), "s-plain-min")
			// Quiet here it measures 1.13–1.19×; fresh-machine CI runs on the shared host gave
			// 1.16–1.24× and once 1.30× (mips) with the same code, so CI fails only past 1.35×,
			// as the other overhead benchmarks do past their goal plus the host's drift.
			// x86-64 is over the goal by QEMU 7.2's design, not the plugin's (see above: one
			// inline add per block costs 1.18–1.2× there), so it fails only past 1.5×.
			failAt := 1.35
			if tg.Name == qemutest.X86_64.Name {
				failAt = 1.5
			}
			benchmem.CheckGoal(b, "plugin run over plain qemu", ratio, 1.25, failAt)
		})
	}
}

// BenchmarkPluginCacheOverhead is BenchmarkPluginOverhead with the cache simulation on (issue 27:
// `androprof run --cache` at most 4× plain qemu-user), with a Cortex-A8-like hierarchy: 32 KiB
// 4-way L1s and a 256 KiB 8-way L2, 64-byte lines. On x86-64 it also times cachegrind on the
// same program natively, against the program alone: what simulating these caches costs
// without an emulator.
//
//	go test -run '^$' -bench PluginCacheOverhead -benchtime 5x ./emulator
//
// cpu.c is a hard case: its sieve writes a 1 MiB array at every stride, so a fifth of its 311
// million loads and stores (50 rounds, x86-64) miss the L1D and most of those the L2, and each
// miss walks two sets of tags that the guest's own streaming keeps out of the host's L1 cache.
func BenchmarkPluginCacheOverhead(b *testing.B) {
	qemutest.Require(b, "gcc")
	src := filepath.Join(qemutest.SamplesDir(), "cpu.c")
	const rounds = "50"
	g, err := cost.ParseCacheGeometry("l1i=32k:4:64,l1d=32k:4:64,l2=256k:8:64")
	if err != nil {
		b.Fatal(err)
	}
	for _, tg := range qemutest.Targets {
		b.Run(tg.Name, func(b *testing.B) {
			bin := qemutest.Build(b, tg, src)
			grind := 0.0 // first: ResetTimer, in pairedRatio, deletes the metrics reported before it
			if tg.Name == qemutest.X86_64.Name {
				grind = cachegrindRatio(b, src, rounds, g)
			}
			runPlain, runCache := timedRuns(b, tg, bin, rounds, &g)
			ratio, plain := pairedRatio(b, runPlain, runCache)
			b.ReportMetric(ratio, "x-cache/plain")
			b.ReportMetric(plain.Seconds(), "s-plain-min")
			if grind > 0 {
				b.ReportMetric(grind, "x-cachegrind/native")
			}
			benchmem.CheckGoal(b, "plugin run with the cache simulation over plain qemu", ratio, 4, cacheFailAt)
		})
	}
}

// cacheFailAt is where the cache benchmark fails. It measures 3.6–4.9× here, x86-64 over the
// goal (docs/benchmarks.md), and a busy host adds a third: it catches a slower simulation.
const cacheFailAt = 7

// cachegrindRatio is cachegrind's time over the program's own, natively on this host (the
// x86-64 build of src, static, as the referee builds it); 0 without valgrind.
func cachegrindRatio(b *testing.B, src, rounds string, g cost.CacheGeometry) float64 {
	if _, err := exec.LookPath("valgrind"); err != nil {
		b.Logf("no valgrind: cachegrind's time is not measured")
		return 0
	}
	bin := filepath.Join(b.TempDir(), "cpu-native")
	if out, err := exec.Command("gcc", "-O2", "-static", "-no-pie", "-o", bin, src).CombinedOutput(); err != nil {
		b.Fatalf("gcc: %v\n%s", err, out)
	}
	level := func(name string) string {
		l := g.Level(name)
		return fmt.Sprintf("%d,%d,%d", l.SizeBytes, l.Ways, l.LineBytes)
	}
	timed := func(argv ...string) func() time.Duration {
		return func() time.Duration {
			t0 := time.Now()
			if out, err := exec.Command(argv[0], argv[1:]...).CombinedOutput(); err != nil {
				b.Fatalf("%s: %v\n%s", argv[0], err, out)
			}
			return time.Since(t0)
		}
	}
	native := timed(bin, rounds)
	grind := timed("valgrind", "--tool=cachegrind", "--cache-sim=yes", "--I1="+level(cost.L1I), "--D1="+level(cost.L1D),
		"--LL="+level(cost.L2), "--cachegrind-out-file=/dev/null", bin, rounds)
	ratio, _ := pairedRatio(b, native, grind)
	return ratio
}

// timedRuns are the two runs an overhead benchmark compares: bin under plain qemu-user, and
// through Run with the plugin (counting, writing and reading the profile; the plugin build is
// cached), simulating cache when it is set.
func timedRuns(b *testing.B, tg qemutest.Target, bin, rounds string, cache *cost.CacheGeometry) (plain, plugin func() time.Duration) {
	plain = func() time.Duration {
		t0 := time.Now()
		if out, err := exec.Command(tg.QEMU, bin, rounds).CombinedOutput(); err != nil {
			b.Fatalf("%s: %v\n%s", tg.QEMU, err, out)
		}
		return time.Since(t0)
	}
	plugin = func() time.Duration {
		t0 := time.Now()
		c := bbprofile.NewCollector()
		opts := RunOptions{Program: bin, Args: []string{rounds}, CacheDir: testCacheDir, Cache: cache}
		if err := Run(context.Background(), opts, c, nil); err != nil {
			b.Fatal(err)
		}
		d := time.Since(t0)
		if c.Instructions() < 1e8 {
			b.Fatalf("only %d instructions: not CPU-bound", c.Instructions())
		}
		if cache != nil && len(c.Cache) == 0 {
			b.Fatal("the run has no cache counts")
		}
		return d
	}
	return plain, plugin
}

// pairedRatio times b.N pairs of a plain run and a plugin run one after the other, in turns
// first, and returns the median of their ratios and the fastest plain run. One untimed run of
// each warms the page cache and builds the plugin. A virtual machine's speed drifts by tens
// of percent within a minute, so each plugin run is paired with a plain run next to it (the
// fastest of each series may come from different moments).
func pairedRatio(b *testing.B, runPlain, runPlugin func() time.Duration) (float64, time.Duration) {
	runPlain()
	runPlugin()
	b.ResetTimer()
	plain := time.Duration(math.MaxInt64)
	ratios := make([]float64, b.N)
	for i := range ratios {
		var p, q time.Duration
		if i%2 == 0 { // either may go first: the first of two runs is often the faster
			p, q = runPlain(), runPlugin()
		} else {
			q, p = runPlugin(), runPlain()
		}
		ratios[i] = float64(q) / float64(p)
		plain = min(plain, p)
	}
	slices.Sort(ratios)
	return ratios[len(ratios)/2], plain
}
