package model

import (
	"cmp"
	"encoding/binary"
	"slices"
)

// CallNode is one call path of a thread (root first) with the calls made along it and their
// exclusive time: an aggregated call tree, as pprof and flame graphs want it. CallBuilder
// makes them (CallProfile.Tree).
type CallNode struct {
	TID                         int
	Path                        []uint64 // methods from the level-1 call down to this one
	Calls                       int64
	ExclusiveCPU, ExclusiveWall uint64
}

// RecursiveEdge is the part of a caller→callee edge that dmtracedump and Traceview list apart,
// below their "+++++" line: calls made while a frame of the same method was already lower on
// the stack. The two sides choose independently, so one call can be plain on one side and
// recursive on the other.
type RecursiveEdge struct {
	Callee EdgeTimes // calls made while the callee was already on the stack: its recursive parents
	Caller EdgeTimes // calls made while the caller had another frame below it: its recursive children
}

// RecursiveEdges finds, from a thread's call paths, which calls of each edge were recursive on
// either side, with their inclusive times (a path's inclusive time is the exclusive time of the
// paths under it, itself included). Paths give the stack of every call, which the stored edges
// do not, and no orphan call (counted from time 0) is ever nested, so the split is exact, except
// when the call tree was full (Anomalies.FoldedPaths): a folded call then counts as plain.
func RecursiveEdges(tree []CallNode) map[CallEdge]RecursiveEdge {
	type pathKey struct {
		tid  int
		path string
	}
	keys := make([]string, len(tree))
	index := make(map[pathKey]int, len(tree))
	for i, n := range tree {
		b := make([]byte, 0, 8*len(n.Path))
		for _, m := range n.Path {
			b = binary.LittleEndian.AppendUint64(b, m)
		}
		keys[i] = string(b)
		index[pathKey{n.TID, keys[i]}] = i
	}
	cpu, wall := make([]uint64, len(tree)), make([]uint64, len(tree))
	order := make([]int, len(tree))
	for i, n := range tree {
		cpu[i], wall[i], order[i] = n.ExclusiveCPU, n.ExclusiveWall, i
	}
	// Deepest first: a path has all of its children's time before it gives its own to its parent.
	slices.SortFunc(order, func(a, b int) int { return cmp.Compare(len(tree[b].Path), len(tree[a].Path)) })
	out := map[CallEdge]RecursiveEdge{}
	for _, i := range order {
		n := tree[i]
		last := len(n.Path) - 1
		if last < 1 {
			continue // a level-1 call: (toplevel) is never recursive and nothing is below it
		}
		if j, ok := index[pathKey{n.TID, keys[i][:8*last]}]; ok {
			cpu[j] += cpu[i]
			wall[j] += wall[i]
		}
		callee, caller := n.Path[last], n.Path[last-1]
		calleeRec, callerRec := slices.Contains(n.Path[:last], callee), slices.Contains(n.Path[:last-1], caller)
		if !calleeRec && !callerRec {
			continue
		}
		k := CallEdge{TID: n.TID, Caller: caller, Callee: callee}
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

func (e *EdgeTimes) add(o EdgeTimes) {
	e.Calls += o.Calls
	e.InclusiveCPU += o.InclusiveCPU
	e.InclusiveWall += o.InclusiveWall
}

func (e EdgeTimes) minus(o EdgeTimes) EdgeTimes {
	return EdgeTimes{Calls: e.Calls - o.Calls, InclusiveCPU: e.InclusiveCPU - o.InclusiveCPU, InclusiveWall: e.InclusiveWall - o.InclusiveWall}
}
