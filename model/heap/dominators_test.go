package heap

import (
	"math/rand/v2"
	"slices"
	"testing"
)

// graphOf builds an ObjectGraph from adjacency lists.
func graphOf(sizes []uint64, adj [][]int32, roots ...int32) *ObjectGraph {
	g := &ObjectGraph{Size: sizes, Start: make([]uint32, len(sizes)+1), Roots: roots}
	for v, ws := range adj {
		g.Edges = append(g.Edges, ws...)
		g.Start[v+1] = uint32(len(g.Edges))
	}
	for v := len(adj); v < len(sizes); v++ {
		g.Start[v+1] = uint32(len(g.Edges))
	}
	return g
}

// bruteRetained is the definition: the bytes that become unreachable when v is removed.
func bruteRetained(g *ObjectGraph) []uint64 {
	seen := make([]bool, g.Nodes())
	total := ReachableWithout(g, -1, seen)
	reached := slices.Clone(seen)
	out := make([]uint64, g.Nodes())
	for v := range g.Nodes() {
		if reached[v] {
			out[v] = total - ReachableWithout(g, int32(v), seen)
		}
	}
	return out
}

func TestDominatorsKnownShape(t *testing.T) {
	// root → 0 (a static map) → 1 (its table) → 2, 3 (entries) → 4, 5 (values);
	// 6 is held by 2 and 3 both; 7 is held by nothing.
	adj := [][]int32{{1}, {2, 3}, {4, 6}, {5, 6}, {}, {}, {}, {}}
	g := graphOf([]uint64{10, 20, 30, 40, 50, 60, 70, 80}, adj, 0)
	d := ComputeDominators(g)
	wantIdom := []int32{Root, 0, 1, 1, 2, 3, 1, Unreachable}
	wantRetained := []uint64{280, 270, 80, 100, 50, 60, 70, 0}
	for v := range wantIdom {
		if d.Idom[v] != wantIdom[v] || d.Retained[v] != wantRetained[v] {
			t.Errorf("node %d: idom %d retained %d, want %d and %d", v, d.Idom[v], d.Retained[v], wantIdom[v], wantRetained[v])
		}
	}
	if d.Reachable != 280 || len(d.Order) != 7 {
		t.Errorf("reachable %d in %d nodes, want 280 in 7", d.Reachable, len(d.Order))
	}
}

// Random graphs of every shape (cycles, shared children, several roots, self references,
// unreachable parts) against the brute-force definition.
func TestDominatorsMatchBruteForce(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for round := range 300 {
		n := 1 + rng.IntN(40)
		sizes := make([]uint64, n)
		adj := make([][]int32, n)
		for v := range n {
			sizes[v] = uint64(rng.IntN(100))
			for range rng.IntN(4) {
				adj[v] = append(adj[v], int32(rng.IntN(n)))
			}
		}
		var roots []int32
		for v := range n {
			if rng.IntN(8) == 0 {
				roots = append(roots, int32(v))
			}
		}
		g := graphOf(sizes, adj, roots...)
		d := ComputeDominators(g)
		want := bruteRetained(g)
		var top uint64
		for v := range n {
			if d.Retained[v] != want[v] {
				t.Fatalf("round %d node %d: retained %d, brute force %d (graph %v roots %v sizes %v)", round, v, d.Retained[v], want[v], adj, roots, sizes)
			}
			if d.Idom[v] == Root {
				top += d.Retained[v]
			}
		}
		if top != d.Reachable {
			t.Fatalf("round %d: the top level retains %d, the reachable heap is %d", round, top, d.Reachable)
		}
	}
}

// A chain far deeper than any stack: the iterative walk and path compression take it.
func TestDominatorsDeepChain(t *testing.T) {
	const n = 1_000_000
	sizes := make([]uint64, n)
	g := &ObjectGraph{Size: sizes, Start: make([]uint32, n+1), Edges: make([]int32, 0, n), Roots: []int32{0}}
	for v := range n {
		sizes[v] = 1
		if v+1 < n {
			g.Edges = append(g.Edges, int32(v+1))
		}
		g.Start[v+1] = uint32(len(g.Edges))
	}
	d := ComputeDominators(g)
	if d.Retained[0] != n || d.Retained[n-1] != 1 || d.Idom[n-1] != n-2 {
		t.Errorf("chain: retained %d and %d, idom of the last %d", d.Retained[0], d.Retained[n-1], d.Idom[n-1])
	}
}

// Referrers are the graph's edges among reachable nodes, reversed, one per reference.
func TestReferrersAreTheEdgesReversed(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	for range 200 {
		n := 1 + rng.IntN(30)
		adj := make([][]int32, n)
		for v := range n {
			for range rng.IntN(4) {
				adj[v] = append(adj[v], int32(rng.IntN(n)))
			}
		}
		g := graphOf(make([]uint64, n), adj, int32(rng.IntN(n)), int32(rng.IntN(n)))
		d := ComputeDominators(g)
		seq := map[int32]int32{}
		for i, v := range d.Order {
			seq[v] = int32(i)
		}
		want := make([][]int32, len(d.Order))
		for v, ws := range adj {
			if s, ok := seq[int32(v)]; ok {
				for _, w := range ws {
					want[seq[w]] = append(want[seq[w]], s)
				}
			}
		}
		if len(d.RefStart) != len(d.Order)+1 {
			t.Fatalf("%d offsets for %d nodes", len(d.RefStart), len(d.Order))
		}
		for i := range d.Order {
			got := slices.Clone(d.RefFrom[d.RefStart[i]:d.RefStart[i+1]])
			slices.Sort(got)
			slices.Sort(want[i])
			if !slices.Equal(got, want[i]) {
				t.Fatalf("node %d: referrers %v, want %v (adj %v)", d.Order[i], got, want[i], adj)
			}
		}
	}
}

// The import's lean forms give what the plain ones do: ComputeDominatorsFreeing the same tree
// (and drops the references), ShortestParents the same parents, each with its reference's label.
func TestLeanFormsAgree(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	for round := range 200 {
		n := 1 + rng.IntN(30)
		sizes := make([]uint64, n)
		adj := make([][]int32, n)
		for v := range n {
			sizes[v] = uint64(rng.IntN(50))
			for range rng.IntN(4) {
				adj[v] = append(adj[v], int32(rng.IntN(n)))
			}
		}
		g := graphOf(sizes, adj, int32(rng.IntN(n)), int32(rng.IntN(n)))
		label := make([]int32, len(g.Edges))
		for e := range label {
			label[e] = int32(100 + e)
		}
		want, paths := ComputeDominators(g), ShortestPaths(g)
		parent, via := ShortestParents(g, label)
		for v := range n {
			wantVia := int32(0)
			if e := paths.Via[v]; e >= 0 {
				wantVia = label[e]
			}
			if parent[v] != paths.Parent[v] || via[v] != wantVia {
				t.Fatalf("round %d node %d: parent %d via %d, want %d and %d", round, v, parent[v], via[v], paths.Parent[v], wantVia)
			}
		}
		got := ComputeDominatorsFreeing(g)
		if g.Edges != nil || g.Start != nil {
			t.Fatalf("round %d: the references are still held", round)
		}
		if !slices.Equal(got.Idom, want.Idom) || !slices.Equal(got.Retained, want.Retained) || !slices.Equal(got.Order, want.Order) ||
			got.Reachable != want.Reachable || !slices.Equal(got.RefStart, want.RefStart) || !slices.Equal(got.RefFrom, want.RefFrom) {
			t.Fatalf("round %d: freeing gives %+v, want %+v", round, got, want)
		}
	}
}
