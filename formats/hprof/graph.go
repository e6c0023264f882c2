package hprof

import (
	"fmt"
	"io"
	"math"
	"slices"

	"androprof/internal/inputerr"
	"androprof/model/heap"
)

// GraphOptions say which references keep an object alive.
type GraphOptions struct {
	// Weak counts the referent of every java.lang.ref.Reference (weak, soft, phantom and
	// finalizer references) as a reference that retains it. By default it does not: a
	// referent only a Reference holds is freed by the next collections, so it is retained by
	// nothing, as Eclipse MAT, ahat and Shark count.
	Weak bool
}

// Graph is a dump's objects and the references between them, for dominators and retained
// sizes (model.ComputeDominators). Nodes are instances, object and primitive arrays, and class
// objects, in the order the dump lists them.
type Graph struct {
	heap.ObjectGraph
	IDs []uint64 // each node's object id
	// Class is each node's class (index into ClassNames): an instance's class, an array's
	// array class (int[] for a primitive array), and for a class object the class it is.
	Class   []int32
	IsClass []bool // the node is a class object (CLASS_DUMP), not one of its instances
	// Heap is the heap each node's record is in (index into Heaps), as Summarize places objects.
	Heap  []uint8
	Heaps []string // the heaps' names, as Summarize names them, in the order of their first node
	// ClassNames are the names of the classes objects have, as the dump's strings give them.
	ClassNames []string
	// Field names each reference: an index into FieldNames (an instance or static field), or
	// for an array element -(index+1).
	Field      []int32
	FieldNames []string
	// RootTags is the root sub-record tag that first listed each of Roots (RootKind names it).
	RootTags []uint8
	// Duplicates counts object ids the dump lists more than once: references go to the first.
	Duplicates int
	// Unresolved counts references to ids that are no object of the dump (HotSpot leaves a
	// few; Android's PRIM_ARRAY_NODATA and filtered dumps many). They are left out.
	Unresolved uint64
}

// FieldName names the reference of edge e: "next", "[3]".
func (g *Graph) FieldName(e int) string {
	if f := g.Field[e]; f >= 0 {
		return g.FieldNames[f]
	}
	return fmt.Sprintf("[%d]", -g.Field[e]-1)
}

// RootKind names a GC root's sub-record tag as HPROF and ART do.
func RootKind(tag uint8) string {
	if name, ok := rootKinds[tag]; ok {
		return name
	}
	return fmt.Sprintf("root 0x%02x", tag)
}

var rootKinds = map[uint8]string{rootUnknown: "unknown root", rootJNIGlobal: "JNI global", rootJNILocal: "JNI local",
	rootJavaFrame: "Java frame", rootNativeStack: "native stack", rootStickyClass: "system class", rootThreadBlock: "thread block",
	rootMonitorUsed: "busy monitor", rootThreadObject: "thread", rootInterned: "interned string", rootFinalizing: "finalizing",
	rootDebugger: "debugger", rootRefCleanup: "reference cleanup", rootVMInternal: "VM internal", rootJNIMonitor: "JNI monitor",
	rootUnreachable: "unreachable"}

// referenceClass names java.lang.ref.Reference in the forms dumps use.
var referenceClass = []string{"java/lang/ref/Reference", "java.lang.ref.Reference"}

// ReadGraph reads the dump in r (plain or gzip-compressed) into its object graph, in two passes
// as Summarize does: first the class layouts and every object's id, then the references. name is
// used in errors. Memory follows the objects and references the dump holds, never what a length
// field claims.
func ReadGraph(r io.ReadSeeker, name string, opts GraphOptions) (*Graph, error) {
	b, err := readGraph(r, name, opts, false)
	if err != nil {
		return nil, err
	}
	return b.g, nil
}

// readGraph reads the graph, and with summary the dump's summary in the same two passes.
func readGraph(r io.ReadSeeker, name string, opts GraphOptions, summary bool) (*graphBuilder, error) {
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
	sum := newSummary()
	sum.graph = summary
	b := &graphBuilder{s: sum, opts: opts, summary: summary, classIdx: map[uint64]int32{},
		fieldIdx: map[uint64]int32{}, heaps: newHeaps(), g: &Graph{}}
	first := newReader(r, name, size)
	err = b.pass(first, false)
	b.s.hdr = first.Header()
	first.Close()
	if err != nil {
		return nil, err
	}
	if err := b.columns(first); err != nil {
		return nil, err
	}
	b.s.link()
	b.findReferent()
	if _, err := r.Seek(start, io.SeekStart); err != nil {
		return nil, &inputerr.Error{File: name, Msg: "seek back for the second pass: " + err.Error(), Err: err}
	}
	second := newReader(r, name, size)
	defer second.Close()
	if err := second.err; err == nil && second.Header() != b.s.hdr {
		return nil, &inputerr.Error{File: name, Msg: "the file changed between the two passes of its graph"}
	}
	if err := b.pass(second, true); err != nil {
		return nil, err
	}
	if b.next != len(b.g.IDs) {
		return nil, &inputerr.Error{File: name, Msg: "the file changed between the two passes of its graph"}
	}
	b.finish()
	return b, nil
}

type graphBuilder struct {
	s       *summary // class names and layouts; with summary, the dump's counts too
	summary bool
	opts    GraphOptions
	g       *Graph

	ids      chunked[uint64]     // the first pass's object ids
	index    *idIndex            // object id → node, from the first pass
	classIdx map[uint64]int32    // class object id → index in ClassNames
	primIdx  [TypeLong + 1]int32 // primitive array class index + 1, for the types that have arrays
	nclass   int32
	fieldIdx map[uint64]int32 // field name string id → index in FieldNames
	edges    chunked[int32]
	fields   chunked[int32]
	roots    []uint64
	rootTags []uint8
	refNames map[uint64]bool // string ids of "referent"
	refClass map[uint64]bool // string ids of java.lang.ref.Reference's name
	referent *classInfo      // java.lang.ref.Reference's layout, when the dump has it
	refField int             // the offset of its referent field among its own fields; -1 for none
	next     int             // the node the second pass is at

	heaps heaps // the heap each node is in
}

// pass is summary.pass's loop for the graph: direct calls keep rec on the stack, where a
// shared loop over an interface would allocate it per record.
func (b *graphBuilder) pass(r *Reader, second bool) error {
	for {
		rec, err := r.Next()
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return err
		}
		if !second {
			b.collect(r, &rec)
			continue
		}
		if b.summary {
			if err := b.s.count(r, &rec); err != nil {
				return err
			}
		}
		if err := b.link(r, &rec); err != nil {
			return err
		}
	}
}

// collect is the first pass: layouts (through the summary), names, roots and object ids.
func (b *graphBuilder) collect(r *Reader, rec *Record) {
	b.s.collect(r, rec)
	switch rec.Kind {
	case KindString:
		switch text := string(rec.Bytes); {
		case text == "referent":
			b.mark(&b.refNames, rec.ID)
		case slices.Contains(referenceClass, text):
			b.mark(&b.refClass, rec.ID)
		}
	case KindRoot:
		b.roots, b.rootTags = append(b.roots, rec.ID), append(b.rootTags, rec.Tag)
	case KindInstance, KindObjArray, KindPrimArray, KindClassDump:
		if rec.Kind == KindClassDump { // field names label references: keep their strings
			for _, f := range rec.Fields {
				if f.Type == TypeObject {
					b.s.needed[f.Name] = true
				}
			}
			for _, st := range rec.Statics {
				b.s.needed[st.Name] = true
			}
		}
		b.ids.add(rec.ID)
	}
}

// columns makes the nodes' columns, their length known now, and the id index.
func (b *graphBuilder) columns(r *Reader) error {
	n := b.ids.n
	if n >= math.MaxInt32 {
		return r.errorf(r.Offset(), "%d objects: more than the graph can number", n)
	}
	g := b.g
	g.IDs = b.ids.join()
	b.index = newIDIndex(g.IDs)
	g.Duplicates = b.index.dups
	g.Size = make([]uint64, 0, n)
	g.Start = make([]uint32, 0, n+1)
	g.Class = make([]int32, 0, n)
	g.IsClass = make([]bool, 0, n)
	g.Heap = make([]uint8, 0, n)
	return nil
}

func (b *graphBuilder) mark(set *map[uint64]bool, id uint64) {
	if *set == nil {
		*set = map[uint64]bool{}
	}
	(*set)[id] = true
}

// classOf is the index of a class object id among the classes objects have.
func (b *graphBuilder) classOf(id uint64) int32 {
	i, ok := b.classIdx[id]
	if !ok {
		i = b.nclass
		b.nclass++
		b.classIdx[id] = i
	}
	return i
}

// findReferent finds java.lang.ref.Reference's referent field, whose references do not
// retain (GraphOptions.Weak).
func (b *graphBuilder) findReferent() {
	b.refField = -1
	if b.opts.Weak {
		return
	}
	for _, ci := range b.s.classes {
		if ci.dumped && b.refClass[ci.name] {
			for i, n := range ci.names {
				if b.refNames[n] {
					b.referent, b.refField = ci, ci.refs[i]
				}
			}
		}
	}
}

// link is the second pass: each node's class, heap, size and references, in the order of the
// first.
func (b *graphBuilder) link(r *Reader, rec *Record) error {
	g := b.g
	switch rec.Kind {
	case KindInstance, KindObjArray, KindPrimArray, KindClassDump:
	case KindString:
		if !b.summary && b.s.needed[rec.ID] { // a class, field or heap name: the first pass knows which
			b.s.strs[rec.ID] = string(rec.Bytes)
		}
		return nil
	case KindHeapDump, KindHeapInfo: // as Summarize counts
		b.heaps.follow(rec)
		return nil
	default:
		return nil
	}
	v := b.next
	if v >= len(g.IDs) || g.IDs[v] != rec.ID {
		return r.errorf(rec.Offset, "the file changed between the two passes of its graph")
	}
	b.next++
	if b.edges.n >= math.MaxUint32-MaxValues {
		return r.errorf(rec.Offset, "%v", heap.ErrGraphTooBig)
	}
	h, err := b.heap(r, rec)
	if err != nil {
		return err
	}
	g.Start = append(g.Start, uint32(b.edges.n))
	g.Heap = append(g.Heap, h)
	g.IsClass = append(g.IsClass, rec.Kind == KindClassDump)
	size, class, err := b.refs(r, rec)
	g.Size = append(g.Size, size)
	g.Class = append(g.Class, class)
	return err
}

// refs adds the references of the node rec is, and says its size and class.
func (b *graphBuilder) refs(r *Reader, rec *Record) (size uint64, class int32, err error) {
	id := r.hdr.IDSize
	switch rec.Kind {
	case KindInstance:
		class = b.classOf(rec.Class)
		ci := b.s.class(rec.Class)
		size = uint64(rec.Len)
		if ci.dumped {
			size = uint64(ci.size)
		}
		vals, base := rec.Bytes, 0
		for c, d := ci, 0; c != nil && c.dumped && d < maxDepth && base < len(vals); c, d = c.sup, d+1 {
			for i, off := range c.refs {
				at := base + off
				if at+id > len(vals) {
					break
				}
				if c == b.referent && off == b.refField {
					continue // a Reference's referent does not retain
				}
				b.edge(idAt(vals[at:], id), b.field(c.names[i]))
			}
			base += c.bytes
		}
	case KindObjArray:
		class = b.classOf(rec.Class)
		size = uint64(rec.Len) * uint64(id)
		index := 0
		for {
			els, err := r.Elements()
			if err != nil {
				return size, class, err
			}
			if len(els) == 0 {
				break
			}
			if b.summary {
				b.s.elements(rec.ID, els, id)
			}
			for i := 0; i+id <= len(els); i += id {
				b.edge(idAt(els[i:], id), -int32(min(index, math.MaxInt32-1))-1)
				index++
			}
		}
	case KindPrimArray:
		if b.primIdx[rec.Type] == 0 {
			b.nclass++
			b.primIdx[rec.Type] = b.nclass // its name is decided in finish
		}
		class = b.primIdx[rec.Type] - 1
		size = uint64(rec.Len) * uint64(rec.Type.Size(id))
	case KindClassDump:
		class = b.classOf(rec.ID)
		for _, st := range rec.Statics {
			b.edge(st.Ref, b.field(st.Name))
		}
	}
	return size, class, nil
}

// heap is the index in heaps.keys of the heap the node of rec is in.
func (b *graphBuilder) heap(r *Reader, rec *Record) (uint8, error) {
	i, err := b.heaps.of(r, rec)
	return uint8(i), err
}

// edge adds a reference through field from the node being read to the object id, when it is one.
func (b *graphBuilder) edge(id uint64, field int32) {
	if id == 0 {
		return
	}
	w, ok := b.index.node(id)
	if !ok {
		b.g.Unresolved++
		return
	}
	b.edges.add(w)
	b.fields.add(field)
}

// field is the index of a field name (a string id) among FieldNames.
func (b *graphBuilder) field(name uint64) int32 {
	i, ok := b.fieldIdx[name]
	if !ok {
		i = int32(len(b.fieldIdx))
		b.fieldIdx[name] = i
	}
	return i
}

// finish closes the edge offsets, resolves the roots (each once) and names the classes and heaps.
func (b *graphBuilder) finish() {
	g := b.g
	seen := map[int32]bool{}
	for i, id := range b.roots {
		if w, ok := b.index.node(id); ok && !seen[w] {
			seen[w] = true
			g.Roots, g.RootTags = append(g.Roots, w), append(g.RootTags, b.rootTags[i])
		}
	}
	b.roots, b.rootTags, b.index = nil, nil, nil
	g.Start = append(g.Start, uint32(b.edges.n))
	g.Edges = b.edges.join()
	g.Field = b.fields.join()
	g.FieldNames = make([]string, len(b.fieldIdx))
	for id, i := range b.fieldIdx {
		name, ok := b.s.strs[id]
		if !ok {
			name = fmt.Sprintf("field@%#x", id)
		}
		g.FieldNames[i] = name
	}
	g.ClassNames = make([]string, b.nclass)
	loaded := map[string]bool{}
	for _, n := range b.s.loadNames {
		loaded[b.s.strs[n]] = true
	}
	for t, i := range b.primIdx {
		if i > 0 { // named as Summarize names them: int[], or [I where the dump's classes do
			name := Type(t).String() + "[]"
			if jvm := "[" + jvmDescriptors[t]; !loaded[name] && loaded[jvm] {
				name = jvm
			}
			g.ClassNames[i-1] = name
		}
	}
	for id, i := range b.classIdx {
		name := fmt.Sprintf("class@%#x", id) // as Summarize names a class no LOAD_CLASS names
		if ci := b.s.classes[id]; ci != nil && ci.loaded {
			if n, ok := b.s.strs[ci.name]; ok {
				name = n
			}
		}
		g.ClassNames[i] = name
	}
	b.nameHeaps()
}

// nameHeaps names the heaps as Summarize does, merging two heap ids of one name.
func (b *graphBuilder) nameHeaps() {
	g := b.g
	var merged []int
	g.Heaps, merged = b.heaps.names(b.s.strs)
	if len(g.Heaps) < len(merged) {
		for v, h := range g.Heap {
			g.Heap[v] = uint8(merged[h])
		}
	}
}
