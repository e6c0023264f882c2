package cli

import (
	"strings"
	"testing"
)

// BenchmarkShapes measures each shape of TestBatteryGrowth (issue 24: depth, ties, threads,
// bombs, long names, samples back in time, truncated files) at n and 2n, and reports what one
// unit of the shape (a call, a thread, a MiB, a byte of name, a sample) cost above the tiny
// input at each size: equal figures mean linear cost. It fails when the growth exceeds
// TestBatteryGrowth's bounds. Run it once: -benchtime 1x (scripts/test.sh).
func BenchmarkShapes(b *testing.B) {
	if raceDetector {
		b.Skip("measures peak memory and time, which the race detector inflates")
	}
	for _, s := range growthShapes() {
		b.Run(strings.ReplaceAll(s.name, " ", "-"), func(b *testing.B) {
			var base, first, second cost
			for range b.N {
				base, first, second = measureShape(b, s)
			}
			for _, size := range []struct {
				c    cost
				n    int
				name string
			}{{first, s.n, "n"}, {second, 2 * s.n, "2n"}} {
				b.ReportMetric(float64(size.c.cpu-base.cpu)/float64(size.n), "cpu-ns/unit@"+size.name)
				b.ReportMetric(float64(size.c.peak-base.peak)/float64(size.n), "peak-B/unit@"+size.name)
			}
			for _, p := range shapeProblems(base, first, second) {
				b.Errorf("%s: %s", s.name, p)
			}
		})
	}
}
