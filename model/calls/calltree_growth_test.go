package calls_test

import (
	"testing"

	"androprof/internal/benchmem"
	"androprof/model/calls"
)

// deepChain feeds one thread calls nested depth deep over three methods (so it recurses), then
// their exits, and returns the finished tree.
func deepChain(t testing.TB, depth int) []calls.CallNode {
	b := calls.NewCallBuilder()
	b.Header(calls.TraceHeader{Clock: calls.ClockDual})
	for id := uint64(1); id <= 3; id++ {
		b.Method(calls.MethodInfo{ID: id, Class: "C", Name: "m"})
	}
	var clock uint64
	ev := func(m uint64, a calls.MethodAction) {
		clock++
		if err := b.Event(calls.MethodEvent{TID: 1, Method: m, Action: a, ThreadCPU: clock, Wall: clock}); err != nil {
			t.Fatal(err)
		}
	}
	for l := range depth {
		ev(uint64(1+l%3), calls.Enter)
	}
	for l := depth - 1; l >= 0; l-- {
		ev(uint64(1+l%3), calls.Exit)
	}
	return b.Finish().Tree
}

// Issue 24, finding 8: a call tree nesting N deep is built and searched for recursion in memory
// linear in N (each node held its whole path: quadratic).
func TestCallTreeDepthIsLinear(t *testing.T) {
	cost := func(depth int) uint64 {
		return benchmem.Allocated(func() {
			tree := deepChain(t, depth)
			if rec := calls.RecursiveEdges(tree); len(rec) != 3 {
				t.Errorf("depth %d: recursive edges %v, want the 3 of the cycle", depth, rec)
			}
		})
	}
	small, large := cost(5000), cost(10000)
	if r := float64(large) / float64(small); r > 2.5 {
		t.Errorf("a tree twice as deep allocated %.1f× (%d → %d bytes), more than linear", r, small, large)
	}
}
