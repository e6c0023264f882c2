package hprof

import (
	"math/bits"
	"slices"

	"androprof/model/heap"
)

// idIndex finds the node of an object id without a map (a map of millions of ids takes ten
// times their bytes): the ids sorted, each with its node, and a table of where each range of
// ids starts, so a lookup is a binary search over a few keys.
type idIndex struct {
	keys  []uint64 // the ids, sorted; a duplicate's first node first
	nodes []int32  // the node of keys[i]; nil when keys are the ids in node order
	min   uint64
	shift uint
	start []uint32 // start[b]: the first key whose (key−min)>>shift is b or more
	dups  int      // ids listed more than once
}

// newIDIndex indexes ids (node v has ids[v]); it shares ids when the dump lists them in order,
// as one-segment dumps do, and sorts a copy otherwise.
func newIDIndex(ids []uint64) *idIndex {
	x := &idIndex{keys: ids}
	if !slices.IsSorted(ids) {
		x.nodes = heap.SortIDs(ids) // stable: a duplicate id's first node comes first
		x.keys = make([]uint64, len(ids))
		for i, v := range x.nodes {
			x.keys[i] = ids[v]
		}
	}
	if len(x.keys) == 0 {
		return x
	}
	x.min = x.keys[0]
	span := bits.Len64(x.keys[len(x.keys)-1] - x.min)
	want := max(bits.Len(uint(len(x.keys)))-2, 1) // about four keys a bucket when spread evenly
	if span > want {
		x.shift = uint(span - want)
	}
	buckets := int((x.keys[len(x.keys)-1]-x.min)>>x.shift) + 1
	x.start = make([]uint32, buckets+1)
	for i, k := range x.keys {
		x.start[((k-x.min)>>x.shift)+1]++
		if i > 0 && k == x.keys[i-1] {
			x.dups++
		}
	}
	for b := 1; b < len(x.start); b++ {
		x.start[b] += x.start[b-1]
	}
	return x
}

// node is the first node with this id.
func (x *idIndex) node(id uint64) (int32, bool) {
	if id < x.min || len(x.keys) == 0 {
		return 0, false
	}
	b := (id - x.min) >> x.shift
	if b+1 >= uint64(len(x.start)) {
		return 0, false
	}
	lo, hi := int(x.start[b]), int(x.start[b+1])
	for lo < hi { // the first key not below id
		mid := int(uint(lo+hi) >> 1)
		if x.keys[mid] < id {
			lo = mid + 1
		} else {
			hi = mid
		}
	}
	if lo == int(x.start[b+1]) || x.keys[lo] != id {
		return 0, false
	}
	if x.nodes == nil {
		return int32(lo), true
	}
	return x.nodes[lo], true
}

// chunkLen is the length of a chunked slice's chunks.
const chunkLen = 1 << 16

// chunked is a slice appended to without knowing its length: in chunks, so growing it never
// copies what it holds, joined once at the end.
type chunked[T any] struct {
	full [][]T
	last []T
	n    int
}

func (c *chunked[T]) add(v T) {
	if len(c.last) == cap(c.last) {
		if c.last != nil {
			c.full = append(c.full, c.last)
		}
		c.last = make([]T, 0, chunkLen)
	}
	c.last = append(c.last, v)
	c.n++
}

// join is the values in one slice of their length; the chunks are dropped as they are copied.
func (c *chunked[T]) join() []T {
	out := make([]T, 0, c.n)
	for i, ch := range c.full {
		out = append(out, ch...)
		c.full[i] = nil
	}
	out = append(out, c.last...)
	*c = chunked[T]{}
	return out
}
