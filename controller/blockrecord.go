package controller

import (
	"slices"

	"androprof/model"
	"androprof/model/cost"
)

// blockRecord keeps what an emulator reader sends, so that a batch import reads a run's files
// while another run is being written, and replays it into the store's transaction after.
// Counts and misses of one thread and block are summed where they were first sent: a QEMU
// execution log sends one count per execution, and the store sums them anyway.
type blockRecord struct {
	ops    []func(sink cost.BlockSink) error
	counts map[countKey]*int64
	misses map[countKey]*cost.CacheCounts
}

type countKey struct {
	pid, tid int
	pc       uint64
	isa      cost.ISA
}

func newBlockRecord() *blockRecord {
	return &blockRecord{counts: map[countKey]*int64{}, misses: map[countKey]*cost.CacheCounts{}}
}

// replay sends what was recorded to sink, in the order it came.
func (r *blockRecord) replay(sink cost.BlockSink) error {
	for _, op := range r.ops {
		if err := op(sink); err != nil {
			return err
		}
	}
	return nil
}

func (r *blockRecord) add(op func(sink cost.BlockSink) error) error {
	r.ops = append(r.ops, op)
	return nil
}

func (r *blockRecord) Process(p model.Process) error {
	return r.add(func(s cost.BlockSink) error { return s.Process(p) })
}

func (r *blockRecord) Thread(t model.Thread) error {
	return r.add(func(s cost.BlockSink) error { return s.Thread(t) })
}

func (r *blockRecord) Block(pid int, b *cost.Block) error {
	c := *b // the reader may reuse b and its instructions
	c.Insns = slices.Clone(b.Insns)
	return r.add(func(s cost.BlockSink) error { return s.Block(pid, &c) })
}

func (r *blockRecord) Count(pid, tid int, pc uint64, isa cost.ISA, n int64) error {
	k := countKey{pid, tid, pc, isa}
	if sum, ok := r.counts[k]; ok && n >= 0 {
		*sum += n
		return nil
	}
	sum := &n
	if n >= 0 { // a negative count is sent alone, so the store refuses it as it would
		r.counts[k] = sum
	}
	return r.add(func(s cost.BlockSink) error { return s.Count(pid, tid, pc, isa, *sum) })
}

func (r *blockRecord) Image(img cost.Image) error {
	return r.add(func(s cost.BlockSink) error { return s.(cost.ImageSink).Image(img) })
}

func (r *blockRecord) Syscall(sc cost.Syscall) error {
	return r.add(func(s cost.BlockSink) error { return s.(cost.ImageSink).Syscall(sc) })
}

func (r *blockRecord) Geometry(pid int, g cost.CacheGeometry, source string) error {
	g.Levels = slices.Clone(g.Levels)
	return r.add(func(s cost.BlockSink) error { return s.(cost.CacheSink).Geometry(pid, g, source) })
}

func (r *blockRecord) Misses(pid, tid int, pc uint64, isa cost.ISA, m cost.CacheCounts) error {
	k := countKey{pid, tid, pc, isa}
	if sum, ok := r.misses[k]; ok && m.Valid() {
		sum.Add(m)
		return nil
	}
	sum := &m
	if m.Valid() { // negative counts are sent alone, so the store refuses them as it would
		r.misses[k] = sum
	}
	return r.add(func(s cost.BlockSink) error { return s.(cost.CacheSink).Misses(pid, tid, pc, isa, *sum) })
}
