package shapes_test

import (
	"bytes"
	"io"
	"testing"

	"androprof/formats/dpa"
	"androprof/formats/traceview"
	"androprof/internal/shapes"
	callsmodel "androprof/model/calls"
)

// The ties generators make files whose calls, as the readers rebuild them, all last one length
// and number n, and the timeline's keeper keeps a budget of them at n and 2n (issue 24, finding 9).
func TestTiesReadBack(t *testing.T) {
	readers := map[string]struct {
		write func(io.Writer, int) error
		feed  func(io.Reader, callsmodel.MethodSink) error
	}{
		"traceview": {shapes.TiesTraceview, func(r io.Reader, s callsmodel.MethodSink) error { return traceview.NewReader(r, "ties.trace").Feed(s) }},
		"dpa":       {shapes.TiesDPA, func(r io.Reader, s callsmodel.MethodSink) error { return dpa.NewReader(r, "ties.dpa").Feed(s) }},
	}
	const budget = 500
	for name, f := range readers {
		for _, n := range []int{3_000, 6_000} {
			var buf bytes.Buffer
			if err := f.write(&buf, n); err != nil {
				t.Fatalf("%s: %v", name, err)
			}
			b := callsmodel.NewCallBuilder()
			k := &callsmodel.SpanKeeper{Budget: budget}
			calls, lengths := 0, map[uint64]bool{}
			b.OnCall = func(c callsmodel.Call) {
				calls++
				lengths[c.EndWall-c.StartWall] = true
				k.Add(c)
			}
			if err := f.feed(&buf, b); err != nil {
				t.Fatalf("%s, %d calls: %v", name, n, err)
			}
			if calls != n || len(lengths) != 1 || len(k.Calls()) != budget {
				t.Errorf("%s, %d calls: read %d calls of %d lengths, kept %d (budget %d)", name, n, calls, len(lengths), len(k.Calls()), budget)
			}
		}
	}
}
