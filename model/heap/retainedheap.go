package heap

import "slices"

// ClassesInHeap is Classes for one heap (an index into Heaps), the question an Android
// developer asks first: what does the app heap keep alive, without the zygote's and the boot
// image's objects on top. Each row counts the class's reachable instances whose records are
// in that heap (unreachable ones have no heap at the object level), their shallow bytes, and
// the retained sizes of those no other instance of the class in that heap dominates (what
// they keep alive, in any heap). Classes without an instance there are left out. ok is false
// when the run has no heap per object (imported before it was kept) or h is out of range.
func (r *DumpRetention) ClassesInHeap(h int) (rows []RetainedClass, ok bool) {
	c := &r.Objects
	if len(c.Heap) != c.Len() || h < 0 || h >= len(r.Heaps) {
		return nil, false
	}
	r.treeOnce.Do(r.index)
	sums := make([]RetainedClass, len(r.Classes))
	open := make([]int32, len(r.Classes)) // instances of the class in h on the walk's path
	in := func(v int32) bool { return !c.IsClass[v] && int(c.Heap[v]) == h }
	// Depth-first through the dominator tree, from its top level (slot 0 of childAt).
	type frame struct{ v, next, end int32 }
	stack := []frame{{v: -1, next: r.childAt[0], end: r.childAt[1]}}
	for len(stack) > 0 {
		top := &stack[len(stack)-1]
		if top.next == top.end {
			if v := top.v; v >= 0 && in(v) {
				open[c.Class[v]]--
			}
			stack = stack[:len(stack)-1]
			continue
		}
		v := r.children[top.next]
		top.next++
		if in(v) {
			s := &sums[c.Class[v]]
			s.Instances++
			s.Shallow += c.Shallow[v]
			if open[c.Class[v]] == 0 {
				s.Retained += c.Retained[v]
			}
			open[c.Class[v]]++
		}
		stack = append(stack, frame{v: v, next: r.childAt[v+1], end: r.childAt[v+2]})
	}
	for i, s := range sums {
		if s.Instances > 0 {
			s.Name = r.Classes[i].Name
			rows = append(rows, s)
		}
	}
	return slices.Clip(rows), true
}
