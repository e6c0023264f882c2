// Package hproftest writes HPROF heap dumps (docs/hprof.md), so tests and benchmarks of any
// package can make the dumps they need: versions 1.0.2 and 1.0.3, ids of 4 or 8 bytes,
// classes, instances, arrays, roots and Android's heap-info records, in any order.
package hproftest

import (
	"bufio"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
)

// Type is a basic type of field and array values (the format's numbers).
type Type = uint8

// The basic types.
const (
	Object  Type = 2
	Boolean Type = 4
	Char    Type = 5
	Float   Type = 6
	Double  Type = 7
	Byte    Type = 8
	Short   Type = 9
	Int     Type = 10
	Long    Type = 11
)

// Size is how many bytes a value of t takes in a dump with ids of idSize bytes; 0 for a type
// the format does not know.
func Size(t Type, idSize int) int {
	switch t {
	case Object:
		return idSize
	case Boolean, Byte:
		return 1
	case Char, Short:
		return 2
	case Float, Int:
		return 4
	case Double, Long:
		return 8
	}
	return 0
}

// Root tags, as the format numbers them.
const (
	RootUnknown      = 0xFF
	RootJNIGlobal    = 0x01
	RootJNILocal     = 0x02
	RootJavaFrame    = 0x03
	RootNativeStack  = 0x04
	RootStickyClass  = 0x05
	RootThreadBlock  = 0x06
	RootMonitorUsed  = 0x07
	RootThreadObject = 0x08
	RootInterned     = 0x89
	RootFinalizing   = 0x8A
	RootDebugger     = 0x8B
	RootRefCleanup   = 0x8C
	RootVMInternal   = 0x8D
	RootJNIMonitor   = 0x8E
	RootUnreachable  = 0x90
)

// rootBody is the number of ids and u4s after a root's tag.
var rootBody = map[uint8][2]int{
	RootUnknown: {1, 0}, RootJNIGlobal: {2, 0}, RootJNILocal: {1, 2}, RootJavaFrame: {1, 2},
	RootNativeStack: {1, 1}, RootStickyClass: {1, 0}, RootThreadBlock: {1, 1}, RootMonitorUsed: {1, 0},
	RootThreadObject: {1, 2}, RootInterned: {1, 0}, RootFinalizing: {1, 0}, RootDebugger: {1, 0},
	RootRefCleanup: {1, 0}, RootVMInternal: {1, 0}, RootJNIMonitor: {1, 2}, RootUnreachable: {1, 0},
}

// Value is one typed value: a field of an instance, a static or a constant. Bits holds it
// as an unsigned number (an object id, or the raw bits of a float).
type Value struct {
	Type Type
	Bits uint64
}

// Ref is an object reference value.
func Ref(id uint64) Value { return Value{Object, id} }

// Field is an instance field a class declares.
type Field struct {
	Name uint64 // string id
	Type Type
}

// Static is a static field with its value.
type Static struct {
	Name uint64
	Value
}

// Constant is a constant pool entry.
type Constant struct {
	Index uint16
	Value
}

// Class is a CLASS_DUMP.
type Class struct {
	ID, Super, Loader uint64
	InstanceSize      uint32
	Constants         []Constant
	Statics           []Static
	Fields            []Field // its own instance fields, in the order instances hold them
}

// Options says what kind of dump to write.
type Options struct {
	Version      string // after "JAVA PROFILE ": "1.0.2" when empty, "1.0.3" for Android
	IDSize       int    // 4 when 0, or 8
	Timestamp    uint64 // ms since the epoch
	SegmentBytes int    // body bytes after which a new heap dump record starts; 1 MiB when 0
	HeapDumpTag  uint8  // 0x1C HEAP_DUMP_SEGMENT when 0, or 0x0C HEAP_DUMP
	NoEnd        bool   // leave out the HEAP_DUMP_END record
}

// Writer writes one dump. Sub-records (objects, classes, roots, heap info) gather in heap
// dump records of about SegmentBytes; when it starts a new record by itself, it repeats the
// last HeapInfo first, as ART does, so the split changes nothing. A record of another kind
// written between sub-records, or Segment, ends the heap dump record without that: what
// follows is in the default heap until the next HeapInfo.
type Writer struct {
	w      *bufio.Writer
	o      Options
	seg    []byte
	inSeg  bool
	dumped bool
	heap   []byte // the last heap-info sub-record of the current heap dump record
	err    error
}

// NewWriter writes the header.
func NewWriter(w io.Writer, o Options) (*Writer, error) {
	if o.Version == "" {
		o.Version = "1.0.2"
	}
	if o.IDSize == 0 {
		o.IDSize = 4
	}
	if o.IDSize != 4 && o.IDSize != 8 {
		return nil, fmt.Errorf("hproftest: id size %d", o.IDSize)
	}
	if o.SegmentBytes == 0 {
		o.SegmentBytes = 1 << 20
	}
	if o.HeapDumpTag == 0 {
		o.HeapDumpTag = 0x1C
	}
	hw := &Writer{w: bufio.NewWriterSize(w, 1<<16), o: o}
	hw.w.WriteString("JAVA PROFILE " + o.Version)
	hw.w.WriteByte(0)
	var b [12]byte
	binary.BigEndian.PutUint32(b[:], uint32(o.IDSize))
	binary.BigEndian.PutUint64(b[4:], o.Timestamp)
	_, err := hw.w.Write(b[:])
	return hw, err
}

// IDSize is the size of ids in the dump.
func (w *Writer) IDSize() int { return w.o.IDSize }

func (w *Writer) appendID(b []byte, id uint64) []byte {
	if w.o.IDSize == 4 {
		return binary.BigEndian.AppendUint32(b, uint32(id))
	}
	return binary.BigEndian.AppendUint64(b, id)
}

func (w *Writer) appendValue(b []byte, v Value) []byte {
	switch Size(v.Type, w.o.IDSize) {
	case 1:
		return append(b, byte(v.Bits))
	case 2:
		return binary.BigEndian.AppendUint16(b, uint16(v.Bits))
	case 4:
		return binary.BigEndian.AppendUint32(b, uint32(v.Bits))
	case 8:
		return binary.BigEndian.AppendUint64(b, v.Bits)
	}
	w.fail(fmt.Errorf("hproftest: value of unknown type %d", v.Type))
	return b
}

// Values encodes instance field values, in the order an INSTANCE_DUMP holds them: the
// class's own fields, then its superclass's, and so on.
func (w *Writer) Values(vals ...Value) []byte {
	var b []byte
	for _, v := range vals {
		b = w.appendValue(b, v)
	}
	return b
}

func (w *Writer) fail(err error) {
	if w.err == nil {
		w.err = err
	}
}

// Record writes a top-level record of any tag (a stack trace, a thread, something unknown)
// with body as it is.
func (w *Writer) Record(tag uint8, body []byte) error {
	w.endSegment()
	w.record(tag, body)
	return w.err
}

func (w *Writer) record(tag uint8, body []byte) {
	if w.err != nil {
		return
	}
	var h [9]byte
	h[0] = tag
	binary.BigEndian.PutUint32(h[5:], uint32(len(body)))
	w.w.Write(h[:])
	if _, err := w.w.Write(body); err != nil {
		w.fail(err)
	}
}

// String writes a STRING record.
func (w *Writer) String(id uint64, s string) error {
	return w.Record(0x01, append(w.appendID(nil, id), s...))
}

// LoadClass writes a LOAD_CLASS record (stack serial 0).
func (w *Writer) LoadClass(serial uint32, class, name uint64) error {
	b := binary.BigEndian.AppendUint32(nil, serial)
	b = w.appendID(b, class)
	b = binary.BigEndian.AppendUint32(b, 0)
	return w.Record(0x02, w.appendID(b, name))
}

// Segment ends the current heap dump record; the next sub-record starts another, in the
// default heap.
func (w *Writer) Segment() error {
	w.endSegment()
	return w.err
}

func (w *Writer) endSegment() {
	if w.inSeg {
		w.record(w.o.HeapDumpTag, w.seg)
		w.inSeg, w.heap = false, nil
	}
}

// Sub writes a heap dump sub-record as it is, tag included: the way to write a damaged one.
func (w *Writer) Sub(b []byte) error {
	if w.inSeg && len(w.seg) > 0 && len(w.seg)+len(b) > w.o.SegmentBytes {
		heap := w.heap
		w.endSegment()
		if heap != nil {
			w.Sub(heap)
			w.heap = heap
		}
	}
	if !w.inSeg {
		w.inSeg, w.dumped, w.seg = true, true, w.seg[:0]
	}
	w.seg = append(w.seg, b...)
	return w.err
}

// HeapInfo writes Android's HEAP_DUMP_INFO: the objects that follow are in heap heapID
// ('Z', 'A', 'I' on Android) named by string name.
func (w *Writer) HeapInfo(heapID uint32, name uint64) error {
	b := binary.BigEndian.AppendUint32([]byte{0xFE}, heapID)
	b = w.appendID(b, name)
	err := w.Sub(b)
	w.heap = b
	return err
}

// Root writes a root sub-record of the given tag for object id; its other fields are 0.
func (w *Writer) Root(tag uint8, id uint64) error {
	body, ok := rootBody[tag]
	if !ok {
		return fmt.Errorf("hproftest: unknown root tag %#x", tag)
	}
	b := w.appendID([]byte{tag}, id)
	for range body[0] - 1 {
		b = w.appendID(b, 0)
	}
	for range body[1] {
		b = binary.BigEndian.AppendUint32(b, 0)
	}
	return w.Sub(b)
}

// ClassDump writes a CLASS_DUMP (stack serial, signers, protection domain and reserved ids 0).
func (w *Writer) ClassDump(c Class) error {
	if len(c.Constants) > 0xFFFF || len(c.Statics) > 0xFFFF || len(c.Fields) > 0xFFFF {
		return errors.New("hproftest: more than 65535 constants, statics or fields")
	}
	b := w.appendID([]byte{0x20}, c.ID)
	b = binary.BigEndian.AppendUint32(b, 0)
	b = w.appendID(b, c.Super)
	b = w.appendID(b, c.Loader)
	for range 4 {
		b = w.appendID(b, 0)
	}
	b = binary.BigEndian.AppendUint32(b, c.InstanceSize)
	b = binary.BigEndian.AppendUint16(b, uint16(len(c.Constants)))
	for _, k := range c.Constants {
		b = binary.BigEndian.AppendUint16(b, k.Index)
		b = append(b, k.Type)
		b = w.appendValue(b, k.Value)
	}
	b = binary.BigEndian.AppendUint16(b, uint16(len(c.Statics)))
	for _, s := range c.Statics {
		b = w.appendID(b, s.Name)
		b = append(b, s.Type)
		b = w.appendValue(b, s.Value)
	}
	b = binary.BigEndian.AppendUint16(b, uint16(len(c.Fields)))
	for _, f := range c.Fields {
		b = w.appendID(b, f.Name)
		b = append(b, f.Type)
	}
	return w.Sub(b)
}

// Instance writes an INSTANCE_DUMP with values as they are (see Values).
func (w *Writer) Instance(id, class uint64, values []byte) error {
	b := w.appendID([]byte{0x21}, id)
	b = binary.BigEndian.AppendUint32(b, 0)
	b = w.appendID(b, class)
	b = binary.BigEndian.AppendUint32(b, uint32(len(values)))
	return w.Sub(append(b, values...))
}

// ObjArray writes an OBJ_ARRAY_DUMP of the array class class.
func (w *Writer) ObjArray(id, class uint64, elems []uint64) error {
	b := w.appendID([]byte{0x22}, id)
	b = binary.BigEndian.AppendUint32(b, 0)
	b = binary.BigEndian.AppendUint32(b, uint32(len(elems)))
	b = w.appendID(b, class)
	for _, e := range elems {
		b = w.appendID(b, e)
	}
	return w.Sub(b)
}

// PrimArray writes a PRIM_ARRAY_DUMP of n elements of type t, all zero.
func (w *Writer) PrimArray(id uint64, t Type, n uint32) error {
	b := w.primHeader(0x23, id, t, n)
	return w.Sub(append(b, make([]byte, int(n)*Size(t, w.o.IDSize))...))
}

// PrimArrayNoData writes the obsolete Android PRIM_ARRAY_NODATA_DUMP (0xC3).
func (w *Writer) PrimArrayNoData(id uint64, t Type, n uint32) error {
	return w.Sub(w.primHeader(0xC3, id, t, n))
}

func (w *Writer) primHeader(tag uint8, id uint64, t Type, n uint32) []byte {
	b := w.appendID([]byte{tag}, id)
	b = binary.BigEndian.AppendUint32(b, 0)
	b = binary.BigEndian.AppendUint32(b, n)
	return append(b, t)
}

// Close ends the last heap dump record, writes HEAP_DUMP_END after a heap dump (unless
// Options.NoEnd) and flushes. It does not close the underlying writer.
func (w *Writer) Close() error {
	w.endSegment()
	if w.dumped && !w.o.NoEnd {
		w.record(0x2C, nil)
	}
	if err := w.w.Flush(); err != nil {
		w.fail(err)
	}
	return w.err
}
