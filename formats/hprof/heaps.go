package hprof

import "fmt"

// heaps follows which heap a dump's objects are in (docs/hprof.md, "Heaps"): a HEAP_DUMP_INFO
// names the heap of the objects after it, each heap dump record starts again in the default
// heap, and heaps are numbered in the order of their first object. The summary and the
// object graph both follow it.
type heaps struct {
	keys []heapKey // the heaps objects are in, in the order of their first object
	idx  map[heapKey]int
	cur  heapKey
	at   int // index of cur in keys, -1 until an object needs it
}

func newHeaps() heaps { return heaps{idx: map[heapKey]int{}, at: -1} }

// follow moves to the heap a HEAP_DUMP or HEAP_DUMP_INFO record says; other records leave it.
func (h *heaps) follow(rec *Record) {
	switch rec.Kind {
	case KindHeapDump: // as ART and Dalvik write them and perflib reads them
		h.cur, h.at = heapKey{}, -1
	case KindHeapInfo:
		h.cur, h.at = heapKey{named: true, id: rec.Serial, name: rec.Name}, -1
	}
}

// of is the index in keys of the heap the object of rec is in.
func (h *heaps) of(r *Reader, rec *Record) (int, error) {
	if h.at < 0 {
		i, ok := h.idx[h.cur]
		if !ok {
			if len(h.keys) == MaxHeaps {
				return 0, r.errorf(rec.Offset, "%s in a heap after %d others: more heaps than any VM names (a damaged HEAP_DUMP_INFO?)", rec.Kind, MaxHeaps)
			}
			i = len(h.keys)
			h.idx[h.cur] = i
			h.keys = append(h.keys, h.cur)
		}
		h.at = i
	}
	return h.at, nil
}

// names names the heaps by their name strings (strs; "default", or "heap N" when the string is
// missing) and merges two heap ids of one name: the names, and each key's index among them.
func (h *heaps) names(strs map[uint64]string) (names []string, merged []int) {
	merged = make([]int, len(h.keys))
	final := map[string]int{}
	for i, k := range h.keys {
		name := DefaultHeap
		if k.named {
			var ok bool
			if name, ok = strs[k.name]; !ok {
				name = fmt.Sprintf("heap %d", k.id)
			}
		}
		j, ok := final[name]
		if !ok {
			j = len(names)
			final[name] = j
			names = append(names, name)
		}
		merged[i] = j
	}
	return names, merged
}
