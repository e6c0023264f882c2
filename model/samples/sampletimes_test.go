package samples

import (
	"math"
	"testing"

	"androprof/model/layers"
)

// backInTime is a recording whose samples go back in time, as a perf script with unordered
// samples does: the second sample is a second before the first, so it is imported at -1 s.
func backInTime(t *testing.T) *SampleProfile {
	t.Helper()
	b := NewSampleBuilder(SampleSelection{})
	for _, s := range []float64{5, 4, 5.5, 6, 4.5} {
		if err := b.Sample(&Sample{PID: 1, TID: 1, Comm: "main", TimeNS: int64(s * 1e9), Period: 1,
			Stack: []Frame{{Symbol: "work", Image: "/bin/prog"}}}); err != nil {
			t.Fatal(err)
		}
	}
	return b.Finish(SampleHeader{Format: "test"})
}

// drawn is the samples a timeline puts in its buckets.
func drawn(tl LayerTimeline) int {
	n := 0
	for _, c := range tl.Counts {
		for _, k := range c {
			n += k
		}
	}
	return n
}

// Issue 24, finding 13: `chart --by layer-time` of such a recording panicked with
// "index out of range [-1000000000]". Samples before the start are in no bucket and counted.
func TestTimelineSamplesBeforeTheStart(t *testing.T) {
	s := backInTime(t).Select(layers.LayerClassifier{}, SampleSelection{})
	tl := s.Timeline(4)
	if tl.StartNS != 0 || tl.Before != 2 || drawn(tl) != 3 || tl.Counts[0][layers.LayerNative-1] != 1 || tl.Counts[3][layers.LayerNative-1] != 1 {
		t.Errorf("timeline %+v: want 2 samples before the start and 3 drawn from 0 s", tl)
	}
}

// No time and no window a profile or a selection can hold makes the timeline panic, and every
// kept sample is either drawn or counted before the start.
func TestTimelineAnyTimes(t *testing.T) {
	p := backInTime(t)
	for i, ns := range []int64{math.MinInt64, math.MaxInt64, -1, 0, math.MaxInt64 - 1} {
		p.Samples[i].TimeNS = ns
	}
	for _, sel := range []SampleSelection{{}, {FromNS: -1e9}, {FromNS: math.MinInt64}, {ToNS: math.MaxInt64},
		{FromNS: 1, ToNS: math.MaxInt64}, {FromNS: math.MaxInt64 - 1}, {ToNS: math.MinInt64}} {
		for _, buckets := range []int{-1, 0, 1, 3, 100} {
			s := p.Select(layers.LayerClassifier{}, sel)
			tl := s.Timeline(buckets)
			if drawn(tl)+tl.Before != s.Kept || tl.BucketNS <= 0 {
				t.Errorf("selection %+v, %d buckets: %d drawn + %d before the start, %d kept; bucket %d ns",
					sel, buckets, drawn(tl), tl.Before, s.Kept, tl.BucketNS)
			}
		}
	}
}

// However many columns are asked for (`chart --buckets 100000000000` ran out of memory), the
// timeline has at most MaxTimelineBuckets, and still holds every sample from the start.
func TestTimelineBucketsBounded(t *testing.T) {
	s := backInTime(t).Select(layers.LayerClassifier{}, SampleSelection{})
	tl := s.Timeline(1 << 40)
	if len(tl.Counts) != MaxTimelineBuckets || drawn(tl) != 3 || tl.Before != 2 {
		t.Errorf("%d buckets, %d drawn, %d before the start", len(tl.Counts), drawn(tl), tl.Before)
	}
}
