package hprof

import (
	"bytes"
	"fmt"
	"reflect"
	"slices"
	"testing"

	"androprof/internal/corpus"
	"androprof/internal/testio"
	"androprof/model/heap"
)

// The import reads a dump twice for its summary and its retention together, and keeps little:
// what it gives is exactly Summarize's summary and the retention worked out plainly from the
// graph (ShortestPaths, ComputeDominators, every column by node then ordered), on the demo's
// HotSpot dump and the corpus's dumps; each object's heap is the one Summarize counts it in.
func TestSummarizeWithRetentionAsApart(t *testing.T) {
	for _, name := range []string{"demo-heap-dump.hprof.gz", "ahat-RI.hprof", "perflib-dialer.hprof"} {
		t.Run(name, func(t *testing.T) {
			path := "../../assets/demo/" + name
			if name != "demo-heap-dump.hprof.gz" {
				path = corpus.File(t, name)
			}
			data := testio.ReadPlain(t, path)
			got, err := SummarizeWithRetention(bytes.NewReader(data), path, GraphOptions{})
			if err != nil {
				t.Fatal(err)
			}
			want, err := Summarize(bytes.NewReader(data), path)
			if err != nil {
				t.Fatal(err)
			}
			ret := got.Retention
			got.Retention = nil
			if !reflect.DeepEqual(got, want) {
				t.Errorf("the summary differs from Summarize's:\n%+v\n%+v", got, want)
			}
			g, err := ReadGraph(bytes.NewReader(data), path, GraphOptions{})
			if err != nil {
				t.Fatal(err)
			}
			checkHeaps(t, g, want)
			plain := plainRetention(g)
			if !reflect.DeepEqual(ret.Objects, plain.Objects) || !slices.Equal(ret.Fields, plain.Fields) ||
				!slices.Equal(ret.Classes, plain.Classes) || ret.Reachable != plain.Reachable ||
				!slices.Equal(ret.RefStart, plain.RefStart) || !slices.Equal(ret.RefFrom, plain.RefFrom) {
				t.Errorf("the retention differs from the plain computation's")
			}
			if !slices.Equal(ret.Heaps, g.Heaps) {
				t.Errorf("heaps %v, the graph's %v", ret.Heaps, g.Heaps)
			}
		})
	}
}

// checkHeaps counts the graph's instances and arrays per heap, as the summary does.
func checkHeaps(t *testing.T, g *Graph, d *heap.HeapDump) {
	t.Helper()
	want, got := map[string]uint64{}, map[string]uint64{}
	for _, c := range d.Classes {
		want[c.Heap] += c.Objects
	}
	for v, h := range g.Heap {
		if !g.IsClass[v] {
			got[g.Heaps[h]]++
		}
	}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("objects per heap %v, the summary counts %v", got, want)
	}
}

// plainRetention is Retention as it was first written: every array by node, the paths with
// each reference's index, then the objects in the tree's order. g is left as it was.
func plainRetention(g *Graph) *heap.DumpRetention {
	d := heap.ComputeDominators(&g.ObjectGraph)
	paths := heap.ShortestPaths(&g.ObjectGraph)
	out := &heap.DumpRetention{Reachable: d.Reachable, Classes: make([]heap.RetainedClass, len(g.ClassNames)),
		RefStart: d.RefStart, RefFrom: d.RefFrom, Fields: slices.Clone(g.FieldNames)}
	for i, name := range g.ClassNames {
		out.Classes[i].Name = name
	}
	for v := range g.Nodes() {
		if !g.IsClass[v] {
			out.Classes[g.Class[v]].Instances++
			out.Classes[g.Class[v]].Shallow += g.Size[v]
		}
	}
	for v, r := range classRetainers(g, d) {
		if r {
			out.Classes[g.Class[v]].Retained += d.Retained[v]
		}
	}
	at := make([]int32, g.Nodes())
	for i, v := range d.Order {
		at[v] = int32(i)
	}
	rootTag := map[int32]uint8{}
	for i, v := range g.Roots {
		rootTag[v] = g.RootTags[i]
	}
	c := &out.Objects
	for _, v := range d.Order {
		idom, parent, field := int32(-1), int32(-1), int32(0)
		if p := d.Idom[v]; p >= 0 {
			idom = at[p]
		}
		if p := paths.Parent[v]; p >= 0 {
			parent, field = at[p], g.Field[paths.Via[v]]
		} else {
			kind := RootKind(rootTag[v]) // after the fields, even where a field has its name
			if field = int32(slices.Index(out.Fields[len(g.FieldNames):], kind)); field < 0 {
				out.Fields = append(out.Fields, kind)
				field = int32(len(out.Fields) - 1 - len(g.FieldNames))
			}
			field += int32(len(g.FieldNames))
		}
		c.ID, c.Class, c.IsClass = append(c.ID, g.IDs[v]), append(c.Class, g.Class[v]), append(c.IsClass, g.IsClass[v])
		c.Heap, c.Shallow, c.Retained = append(c.Heap, g.Heap[v]), append(c.Shallow, g.Size[v]), append(c.Retained, d.Retained[v])
		c.Idom, c.Parent, c.Field = append(c.Idom, idom), append(c.Parent, parent), append(c.Field, field)
		c.Depth = append(c.Depth, paths.Depth[v])
	}
	return out
}
