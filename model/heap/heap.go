package heap

// Heap logs (seed 001's instrumented Dalvik VM, and the project's JVMTI agent on OpenJDK): the
// records their readers stream, so a log of any size imports without being held. "Time" in a
// heap log is the number of bytes allocated so far, as in the seed.

// HeapHeader is what a heap log says about itself.
type HeapHeader struct {
	Format  string // "heaplog"
	Version int
	VM      string            // the VM that wrote it, e.g. "OpenJDK 17.0.9 (androprof heap agent)"
	Props   map[string]string // the log's other "prop key value" lines
}

// HeapEventKind says which fields of a HeapEvent are set.
type HeapEventKind uint8

// The records of a heap log (docs/heaplog-format.md).
const (
	HeapClass       HeapEventKind = iota + 1 // Class, Name, Array: a class declared (loaded or first allocated)
	HeapThreadStart                          // Thread, Name, Group, Time
	HeapThreadEnd                            // Thread, Time
	HeapAlloc                                // Object, Time (birth), Size, Thread, Class, Array
	HeapFree                                 // Object, Time (death)
	HeapGCStart                              // Time, GCKind
	HeapGCEnd                                // Time
	HeapMutation                             // Time, Object (source), Offset, Target (0: null)
	HeapSnapshot                             // Time, Distance (signed power-of-two bucket), Count
)

// The GC kinds of Dalvik (seed 001 §2.2); GCUnknown when the VM does not say why it collects.
const (
	GCConcurrent = "GC_CONCURRENT"
	GCForMalloc  = "GC_FOR_MALLOC"
	GCExplicit   = "GC_EXPLICIT"
	GCBeforeOOM  = "GC_BEFORE_OOM"
	GCUnknown    = "GC"
)

// HeapEvent is one record of a heap log. Times are total bytes allocated before the event,
// so an allocation's Time is its birth and the next allocation's Time is Time+Size.
type HeapEvent struct {
	Kind     HeapEventKind
	Time     uint64
	Object   uint64 // object id, unique within the log, never 0
	Target   uint64 // mutation target id; 0 stores null
	Offset   uint32 // mutation field offset in bytes
	Size     uint64 // allocation size in bytes, 8-byte aligned by the VM
	Thread   uint32 // thread id as the log numbers threads
	Class    uint32 // class id as the log numbers classes
	Array    bool
	Name     string // class or thread name
	Group    string // thread group; "" when the VM has none
	GCKind   string
	Distance int    // HeapSnapshot: see DistanceBucket
	Count    uint64 // HeapSnapshot: references in that bucket
}

// HeapSink receives a heap log as its reader streams it. Classes and threads are declared
// before the first record that names them.
type HeapSink interface {
	HeapHeader(h HeapHeader) error
	HeapEvent(e *HeapEvent) error
}

// MutationDistance is seed 001's distance of a pointer mutation (its listing 3.2): from the
// stored field, at the source's birth plus the field's offset, to the target's birth, in bytes
// of allocation. It is positive when the source is older than the target, as the seed's text
// says (its listing subtracts the other way round). The offset never changes the sign, as a
// field lies inside its object, but a store into a large array lands in its own bucket.
func MutationDistance(source uint64, offset uint32, target uint64) int64 {
	return int64(target) - int64(source) - int64(offset)
}

// DistanceBucket groups a pointer distance (target minus source, in bytes of allocation time
// or of address) into the signed power-of-two buckets of seed figures 5.22 and 5.23: bucket b>0
// holds distances d with 2^(b-1) <= d < 2^b, bucket -b the same for -d, and zero counts as
// negative, as the seed does (bucket -1 holds 0 and -1).
func DistanceBucket(d int64) int {
	if d > 0 {
		return bitLen(uint64(d))
	}
	if d == 0 {
		return -1
	}
	return -bitLen(uint64(-d))
}

func bitLen(x uint64) int {
	n := 0
	for x != 0 {
		x >>= 1
		n++
	}
	return n
}

// SizeClass groups an object size for the size demographics of seed figures 5.7–5.10: sizes up
// to 256 bytes keep their own 8-byte step (the seed's histogram shows each), larger ones go to
// the next power of two. The result is the class's upper bound in bytes.
func SizeClass(size uint64) uint64 {
	if size <= 256 {
		return (size + 7) &^ 7
	}
	return 1 << bitLen(size-1)
}
