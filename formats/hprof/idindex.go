package hprof

import (
	"math/bits"
	"slices"
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
		x.keys, x.nodes = radixSort(ids)
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

// radixSort sorts a copy of ids with each one's node, stably (least significant digit first,
// 11 bits a pass over the bits that differ), so a duplicate id's first node comes first.
func radixSort(ids []uint64) ([]uint64, []int32) {
	n := len(ids)
	keys, nodes := slices.Clone(ids), make([]int32, n)
	lo, hi := slices.Min(ids), slices.Max(ids)
	for i := range nodes {
		nodes[i] = int32(i)
	}
	tk, tn := make([]uint64, n), make([]int32, n)
	const digit = 11
	for shift := 0; shift < bits.Len64(hi-lo); shift += digit {
		var count [1<<digit + 1]int
		for _, k := range keys {
			count[((k-lo)>>shift)&(1<<digit-1)+1]++
		}
		for d := 1; d < len(count); d++ {
			count[d] += count[d-1]
		}
		for i, k := range keys {
			d := ((k - lo) >> shift) & (1<<digit - 1)
			tk[count[d]], tn[count[d]] = k, nodes[i]
			count[d]++
		}
		keys, tk, nodes, tn = tk, keys, tn, nodes
	}
	return keys, nodes
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
