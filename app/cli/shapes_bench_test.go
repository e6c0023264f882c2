package cli

import (
	"strings"
	"testing"
)

// BenchmarkShapes measures each shape of TestBatteryGrowth (issue 24: depth, ties, threads,
// bombs, long names, samples back in time, truncated files) at n and 2n, and reports the CPU
// time and peak memory of each size (import and commands; a tiny input costs about 0.05 s and
// 15 MB, the program's start). It fails when the growth above the tiny input's cost exceeds
// TestBatteryGrowth's bounds. Run it once: -benchtime 1x (scripts/test.sh).
func BenchmarkShapes(b *testing.B) {
	if raceDetector {
		b.Skip("measures peak memory and time, which the race detector inflates")
	}
	for _, s := range growthShapes() {
		b.Run(strings.ReplaceAll(s.name, " ", "-"), func(b *testing.B) {
			var base, first, second shapeCost
			for range b.N {
				base, first, second = measureShape(b, s)
			}
			for _, size := range []struct {
				c    shapeCost
				n    int
				name string
			}{{first, s.n, "n"}, {second, 2 * s.n, "2n"}} {
				b.ReportMetric(float64(size.c.cpu.Microseconds())/1e3, "cpu-ms@"+size.name)
				b.ReportMetric(float64(size.c.peak)/(1<<20), "peak-MB@"+size.name)
			}
			for _, p := range shapeProblems(base, first, second) {
				b.Errorf("%s: %s", s.name, p)
			}
		})
	}
}
