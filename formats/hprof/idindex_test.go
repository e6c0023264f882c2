package hprof

import (
	"math"
	"math/rand/v2"
	"testing"
)

// The id index finds every id's first node, in ids listed in order and not, with duplicates,
// far-apart ranges (ART's spaces) and the widest ids; and finds nothing for other ids.
func TestIDIndex(t *testing.T) {
	rng := rand.New(rand.NewPCG(8, 9))
	for round := range 100 {
		n := rng.IntN(3000)
		ids := make([]uint64, n)
		next := uint64(rng.IntN(1 << 20))
		for i := range ids {
			switch rng.IntN(20) {
			case 0:
				next += uint64(rng.Int64N(math.MaxInt64 / 4)) // another space
			case 1:
				next = uint64(rng.IntN(1 << 20)) // a segment that starts over
			case 2:
				if i > 0 {
					next = ids[rng.IntN(i)] // a duplicate
				}
			default:
				next += 8 + uint64(rng.IntN(64))
			}
			ids[i] = next
		}
		if round%3 == 0 {
			ids = append(ids, math.MaxUint64, 0)
		}
		first := map[uint64]int32{}
		for v := len(ids) - 1; v >= 0; v-- {
			first[ids[v]] = int32(v)
		}
		x := newIDIndex(ids)
		if dups := len(ids) - len(first); x.dups != dups {
			t.Fatalf("round %d: %d duplicates, want %d", round, x.dups, dups)
		}
		for id, want := range first {
			if got, ok := x.node(id); !ok || got != want {
				t.Fatalf("round %d: id %#x is node %d (%v), want %d", round, id, got, ok, want)
			}
			for _, other := range []uint64{id + 1, id - 1} {
				if _, listed := first[other]; !listed {
					if v, ok := x.node(other); ok {
						t.Fatalf("round %d: id %#x, not listed, found as node %d", round, other, v)
					}
				}
			}
		}
	}
}

// chunked joins what was added, in order, across chunks.
func TestChunked(t *testing.T) {
	var c chunked[int32]
	for i := range 3*chunkLen + 5 {
		c.add(int32(i))
	}
	got := c.join()
	if len(got) != 3*chunkLen+5 || got[chunkLen] != chunkLen || got[len(got)-1] != 3*chunkLen+4 {
		t.Errorf("joined %d values, [%d] = %d, last %d", len(got), chunkLen, got[chunkLen], got[len(got)-1])
	}
}
