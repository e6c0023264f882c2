package heap

import (
	"errors"
	"math"
	"runtime"
	"slices"
)

// ObjectGraph is a heap as its references: nodes are objects (instances, arrays, classes),
// Edges[Start[v]:Start[v+1]] are the objects v refers to, and Roots are the objects the GC
// roots hold. A virtual root above all GC roots makes it one tree of dominators.
type ObjectGraph struct {
	Size  []uint64 // shallow size of each node
	Start []uint32 // len(Size)+1 offsets into Edges
	Edges []int32
	Roots []int32 // the nodes GC roots hold, each once
}

// Nodes is the number of objects.
func (g *ObjectGraph) Nodes() int { return len(g.Size) }

// ErrGraphTooBig is returned for a graph whose edges do not fit the offsets.
var ErrGraphTooBig = errors.New("object graph: more than 4 294 967 295 references")

// Dominators is the dominator tree of an ObjectGraph and each object's retained size: the
// bytes that would be freed if nothing but the object's dominator tree parent held it.
type Dominators struct {
	// Idom is each node's immediate dominator: another node, Root for the objects only the
	// virtual root dominates (the top level), or Unreachable.
	Idom []int32
	// Retained is each node's retained size: its own size and the sizes of every node it
	// dominates; 0 for unreachable nodes.
	Retained []uint64
	// Order is the reachable nodes in depth-first preorder from the roots: a node's dominators
	// come before it.
	Order []int32
	// Reachable is the sum of the reachable nodes' sizes: the top level's retained sizes add
	// up to it.
	Reachable uint64
	// Referrers of the reachable nodes, by their index in Order: RefFrom[RefStart[i]:RefStart[i+1]]
	// are the indexes in Order of the nodes that refer to Order[i] (one per reference, so a
	// node referring twice is there twice; the virtual root is left out).
	RefStart []uint32
	RefFrom  []int32
}

// Root and Unreachable are the special values of Dominators.Idom.
const (
	Root        int32 = -1
	Unreachable int32 = -2
)

// ComputeDominators finds the exact dominator tree of g from its roots with the
// Lengauer–Tarjan algorithm (the simple version: path compression without balancing,
// O(E log N)), iteratively so deep object chains cannot overflow a stack, and sums the
// retained sizes up the tree.
func ComputeDominators(g *ObjectGraph) *Dominators { return computeDominators(g, false) }

// ComputeDominatorsFreeing is ComputeDominators for a graph used once: it drops g.Edges and
// g.Start (sets them nil) as soon as it has the predecessors, so that a big dump's references
// are freed before the tree's arrays are made.
func ComputeDominatorsFreeing(g *ObjectGraph) *Dominators { return computeDominators(g, true) }

func computeDominators(g *ObjectGraph, free bool) *Dominators {
	n := g.Nodes()
	// Node n is the virtual root; work is done in depth-first numbers (0 is the root).
	root := n
	succ := func(v int, visit func(w int32)) {
		if v == root {
			for _, w := range g.Roots {
				visit(w)
			}
			return
		}
		for _, w := range g.Edges[g.Start[v]:g.Start[v+1]] {
			visit(w)
		}
	}

	// Depth-first numbering: dfn[v] (-1: unreached), vertex[i], parent[i] (in numbers).
	dfn := make([]int32, n+1)
	for i := range dfn {
		dfn[i] = -1
	}
	vertex := make([]int32, 0, n+1)
	parent := make([]int32, 0, n+1)
	type frame struct {
		v    int32
		next uint32 // the next edge to follow
	}
	number := func(v, p int32) {
		dfn[v] = int32(len(vertex))
		vertex = append(vertex, v)
		parent = append(parent, p)
	}
	number(int32(root), -1)
	stack := []frame{}
	for _, w := range g.Roots { // the root's edges are not in Edges: push them one by one
		if dfn[w] >= 0 {
			continue
		}
		number(w, 0)
		stack = append(stack[:0], frame{v: w, next: g.Start[w]})
		for len(stack) > 0 {
			top := &stack[len(stack)-1]
			if top.next == g.Start[top.v+1] {
				stack = stack[:len(stack)-1]
				continue
			}
			w := g.Edges[top.next]
			top.next++
			if dfn[w] < 0 {
				number(w, dfn[top.v])
				stack = append(stack, frame{v: w, next: g.Start[w]})
			}
		}
	}
	m := len(vertex)

	// Predecessors of the reached nodes, in numbers (CSR).
	predStart := make([]uint32, m+1)
	for i := range m {
		succ(int(vertex[i]), func(w int32) {
			if dfn[w] >= 0 {
				predStart[dfn[w]+1]++
			}
		})
	}
	for i := range m {
		predStart[i+1] += predStart[i]
	}
	pred := make([]int32, predStart[m])
	fill := make([]uint32, m)
	copy(fill, predStart[:m])
	for i := range m {
		succ(int(vertex[i]), func(w int32) {
			if d := dfn[w]; d >= 0 {
				pred[fill[d]] = int32(i)
				fill[d]++
			}
		})
	}
	fill = nil
	if free {
		g.Edges, g.Start = nil, nil
	}

	semi := make([]int32, m)
	label := make([]int32, m)
	// ancestor is the forest's links; a node not linked yet holds ^parent, negative as -1 is.
	ancestor := parent[:m]
	idom := make([]int32, m)
	bucketHead := dfn[:m] // the numbers are done with
	bucketNext := make([]int32, m)
	for i := range m {
		semi[i], label[i], ancestor[i], bucketHead[i], bucketNext[i] = int32(i), int32(i), ^ancestor[i], -1, -1
	}
	ancestor[0] = -1 // the root is never linked
	parent = nil
	var path []int32
	eval := func(v int32) int32 {
		if ancestor[v] < 0 {
			return v
		}
		// Compress the path from v up to the forest root's child, iteratively.
		path = path[:0]
		for x := v; ancestor[ancestor[x]] >= 0; x = ancestor[x] {
			path = append(path, x)
		}
		for i := len(path) - 1; i >= 0; i-- {
			x := path[i]
			a := ancestor[x]
			if semi[label[a]] < semi[label[x]] {
				label[x] = label[a]
			}
			ancestor[x] = ancestor[a]
		}
		return label[v]
	}
	for w := int32(m - 1); w > 0; w-- {
		for _, v := range pred[predStart[w]:predStart[w+1]] {
			if u := eval(v); semi[u] < semi[w] {
				semi[w] = semi[u]
			}
		}
		s := semi[w]
		bucketNext[w], bucketHead[s] = bucketHead[s], w
		p := ^ancestor[w]
		ancestor[w] = p // link
		for v := bucketHead[p]; v >= 0; v = bucketNext[v] {
			if u := eval(v); semi[u] < semi[v] {
				idom[v] = u
			} else {
				idom[v] = p
			}
		}
		bucketHead[p] = -1
	}
	for w := 1; w < m; w++ {
		if idom[w] != semi[w] {
			idom[w] = idom[idom[w]]
		}
	}

	semi, label, ancestor, bucketHead, bucketNext = nil, nil, nil, nil, nil
	if free { // a graph used once is a big one: let the arrays above go before the results come
		runtime.GC()
	}

	d := &Dominators{Idom: dfn[:n], Retained: make([]uint64, n), Order: vertex[1:m:m]}
	dfn = nil
	for v := range n {
		d.Idom[v] = Unreachable
	}
	for i := 1; i < m; i++ {
		v := vertex[i]
		if idom[i] == 0 {
			d.Idom[v] = Root
		} else {
			d.Idom[v] = vertex[idom[i]]
		}
		d.Retained[v] = g.Size[v]
	}
	// A node's dominator comes before it in preorder: summing from the last up is complete.
	for i := m - 1; i > 0; i-- {
		v := vertex[i]
		if p := idom[i]; p > 0 {
			w := vertex[p]
			d.Retained[w] = addSat(d.Retained[w], d.Retained[v])
		} else {
			d.Reachable = addSat(d.Reachable, d.Retained[v])
		}
	}
	d.RefStart, d.RefFrom = referrers(pred, predStart)
	return d
}

// referrers turns the predecessors, in depth-first numbers, into referrers by index in Order
// (number − 1), in place: the virtual root (number 0) is dropped.
func referrers(pred []int32, predStart []uint32) ([]uint32, []int32) {
	m := len(predStart) - 1
	out := uint32(0)
	for w := 1; w < m; w++ {
		from, to := predStart[w], predStart[w+1]
		predStart[w-1] = out // in place: entry w-1 is read no more
		for _, v := range pred[from:to] {
			if v > 0 {
				pred[out] = v - 1
				out++
			}
		}
	}
	predStart[m-1] = out
	return predStart[:m:m], pred[:out:out]
}

// ReachableWithout is the brute-force definition retained sizes are checked against: the
// bytes reachable from g's roots when node skip is gone (-1: nothing is). Retained(v) is
// ReachableWithout(-1) − ReachableWithout(v). seen is scratch space of g.Nodes() entries.
func ReachableWithout(g *ObjectGraph, skip int32, seen []bool) uint64 {
	clear(seen)
	var total uint64
	var stack []int32
	for _, r := range g.Roots {
		if r != skip && !seen[r] {
			seen[r] = true
			stack = append(stack, r)
		}
	}
	for len(stack) > 0 {
		v := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		total = addSat(total, g.Size[v])
		for _, w := range g.Edges[g.Start[v]:g.Start[v+1]] {
			if w != skip && !seen[w] {
				seen[w] = true
				stack = append(stack, w)
			}
		}
	}
	return total
}

// addSat adds without wrapping: sizes a file states can be anything.
func addSat(a, b uint64) uint64 {
	if a > math.MaxUint64-b {
		return math.MaxUint64
	}
	return a + b
}

// Paths are the shortest reference chains from the GC roots: a breadth-first walk, so each
// reachable object's Parent is one step nearer a root than it.
type Paths struct {
	Parent []int32 // the object that refers to it on a shortest path; Root for a root, Unreachable
	Via    []int64 // the index in Edges of that reference; -1 for a root or an unreachable object
	Depth  []int32 // references from a root: 0 for a root, -1 unreachable
}

// ShortestPaths walks g breadth-first from its roots.
func ShortestPaths(g *ObjectGraph) *Paths {
	n := g.Nodes()
	p := &Paths{Parent: make([]int32, n), Via: make([]int64, n), Depth: make([]int32, n)}
	for v := range n {
		p.Parent[v], p.Via[v], p.Depth[v] = Unreachable, -1, -1
	}
	queue := make([]int32, 0, len(g.Roots))
	for _, r := range g.Roots {
		if p.Parent[r] == Unreachable {
			p.Parent[r], p.Depth[r] = Root, 0
			queue = append(queue, r)
		}
	}
	for i := 0; i < len(queue); i++ {
		v := queue[i]
		for e := g.Start[v]; e < g.Start[v+1]; e++ {
			if w := g.Edges[e]; p.Parent[w] == Unreachable {
				p.Parent[w], p.Via[w], p.Depth[w] = v, int64(e), p.Depth[v]+1
				queue = append(queue, w)
			}
		}
	}
	return p
}

// ShortestParents is ShortestPaths for a graph too big to keep more than it needs: each node's
// parent on a shortest path (Root, Unreachable) and label[e] of the reference e it is reached
// by (0 for a root or an unreachable node), where label holds a value per reference.
func ShortestParents(g *ObjectGraph, label []int32) (parent, via []int32) {
	n := g.Nodes()
	parent, via = make([]int32, n), make([]int32, n)
	for v := range n {
		parent[v] = Unreachable
	}
	queue := make([]int32, 0, n)
	for _, r := range g.Roots {
		if parent[r] == Unreachable {
			parent[r] = Root
			queue = append(queue, r)
		}
	}
	for i := 0; i < len(queue); i++ {
		v := queue[i]
		for e := g.Start[v]; e < g.Start[v+1]; e++ {
			if w := g.Edges[e]; parent[w] == Unreachable {
				parent[w], via[w] = v, label[e]
				queue = append(queue, w)
			}
		}
	}
	return parent, via
}

// Chain is the path from a root to v: the root first, v last; nil when v is unreachable.
func (p *Paths) Chain(v int32) []int32 {
	if p.Parent[v] == Unreachable {
		return nil
	}
	var chain []int32
	for ; v >= 0; v = p.Parent[v] {
		chain = append(chain, v)
	}
	slices.Reverse(chain)
	return chain
}
