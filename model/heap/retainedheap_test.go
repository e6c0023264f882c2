package heap

import (
	"math/rand/v2"
	"testing"
)

// Random dominator forests against the definition: an instance in the heap counts unless one
// of its dominators is an instance of its class in that heap.
func TestClassesInHeapMatchesTheDefinition(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	for range 200 {
		n := 1 + rng.IntN(60)
		r := &DumpRetention{Heaps: []string{"zygote", "app"}, Classes: make([]RetainedClass, 1+rng.IntN(4))}
		for i := range r.Classes {
			r.Classes[i].Name = string(rune('A' + i))
		}
		for i := range n {
			idom := int32(-1)
			if i > 0 && rng.IntN(4) > 0 {
				idom = int32(rng.IntN(i))
			}
			r.Objects.Append(DumpObject{ID: uint64(i + 1), Class: int32(rng.IntN(len(r.Classes))), IsClass: rng.IntN(10) == 0,
				Shallow: uint64(rng.IntN(50)), Retained: uint64(rng.IntN(1000)), Idom: idom}, 0)
			r.Objects.Heap = append(r.Objects.Heap, uint8(rng.IntN(2)))
		}
		for h := range r.Heaps {
			rows, ok := r.ClassesInHeap(h)
			if !ok {
				t.Fatal("no rows")
			}
			want := map[string]RetainedClass{}
			c := &r.Objects
			for v := range n {
				if c.IsClass[v] || int(c.Heap[v]) != h {
					continue
				}
				w := want[r.Classes[c.Class[v]].Name]
				w.Name = r.Classes[c.Class[v]].Name
				w.Instances++
				w.Shallow += c.Shallow[v]
				counted := true
				for p := c.Idom[v]; p >= 0; p = c.Idom[p] {
					if !c.IsClass[p] && int(c.Heap[p]) == h && c.Class[p] == c.Class[v] {
						counted = false
					}
				}
				if counted {
					w.Retained += c.Retained[v]
				}
				want[w.Name] = w
			}
			if len(rows) != len(want) {
				t.Fatalf("heap %d: %d rows, want %d", h, len(rows), len(want))
			}
			for _, row := range rows {
				if want[row.Name] != row {
					t.Fatalf("heap %d: %+v, want %+v", h, row, want[row.Name])
				}
			}
		}
	}
	if _, ok := (&DumpRetention{Heaps: []string{"a"}, Objects: DumpColumns{ID: []uint64{1}}}).ClassesInHeap(0); ok {
		t.Error("a run without heaps per object has rows")
	}
}
