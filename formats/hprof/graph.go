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
	start, err := r.Seek(0, io.SeekCurrent)
	if err != nil {
		return nil, &inputerr.Error{File: name, Msg: "seek: " + err.Error(), Err: err}
	}
	b := &graphBuilder{s: newSummary(), opts: opts, ids: map[uint64]int32{}, classIdx: map[uint64]int32{},
		fieldIdx: map[uint64]int32{}, g: &Graph{}}
	first := newReader(r, name, -1)
	err = b.pass(first, false)
	first.Close()
	if err != nil {
		return nil, err
	}
	b.s.link()
	b.findReferent()
	if _, err := r.Seek(start, io.SeekStart); err != nil {
		return nil, &inputerr.Error{File: name, Msg: "seek back for the second pass: " + err.Error(), Err: err}
	}
	second := newReader(r, name, -1)
	defer second.Close()
	if err := b.pass(second, true); err != nil {
		return nil, err
	}
	if b.next != len(b.g.IDs) {
		return nil, &inputerr.Error{File: name, Msg: "the file changed between the two passes of its graph"}
	}
	b.finish()
	return b.g, nil
}

type graphBuilder struct {
	s    *summary // class names and layouts
	opts GraphOptions
	g    *Graph

	ids      map[uint64]int32    // object id → node
	classIdx map[uint64]int32    // class object id → index in ClassNames
	primIdx  [TypeLong + 1]int32 // primitive array class index + 1, for the types that have arrays
	nclass   int32
	fieldIdx map[uint64]int32 // field name string id → index in FieldNames
	roots    []uint64
	rootTags []uint8
	refNames map[uint64]bool // string ids of "referent"
	refClass map[uint64]bool // string ids of java.lang.ref.Reference's name
	referent *classInfo      // java.lang.ref.Reference's layout, when the dump has it
	refField int             // the offset of its referent field among its own fields; -1 for none
	next     int             // the node the second pass is at
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
		} else if err := b.link(r, &rec); err != nil {
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
		v := int32(len(b.g.IDs))
		if _, dup := b.ids[rec.ID]; dup {
			b.g.Duplicates++
		} else {
			b.ids[rec.ID] = v
		}
		var class int32
		switch rec.Kind {
		case KindInstance, KindObjArray:
			class = b.classOf(rec.Class)
		case KindClassDump:
			class = b.classOf(rec.ID)
		case KindPrimArray:
			if b.primIdx[rec.Type] == 0 {
				b.nclass++
				b.primIdx[rec.Type] = b.nclass // its name is decided in finish
			}
			class = b.primIdx[rec.Type] - 1
		}
		b.g.IDs = append(b.g.IDs, rec.ID)
		b.g.Class = append(b.g.Class, class)
		b.g.IsClass = append(b.g.IsClass, rec.Kind == KindClassDump)
	}
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

// link is the second pass: each node's size and references, in the order of the first.
func (b *graphBuilder) link(r *Reader, rec *Record) error {
	id := r.hdr.IDSize
	g := b.g
	switch rec.Kind {
	case KindInstance, KindObjArray, KindPrimArray, KindClassDump:
	case KindString:
		if b.s.needed[rec.ID] { // a class name: the first pass knows which
			b.s.strs[rec.ID] = string(rec.Bytes)
		}
		return nil
	default:
		return nil
	}
	v := b.next
	if v >= len(g.IDs) || g.IDs[v] != rec.ID {
		return r.errorf(rec.Offset, "the file changed between the two passes of its graph")
	}
	b.next++
	if len(g.Edges) >= math.MaxUint32-MaxValues {
		return r.errorf(rec.Offset, "%v", heap.ErrGraphTooBig)
	}
	g.Start = append(g.Start, uint32(len(g.Edges)))
	var size uint64
	switch rec.Kind {
	case KindInstance:
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
		size = uint64(rec.Len) * uint64(id)
		index := 0
		for {
			els, err := r.Elements()
			if err != nil {
				return err
			}
			if len(els) == 0 {
				break
			}
			for i := 0; i+id <= len(els); i += id {
				b.edge(idAt(els[i:], id), -int32(min(index, math.MaxInt32-1))-1)
				index++
			}
		}
	case KindPrimArray:
		size = uint64(rec.Len) * uint64(rec.Type.Size(id))
	case KindClassDump:
		for _, st := range rec.Statics {
			b.edge(st.Ref, b.field(st.Name))
		}
	}
	g.Size = append(g.Size, size)
	return nil
}

// edge adds a reference through field from the node being read to the object id, when it is one.
func (b *graphBuilder) edge(id uint64, field int32) {
	if id == 0 {
		return
	}
	w, ok := b.ids[id]
	if !ok {
		b.g.Unresolved++
		return
	}
	b.g.Edges = append(b.g.Edges, w)
	b.g.Field = append(b.g.Field, field)
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

// finish closes the edge offsets, resolves the roots (each once) and names the classes.
func (b *graphBuilder) finish() {
	g := b.g
	g.Start = append(g.Start, uint32(len(g.Edges)))
	seen := map[int32]bool{}
	for i, id := range b.roots {
		if w, ok := b.ids[id]; ok && !seen[w] {
			seen[w] = true
			g.Roots, g.RootTags = append(g.Roots, w), append(g.RootTags, b.rootTags[i])
		}
	}
	b.roots, b.rootTags = nil, nil
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
	b.ids = nil
}
