package hprof

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"androprof/formats/hprof/hproftest"
	"androprof/internal/corpus"
	"androprof/internal/testio"
	"androprof/model/heap"
)

// graphOfFile reads a dump file (plain or gzip) into its graph.
func graphOfFile(t *testing.T, path string, opts GraphOptions) *Graph {
	t.Helper()
	data := testio.ReadPlain(t, path)
	g, err := ReadGraph(bytes.NewReader(data), path, opts)
	if err != nil {
		t.Fatal(err)
	}
	return g
}

// The definition of done: on every dump of ../shared/corpus (and the demo's HotSpot
// dump), retained sizes equal the brute-force computation — remove the object, walk again from
// the roots, count what is no longer reached — for the 40 largest retainers and 300 objects
// drawn at random, and the top level adds up to the reachable heap.
func TestRetainedSizesMatchBruteForce(t *testing.T) {
	for _, name := range []string{"demo-heap-dump.hprof.gz", "ahat-RI.hprof", "perflib-dialer.hprof"} {
		t.Run(name, func(t *testing.T) {
			path := "../../assets/demo/" + name
			if name != "demo-heap-dump.hprof.gz" {
				path = corpus.File(t, name) // skips without ../shared/corpus
			}
			g := graphOfFile(t, path, GraphOptions{})
			d := heap.ComputeDominators(&g.ObjectGraph)
			seen := make([]bool, g.Nodes())
			all := heap.ReachableWithout(&g.ObjectGraph, -1, seen)
			if d.Reachable != all {
				t.Fatalf("dominators reach %d bytes, a walk from the roots %d", d.Reachable, all)
			}
			var top uint64
			for v, p := range d.Idom {
				if p == heap.Root {
					top += d.Retained[v]
				}
			}
			if top != all {
				t.Errorf("the top level retains %d bytes, the reachable heap is %d", top, all)
			}
			check := slices.Clone(d.Order)
			slices.SortFunc(check, func(a, b int32) int { return -cmpU(d.Retained[a], d.Retained[b]) })
			check = check[:min(40, len(check))]
			rng := rand.New(rand.NewPCG(7, 11))
			for range 300 {
				check = append(check, d.Order[rng.IntN(len(d.Order))])
			}
			for _, v := range check {
				if want := all - heap.ReachableWithout(&g.ObjectGraph, v, seen); d.Retained[v] != want {
					t.Fatalf("object %#x (%s): retained %d, brute force %d", g.IDs[v], g.className(v), d.Retained[v], want)
				}
			}
			t.Logf("%d objects (%d reachable), %d references (%d to no object), %d roots; reachable %d bytes; largest retainer %s %d bytes",
				g.Nodes(), len(d.Order), len(g.Edges), g.Unresolved, len(g.Roots), all, g.className(check[0]), d.Retained[check[0]])
		})
	}
}

func cmpU(a, b uint64) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

func (g *Graph) className(v int32) string {
	if c := g.Class[v]; c >= 0 {
		return g.ClassNames[c]
	}
	return "(class or primitive array)"
}

// A dump written here with a known structure: a static field holds a map object whose array
// holds two entries; one entry is also held by a WeakReference. Weak references retain nothing
// unless asked to.
func TestGraphOfKnownDump(t *testing.T) {
	var buf bytes.Buffer
	w, err := hproftest.NewWriter(&buf, hproftest.Options{IDSize: 8})
	if err != nil {
		t.Fatal(err)
	}
	const (
		sObject, sRef, sWeak, sHolder, sEntry, sArr, sReferent, sNext, sMap, sTable, sValue = 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11
		cObject, cRef, cWeak, cHolder, cEntry, cArr                                         = 100, 101, 102, 103, 104, 105
	)
	for id, s := range map[uint64]string{sObject: "java/lang/Object", sRef: "java/lang/ref/Reference", sWeak: "java/lang/ref/WeakReference",
		sHolder: "Holder", sEntry: "Entry", sArr: "[LEntry;", sReferent: "referent", sNext: "next", sMap: "map", sTable: "table", sValue: "value"} {
		must(t, w.String(id, s))
	}
	for i, c := range [][2]uint64{{cObject, sObject}, {cRef, sRef}, {cWeak, sWeak}, {cHolder, sHolder}, {cEntry, sEntry}, {cArr, sArr}} {
		must(t, w.LoadClass(uint32(i+1), c[0], c[1]))
	}
	obj := hproftest.Field{Type: hproftest.Object}
	named := func(n uint64) hproftest.Field { f := obj; f.Name = n; return f }
	must(t, w.ClassDump(hproftest.Class{ID: cObject}))
	must(t, w.ClassDump(hproftest.Class{ID: cRef, Super: cObject, InstanceSize: 16, Fields: []hproftest.Field{named(sReferent), named(sNext)}}))
	must(t, w.ClassDump(hproftest.Class{ID: cWeak, Super: cRef, InstanceSize: 16}))
	must(t, w.ClassDump(hproftest.Class{ID: cHolder, Super: cObject, Statics: []hproftest.Static{{Name: sMap, Value: hproftest.Ref(200)}}}))
	must(t, w.ClassDump(hproftest.Class{ID: cEntry, Super: cObject, InstanceSize: 8, Fields: []hproftest.Field{named(sValue)}}))
	must(t, w.ClassDump(hproftest.Class{ID: cArr, Super: cObject}))
	must(t, w.Root(0x05, cHolder))                                                  // sticky class
	must(t, w.Root(0x05, 300))                                                      // the weak reference, held by a root of its own
	must(t, w.Instance(200, cEntry, w.Values(hproftest.Ref(201))))                  // the "map": its value is the table
	must(t, w.ObjArray(201, cArr, []uint64{202, 203}))                              // the table
	must(t, w.Instance(202, cEntry, w.Values(hproftest.Ref(0))))                    // entry 1
	must(t, w.Instance(203, cEntry, w.Values(hproftest.Ref(204))))                  // entry 2 → a value
	must(t, w.Instance(204, cEntry, w.Values(hproftest.Ref(0))))                    // the value
	must(t, w.Instance(300, cWeak, w.Values(hproftest.Ref(203), hproftest.Ref(0)))) // weak → entry 2
	must(t, w.Instance(301, cEntry, w.Values(hproftest.Ref(0))))                    // garbage
	must(t, w.Close())

	for _, weak := range []bool{false, true} {
		g, err := ReadGraph(bytes.NewReader(buf.Bytes()), "known.hprof", GraphOptions{Weak: weak})
		if err != nil {
			t.Fatal(err)
		}
		d := heap.ComputeDominators(&g.ObjectGraph)
		node := map[uint64]int32{}
		for v, id := range g.IDs {
			node[id] = int32(v)
		}
		retained := func(id uint64) uint64 { return d.Retained[node[id]] }
		// Holder (class, 0) → 200 (8) → 201 (2×8) → 202 (8), 203 (8) → 204 (8).
		wantMap, wantEntry2 := uint64(8+16+8+8+8), uint64(8+8)
		if weak {
			wantMap = 8 + 16 + 8 // entry 2 and its value are also held through the weak reference
		}
		if got := retained(200); got != wantMap {
			t.Errorf("weak %v: the map retains %d bytes, want %d", weak, got, wantMap)
		}
		if got := retained(203); got != wantEntry2 {
			t.Errorf("weak %v: entry 2 retains %d bytes, want %d", weak, got, wantEntry2)
		}
		if got := retained(cHolder); got != wantMap {
			t.Errorf("weak %v: the Holder class retains %d bytes, want %d", weak, got, wantMap)
		}
		if d.Idom[node[301]] != heap.Unreachable || d.Retained[node[301]] != 0 {
			t.Errorf("weak %v: garbage has idom %d, retained %d", weak, d.Idom[node[301]], d.Retained[node[301]])
		}
		if c := g.className(node[300]); c != "java/lang/ref/WeakReference" {
			t.Errorf("the weak reference's class is %q", c)
		}

		// The same as the workspace keeps it: per class, and the chain from a root.
		ret := Retention(g, GraphOptions{Weak: weak})
		for _, c := range ret.Classes {
			// The map and, held apart from it with weak references, entry 2: 48 bytes either way.
			if c.Name == "Entry" && (c.Instances != 5 || c.Shallow != 40 || c.Retained != 48) {
				t.Errorf("weak %v: Entry: %+v, want 5 instances, 40 bytes, 48 retained", weak, c)
			}
		}
		value, ok := ret.Find(204)
		if !ok {
			t.Fatalf("weak %v: no object 0xcc", weak)
		}
		var chain []string
		for _, o := range ret.Path(value.Seq) {
			chain = append(chain, fmt.Sprintf("%s %#x", o.Field, o.ID))
		}
		want := "system class 0x67 → map 0xc8 → value 0xc9 → [1] 0xcb → value 0xcc"
		if weak { // the weak reference is a shorter way
			want = "system class 0x12c → referent 0xcb → value 0xcc"
		}
		if got := strings.Join(chain, " → "); got != want {
			t.Errorf("weak %v: path to 0xcc: %s, want %s", weak, got, want)
		}
		if top, _ := ret.Find(cHolder); top.Idom != -1 || top.ClassOf != "class Holder" || top.Retained != wantMap {
			t.Errorf("weak %v: Holder's class object: %+v", weak, top)
		}
		if kids := ret.Dominated(-1, 0); len(kids) == 0 || kids[0].ID != cHolder {
			t.Errorf("weak %v: the top level starts %+v, want the Holder class", weak, kids)
		}
	}
}

func must(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

// A damaged dump fails with the file and offset, as Summarize does, and never panics.
func TestGraphOfDamagedDump(t *testing.T) {
	data := testio.ReadPlain(t, "../../assets/demo/demo-heap-dump.hprof.gz")
	for _, cut := range []int{len(data) / 3, len(data) / 2, len(data) - 7} {
		_, err := ReadGraph(bytes.NewReader(data[:cut]), "cut.hprof", GraphOptions{})
		if err == nil {
			t.Errorf("cut at %d: no error", cut)
		} else if want := "cut.hprof"; !bytes.Contains([]byte(err.Error()), []byte(want)) {
			t.Errorf("cut at %d: %v names no file", cut, err)
		}
	}
}
