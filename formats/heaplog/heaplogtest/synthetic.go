// Package heaplogtest makes heap logs for benchmarks and other packages' tests, so none of them
// needs a VM or a large file in the repository.
package heaplogtest

import (
	"fmt"
	"io"
	"math/rand/v2"
	"strconv"

	"androprof/formats/heaplog"
	"androprof/model/heap"
)

// class is one class the generator allocates, with how often it does.
type class struct {
	name   string
	size   uint64 // instance size, or the array header
	elem   uint64 // array element size; 0 for an instance class
	weight int
}

// classes are shaped after seed 001's Quadrant and Lusearch runs: strings and char arrays lead,
// 16–64-byte instances dominate, arrays are frequent and a few are large.
var classes = []class{
	{"java/lang/String", 24, 0, 120},
	{"[C", 16, 2, 110},
	{"java/util/HashMap$Node", 32, 0, 40},
	{"java/lang/StringBuilder", 24, 0, 30},
	{"java/lang/Integer", 16, 0, 30},
	{"[Ljava/lang/Object;", 16, 4, 25},
	{"[I", 16, 4, 25},
	{"java/util/ArrayList", 24, 0, 20},
	{"[B", 16, 1, 20},
	{"java/util/ArrayList$Itr", 24, 0, 15},
	{"com/aurorasoftworks/quadrant/ui/professional/benchmark/Vector3", 24, 0, 10},
	{"java/lang/Long", 16, 0, 8},
	{"java/util/LinkedList$Node", 24, 0, 8},
	{"android/graphics/Rect", 32, 0, 8},
	{"org/apache/lucene/index/Term", 24, 0, 8},
	{"org/apache/lucene/util/BytesRef", 24, 0, 8},
	{"java/util/HashMap", 48, 0, 6},
	{"android/os/Message", 56, 0, 6},
	{"[Ljava/lang/String;", 16, 4, 6},
	{"org/apache/lucene/search/ScoreDoc", 24, 0, 6},
	{"org/apache/lucene/analysis/Token", 48, 0, 6},
	{"java/lang/Object", 16, 0, 5},
	{"java/lang/Double", 16, 0, 5},
	{"[Ljava/util/HashMap$Node;", 16, 4, 5},
	{"java/util/TreeMap$Entry", 40, 0, 5},
	{"java/util/concurrent/ConcurrentHashMap$Node", 32, 0, 5},
	{"[J", 16, 8, 4},
	{"[F", 16, 4, 4},
	{"android/graphics/RectF", 32, 0, 4},
	{"java/lang/ref/WeakReference", 32, 0, 3},
	{"java/util/HashSet", 16, 0, 3},
	{"android/graphics/Matrix", 16, 0, 3},
	{"com/aurorasoftworks/quadrant/ui/professional/benchmark/Matrix4", 80, 0, 3},
	{"[Z", 16, 1, 2},
	{"[S", 16, 2, 2},
	{"[D", 16, 8, 2},
	{"android/graphics/Paint", 64, 0, 2},
	{"android/view/MotionEvent", 40, 0, 2},
	{"android/util/SparseArray", 32, 0, 2},
	{"android/text/SpannableStringBuilder", 56, 0, 2},
	{"java/util/regex/Matcher", 64, 0, 2},
	{"java/nio/HeapByteBuffer", 56, 0, 2},
	{"org/apache/lucene/search/TermQuery", 32, 0, 2},
	{"[[I", 16, 4, 1},
	{"java/util/Formatter", 40, 0, 1},
	{"java/lang/StackTraceElement", 32, 0, 1},
	{"java/lang/reflect/Method", 64, 0, 1},
	{"org/apache/lucene/store/RAMFile", 40, 0, 1},
	{"java/util/zip/Inflater", 40, 0, 1},
	{"java/util/concurrent/locks/ReentrantLock$NonfairSync", 32, 0, 1},
}

// The shape of the heap: a GC every gcBytes allocated at most, young objects surviving their
// first GC with survive‰, survivors dying at each later GC with oldDeath‰, at most maxOld of
// them, a snapshot every snapshotGCs GCs from the fourth and a worker thread replaced every
// churnGCs GCs.
const (
	gcBytes     = 512 << 10
	survive     = 80
	oldDeath    = 30
	maxOld      = 8192
	snapshotGCs = 16
	churnGCs    = 12
	workers     = 3
)

type object struct {
	id   uint64
	size uint64
}

type gen struct {
	w        *heaplog.Writer
	rng      *rand.Rand
	e        heap.HeapEvent
	err      error
	n        int // records written
	weights  int
	declared []bool
	gcEvery  uint64
	sinceGC  uint64
	gcs      int
	nextOID  uint64
	nextTID  uint32
	nextName int
	main     uint32
	daemons  []uint32
	workers  []uint32
	young    []object
	old      []object
}

// Synthetic writes a heap log of about events records, the same for the same seed: threads
// (main, daemons and workers that come and go), about 50 classes declared at their first
// allocation, allocations with Java-like sizes (mostly 16–64 bytes, some large arrays),
// pointer mutations, GCs in which most objects die young and a bounded set lives long (so an
// analysis's memory stays flat however many events are asked for), and a few snapshot lines.
//
// It is synthetic data for benchmarks and tests: nothing in it was measured, and it must never
// be shown as a measurement. Its header says so (prop synthetic true).
func Synthetic(w io.Writer, events int, seed int64) error {
	hw, err := heaplog.NewWriter(w, heap.HeapHeader{
		VM: "synthetic (androprof heaplogtest)",
		Props: map[string]string{
			"synthetic": "true",
			"generator": "androprof/formats/heaplog/heaplogtest",
			"seed":      strconv.FormatInt(seed, 10),
			"events":    strconv.Itoa(events),
		},
	})
	if err != nil {
		return err
	}
	g := &gen{w: hw, rng: rand.New(rand.NewPCG(uint64(seed), 0x68656170)), declared: make([]bool, len(classes)),
		gcEvery: min(max(uint64(events)*2, 4<<10), gcBytes), nextOID: 1, nextTID: 1}
	for _, c := range classes {
		g.weights += c.weight
	}
	g.startThreads()
	for g.n < events && g.err == nil {
		g.allocate()
		if g.sinceGC >= g.gcEvery {
			g.gc()
		}
	}
	g.endThreads()
	if g.err != nil {
		return g.err
	}
	return hw.Flush()
}

func (g *gen) emit() {
	if g.err == nil {
		g.err = g.w.Write(&g.e)
		g.n++
	}
}

func (g *gen) startThread(name, group string) uint32 {
	tid := g.nextTID
	g.nextTID++
	g.e = heap.HeapEvent{Kind: heap.HeapThreadStart, Thread: tid, Time: g.w.Total(), Name: name, Group: group}
	g.emit()
	return tid
}

func (g *gen) startWorker() {
	g.nextName++
	g.workers = append(g.workers, g.startThread(fmt.Sprintf("pool-1-thread-%d", g.nextName), "main"))
}

func (g *gen) endThread(tid uint32) {
	g.e = heap.HeapEvent{Kind: heap.HeapThreadEnd, Thread: tid, Time: g.w.Total()}
	g.emit()
}

func (g *gen) startThreads() {
	g.main = g.startThread("main", "main")
	for _, name := range []string{"HeapWorker", "FinalizerDaemon", "ReferenceQueueDaemon", "Signal Catcher"} {
		g.daemons = append(g.daemons, g.startThread(name, "system"))
	}
	for range workers {
		g.startWorker()
	}
}

func (g *gen) endThreads() {
	for _, tid := range g.workers {
		g.endThread(tid)
	}
	for _, tid := range g.daemons {
		g.endThread(tid)
	}
	g.endThread(g.main)
}

// thread picks the allocating thread: mostly main, then the workers, rarely the finalizer.
func (g *gen) thread() uint32 {
	switch p := g.rng.IntN(100); {
	case p < 60:
		return g.main
	case p == 99:
		return g.daemons[1]
	}
	return g.workers[g.rng.IntN(len(g.workers))]
}

func (g *gen) class() int {
	k := g.rng.IntN(g.weights)
	for i, c := range classes {
		if k < c.weight {
			return i
		}
		k -= c.weight
	}
	return 0
}

// size is an instance's size, or an array's for a length that is mostly short, sometimes a
// few hundred elements and rarely kilobytes.
func (g *gen) size(c class) uint64 {
	if c.elem == 0 {
		return c.size
	}
	var n uint64
	switch p := g.rng.IntN(1000); {
	case p < 3:
		n = (4<<10 + g.rng.Uint64N(60<<10)) / c.elem
	case p < 100:
		n = 16 + g.rng.Uint64N(240)
	default:
		n = g.rng.Uint64N(16)
	}
	return (c.size + n*c.elem + 7) &^ 7
}

func (g *gen) allocate() {
	ci := g.class()
	c := classes[ci]
	if !g.declared[ci] {
		g.declared[ci] = true
		g.e = heap.HeapEvent{Kind: heap.HeapClass, Class: uint32(ci + 1), Name: c.name, Array: c.elem != 0}
		g.emit()
	}
	obj := object{id: g.nextOID, size: g.size(c)}
	g.nextOID++
	g.e = heap.HeapEvent{Kind: heap.HeapAlloc, Object: obj.id, Time: g.w.Total(), Size: obj.size,
		Thread: g.thread(), Class: uint32(ci + 1), Array: c.elem != 0}
	g.emit()
	g.sinceGC += obj.size
	g.young = append(g.young, obj)
	if g.rng.IntN(100) < 30 {
		g.mutate(obj)
	}
}

// mutate stores a reference: mostly into a field of the new object, else into an old one.
func (g *gen) mutate(src object) {
	if len(g.old) > 0 && g.rng.IntN(100) < 30 {
		src = g.old[g.rng.IntN(len(g.old))]
	}
	if src.size < 16 {
		return
	}
	var dst uint64
	switch p := g.rng.IntN(100); {
	case p < 10:
		dst = 0
	case p < 70 || len(g.old) == 0:
		dst = g.young[g.rng.IntN(len(g.young))].id
	default:
		dst = g.old[g.rng.IntN(len(g.old))].id
	}
	off := 8 + 4*g.rng.Uint64N((src.size-8)/4)
	g.e = heap.HeapEvent{Kind: heap.HeapMutation, Time: g.w.Total(), Object: src.id, Offset: uint32(off), Target: dst}
	g.emit()
}

func (g *gen) gc() {
	t := g.w.Total()
	kind := heap.GCConcurrent
	switch p := g.rng.IntN(100); {
	case p < 15:
		kind = heap.GCForMalloc
	case p < 18:
		kind = heap.GCExplicit
	}
	g.e = heap.HeapEvent{Kind: heap.HeapGCStart, Time: t, GCKind: kind}
	g.emit()
	kept := g.old[:0]
	for _, o := range g.old {
		if g.rng.IntN(1000) < oldDeath {
			g.die(o, t)
		} else {
			kept = append(kept, o)
		}
	}
	g.old = kept
	for _, o := range g.young {
		if g.rng.IntN(1000) < survive {
			g.old = append(g.old, o)
		} else {
			g.die(o, t)
		}
	}
	g.young = g.young[:0]
	for len(g.old) > maxOld {
		i := g.rng.IntN(len(g.old))
		g.die(g.old[i], t)
		g.old[i] = g.old[len(g.old)-1]
		g.old = g.old[:len(g.old)-1]
	}
	g.e = heap.HeapEvent{Kind: heap.HeapGCEnd, Time: t}
	g.emit()
	g.sinceGC = 0
	g.gcs++
	if g.gcs%snapshotGCs == 4 {
		g.snapshot(t)
	}
	if g.gcs%churnGCs == 0 {
		i := g.rng.IntN(len(g.workers))
		g.endThread(g.workers[i])
		g.workers = append(g.workers[:i], g.workers[i+1:]...)
		g.startWorker()
	}
}

func (g *gen) die(o object, t uint64) {
	g.e = heap.HeapEvent{Kind: heap.HeapFree, Object: o.id, Time: t}
	g.emit()
}

// snapshot writes made-up pointer distance counts for the live set: most references point a
// little back in time (young to older), fewer forward.
func (g *gen) snapshot(t uint64) {
	live := uint64(len(g.old) + 1)
	for _, b := range []int{-12, -8, -4, 4, 6, 8, 10, 12, 14, 16, 18, 20} {
		n := live * uint64(8+g.rng.IntN(8)) / 16
		if b < 0 {
			n /= 4
		}
		g.e = heap.HeapEvent{Kind: heap.HeapSnapshot, Time: t, Distance: b, Count: n}
		g.emit()
	}
}
