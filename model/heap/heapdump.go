package heap

import (
	"cmp"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"sync"

	"androprof/model/layers"
)

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

	// Retention is what keeps the memory alive, when it was worked out at import (it is not
	// loaded with the summary: the workspace answers questions about it one at a time).
	Retention *DumpRetention
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

// DumpRetention is what keeps a dump's memory alive: the dominator tree of its reachable
// objects from the GC roots, every object's retained size and a shortest reference chain from
// a root to it (hprof.Retention computes it; docs/hprof.md). A dump can hold millions of
// objects, so they are kept column by column (Objects) and read one at a time (Object).
type DumpRetention struct {
	Weak      bool   // referents of weak, soft, phantom and finalizer references retained too
	Reachable uint64 // bytes reachable from the roots: the top level's retained sizes add up to it
	Classes   []RetainedClass
	Fields    []string // the names DumpColumns.Field indexes: fields ("table") and root kinds
	Heaps     []string // the names DumpColumns.Heap indexes
	Objects   DumpColumns
	// Referrers: RefFrom[RefStart[i]:RefStart[i+1]] are the objects (by seq) whose strong
	// references point at object i, one per reference (heap.Dominators.RefStart).
	RefStart []uint32
	RefFrom  []int32
	// Records are the import's spill of every reachable object's record, for the store to keep
	// (nil when loaded from the store): model/heap/records.go.
	Records *ObjectRecords

	// Made on first use, once, so the window's background loads may ask at the same time:
	children []int32 // each object's children in the dominator tree, largest first, from childAt[i+1]
	childAt  []int32 // (slot 0 is the top level)
	byID     []int32 // the objects sorted by id (heapdumpquery.go's Find)
	treeOnce sync.Once
	idOnce   sync.Once
}

// DumpColumns are the reachable objects of a dump, one slice per field, each object's
// dominator and path parent before it.
type DumpColumns struct {
	ID       []uint64
	Class    []int32 // index into Classes: an object's class, or for a class object the class it is
	IsClass  []bool  // a class object, not an instance
	Shallow  []uint64
	Retained []uint64
	Idom     []int32 // its immediate dominator; -1 at the top level
	Parent   []int32 // the object before it on a shortest chain from a root; -1 for a root
	// Field is the reference from Parent to it, or a root's kind: an index into Fields, or for
	// an array element -(index+1).
	Field []int32
	Depth []int32 // references from a root to it: 0 for a root
	Heap  []uint8 // the heap its record is in: an index into DumpRetention.Heaps
}

// Len is the number of objects.
func (c *DumpColumns) Len() int { return len(c.ID) }

// Append adds one object.
func (c *DumpColumns) Append(o DumpObject, field int32) {
	c.ID = append(c.ID, o.ID)
	c.Class = append(c.Class, o.Class)
	c.IsClass = append(c.IsClass, o.IsClass)
	c.Shallow = append(c.Shallow, o.Shallow)
	c.Retained = append(c.Retained, o.Retained)
	c.Idom = append(c.Idom, o.Idom)
	c.Parent = append(c.Parent, o.Parent)
	c.Field = append(c.Field, field)
	c.Depth = append(c.Depth, o.Depth)
}

// RetainedClass is a class's instances (arrays, for an array class) and what they hold alive
// together: the retained sizes of those instances no other instance of the class dominates.
type RetainedClass struct {
	Name      string
	Instances uint64
	Shallow   uint64
	Retained  uint64
}

// DumpObject is one reachable object of a dump.
type DumpObject struct {
	Seq      int32 // its index in DumpRetention.Objects
	ID       uint64
	Class    int32 // index into DumpRetention.Classes
	IsClass  bool  // a class object: Class is the class it is
	ClassOf  string
	Shallow  uint64
	Retained uint64
	Idom     int32  // the index of its immediate dominator in Objects; -1 at the top level
	Parent   int32  // the object before it on a shortest chain from a root; -1 for a root
	Field    string // the reference from Parent to it ("table", "[3]"); for a root, its kind
	Depth    int32  // references from a root to it: 0 for a root
}

// Object is the object at index i.
func (r *DumpRetention) Object(i int32) DumpObject {
	c := &r.Objects
	o := DumpObject{Seq: i, ID: c.ID[i], Class: c.Class[i], IsClass: c.IsClass[i], Shallow: c.Shallow[i], Retained: c.Retained[i],
		Idom: c.Idom[i], Parent: c.Parent[i], Depth: c.Depth[i]}
	if f := c.Field[i]; f < 0 {
		o.Field = "[" + strconv.Itoa(int(-f-1)) + "]"
	} else if int(f) < len(r.Fields) {
		o.Field = r.Fields[f]
	}
	if o.Class >= 0 && int(o.Class) < len(r.Classes) {
		o.ClassOf = r.Classes[o.Class].Name
		if o.IsClass {
			o.ClassOf = "class " + o.ClassOf
		}
	}
	return o
}

// Dominated lists the objects i immediately dominates (-1: the top level), largest retained
// first, at most limit of them (0: all).
func (r *DumpRetention) Dominated(i int32, limit int) []DumpObject {
	r.treeOnce.Do(r.index)
	k := i + 1 // the top level is slot 0
	kids := r.children[r.childAt[k]:r.childAt[k+1]]
	return r.objects(kids, limit)
}

// HasDominated says whether object i (-1: the top level) dominates any object.
func (r *DumpRetention) HasDominated(i int32) bool {
	r.treeOnce.Do(r.index)
	return r.childAt[i+2] > r.childAt[i+1]
}

// DominatedAfter counts the objects i immediately dominates past the first skip (the largest),
// and what they retain together: the rest of a list cut short.
func (r *DumpRetention) DominatedAfter(i int32, skip int) (count int, retained uint64) {
	r.treeOnce.Do(r.index)
	k := i + 1
	kids := r.children[r.childAt[k]:r.childAt[k+1]]
	for _, c := range kids[min(skip, len(kids)):] {
		count++
		retained += r.Objects.Retained[c]
	}
	return count, retained
}

// index builds the dominator tree's children lists, sorted by retained size.
func (r *DumpRetention) index() {
	c := &r.Objects
	n := c.Len()
	r.childAt = make([]int32, n+2)
	for _, p := range c.Idom {
		r.childAt[p+1]++
	}
	var sum int32
	for k := range r.childAt {
		r.childAt[k], sum = sum, sum+r.childAt[k]
	}
	r.children = make([]int32, n)
	fill := slices.Clone(r.childAt)
	for i, p := range c.Idom {
		r.children[fill[p+1]] = int32(i)
		fill[p+1]++
	}
	for k := 0; k+1 < len(r.childAt); k++ {
		kids := r.children[r.childAt[k]:r.childAt[k+1]]
		slices.SortFunc(kids, func(a, b int32) int { return cmp.Or(cmp.Compare(c.Retained[b], c.Retained[a]), cmp.Compare(a, b)) })
	}
}

func (r *DumpRetention) objects(idx []int32, limit int) []DumpObject {
	if limit > 0 && len(idx) > limit {
		idx = idx[:limit]
	}
	out := make([]DumpObject, len(idx))
	for k, i := range idx {
		out[k] = r.Object(i)
	}
	return out
}

// Nearest is the instance of the class (an index into Classes) nearest a GC root: the fewest
// references from one, the largest retained of those.
func (r *DumpRetention) Nearest(class int32) (DumpObject, bool) {
	c := &r.Objects
	best := int32(-1)
	for i := range c.Len() {
		if c.Class[i] != class || c.IsClass[i] {
			continue
		}
		if best < 0 || c.Depth[i] < c.Depth[best] || c.Depth[i] == c.Depth[best] && c.Retained[i] > c.Retained[best] {
			best = int32(i)
		}
	}
	if best < 0 {
		return DumpObject{}, false
	}
	return r.Object(best), true
}

// ClassObjects counts the reachable class objects: Objects holds them beside the instances and
// arrays, which are all a dump's summary counts (HeapDump.Characteristics).
func (r *DumpRetention) ClassObjects() int {
	n := 0
	for _, c := range r.Objects.IsClass {
		if c {
			n++
		}
	}
	return n
}

// Path is the shortest chain of references from a GC root to object i: the root first.
func (r *DumpRetention) Path(i int32) []DumpObject {
	var idx []int32
	for ; i >= 0; i = r.Objects.Parent[i] {
		idx = append(idx, i)
		if len(idx) > r.Objects.Len() { // a damaged workspace: parents that loop
			break
		}
	}
	slices.Reverse(idx)
	return r.objects(idx, 0)
}

// DumpDiffRow is one class in two dumps of the same program: before (A) and after (B).
type DumpDiffRow struct {
	Name string
	A, B RetainedClass
}

// Growth is what the class gained from A to B: instances, shallow and retained bytes (negative
// when it shrank).
func (r DumpDiffRow) Growth() (instances, shallow, retained int64) {
	return int64(r.B.Instances) - int64(r.A.Instances), int64(r.B.Shallow) - int64(r.A.Shallow),
		int64(r.B.Retained) - int64(r.A.Retained)
}

// DumpDiff is two dumps compared class by class, and how much they have in common.
type DumpDiff struct {
	Rows    []DumpDiffRow // the classes that changed, most grown first
	Classes int           // class names in either dump: Rows leaves out the unchanged ones
	// Class names in both dumps, and in the one with fewer; the same for application classes
	// (outside LibraryPrefixes, primitive arrays aside): what Unrelated judges by.
	Common, Smaller       int
	AppCommon, AppSmaller int
}

// DiffDumps compares two dumps class by class (by name), the leak hunter's view: the classes
// that grew most in retained bytes first, then in shallow bytes, then in instances; classes
// that did not change at all are left out.
func DiffDumps(a, b *DumpRetention) DumpDiff {
	rows := map[string]*DumpDiffRow{}
	row := func(name string) *DumpDiffRow {
		r := rows[name]
		if r == nil {
			r = &DumpDiffRow{Name: name}
			rows[name] = r
		}
		return r
	}
	for _, c := range a.Classes {
		r := row(c.Name)
		r.A = addClass(r.A, c)
	}
	for _, c := range b.Classes {
		r := row(c.Name)
		r.B = addClass(r.B, c)
	}
	d := DumpDiff{Classes: len(rows), Rows: make([]DumpDiffRow, 0, len(rows))}
	d.Common, d.Smaller, d.AppCommon, d.AppSmaller = inCommon(a, b)
	for _, r := range rows {
		if r.A.Instances != r.B.Instances || r.A.Shallow != r.B.Shallow || r.A.Retained != r.B.Retained {
			r.A.Name, r.B.Name = r.Name, r.Name
			d.Rows = append(d.Rows, *r)
		}
	}
	slices.SortFunc(d.Rows, func(x, y DumpDiffRow) int {
		xi, xs, xr := x.Growth()
		yi, ys, yr := y.Growth()
		return cmp.Or(cmp.Compare(yr, xr), cmp.Compare(ys, xs), cmp.Compare(yi, xi), strings.Compare(x.Name, y.Name))
	})
	return d
}

// inCommon counts the class names of two dumps found in both, and those of the dump with
// fewer; then the same for their application classes.
func inCommon(a, b *DumpRetention) (common, smaller, appCommon, appSmaller int) {
	names := func(r *DumpRetention, app bool) map[string]bool {
		set := map[string]bool{}
		for _, c := range r.Classes {
			if !app || isAppClass(c.Name) {
				set[c.Name] = true
			}
		}
		return set
	}
	count := func(x, y map[string]bool) (both, fewer int) {
		if len(y) < len(x) {
			x, y = y, x
		}
		for n := range x {
			if y[n] {
				both++
			}
		}
		return both, len(x)
	}
	common, smaller = count(names(a, false), names(b, false))
	appCommon, appSmaller = count(names(a, true), names(b, true))
	return common, smaller, appCommon, appSmaller
}

// isAppClass tells an application's class (or an array of them) from the platform's: outside
// LibraryPrefixes, whether the dump writes java.lang.String or java/lang/String.
func isAppClass(name string) bool {
	pkg := HeapPackage(name)
	if pkg == "(primitive arrays)" {
		return false
	}
	pkg = strings.ReplaceAll(pkg, "/", ".") + "."
	return !slices.ContainsFunc(layers.LibraryPrefixes, func(p string) bool { return strings.HasPrefix(pkg, p) })
}

// Unrelated says why the two dumps look like dumps of different programs (or of different VMs,
// which name classes differently), "" when they do not: then nearly every row compares a class
// with nothing. They do when fewer than half the classes of the dump with fewer are in the
// other, or, when both have application classes, fewer than half of those.
func (d DumpDiff) Unrelated() string {
	const why = "the two dumps look like different programs: only %d of %d %s of the smaller one are in both, " +
		"so a comparison of them says little"
	switch {
	case d.Common*2 < d.Smaller:
		return fmt.Sprintf(why, d.Common, d.Smaller, "classes")
	case d.AppSmaller > 0 && d.AppCommon*2 < d.AppSmaller:
		return fmt.Sprintf(why, d.AppCommon, d.AppSmaller, "application classes")
	}
	return ""
}

// addClass adds c's counts to sum: a dump may name one class twice (two class loaders).
func addClass(sum, c RetainedClass) RetainedClass {
	sum.Instances += c.Instances
	sum.Shallow += c.Shallow
	sum.Retained += c.Retained
	return sum
}
