package heap

// HeapProfile is a heap log reduced to what the analysis shows (seed 001 chapter 5), small
// enough to keep whatever the log's size: counts per (scope, key, time bucket). A time bucket
// is Cohort bytes of allocation; bucket k is also cohort k, the objects born in it.
type HeapProfile struct {
	Header HeapHeader
	Cohort uint64 // bytes of allocation per bucket (seed default 256 KB)
	End    uint64 // total bytes allocated: the log's last time

	Allocated HeapCount // every allocation
	Freed     HeapCount // every death
	MaxLive   HeapCount // largest live heap (by bytes) at any moment, and its objects then
	MaxLiveAt uint64    // when (total allocation)

	Classes  []HeapClassInfo  // every class the log declares: its loaded classes
	Threads  []HeapThreadInfo // every thread the log declares
	GCs      []HeapGC
	Cells    []HeapCell     // sparse, sorted by (Scope, Key, Bucket)
	Pointers []HeapPointers // mutation and snapshot distances over time

	UnknownFrees uint64 // deaths of ids never allocated (or freed twice): skipped, counted
}

// HeapCount is objects and bytes, with the arrays among them counted apart as the seed does.
type HeapCount struct {
	Objects      uint64
	Bytes        uint64
	ArrayObjects uint64
	ArrayBytes   uint64
}

// HeapScope is what the cells of a profile are grouped by.
type HeapScope uint8

// The scopes of seed 001 chapter 3.3.
const (
	ScopeCohort HeapScope = iota + 1 // Key: the cohort (birth bucket)
	ScopeThread                      // Key: the allocating thread's id
	ScopeClass                       // Key: the class id
	ScopeSize                        // Key: SizeClass of the object's size
)

// HeapCell counts, for the objects of one key in one scope, what happened in one time bucket:
// Born and Survived are the objects born in the bucket (Survived: still live at the end);
// Died are those that died in it, with the sum of their lifetimes (bytes allocated between
// birth and death). Live at the start of bucket m is Σ Born(<m) − Σ Died(<m).
type HeapCell struct {
	Scope         HeapScope
	Key           uint64
	Bucket        uint64
	Born          HeapCount
	Survived      HeapCount
	Died          HeapCount
	Lifetime      uint64 // Σ lifetimes of Died.Objects
	ArrayLifetime uint64 // Σ lifetimes of Died.ArrayObjects
}

// HeapClassInfo is one declared class.
type HeapClassInfo struct {
	ID    uint32
	Name  string // JVM internal form: java/lang/String, [I, [Ljava/lang/Object;
	Array bool
}

// HeapThreadInfo is one declared thread.
type HeapThreadInfo struct {
	ID    uint32
	Name  string
	Group string
	Start uint64 // time of its start record
	End   uint64 // time of its end record; 0 while it never ended
	Ended bool
}

// HeapGC is one collection.
type HeapGC struct {
	Kind  string
	Start uint64
	End   uint64 // equals Start when the log has no end record for it
}

// HeapPointers counts pointer distances in one time bucket.
type HeapPointers struct {
	Snapshot bool // false: pointer mutations (figure 5.22); true: a heap snapshot (5.23)
	Bucket   uint64
	Distance int // DistanceBucket
	Count    uint64
}
