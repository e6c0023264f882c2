package shapes_test

import (
	"bytes"
	"io"
	"testing"

	"androprof/formats/dpa"
	"androprof/formats/rmp"
	"androprof/formats/traceview"
	"androprof/internal/shapes"
	"androprof/model/calls"
)

// The call-tree generators make files their readers accept, of the depth or the number of
// threads asked for (issue 24, findings 8 and 10), up to the formats' own limits.
func TestCallShapesReadBack(t *testing.T) {
	feeds := map[string]func(io.Reader, calls.MethodSink) error{
		"traceview": func(r io.Reader, s calls.MethodSink) error { return traceview.NewReader(r, "x.trace").Feed(s) },
		"dpa":       func(r io.Reader, s calls.MethodSink) error { return dpa.NewReader(r, "x.dpa").Feed(s) },
		"rmp":       func(r io.Reader, s calls.MethodSink) error { return rmp.NewReader(r, "x.rmp").Feed(s) },
	}
	for _, c := range []struct {
		format        string
		write         func(io.Writer, int) error
		n             int
		depth, thread int // what the trace must hold
	}{
		{"traceview", shapes.DeepTraceview, 3000, 3000, 1},
		{"dpa", shapes.DeepDPA, dpa.MaxDepth, dpa.MaxDepth, 1},
		{"rmp", shapes.DeepRMP, rmp.MaxDepth, rmp.MaxDepth, 1},
		{"traceview", shapes.ManyThreadsTraceview, 65535, 1, 65535},
		{"dpa", shapes.ManyThreadsDPA, 3000, 1, 3000},
		{"rmp", shapes.ManyThreadsRMP, 3000, 1, 3000},
	} {
		var buf bytes.Buffer
		if err := c.write(&buf, c.n); err != nil {
			t.Fatalf("%s %d: %v", c.format, c.n, err)
		}
		b := calls.NewCallBuilder()
		if err := feeds[c.format](&buf, b); err != nil {
			t.Fatalf("%s %d: %v", c.format, c.n, err)
		}
		p := b.Finish()
		depth := 0
		for _, th := range p.Threads {
			depth = max(depth, th.MaxDepth)
		}
		if depth != c.depth || len(p.Threads) != c.thread || len(p.Tree) != c.depth*c.thread || p.Anomalies != (calls.Anomalies{}) {
			t.Errorf("%s %d: depth %d, %d threads, %d call paths, anomalies %+v; want depth %d, %d threads",
				c.format, c.n, depth, len(p.Threads), len(p.Tree), p.Anomalies, c.depth, c.thread)
		}
	}
}
