package model

import (
	"slices"
	"strconv"
	"strings"
)

// CallNode is one call path of a thread (root first) with the calls made along it and their
// exclusive time: an aggregated call tree, as pprof and flame graphs want it.
type CallNode struct {
	TID                         int
	Path                        []uint64 // methods from the level-1 call down to this one
	Calls                       int64
	ExclusiveCPU, ExclusiveWall uint64
}

// CallTree merges finished calls (CallBuilder.OnCall) by call path. Calls finish children
// first, so each thread keeps the finished subtrees still waiting for their caller, merged by
// path: memory is bounded by the number of distinct paths, never by the number of calls.
type CallTree struct {
	threads map[int]*treeThread
}

type treeThread struct {
	waiting []subtree           // finished calls not yet claimed by their caller, by depth
	done    map[string]*nodeAcc // committed paths ("id/id/…") of level-1 subtrees
}

type subtree struct {
	depth int
	paths map[string]*nodeAcc // relative to the subtree's root call
}

type nodeAcc struct {
	calls     int64
	cpu, wall uint64
}

func (a *nodeAcc) add(o *nodeAcc) { a.calls += o.calls; a.cpu += o.cpu; a.wall += o.wall }

func merge(into map[string]*nodeAcc, key string, a *nodeAcc) {
	if cur, ok := into[key]; ok {
		cur.add(a)
		return
	}
	into[key] = &nodeAcc{a.calls, a.cpu, a.wall}
}

// Add takes one finished call. Finished calls deeper than it that are still waiting are its
// callees (they finished first), so it claims them under its own method.
func (t *CallTree) Add(c Call) {
	if t.threads == nil {
		t.threads = map[int]*treeThread{}
	}
	th := t.threads[c.TID]
	if th == nil {
		th = &treeThread{done: map[string]*nodeAcc{}}
		t.threads[c.TID] = th
	}
	own := strconv.FormatUint(c.Method, 16)
	paths := map[string]*nodeAcc{own: {1, c.ExclusiveCPU, c.ExclusiveWall}}
	for len(th.waiting) > 0 && th.waiting[len(th.waiting)-1].depth > c.Depth {
		for p, a := range th.waiting[len(th.waiting)-1].paths {
			merge(paths, own+"/"+p, a)
		}
		th.waiting = th.waiting[:len(th.waiting)-1]
	}
	if c.Depth <= 0 {
		for p, a := range paths {
			merge(th.done, p, a)
		}
		return
	}
	th.waiting = append(th.waiting, subtree{c.Depth, paths})
}

// Nodes returns every path of every thread, threads by id and paths in order. Subtrees still
// waiting (whose caller never finished) count as rooted where they are.
func (t *CallTree) Nodes() []CallNode {
	var out []CallNode
	tids := make([]int, 0, len(t.threads))
	for tid := range t.threads {
		tids = append(tids, tid)
	}
	slices.Sort(tids)
	for _, tid := range tids {
		th := t.threads[tid]
		for _, w := range th.waiting {
			for p, a := range w.paths {
				merge(th.done, p, a)
			}
		}
		th.waiting = nil
		keys := make([]string, 0, len(th.done))
		for k := range th.done {
			keys = append(keys, k)
		}
		slices.Sort(keys)
		for _, k := range keys {
			a := th.done[k]
			var path []uint64
			for _, part := range strings.Split(k, "/") {
				id, _ := strconv.ParseUint(part, 16, 64)
				path = append(path, id)
			}
			out = append(out, CallNode{TID: tid, Path: path, Calls: a.calls, ExclusiveCPU: a.cpu, ExclusiveWall: a.wall})
		}
	}
	return out
}
