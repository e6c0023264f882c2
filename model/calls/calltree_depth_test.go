package calls

import (
	"math/rand/v2"
	"reflect"
	"slices"
	"testing"
)

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
