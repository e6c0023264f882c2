package controller

import (
	"cmp"
	"context"
	"errors"
	"slices"

	heapmodel "androprof/model/heap"
)

// The object level of a dump run (issue 29, docs/heap-objects.md): one object's fields and
// referrers, a class's instances. The window's object view and `report --object`,
// `--instances` read through these.

// errObjectsToDo is what the object view says until the object store is built (issue 29).
var errObjectsToDo = errors.New("the object view is not built yet")

// Instances lists a class's reachable instances (arrays, for an array class), the class by
// its index in the run's Retention().Classes, largest retained first, then by id.
func (h *HeapDumps) Instances(ctx context.Context, run string, class int32) ([]heapmodel.DumpObject, error) {
	r, err := h.Retention(ctx, run)
	if err != nil {
		return nil, err
	}
	var out []heapmodel.DumpObject
	c := &r.Objects
	for i := range c.Len() {
		if c.Class[i] == class && !c.IsClass[i] {
			out = append(out, r.Object(int32(i)))
		}
	}
	slices.SortFunc(out, func(a, b heapmodel.DumpObject) int {
		if x := cmp.Compare(b.Retained, a.Retained); x != 0 {
			return x
		}
		return cmp.Compare(a.ID, b.ID)
	})
	return out, nil
}

// Object reads one reachable object of a dump run (by its seq) with every field and its value.
func (h *HeapDumps) Object(ctx context.Context, run string, seq int32) (heapmodel.ObjectDetail, error) {
	return heapmodel.ObjectDetail{}, errObjectsToDo
}

// Referrers lists the reachable objects whose strong references point at object seq, each
// once with every field that holds it, largest retained first.
func (h *HeapDumps) Referrers(ctx context.Context, run string, seq int32) ([]heapmodel.Referrer, error) {
	return nil, errObjectsToDo
}

// Leaks runs the leak rules (docs/heap-leaks.md) on a dump run: the suspects, most retained first.
func (h *HeapDumps) Leaks(ctx context.Context, run string) ([]heapmodel.LeakSuspect, error) {
	return nil, errObjectsToDo
}
