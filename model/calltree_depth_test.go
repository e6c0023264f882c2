package model

import (
	"math/rand/v2"
	"reflect"
	"runtime"
	"slices"
	"testing"
)

// allocated is how many bytes f allocates (benchmem.Allocated, which model cannot import).
func allocated(f func()) uint64 {
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	f()
	runtime.ReadMemStats(&after)
	return after.TotalAlloc - before.TotalAlloc
}

// deepChain feeds one thread calls nested depth deep over three methods (so it recurses), then
// their exits, and returns the finished tree.
func deepChain(t testing.TB, depth int) []CallNode {
	b := NewCallBuilder()
	b.Header(TraceHeader{Clock: ClockDual})
	for id := uint64(1); id <= 3; id++ {
		b.Method(MethodInfo{ID: id, Class: "C", Name: "m"})
	}
	var clock uint64
	ev := func(m uint64, a MethodAction) {
		clock++
		if err := b.Event(MethodEvent{TID: 1, Method: m, Action: a, ThreadCPU: clock, Wall: clock}); err != nil {
			t.Fatal(err)
		}
	}
	for l := range depth {
		ev(uint64(1+l%3), Enter)
	}
	for l := depth - 1; l >= 0; l-- {
		ev(uint64(1+l%3), Exit)
	}
	return b.Finish().Tree
}

// Issue 24, finding 8: a call tree nesting N deep is built and searched for recursion in memory
// linear in N (each node held its whole path: quadratic).
func TestCallTreeDepthIsLinear(t *testing.T) {
	cost := func(depth int) uint64 {
		return allocated(func() {
			tree := deepChain(t, depth)
			if rec := RecursiveEdges(tree); len(rec) != 3 {
				t.Errorf("depth %d: recursive edges %v, want the 3 of the cycle", depth, rec)
			}
		})
	}
	small, large := cost(5000), cost(10000)
	if r := float64(large) / float64(small); r > 2.5 {
		t.Errorf("a tree twice as deep allocated %.1f× (%d → %d bytes), more than linear", r, small, large)
	}
}

// recursiveEdgesByPath is RecursiveEdges as it was, on whole paths: quadratic in depth, and the
// reference the linear one must match.
func recursiveEdgesByPath(tree []CallNode) map[CallEdge]RecursiveEdge {
	out := map[CallEdge]RecursiveEdge{}
	for i, n := range tree {
		path := CallPath(tree, i)
		last := len(path) - 1
		if last < 1 {
			continue
		}
		var e EdgeTimes
		e.Calls = n.Calls
		for j := range tree { // inclusive: i and every node below it
			for k := j; k != NoParent; k = tree[k].Parent {
				if k == i {
					e.InclusiveCPU += tree[j].ExclusiveCPU
					e.InclusiveWall += tree[j].ExclusiveWall
					break
				}
			}
		}
		callee, caller := path[last], path[last-1]
		calleeRec, callerRec := slices.Contains(path[:last], callee), slices.Contains(path[:last-1], caller)
		k := CallEdge{TID: n.TID, Caller: caller, Callee: callee}
		r := out[k]
		if calleeRec {
			r.Callee.add(e)
		}
		if callerRec {
			r.Caller.add(e)
		}
		if calleeRec || callerRec {
			out[k] = r
		}
	}
	return out
}

// Random traces (nesting, recursion, orphans, mismatched exits, three threads): the linear
// RecursiveEdges finds what the path-by-path one found.
func TestRecursiveEdgesMatchesPaths(t *testing.T) {
	rng := rand.New(rand.NewPCG(24, 8))
	recursive := 0
	for trial := range 50 {
		b := NewCallBuilder()
		b.Header(TraceHeader{Clock: ClockDual})
		for id := uint64(1); id <= 5; id++ {
			b.Method(MethodInfo{ID: id, Class: "C", Name: "m"})
		}
		var clock uint64
		for range 300 {
			clock += uint64(rng.IntN(5))
			a := Enter
			if rng.IntN(2) == 0 {
				a = Exit
			}
			if err := b.Event(MethodEvent{TID: 1 + rng.IntN(3), Method: uint64(1 + rng.IntN(5)), Action: a, ThreadCPU: clock, Wall: clock}); err != nil {
				t.Fatal(err)
			}
		}
		tree := b.Finish().Tree
		if err := CheckCallTree(tree); err != nil {
			t.Fatal(err)
		}
		if got, want := RecursiveEdges(tree), recursiveEdgesByPath(tree); !reflect.DeepEqual(got, want) {
			t.Fatalf("trial %d: recursive edges\n%v\nby paths\n%v", trial, got, want)
		}
		if len(RecursiveEdges(tree)) > 0 {
			recursive++
		}
	}
	if recursive < 25 {
		t.Errorf("only %d of 50 random traces recursed: the test says little", recursive)
	}
}
