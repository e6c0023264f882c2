package heap

import (
	"cmp"
	"errors"
	"maps"
	"math"
	"slices"
	"strings"
)

// DefaultCohort is the seed's cohort size: 256 KB of allocation, four of its 64 KB GC windows.
const DefaultCohort = 256 << 10

// HeapBuilder reduces a heap log to a HeapProfile as its reader streams it. It is a HeapSink;
// Profile finishes. Make one with NewHeapBuilder.
//
// Memory is the live heap (one small record per live object) plus the profile's cells: one per
// (scope, key, bucket) that saw a birth or a death, so they grow with the number of buckets
// unless MaxCells bounds them. The rules:
//   - an event's time bucket is Time/Cohort; an object's cohort is the bucket of its birth;
//   - a death of an id that is not live (never allocated, or freed twice) is counted in
//     UnknownFrees and otherwise ignored;
//   - an allocation of an id that is still live first ends the old object at that time, as
//     the death the log must have missed;
//   - a time earlier than the one before counts as the one before (readers never send one);
//   - a mutation counts only when both its source and its target are live.
type HeapBuilder struct {
	// MaxCells, when above 0, bounds the profile's cells: when a new cell would make more, the
	// cohort doubles, merging cells as Regroup(2) does, until they fit. A log of any length
	// then keeps bounded memory, at a coarser cohort (the profile's Cohort says which); the
	// result is the profile built at that cohort from the start.
	MaxCells int

	p    HeapProfile // header, cohort and the running totals
	live map[uint64]heapObject
	big  map[uint64]uint64 // sizes of live objects too large for heapObject.size
	// The cells in the order made, so in bucket order for each (scope, key); in chunks, so
	// growing never copies them.
	cells  [][]HeapCell
	ncells int32
	// Only the cells of the current bucket change (births and deaths happen now), so the
	// index holds just those, per scope: key → index in cells.
	bucket uint64
	index  [4]heapCellIndex
	now    HeapCount // the live heap
	last   uint64    // the latest event time
	ends   uint64    // the end of the latest allocation (Time+Size)

	classes  map[uint32]int // id → index in p.Classes
	threads  map[uint32]int // id → index in p.Threads
	openGC   int            // index in p.GCs of the collection still open; -1 when none
	pointers map[heapPointerKey]uint64
	done     *HeapProfile // once Profile is called
	retry    int          // cells above which to try coarsening again after it saved nothing
}

// errHeapFinished says an event came after the profile was taken.
var errHeapFinished = errors.New("heap log: event after the profile was taken")

// heapObject is what the builder keeps of a live object: 24 bytes, no pointers.
type heapObject struct {
	birth  uint64
	size   uint32 // when flags&heapBig, the size is in HeapBuilder.big
	thread uint32
	class  uint32
	flags  uint8
}

const (
	heapArray uint8 = 1 << iota
	heapBig
)

// heapCellIndex finds the cells of the current bucket by key. Keys are small numbers (cohorts,
// thread and class ids as logs number them, size slots), so a slot per key, stamped with the
// generation it is valid for, saves a map lookup on every event; larger keys use the map.
// Slots grow when a bucket begins (the map is empty then, so no cell moves) to the keys the map
// held, but only as far as the cells made so far justify: a log's large ids cost it no more
// memory than its records do.
type heapCellIndex struct {
	slots []heapCellSlot
	other map[uint64]int32
	stamp uint64 // the slots' generation: slots of older ones are empty
	made  uint64 // cells made so far
	want  uint64 // the slots this bucket's keys in the map would need
}

type heapCellSlot struct {
	stamp uint64
	i     int32
}

const (
	heapDenseKeys    = 1 << 20 // keys below this may get a slot
	heapSlots        = 1 << 10 // slots to start with; each cell made allows heapSlotsPerCell more
	heapSlotsPerCell = 8
)

// reset forgets every cell: a new bucket begins (or the cohort changed).
func (x *heapCellIndex) reset() {
	x.stamp++
	clear(x.other)
	n := uint64(len(x.slots))
	if x.want > n || n == 0 {
		if m := min(max(x.want, 2*n, heapSlots), heapDenseKeys, heapSlots+heapSlotsPerCell*x.made); m > n {
			x.slots = append(x.slots, make([]heapCellSlot, m-n)...)
		}
	}
	x.want = 0
}

// find returns where the cell of key is recorded, and whether one is; the caller makes the
// cell when none is.
func (x *heapCellIndex) find(key uint64) (*int32, bool) {
	if key < uint64(len(x.slots)) {
		sl := &x.slots[key]
		if sl.stamp == x.stamp {
			return &sl.i, true
		}
		sl.stamp = x.stamp
		x.made++
		return &sl.i, false
	}
	if key < heapDenseKeys {
		x.want = max(x.want, key+1)
	}
	if x.other == nil {
		x.other = make(map[uint64]int32)
	}
	if i, ok := x.other[key]; ok {
		return &i, true
	}
	x.made++
	return nil, false
}

type heapPointerKey struct {
	snapshot bool
	bucket   uint64
	distance int
}

// NewHeapBuilder returns a builder whose buckets are cohort bytes of allocation; 0 means
// DefaultCohort. Regroup changes the cohort later, to any multiple of this one.
func NewHeapBuilder(cohort uint64) *HeapBuilder {
	if cohort == 0 {
		cohort = DefaultCohort
	}
	b := &HeapBuilder{
		p:        HeapProfile{Cohort: cohort},
		live:     make(map[uint64]heapObject),
		big:      make(map[uint64]uint64),
		classes:  make(map[uint32]int),
		threads:  make(map[uint32]int),
		openGC:   -1,
		pointers: make(map[heapPointerKey]uint64),
	}
	for i := range b.index {
		b.index[i].reset()
	}
	return b
}

// HeapHeader keeps the log's header for the profile.
func (b *HeapBuilder) HeapHeader(h HeapHeader) error {
	if b.done != nil {
		return errHeapFinished
	}
	b.p.Header = h
	return nil
}

// HeapEvent counts one record. It keeps nothing of e but its strings, so the caller may reuse
// e. It fails only after Profile.
func (b *HeapBuilder) HeapEvent(e *HeapEvent) error {
	if b.done != nil {
		return errHeapFinished
	}
	if e.Kind == HeapClass {
		b.declareClass(e)
		return nil
	}
	t := e.Time
	if t < b.last {
		t = b.last
	}
	b.last = t
	if bucket := t / b.p.Cohort; bucket != b.bucket {
		b.bucket = bucket
		for i := range b.index {
			b.index[i].reset()
		}
	}
	switch e.Kind {
	case HeapAlloc:
		b.alloc(e, t)
	case HeapFree:
		o, ok := b.live[e.Object]
		if !ok {
			b.p.UnknownFrees++
			return nil
		}
		b.free(e.Object, o, t)
	case HeapThreadStart:
		b.startThread(e, t)
	case HeapThreadEnd:
		if i, ok := b.threads[e.Thread]; ok {
			b.p.Threads[i].End = t
			b.p.Threads[i].Ended = true
		}
	case HeapGCStart:
		kind := e.GCKind
		if kind == "" {
			kind = GCUnknown
		}
		b.p.GCs = append(b.p.GCs, HeapGC{Kind: kind, Start: t, End: t})
		b.openGC = len(b.p.GCs) - 1
	case HeapGCEnd:
		if b.openGC >= 0 {
			b.p.GCs[b.openGC].End = t
			b.openGC = -1
		}
	case HeapMutation:
		if e.Target == 0 {
			return nil
		}
		src, ok := b.live[e.Object]
		if !ok {
			return nil
		}
		dst, ok := b.live[e.Target]
		if !ok {
			return nil
		}
		d := DistanceBucket(MutationDistance(src.birth, e.Offset, dst.birth))
		b.pointers[heapPointerKey{bucket: t / b.p.Cohort, distance: d}]++
	case HeapSnapshot:
		b.pointers[heapPointerKey{snapshot: true, bucket: t / b.p.Cohort, distance: e.Distance}] += e.Count
	}
	if b.MaxCells > 0 && int(b.ncells) > max(b.MaxCells, b.retry) {
		b.retry = 0
		for int(b.ncells) > b.MaxCells {
			if !b.coarsen() {
				b.retry = 2 * int(b.ncells) // all in one bucket: wait for more before trying again
				break
			}
		}
	}
	return nil
}

// coarsen doubles the cohort, merging the cells as Regroup(2) would; false when that saved
// nothing (every cell is in the current bucket).
func (b *HeapBuilder) coarsen() bool {
	type cellKey struct {
		scope       HeapScope
		key, bucket uint64
	}
	if b.p.Cohort > math.MaxUint64/2 {
		return false
	}
	b.p.Cohort *= 2
	b.bucket = b.last / b.p.Cohort
	for i := range b.index {
		b.index[i].reset()
	}
	old, n := b.cells, b.ncells
	b.cells, b.ncells = nil, 0
	merged := make(map[cellKey]int32, n)
	// Cells were made in bucket order, and halving keeps that order, as sortedCells needs.
	for i := range n {
		c := &old[i/heapChunk][i%heapChunk]
		c.Bucket /= 2
		if c.Scope == ScopeCohort {
			c.Key /= 2
		}
		k := cellKey{c.Scope, c.Key, c.Bucket}
		if j, ok := merged[k]; ok {
			m := b.cellAt(j)
			m.Born.plus(c.Born)
			m.Died.plus(c.Died)
			m.Lifetime += c.Lifetime
			m.ArrayLifetime += c.ArrayLifetime
			continue
		}
		j := b.ncells
		if j%heapChunk == 0 {
			b.cells = append(b.cells, make([]HeapCell, heapChunk))
		}
		b.ncells++
		*b.cellAt(j) = *c
		merged[k] = j
		if c.Bucket == b.bucket {
			key := c.Key
			if c.Scope == ScopeSize {
				key = sizeSlot(key)
			}
			x := &b.index[c.Scope-1]
			if at, _ := x.find(key); at != nil {
				*at = j
			} else {
				x.other[key] = j
			}
		}
	}
	ptrs := make(map[heapPointerKey]uint64, len(b.pointers))
	for k, v := range b.pointers {
		k.bucket /= 2
		ptrs[k] += v
	}
	b.pointers = ptrs
	return b.ncells < n
}

func (b *HeapBuilder) declareClass(e *HeapEvent) {
	if _, ok := b.classes[e.Class]; ok {
		return // the first declaration stands
	}
	b.classes[e.Class] = len(b.p.Classes)
	b.p.Classes = append(b.p.Classes, HeapClassInfo{ID: e.Class, Name: e.Name, Array: e.Array || isArrayClassName(e.Name)})
}

// startThread declares a thread. Dalvik reuses thread ids: a second start of an id keeps the
// first start time and name (the cells cannot tell the two threads apart) and reopens it.
func (b *HeapBuilder) startThread(e *HeapEvent, t uint64) {
	if i, ok := b.threads[e.Thread]; ok {
		th := &b.p.Threads[i]
		if th.Name == "" {
			th.Name, th.Group = e.Name, e.Group
		}
		th.End, th.Ended = 0, false
		return
	}
	b.threads[e.Thread] = len(b.p.Threads)
	b.p.Threads = append(b.p.Threads, HeapThreadInfo{ID: e.Thread, Name: e.Name, Group: e.Group, Start: t})
}

func (b *HeapBuilder) alloc(e *HeapEvent, t uint64) {
	if old, ok := b.live[e.Object]; ok {
		b.free(e.Object, old, t)
	}
	size, array := e.Size, e.Array
	o := heapObject{birth: t, thread: e.Thread, class: e.Class}
	if size > math.MaxUint32 {
		o.flags |= heapBig
		b.big[e.Object] = size
	} else {
		o.size = uint32(size)
	}
	if array {
		o.flags |= heapArray
	}
	b.live[e.Object] = o

	b.p.Allocated.add(size, array)
	b.cell(ScopeCohort, b.bucket).Born.add(size, array)
	b.cell(ScopeThread, uint64(e.Thread)).Born.add(size, array)
	b.cell(ScopeClass, uint64(e.Class)).Born.add(size, array)
	b.cell(ScopeSize, SizeClass(size)).Born.add(size, array)

	b.now.add(size, array)
	if b.now.Bytes > b.p.MaxLive.Bytes {
		b.p.MaxLive = b.now
		b.p.MaxLiveAt = t + size
	}
	if end := t + size; end > b.ends {
		b.ends = end
	}
}

func (b *HeapBuilder) free(id uint64, o heapObject, t uint64) {
	size := uint64(o.size)
	if o.flags&heapBig != 0 {
		size = b.big[id]
		delete(b.big, id)
	}
	delete(b.live, id)
	array := o.flags&heapArray != 0
	life := t - o.birth

	b.p.Freed.add(size, array)
	b.now.sub(size, array)
	b.cell(ScopeCohort, o.birth/b.p.Cohort).died(size, array, life)
	b.cell(ScopeThread, uint64(o.thread)).died(size, array, life)
	b.cell(ScopeClass, uint64(o.class)).died(size, array, life)
	b.cell(ScopeSize, SizeClass(size)).died(size, array, life)
}

// cell finds or makes the cell of (s, key) in the current bucket.
func (b *HeapBuilder) cell(s HeapScope, key uint64) *HeapCell {
	x := &b.index[s-1]
	if s == ScopeSize {
		key = sizeSlot(key)
	}
	at, ok := x.find(key)
	if ok {
		return b.cellAt(*at)
	}
	i := b.ncells
	if i&(heapChunk-1) == 0 {
		b.cells = append(b.cells, make([]HeapCell, heapChunk))
	}
	b.ncells++
	c := b.cellAt(i)
	*c = HeapCell{Scope: s, Key: key, Bucket: b.bucket}
	if s == ScopeSize {
		c.Key = sizeOfSlot(key)
	}
	if at != nil {
		*at = i
	} else {
		x.other[key] = i
	}
	return c
}

const heapChunk = 1 << 10 // cells per chunk

func (b *HeapBuilder) cellAt(i int32) *HeapCell { return &b.cells[i/heapChunk][i%heapChunk] }

// sizeSlot numbers the size classes densely: 8-byte steps up to 256 bytes, then powers of two.
func sizeSlot(class uint64) uint64 {
	if class <= 256 {
		return class / 8
	}
	return 32 + uint64(bitLen(class-1)) - 8
}

func sizeOfSlot(slot uint64) uint64 {
	if slot <= 32 {
		return slot * 8
	}
	return 1 << (slot - 32 + 8)
}

// Profile finishes: objects still live count as Survived in the bucket of their birth. The
// builder hands its memory to the profile as it goes, so the cells are never held twice; later
// calls return the same profile, and events after it are an error.
func (b *HeapBuilder) Profile() *HeapProfile {
	if b.done != nil {
		return b.done
	}
	p := b.p
	p.End = max(b.last, b.ends, p.Allocated.Bytes)
	p.Threads = slices.Clone(b.p.Threads)
	p.GCs = slices.Clone(b.p.GCs)

	var runs map[heapKey][2]int
	p.Cells, runs = b.sortedCells()
	for id, o := range b.live {
		size := uint64(o.size)
		if o.flags&heapBig != 0 {
			size = b.big[id]
		}
		array := o.flags&heapArray != 0
		bucket := o.birth / b.p.Cohort
		keys := [4]uint64{bucket, uint64(o.thread), uint64(o.class), SizeClass(size)}
		for s, key := range keys {
			// Every survivor was born, so its cell exists.
			r := runs[heapKey{HeapScope(s + 1), key}]
			run := p.Cells[r[0]:r[1]]
			i, _ := slices.BinarySearchFunc(run, bucket, func(c HeapCell, b uint64) int { return cmp.Compare(c.Bucket, b) })
			run[i].Survived.add(size, array)
		}
	}

	// A class is an array class when its name says so or when its objects are arrays.
	arrays := make(map[uint64]bool)
	for _, c := range p.Cells {
		if c.Scope == ScopeClass && c.Born.ArrayObjects > 0 {
			arrays[c.Key] = true
		}
	}
	p.Classes = slices.Clone(b.p.Classes)
	for i := range p.Classes {
		if arrays[uint64(p.Classes[i].ID)] {
			p.Classes[i].Array = true
		}
	}
	slices.SortFunc(p.Classes, func(x, y HeapClassInfo) int { return cmp.Compare(x.ID, y.ID) })
	slices.SortFunc(p.Threads, func(x, y HeapThreadInfo) int { return cmp.Compare(x.ID, y.ID) })

	p.Pointers = nil
	for k, n := range b.pointers {
		p.Pointers = append(p.Pointers, HeapPointers{Snapshot: k.snapshot, Bucket: k.bucket, Distance: k.distance, Count: n})
	}
	slices.SortFunc(p.Pointers, compareHeapPointers)

	b.done = &p
	b.live, b.big, b.pointers = nil, nil, nil
	b.index = [4]heapCellIndex{}
	return b.done
}

// heapKey is one line of cells: a scope's key.
type heapKey struct {
	scope HeapScope
	key   uint64
}

// sortedCells moves the cells into one slice in (Scope, Key, Bucket) order, and says where each
// key's run of cells starts and ends. Cells are made in bucket order, so placing each key's
// cells in the order made sorts them. Each chunk is dropped once moved.
func (b *HeapBuilder) sortedCells() ([]HeapCell, map[heapKey][2]int) {
	if b.ncells == 0 {
		return nil, nil
	}
	count := make(map[heapKey]int)
	for i := range b.ncells {
		c := b.cellAt(i)
		count[heapKey{c.Scope, c.Key}]++
	}
	keys := slices.SortedFunc(maps.Keys(count), func(x, y heapKey) int {
		if c := cmp.Compare(x.scope, y.scope); c != 0 {
			return c
		}
		return cmp.Compare(x.key, y.key)
	})
	runs := make(map[heapKey][2]int, len(keys))
	at := 0
	for _, k := range keys {
		runs[k] = [2]int{at, at}
		at += count[k]
	}
	cells := make([]HeapCell, b.ncells)
	for i := range b.ncells {
		c := b.cellAt(i)
		k := heapKey{c.Scope, c.Key}
		r := runs[k]
		cells[r[1]] = *c
		r[1]++
		runs[k] = r
		if i%heapChunk == heapChunk-1 {
			b.cells[i/heapChunk] = nil
		}
	}
	b.cells, b.ncells = nil, 0
	return cells, runs
}

func (c *HeapCount) add(size uint64, array bool) {
	c.Objects++
	c.Bytes += size
	if array {
		c.ArrayObjects++
		c.ArrayBytes += size
	}
}

func (c *HeapCount) sub(size uint64, array bool) {
	c.Objects--
	c.Bytes -= size
	if array {
		c.ArrayObjects--
		c.ArrayBytes -= size
	}
}

func (c *HeapCount) plus(d HeapCount) {
	c.Objects += d.Objects
	c.Bytes += d.Bytes
	c.ArrayObjects += d.ArrayObjects
	c.ArrayBytes += d.ArrayBytes
}

func (c *HeapCell) died(size uint64, array bool, life uint64) {
	c.Died.add(size, array)
	c.Lifetime += life
	if array {
		c.ArrayLifetime += life
	}
}

func compareHeapCells(x, y HeapCell) int {
	if c := cmp.Compare(x.Scope, y.Scope); c != 0 {
		return c
	}
	if c := cmp.Compare(x.Key, y.Key); c != 0 {
		return c
	}
	return cmp.Compare(x.Bucket, y.Bucket)
}

func compareHeapPointers(x, y HeapPointers) int {
	if x.Snapshot != y.Snapshot {
		if !x.Snapshot {
			return -1
		}
		return 1
	}
	if c := cmp.Compare(x.Bucket, y.Bucket); c != 0 {
		return c
	}
	return cmp.Compare(x.Distance, y.Distance)
}

// isArrayClassName tells array classes by their name, in JVM internal form ("[I") or Java's
// ("int[]").
func isArrayClassName(name string) bool {
	return strings.HasPrefix(name, "[") || strings.HasSuffix(name, "[]")
}
