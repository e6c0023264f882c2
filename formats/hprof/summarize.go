package hprof

import (
	"cmp"
	"encoding/binary"
	"fmt"
	"io"
	"math/bits"
	"slices"
	"strings"

	"androprof/internal/inputerr"
	"androprof/model/calls"
	heapmodel "androprof/model/heap"
)

// DefaultHeap names the heap of objects no HEAP_DUMP_INFO places: all of a 1.0.2 dump's.
const DefaultHeap = "default"

// maxDepth bounds a walk up the superclass chain, so a damaged dump whose classes form a
// cycle still ends; no real hierarchy comes near it.
const maxDepth = 1024

// MaxHeaps is the most heaps (HEAP_DUMP_INFO ids and names) holding objects a dump may have:
// ART names four (default, app, image, zygote), and each heap's counts take some kilobytes, which
// a few bytes of HEAP_DUMP_INFO must not be able to claim without end.
const MaxHeaps = 256

// Summarize reads the dump in r (plain or gzip-compressed) and counts its objects per class
// and heap, their sizes and the distances of their references (docs/hprof.md). It reads r
// twice, seeking back to where it started, because class layouts may come after the instances
// that need them: first the class names and layouts, then the objects. name is used in errors.
// Progress and cancellation are the input's (a countio.Reader counts both passes).
func Summarize(r io.ReadSeeker, name string) (*heapmodel.HeapDump, error) {
	start, err := r.Seek(0, io.SeekCurrent)
	if err != nil {
		return nil, &inputerr.Error{File: name, Msg: "seek: " + err.Error(), Err: err}
	}
	size := int64(-1) // unknown for an input that cannot seek to its end (decompressed)
	if end, err := r.Seek(0, io.SeekEnd); err == nil {
		size = end - start
		if _, err := r.Seek(start, io.SeekStart); err != nil {
			return nil, &inputerr.Error{File: name, Msg: "seek: " + err.Error(), Err: err}
		}
	}
	s := newSummary()
	first := newReader(r, name, size)
	err = s.pass(first, false)
	s.hdr = first.Header()
	first.Close() // now, not deferred: its buffer is garbage before the second pass makes its own
	if err != nil {
		return nil, err
	}
	s.link()
	if _, err := r.Seek(start, io.SeekStart); err != nil {
		return nil, &inputerr.Error{File: name, Offset: first.Offset(), Msg: "seek back for the second pass: " + err.Error(), Err: err}
	}
	second := newReader(r, name, size)
	defer second.Close()
	if err := second.err; err == nil && second.Header() != s.hdr {
		return nil, &inputerr.Error{File: name, Msg: "the file changed between the two passes of its summary"}
	}
	if err := s.pass(second, true); err != nil {
		return nil, err
	}
	return s.result(), nil
}

// pass hands every record of the dump to the summary: to collect in the first pass, to count
// in the second.
func (s *summary) pass(r *Reader, second bool) error {
	for {
		rec, err := r.Next()
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return err
		}
		if !second {
			s.collect(r, &rec) // direct calls: rec stays on the stack
		} else if err := s.count(r, &rec); err != nil {
			return err
		}
	}
}

// classInfo is what the summary knows of one class object id.
type classInfo struct {
	loaded bool   // a LOAD_CLASS names it
	name   uint64 // its name string
	dumped bool   // a CLASS_DUMP describes it
	size   uint32 // instance size
	super  uint64
	sup    *classInfo // the superclass's info, when dumped
	bytes  int        // field bytes of its own instance fields
	refs   []int      // offsets of its own object fields among them
	names  []uint64   // the names (string ids) of those object fields

	inst, arr heapCounts // instances, and arrays of it as an array class
}

// heapCounts are a class's counts in the heaps it has objects in, in the order of its first
// object in each: memory follows the objects, not the heaps the dump names.
type heapCounts []heapCount

type heapCount struct {
	heap int
	heapmodel.DumpCount
}

// add counts an object of bytes in heap h, looking at the latest heap first: objects come
// heap by heap.
func (c heapCounts) add(h int, bytes uint64) heapCounts {
	for i := len(c) - 1; i >= 0; i-- {
		if c[i].heap == h {
			c[i].Objects++
			c[i].Bytes += bytes
			return c
		}
	}
	return append(c, heapCount{heap: h, DumpCount: heapmodel.DumpCount{Objects: 1, Bytes: bytes}})
}

// heapKey tells heaps apart as the dump names them (merged by name at the end).
type heapKey struct {
	named bool
	id    uint32
	name  uint64
}

// Size classes come from model.SizeClass: up to 256 bytes by 8 (33 values), then powers of
// two from 512 (56 values).
const sizeSlots = 33 + 56

func sizeSlot(class uint64) int {
	if class <= 256 {
		return int(class / 8)
	}
	return 24 + bits.TrailingZeros64(class)
}

// Pointer distance buckets run from -64 to 63.
const bucketBias = 64

// heapState is the counts of one heap.
type heapState struct {
	sizes [sizeSlots][2]heapmodel.DumpCount // instances, arrays
	ptrs  [2 * bucketBias]uint64
	prim  [TypeLong + 1]heapmodel.DumpCount // primitive arrays by element type
}

type summary struct {
	hdr        Header
	classes    map[uint64]*classInfo
	loadNames  []uint64 // the name string of every LOAD_CLASS record
	classDumps int
	needed     map[uint64]bool   // strings to keep: class and heap names
	strs       map[uint64]string // the kept strings
	heaps      heaps             // which heap each object is in
	states     []*heapState      // the counts of each of heaps.keys
	roots      int
	array      *heapState // the heap of the object array count saw last
	graph      bool       // the graph's second pass reads object arrays' elements (readGraph)
}

func newSummary() *summary {
	return &summary{
		classes: map[uint64]*classInfo{},
		needed:  map[uint64]bool{},
		strs:    map[uint64]string{},
		heaps:   newHeaps(),
	}
}

func (s *summary) class(id uint64) *classInfo {
	ci := s.classes[id]
	if ci == nil {
		ci = &classInfo{}
		s.classes[id] = ci
	}
	return ci
}

// collect is the first pass: class names and layouts, and which strings to keep.
func (s *summary) collect(r *Reader, rec *Record) {
	switch rec.Kind {
	case KindLoadClass:
		ci := s.class(rec.ID)
		ci.loaded, ci.name = true, rec.Name
		s.loadNames = append(s.loadNames, rec.Name)
		s.needed[rec.Name] = true
	case KindClassDump:
		s.classDumps++
		ci := s.class(rec.ID)
		ci.dumped, ci.size, ci.super = true, rec.Size, rec.Super
		ci.bytes, ci.refs, ci.names = 0, ci.refs[:0], ci.names[:0]
		for _, f := range rec.Fields {
			if f.Type == TypeObject {
				ci.refs = append(ci.refs, ci.bytes)
				ci.names = append(ci.names, f.Name)
			}
			ci.bytes += f.Type.Size(r.hdr.IDSize)
		}
	case KindHeapInfo:
		s.needed[rec.Name] = true
	}
}

// link resolves superclasses after the first pass.
func (s *summary) link() {
	for _, ci := range s.classes {
		if ci.dumped && ci.super != 0 {
			if sup := s.classes[ci.super]; sup != nil && sup.dumped {
				ci.sup = sup
			}
		}
	}
}

// heap returns the index of the heap the object of rec is in.
func (s *summary) heap(r *Reader, rec *Record) (int, error) {
	i, err := s.heaps.of(r, rec)
	if err == nil && i == len(s.states) {
		s.states = append(s.states, &heapState{})
	}
	return i, err
}

func (hs *heapState) addSize(bytes uint64, array int) {
	c := &hs.sizes[sizeSlot(heapmodel.SizeClass(bytes))][array]
	c.Objects++
	c.Bytes += bytes
}

func (hs *heapState) pointer(source, target uint64) {
	hs.ptrs[heapmodel.DistanceBucket(int64(target-source))+bucketBias]++
}

// count is the second pass: objects, sizes and references.
func (s *summary) count(r *Reader, rec *Record) error {
	id := r.hdr.IDSize
	switch rec.Kind {
	case KindString:
		if s.needed[rec.ID] {
			s.strs[rec.ID] = string(rec.Bytes)
		}
	case KindHeapDump, KindHeapInfo:
		s.heaps.follow(rec)
	case KindRoot:
		s.roots++
	case KindInstance:
		h, err := s.heap(r, rec)
		if err != nil {
			return err
		}
		hs := s.states[h]
		ci := s.class(rec.Class)
		bytes := uint64(rec.Len)
		if ci.dumped {
			bytes = uint64(ci.size)
		}
		ci.inst = ci.inst.add(h, bytes)
		hs.addSize(bytes, 0)
		vals, base := rec.Bytes, 0
		for c, d := ci, 0; c != nil && c.dumped && d < maxDepth && base < len(vals); c, d = c.sup, d+1 {
			for _, off := range c.refs {
				at := base + off
				if at+id > len(vals) {
					break
				}
				if t := idAt(vals[at:], id); t != 0 {
					hs.pointer(rec.ID, t)
				}
			}
			base += c.bytes
		}
	case KindObjArray:
		h, err := s.heap(r, rec)
		if err != nil {
			return err
		}
		hs := s.states[h]
		bytes := uint64(rec.Len) * uint64(id)
		ci := s.class(rec.Class)
		ci.arr = ci.arr.add(h, bytes)
		hs.addSize(bytes, 1)
		s.array = hs
		if s.graph {
			return nil // the graph reads the elements, and hands them to elements
		}
		for {
			b, err := r.Elements()
			if err != nil {
				return err
			}
			if b == nil {
				break
			}
			s.elements(rec.ID, b, id)
		}
	case KindPrimArray:
		h, err := s.heap(r, rec)
		if err != nil {
			return err
		}
		hs := s.states[h]
		bytes := uint64(rec.Len) * uint64(rec.Type.Size(id))
		c := &hs.prim[rec.Type]
		c.Objects++
		c.Bytes += bytes
		hs.addSize(bytes, 1)
	}
	return nil
}

// elements counts the references of a run of the elements of the object array src, the last
// array count saw.
func (s *summary) elements(src uint64, b []byte, id int) {
	for i := 0; i+id <= len(b); i += id {
		if t := idAt(b[i:], id); t != 0 {
			s.array.pointer(src, t)
		}
	}
}

func idAt(b []byte, size int) uint64 {
	if size == 4 {
		return uint64(binary.BigEndian.Uint32(b))
	}
	return binary.BigEndian.Uint64(b)
}

// jvmDescriptors are the one-letter descriptors of the primitive types, for the names
// HotSpot gives primitive array classes ("[I").
var jvmDescriptors = [TypeLong + 1]string{TypeBoolean: "Z", TypeChar: "C", TypeFloat: "F", TypeDouble: "D",
	TypeByte: "B", TypeShort: "S", TypeInt: "I", TypeLong: "J"}

// IsArrayClass tells whether a class name as a dump gives it names an array class, in
// HotSpot's form ("[I", "[Ljava.lang.Object;") or ART's ("int[]", "java.lang.Object[]").
func IsArrayClass(name string) bool {
	return strings.HasPrefix(name, "[") || strings.HasSuffix(name, "[]")
}

type classKey struct {
	name  string
	heap  int
	array bool
}

// result turns the counts into the summary, names resolved and slices sorted.
func (s *summary) result() *heapmodel.HeapDump {
	d := &heapmodel.HeapDump{Version: s.hdr.Version, IDSize: s.hdr.IDSize, Timestamp: s.hdr.Timestamp, Roots: s.roots}
	d.LoadedClasses = max(len(s.loadNames), s.classDumps)
	loaded := map[string]bool{}
	for _, n := range s.loadNames {
		name, ok := s.strs[n]
		if !ok {
			continue
		}
		loaded[name] = true
		if IsArrayClass(name) {
			d.ArrayClasses++
		}
	}

	// Heaps, merged by name in the order of their first object.
	var heapOf []int
	d.Heaps, heapOf = s.heaps.names(s.strs)

	classes := map[classKey]heapmodel.DumpCount{}
	put := func(name string, h int, array bool, c heapmodel.DumpCount) {
		if c.Objects == 0 {
			return
		}
		k := classKey{name, heapOf[h], array}
		old := classes[k]
		classes[k] = heapmodel.DumpCount{Objects: old.Objects + c.Objects, Bytes: old.Bytes + c.Bytes}
	}
	for id, ci := range s.classes {
		if len(ci.inst) == 0 && len(ci.arr) == 0 {
			continue
		}
		name := fmt.Sprintf("class@%#x", id)
		if n, ok := s.strs[ci.name]; ci.loaded && ok {
			name = n
		}
		for _, c := range ci.inst {
			put(name, c.heap, false, c.DumpCount)
		}
		for _, c := range ci.arr {
			put(name, c.heap, true, c.DumpCount)
		}
	}
	var primNames [TypeLong + 1]string
	for t := TypeBoolean; t <= TypeLong; t++ {
		art, jvm := t.String()+"[]", "["+jvmDescriptors[t]
		primNames[t] = art
		if !loaded[art] && loaded[jvm] {
			primNames[t] = jvm
		}
	}

	sizes := map[[2]uint64]*heapmodel.DumpSize{}
	pointers := map[[2]int]uint64{}
	for h, hs := range s.states {
		for t := TypeBoolean; t <= TypeLong; t++ {
			put(primNames[t], h, true, hs.prim[t])
		}
		heap := heapOf[h]
		for slot, c := range hs.sizes {
			if c[0].Objects == 0 && c[1].Objects == 0 {
				continue
			}
			class := uint64(slot) * 8
			if slot > 32 {
				class = 1 << (slot - 24)
			}
			k := [2]uint64{uint64(heap), class}
			ds := sizes[k]
			if ds == nil {
				ds = &heapmodel.DumpSize{Heap: d.Heaps[heap], SizeClass: class}
				sizes[k] = ds
			}
			ds.Instances = heapmodel.DumpCount{Objects: ds.Instances.Objects + c[0].Objects, Bytes: ds.Instances.Bytes + c[0].Bytes}
			ds.Arrays = heapmodel.DumpCount{Objects: ds.Arrays.Objects + c[1].Objects, Bytes: ds.Arrays.Bytes + c[1].Bytes}
		}
		for i, n := range hs.ptrs {
			if n != 0 {
				pointers[[2]int{heap, i - bucketBias}] += n
			}
		}
	}

	for k, c := range classes {
		d.Classes = append(d.Classes, heapmodel.DumpClass{Name: k.name, Heap: d.Heaps[k.heap], Array: k.array, DumpCount: c})
	}
	heapRank := func(name string) int { return slices.Index(d.Heaps, name) }
	slices.SortFunc(d.Classes, func(a, b heapmodel.DumpClass) int {
		return cmp.Or(strings.Compare(a.Name, b.Name), cmp.Compare(heapRank(a.Heap), heapRank(b.Heap)), calls.FalseFirst(a.Array, b.Array))
	})
	for _, ds := range sizes {
		d.Sizes = append(d.Sizes, *ds)
	}
	slices.SortFunc(d.Sizes, func(a, b heapmodel.DumpSize) int {
		return cmp.Or(cmp.Compare(heapRank(a.Heap), heapRank(b.Heap)), cmp.Compare(a.SizeClass, b.SizeClass))
	})
	for k, n := range pointers {
		d.Pointers = append(d.Pointers, heapmodel.DumpPointers{Heap: d.Heaps[k[0]], Bucket: k[1], Count: n})
	}
	slices.SortFunc(d.Pointers, func(a, b heapmodel.DumpPointers) int {
		return cmp.Or(cmp.Compare(heapRank(a.Heap), heapRank(b.Heap)), cmp.Compare(a.Bucket, b.Bucket))
	})
	return d
}
