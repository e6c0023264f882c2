package model

// Heap dumps (HPROF, formats.md §3): one moment of a heap, summarised as its reader streams it.
// Objects are counted per class and heap; ids are addresses, so pointer distances are address
// differences (seed figure 5.23).

// HeapDump is the summary of one dump.
type HeapDump struct {
	Version   string   // "JAVA PROFILE 1.0.2", "JAVA PROFILE 1.0.3", …
	IDSize    int      // 4 or 8
	Timestamp uint64   // ms since the epoch, as the header states
	Heaps     []string // heap names in order of first use ("default" when the dump names none)

	LoadedClasses int // LOAD_CLASS records (or CLASS_DUMPs when there are more)
	ArrayClasses  int // loaded classes whose name is an array type

	Classes  []DumpClass    // one per (class, heap) with at least one object
	Sizes    []DumpSize     // per (heap, SizeClass)
	Pointers []DumpPointers // per (heap of the source, DistanceBucket)
	Roots    int            // GC roots listed
}

// DumpCount is a number of objects and their bytes.
type DumpCount struct {
	Objects uint64
	Bytes   uint64
}

// DumpClass is what one class holds in one heap. Array classes ("[I", "java.lang.String[]")
// count their arrays; Bytes of an instance is its class's instance size, of an array its
// elements' bytes, both as the dump states them (no header, as ahat and perflib count them).
type DumpClass struct {
	Name  string // as the dump's strings give it (Java binary or internal form)
	Heap  string
	Array bool
	DumpCount
}

// DumpSize is one bar of the size histogram: instances and arrays apart.
type DumpSize struct {
	Heap      string
	SizeClass uint64
	Instances DumpCount
	Arrays    DumpCount
}

// DumpPointers counts the non-null references from objects of a heap (instance fields and
// object-array elements) whose target−source address difference falls in Bucket.
type DumpPointers struct {
	Heap   string
	Bucket int // DistanceBucket
	Count  uint64
}
