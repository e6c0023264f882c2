package controller

import (
	"cmp"
	"context"
	"fmt"
	"slices"
	"sync"

	"androprof/formats/hprof"
	heapmodel "androprof/model/heap"
)

// The object level of a dump run (issue 29, docs/heap-objects.md): one object's fields and
// referrers, a class's instances. The window's object view and `report --object`,
// `--instances` read through these.

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
	r, o, err := h.objectLevel(ctx, run, seq)
	if err != nil {
		return heapmodel.ObjectDetail{}, err
	}
	d := heapmodel.ObjectDetail{DumpObject: r.Object(seq), Heap: ObjectHeap(r, seq)}
	res := &resolver{ctx: ctx, r: r, o: o}
	obj, err := res.Object(seq)
	if err != nil {
		return d, fmt.Errorf("run %q, object %#x: %w", run, d.ID, err)
	}
	o.layouts.Detail(obj, &d, res)
	return d, nil
}

// Referrers lists the reachable objects whose strong references point at object seq, each
// once with every field that holds it, largest retained first.
func (h *HeapDumps) Referrers(ctx context.Context, run string, seq int32) ([]heapmodel.Referrer, error) {
	r, o, err := h.objectLevel(ctx, run, seq)
	if err != nil {
		return nil, err
	}
	from := slices.Clone(r.RefFrom[r.RefStart[seq]:r.RefStart[seq+1]])
	// In the order of their records, so referrers in one chunk read it once.
	slices.SortFunc(from, func(a, b int32) int { return cmp.Compare(o.index.Record[a], o.index.Record[b]) })
	from = slices.Compact(from)
	target := r.Objects.ID[seq]
	res := &resolver{ctx: ctx, r: r, o: o}
	out := make([]heapmodel.Referrer, 0, len(from))
	for _, f := range from {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		ref := heapmodel.Referrer{DumpObject: r.Object(f)}
		obj, err := res.Object(f)
		if err != nil {
			return nil, fmt.Errorf("run %q, object %#x: %w", run, ref.ID, err)
		}
		ref.Fields = o.layouts.Holding(obj, target)
		out = append(out, ref)
	}
	slices.SortFunc(out, func(a, b heapmodel.Referrer) int {
		return cmp.Or(cmp.Compare(b.Retained, a.Retained), cmp.Compare(a.ID, b.ID))
	})
	return out, nil
}

// ObjectHeap names the heap object seq is in: "unknown" for a run imported before heaps were
// kept per object.
func ObjectHeap(r *heapmodel.DumpRetention, seq int32) string {
	if int(seq) < len(r.Objects.Heap) && int(r.Objects.Heap[seq]) < len(r.Heaps) {
		return r.Heaps[r.Objects.Heap[seq]]
	}
	return "unknown"
}

// Superclasses names each class's superclasses (by its index in the run's Retention().Classes),
// nearest first, from the class layouts the object level keeps: what the leak rules match
// subclasses of android.app.Activity with.
func (h *HeapDumps) Superclasses(ctx context.Context, run string) (map[int32][]string, error) {
	r, o, err := h.objectLevel(ctx, run, 0)
	if err != nil {
		return nil, err
	}
	out := map[int32][]string{}
	for i, isClass := range r.Objects.IsClass {
		if !isClass {
			continue
		}
		c := o.layouts.Classes[r.Objects.ID[i]]
		var supers []string
		for d := 0; c != nil && d < 1024; d++ {
			if c = o.layouts.Classes[c.Super]; c != nil {
				supers = append(supers, c.Name)
			}
		}
		out[r.Objects.Class[i]] = supers
	}
	return out, nil
}

// objectLevel loads a run's retention and object records, and checks seq is one of its objects.
func (h *HeapDumps) objectLevel(ctx context.Context, run string, seq int32) (*heapmodel.DumpRetention, *dumpObjects, error) {
	r, err := h.Retention(ctx, run)
	if err != nil {
		return nil, nil, err
	}
	if seq < 0 || int(seq) >= r.Objects.Len() {
		return nil, nil, fmt.Errorf("run %q has no reachable object %d (it has %d)", run, seq, r.Objects.Len())
	}
	o, err := h.objects.get(run, func() (*dumpObjects, error) { return h.loadObjects(ctx, run, r) })
	return r, o, err
}

func (h *HeapDumps) loadObjects(ctx context.Context, run string, r *heapmodel.DumpRetention) (*dumpObjects, error) {
	idx, err := h.store.DumpRecordIndex(ctx, run)
	if err != nil {
		return nil, err
	}
	damaged := func(what string) error {
		return fmt.Errorf("run %q: its objects' records are damaged (changed by hand or by another program?): %s", run, what)
	}
	if len(idx.Record) != r.Objects.Len() || len(r.RefStart) != r.Objects.Len()+1 {
		return nil, damaged(fmt.Sprintf("%d records and %d referrer lists for %d objects", len(idx.Record), len(r.RefStart)-1, r.Objects.Len()))
	}
	l, err := hprof.DecodeLayouts(idx.IDSize, idx.Layouts)
	if err != nil {
		return nil, damaged(err.Error())
	}
	return &dumpObjects{store: h.store, run: run, index: idx, layouts: l}, nil
}

// dumpObjects is a run's object level: where each object's record is, the class layouts,
// and the few chunks of records read last (an object view reads its object, the Strings and
// arrays it points at, its referrers: mostly neighbours in the dump).
type dumpObjects struct {
	store   HeapStore
	run     string
	index   *heapmodel.RecordIndex
	layouts *hprof.Layouts

	mu     sync.Mutex
	recent []recordChunk // most recent first
}

type recordChunk struct {
	first, end uint32 // the records it holds: [first, end)
	data       []byte
}

// recentChunks is how many chunks of records a run keeps read (16 KiB each, but a large array's).
const recentChunks = 8

// record reads object seq's record.
func (o *dumpObjects) record(ctx context.Context, seq int32) ([]byte, error) {
	k := o.index.Record[seq]
	o.mu.Lock()
	for i, c := range o.recent {
		if c.first <= k && k < c.end {
			o.recent = slices.Insert(slices.Delete(o.recent, i, i+1), 0, c)
			o.mu.Unlock()
			return heapmodel.RecordIn(c.data, c.first, k)
		}
	}
	o.mu.Unlock()
	first, data, err := o.store.DumpRecordChunk(ctx, o.run, k)
	if err != nil {
		return nil, err
	}
	c := recordChunk{first: first, end: first, data: data}
	if err := heapmodel.ChunkRecords(data, first, func(uint32, []byte) { c.end++ }); err != nil {
		return nil, err
	}
	o.mu.Lock()
	o.recent = slices.Insert(o.recent, 0, c)
	o.recent = o.recent[:min(len(o.recent), recentChunks)]
	o.mu.Unlock()
	return heapmodel.RecordIn(data, first, k)
}

// resolver answers decoding's questions from the run's retention and records.
type resolver struct {
	ctx context.Context
	r   *heapmodel.DumpRetention
	o   *dumpObjects
}

func (s *resolver) Seq(id uint64) (int32, string) {
	seq := s.r.SeqOf(id)
	if seq < 0 {
		return -1, ""
	}
	return seq, s.r.Object(seq).ClassOf
}

func (s *resolver) Object(seq int32) (hprof.Object, error) {
	rec, err := s.o.record(s.ctx, seq)
	if err != nil {
		return hprof.Object{}, err
	}
	return s.o.layouts.Parse(rec, s.r.Objects.ID[seq], s.r.Objects.Class[seq])
}
