package hprof

import (
	"io"
	"slices"

	"androprof/internal/inputerr"
	"androprof/model/heap"
)

// ReadRetention reads a dump's object graph and works out what keeps its memory alive: the
// exact dominator tree, retained sizes per object and per class, and a shortest reference chain
// from a GC root to every reachable object.
func ReadRetention(r io.ReadSeeker, name string, opts GraphOptions) (*heap.DumpRetention, error) {
	g, err := ReadGraph(r, name, opts)
	if err != nil {
		return nil, err
	}
	return Retention(g, opts), nil
}

// Retention computes a graph's dominator tree, retained sizes and shortest paths.
func Retention(g *Graph, opts GraphOptions) *heap.DumpRetention {
	d := heap.ComputeDominators(&g.ObjectGraph)
	paths := heap.ShortestPaths(&g.ObjectGraph)
	out := &heap.DumpRetention{Weak: opts.Weak, Reachable: d.Reachable, Classes: make([]heap.RetainedClass, len(g.ClassNames)),
		RefStart: d.RefStart, RefFrom: d.RefFrom}
	for i, name := range g.ClassNames {
		out.Classes[i].Name = name
	}
	for v := range g.Nodes() {
		if !g.IsClass[v] {
			c := &out.Classes[g.Class[v]]
			c.Instances++
			c.Shallow += g.Size[v]
		}
	}
	for v, r := range classRetainers(g, d) {
		if r {
			c := &out.Classes[g.Class[v]]
			c.Retained += d.Retained[v]
		}
	}

	at := make([]int32, g.Nodes()) // node → its index in Objects
	for i, v := range d.Order {
		at[v] = int32(i)
	}
	rootTag := make(map[int32]uint8, len(g.Roots))
	for i, v := range g.Roots {
		rootTag[v] = g.RootTags[i]
	}
	// Fields: the graph's field names, then the root kinds met; array slots stay numbers.
	out.Fields = slices.Clone(g.FieldNames)
	named := map[string]int32{}
	name := func(s string) int32 {
		i, ok := named[s]
		if !ok {
			i = int32(len(out.Fields))
			out.Fields = append(out.Fields, s)
			named[s] = i
		}
		return i
	}
	for _, v := range d.Order {
		o := heap.DumpObject{ID: g.IDs[v], Class: g.Class[v], IsClass: g.IsClass[v], Shallow: g.Size[v],
			Retained: d.Retained[v], Idom: -1, Parent: -1, Depth: paths.Depth[v]}
		if p := d.Idom[v]; p >= 0 {
			o.Idom = at[p]
		}
		var field int32
		if p := paths.Parent[v]; p >= 0 {
			o.Parent, field = at[p], g.Field[paths.Via[v]]
		} else {
			field = name(RootKind(rootTag[v]))
		}
		out.Objects.Append(o, field)
	}
	return out
}

// classRetainers says which objects count towards their class's retained size: the instances
// no other instance of the same class dominates (so a linked list's nodes count once, at its
// head). It walks the dominator tree depth first, counting per class the instances open on
// the way down.
func classRetainers(g *Graph, d *heap.Dominators) []bool {
	n := g.Nodes()
	// Children in the dominator tree, the top level under the virtual root n.
	start := make([]int32, n+3)
	parentOf := func(v int32) int32 {
		if p := d.Idom[v]; p >= 0 {
			return p
		}
		return int32(n)
	}
	for _, v := range d.Order {
		start[parentOf(v)+2]++
	}
	for i := 1; i < len(start); i++ {
		start[i] += start[i-1]
	}
	kids := make([]int32, len(d.Order))
	for _, v := range d.Order {
		p := parentOf(v) + 1
		kids[start[p]] = v
		start[p]++
	}
	// start[v] is now where v's children begin, start[v+1] where they end.
	counts := make([]int32, len(g.ClassNames))
	counted := make([]bool, n)
	type frame struct{ v, next int32 }
	stack := []frame{{v: int32(n), next: start[n]}}
	for len(stack) > 0 {
		top := &stack[len(stack)-1]
		if top.next == start[top.v+1] {
			if v := top.v; v < int32(n) && !g.IsClass[v] {
				counts[g.Class[v]]--
			}
			stack = stack[:len(stack)-1]
			continue
		}
		w := kids[top.next]
		top.next++
		if !g.IsClass[w] {
			counted[w] = counts[g.Class[w]] == 0
			counts[g.Class[w]]++
		}
		stack = append(stack, frame{v: w, next: start[w]})
	}
	return counted
}

// SummarizeWithRetention is Summarize, then ReadRetention on the same input (four passes in
// all, each seeking back to where r started): the summary's counts and what keeps the memory
// alive, as an import keeps them.
func SummarizeWithRetention(r io.ReadSeeker, name string, opts GraphOptions) (*heap.HeapDump, error) {
	start, err := r.Seek(0, io.SeekCurrent)
	if err != nil {
		return nil, &inputerr.Error{File: name, Msg: "seek: " + err.Error(), Err: err}
	}
	d, err := Summarize(r, name)
	if err != nil {
		return nil, err
	}
	if _, err := r.Seek(start, io.SeekStart); err != nil {
		return nil, &inputerr.Error{File: name, Msg: "seek back for the object graph: " + err.Error(), Err: err}
	}
	if d.Retention, err = ReadRetention(r, name, opts); err != nil {
		return nil, err
	}
	return d, nil
}
