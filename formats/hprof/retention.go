package hprof

import (
	"io"
	"runtime/debug"
	"slices"

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

// bytesPerObject is about what an object takes in a dump (HotSpot's and ART's average 40–80
// bytes): a graph's size in the dump's terms, for LowGC.
const bytesPerObject = 64

// release hands the memory a phase freed back to the system, for a graph big enough to matter.
func release(g *Graph) {
	if g.Nodes() >= 1<<20 {
		debug.FreeOSMemory()
	}
}

// Retention computes a graph's dominator tree, retained sizes and shortest paths. It consumes
// g: each of its columns is dropped (set to nil) once the computation no longer needs it, as
// a dump of a GB makes a graph of hundreds of MB.
func Retention(g *Graph, opts GraphOptions) *heap.DumpRetention {
	defer LowGC(int64(g.Nodes()) * bytesPerObject)()
	// Paths first, as they need the references' fields: then the fields can go.
	parent, via := heap.ShortestParents(&g.ObjectGraph, g.Field) // the field of each path's last step
	g.Field = nil
	release(g)
	d := heap.ComputeDominatorsFreeing(&g.ObjectGraph) // and the references with it
	release(g)
	out := &heap.DumpRetention{Weak: opts.Weak, Reachable: d.Reachable, Classes: make([]heap.RetainedClass, len(g.ClassNames)),
		Heaps: g.Heaps, RefStart: d.RefStart, RefFrom: d.RefFrom}
	d.RefStart, d.RefFrom = nil, nil
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
	out.Fields = rootFields(g, d, parent, via)
	columns(&out.Objects, g, d, parent, via)
	return out
}

// rootFields names the references of the paths: the graph's field names, then the root kinds
// met in the tree's order (array slots stay numbers); a root's via becomes its kind's index.
func rootFields(g *Graph, d *heap.Dominators, parent, via []int32) []string {
	rootTag := make(map[int32]uint8, len(g.Roots))
	for i, v := range g.Roots {
		rootTag[v] = g.RootTags[i]
	}
	names := slices.Clone(g.FieldNames)
	named := map[string]int32{}
	for _, v := range d.Order {
		if parent[v] != heap.Root {
			continue
		}
		s := RootKind(rootTag[v])
		i, ok := named[s]
		if !ok {
			i = int32(len(names))
			names = append(names, s)
			named[s] = i
		}
		via[v] = i
	}
	return names
}

// columns lays the reachable objects out in the dominator tree's depth-first order, one column
// at a time, dropping each of the graph's columns once it is copied.
func columns(c *heap.DumpColumns, g *Graph, d *heap.Dominators, parent, via []int32) {
	m := len(d.Order)
	at := make([]int32, g.Nodes()) // node → its index in Objects
	for i, v := range d.Order {
		at[v] = int32(i)
	}
	c.ID = pick(d.Order, g.IDs)
	g.IDs = nil
	c.Class = pick(d.Order, g.Class)
	g.Class = nil
	c.IsClass = pick(d.Order, g.IsClass)
	g.IsClass = nil
	c.Heap = pick(d.Order, g.Heap)
	g.Heap = nil
	c.Shallow = pick(d.Order, g.Size)
	g.Size = nil
	c.Retained = pick(d.Order, d.Retained)
	d.Retained = nil
	c.Field = pick(d.Order, via)
	c.Depth = depths(d.Order, parent)
	c.Idom = make([]int32, m)
	for i, v := range d.Order {
		c.Idom[i] = -1
		if p := d.Idom[v]; p >= 0 {
			c.Idom[i] = at[p]
		}
	}
	d.Idom = nil
	c.Parent = make([]int32, m)
	for i, v := range d.Order {
		c.Parent[i] = -1
		if p := parent[v]; p >= 0 {
			c.Parent[i] = at[p]
		}
	}
}

// depths are the references from a root to each node of order, along the shortest paths'
// parents: a root's is 0.
func depths(order, parent []int32) []int32 {
	depth := make([]int32, len(parent))
	for v := range depth {
		depth[v] = -1
	}
	var chain []int32
	for _, v := range order {
		x := v
		for depth[x] < 0 && parent[x] >= 0 {
			chain = append(chain, x)
			x = parent[x]
		}
		if depth[x] < 0 {
			depth[x] = 0 // a root
		}
		for i := len(chain) - 1; i >= 0; i-- {
			depth[chain[i]] = depth[x] + int32(len(chain)-i)
		}
		chain = chain[:0]
	}
	return pick(order, depth)
}

// pick is the values of col at the nodes of order, in that order.
func pick[T any](order []int32, col []T) []T {
	out := make([]T, len(order))
	for i, v := range order {
		out[i] = col[v]
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

// SummarizeWithRetention is Summarize and ReadRetention on the same input, in the two passes
// the graph takes (each seeking back to where r started): the summary's counts and what keeps
// the memory alive, as an import keeps them. The caller, who knows the dump's size, lowers the
// collector's setting for a big one (LowGC).
func SummarizeWithRetention(r io.ReadSeeker, name string, opts GraphOptions) (*heap.HeapDump, error) {
	b, err := readGraph(r, name, opts, true)
	if err != nil {
		return nil, err
	}
	d := b.s.result()
	release(b.g)
	d.Retention = Retention(b.g, opts)
	return d, nil
}
