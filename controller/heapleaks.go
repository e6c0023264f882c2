package controller

import (
	"context"

	heapmodel "androprof/model/heap"
)

// The leak suspects of a dump run (docs/heap-leaks.md): Android's leak patterns read from the
// objects' fields, with their leak traces, and MAT's accumulation points. The window's Leaks
// tab and `report --by leaks` read through these.

// Leaks runs the leak rules on a dump run with MAT's 10 % share: the objects Android's leak
// patterns say should be gone (most retained first), then the accumulation points.
func (h *HeapDumps) Leaks(ctx context.Context, run string) ([]heapmodel.LeakSuspect, error) {
	return h.LeaksWith(ctx, run, heapmodel.LeakOptions{})
}

// LeaksWith runs the leak rules with other settings (the share of the heap an accumulation
// point's holder retains).
func (h *HeapDumps) LeaksWith(ctx context.Context, run string, opt heapmodel.LeakOptions) ([]heapmodel.LeakSuspect, error) {
	r, err := h.Retention(ctx, run)
	if err != nil {
		return nil, err
	}
	supers, err := h.Superclasses(ctx, run)
	if err != nil {
		return nil, err
	}
	return heapmodel.FindLeaks(r, &runLeakHeap{ctx: ctx, h: h, run: run, supers: supers}, opt)
}

// GrownLeaks compares the leak suspects of two dumps of one program: the leaks with more
// leaking objects after, and the accumulation points that retain more, most grown first.
func (h *HeapDumps) GrownLeaks(ctx context.Context, before, after string, opt heapmodel.LeakOptions) ([]heapmodel.LeakGrowth, error) {
	a, err := h.LeaksWith(ctx, before, opt)
	if err != nil {
		return nil, err
	}
	b, err := h.LeaksWith(ctx, after, opt)
	if err != nil {
		return nil, err
	}
	return heapmodel.GrownLeaks(a, b), nil
}

// runLeakHeap is a dump run as the leak rules read it: objects decoded by the object view's
// Object, superclasses from the run's class layouts.
type runLeakHeap struct {
	ctx    context.Context
	h      *HeapDumps
	run    string
	supers map[int32][]string
}

func (l *runLeakHeap) Object(seq int32) (heapmodel.ObjectDetail, error) {
	if err := l.ctx.Err(); err != nil {
		return heapmodel.ObjectDetail{}, err
	}
	return l.h.Object(l.ctx, l.run, seq)
}

func (l *runLeakHeap) Supers(class int32) ([]string, error) { return l.supers[class], nil }
