package calls

import (
	"fmt"
	"slices"
)

// CallNode is one call path of a thread with the calls made along it and their exclusive
// time: an aggregated call tree, as pprof and flame graphs want it. A node names only its own
// method and its caller's node (Parent, an index into the same slice), never its whole path, so
// a tree costs memory and disk linear in its nodes however deep it nests; CallPath rebuilds a
// path when a consumer wants one. CallBuilder makes them (CallProfile.Tree), threads by id,
// paths in the order first seen, so a parent always comes before its children.
type CallNode struct {
	TID                         int
	Parent                      int // index of the caller's node; -1 for a level-1 call (called from (toplevel))
	Method                      uint64
	Calls                       int64
	ExclusiveCPU, ExclusiveWall uint64
}

// NoParent is CallNode.Parent of a level-1 call.
const NoParent = -1

// CallPath is the methods from node i's level-1 call down to its own, root first.
func CallPath(tree []CallNode, i int) []uint64 {
	depth := 0
	for j := i; j != NoParent; j = tree[j].Parent {
		depth++
	}
	path := make([]uint64, depth)
	for j := i; j != NoParent; j = tree[j].Parent {
		depth--
		path[depth] = tree[j].Method
	}
	return path
}

// CheckCallTree says whether every node's parent is an earlier node of its thread: the order
// CallBuilder makes and the store keeps, which RecursiveEdges and CallPath rely on (a stored
// tree that breaks it is damaged, and could loop).
func CheckCallTree(tree []CallNode) error {
	for i, n := range tree {
		if n.Parent != NoParent && (n.Parent < 0 || n.Parent >= i || tree[n.Parent].TID != n.TID) {
			return fmt.Errorf("call tree node %d: parent %d is not an earlier node of thread %d", i, n.Parent, n.TID)
		}
	}
	return nil
}

// RecursiveEdge is the part of a caller→callee edge that dmtracedump and Traceview list apart,
// below their "+++++" line: calls made while a frame of the same method was already lower on
// the stack. The two sides choose independently, so one call can be plain on one side and
// recursive on the other.
type RecursiveEdge struct {
	Callee EdgeTimes // calls made while the callee was already on the stack: its recursive parents
	Caller EdgeTimes // calls made while the caller had another frame below it: its recursive children
}

// RecursiveEdges finds, from a thread's call tree, which calls of each edge were recursive on
// either side, with their inclusive times (a node's inclusive time is the exclusive time of the
// nodes under it, itself included). The tree gives the stack of every call, which the stored
// edges do not, and no orphan call (counted from time 0) is ever nested, so the split is exact,
// except when the call tree was full (Anomalies.FoldedPaths): a folded call then counts as
// plain. The tree must be in CheckCallTree's order. Time and memory are linear in the nodes: one
// walk down each tree keeps the methods on the current path counted.
func RecursiveEdges(tree []CallNode) map[CallEdge]RecursiveEdge {
	// A parent comes before its children, so walking backwards gives every node all of its
	// children's time before it gives its own to its parent.
	cpu, wall := make([]uint64, len(tree)), make([]uint64, len(tree))
	for i := len(tree) - 1; i >= 0; i-- {
		n := tree[i]
		cpu[i] += n.ExclusiveCPU
		wall[i] += n.ExclusiveWall
		if n.Parent != NoParent {
			cpu[n.Parent] += cpu[i]
			wall[n.Parent] += wall[i]
		}
	}
	below := repeatsAbove(tree)
	out := map[CallEdge]RecursiveEdge{}
	for i, n := range tree {
		if n.Parent == NoParent {
			continue // a level-1 call: (toplevel) is never recursive and nothing is below it
		}
		// The caller side asks whether the caller had another frame below it: the caller's own
		// answer.
		calleeRec, callerRec := below[i], below[n.Parent]
		if !calleeRec && !callerRec {
			continue
		}
		k := CallEdge{TID: n.TID, Caller: tree[n.Parent].Method, Callee: n.Method}
		r := out[k]
		e := EdgeTimes{Calls: n.Calls, InclusiveCPU: cpu[i], InclusiveWall: wall[i]}
		if calleeRec {
			r.Callee.add(e)
		}
		if callerRec {
			r.Caller.add(e)
		}
		out[k] = r
	}
	return out
}

// repeatsAbove says, per node, whether its method is also the method of one of its ancestors.
// A depth-first walk (children listed once, in one array) counts the methods on the path to the
// current node, so each node costs one map update in and one out.
func repeatsAbove(tree []CallNode) []bool {
	first := make([]int32, len(tree)+1) // children of node i: kids[first[i]:first[i+1]]
	for _, n := range tree {
		if n.Parent != NoParent {
			first[n.Parent+1]++
		}
	}
	for i := range tree {
		first[i+1] += first[i]
	}
	kids, fill := make([]int32, first[len(tree)]), slices.Clone(first)
	for i, n := range tree {
		if n.Parent != NoParent {
			kids[fill[n.Parent]] = int32(i)
			fill[n.Parent]++
		}
	}
	out := make([]bool, len(tree))
	onPath := map[uint64]int32{}
	type step struct {
		node int32
		next int32 // the next child to visit
	}
	var stack []step
	for root, n := range tree {
		if n.Parent != NoParent {
			continue
		}
		stack = append(stack[:0], step{int32(root), first[root]})
		onPath[n.Method]++
		for len(stack) > 0 {
			top := &stack[len(stack)-1]
			if top.next == first[top.node+1] {
				onPath[tree[top.node].Method]--
				stack = stack[:len(stack)-1]
				continue
			}
			c := kids[top.next]
			top.next++
			m := tree[c].Method
			out[c] = onPath[m] > 0
			onPath[m]++
			stack = append(stack, step{c, first[c]})
		}
	}
	return out
}

func (e *EdgeTimes) add(o EdgeTimes) {
	e.Calls += o.Calls
	e.InclusiveCPU += o.InclusiveCPU
	e.InclusiveWall += o.InclusiveWall
}

func (e EdgeTimes) minus(o EdgeTimes) EdgeTimes {
	return EdgeTimes{Calls: e.Calls - o.Calls, InclusiveCPU: e.InclusiveCPU - o.InclusiveCPU, InclusiveWall: e.InclusiveWall - o.InclusiveWall}
}
