// Package hprof reads HPROF heap dumps (Debug.dumpHprofData on Android, jmap and
// -XX:+HeapDumpOnOutOfMemoryError on the JVM; docs/formats.md#hprof-heap-dumps, docs/hprof.md) and
// summarises them into a model.HeapDump.
//
// Versions 1.0, 1.0.1, 1.0.2 and Android's 1.0.3 are read, with ids of 4 or 8 bytes, plain or
// gzip-compressed. The reader streams: it never holds a record whole, so its memory is the
// same whatever the size of the dump or what its length fields claim.
package hprof

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"

	"androprof/internal/gunzip"
	"androprof/internal/inputerr"
)

// bufSize is the largest read buffer, and so the longest string text or instance field data
// a record hands over in one slice. The reader starts with startSize and grows to bufSize
// when a record needs it, so reading a small dump stays cheap.
const (
	bufSize   = 1 << 20
	startSize = 64 << 10
)

// MaxString is how much of a STRING record's text Next hands over; the rest is skipped.
const MaxString = bufSize

// MaxValues is the most field bytes an instance may have for Next to hand them over; no real
// class comes close (65535 fields of at most 8 bytes per class).
const MaxValues = bufSize

// ErrNotHPROF says a file does not start with an HPROF header, so format detection can try
// another reader.
var ErrNotHPROF = errors.New("not an HPROF heap dump")

// Header is what the file header states.
type Header struct {
	Version   string // "JAVA PROFILE 1.0.2", "JAVA PROFILE 1.0.3", …
	IDSize    int    // 4 or 8
	Timestamp uint64 // ms since the epoch
}

// Type is a basic type of field and array values.
type Type uint8

// The basic types (hprof_b_spec.h).
const (
	TypeObject  Type = 2
	TypeBoolean Type = 4
	TypeChar    Type = 5
	TypeFloat   Type = 6
	TypeDouble  Type = 7
	TypeByte    Type = 8
	TypeShort   Type = 9
	TypeInt     Type = 10
	TypeLong    Type = 11
)

var typeSizes = [12]uint8{TypeBoolean: 1, TypeChar: 2, TypeFloat: 4, TypeDouble: 8, TypeByte: 1, TypeShort: 2, TypeInt: 4, TypeLong: 8}

var typeNames = [12]string{TypeObject: "Object", TypeBoolean: "boolean", TypeChar: "char", TypeFloat: "float",
	TypeDouble: "double", TypeByte: "byte", TypeShort: "short", TypeInt: "int", TypeLong: "long"}

// Size is how many bytes a value of the type takes; 0 for a type the format does not know.
func (t Type) Size(idSize int) int {
	if t == TypeObject {
		return idSize
	}
	if int(t) < len(typeSizes) {
		return int(typeSizes[t])
	}
	return 0
}

// Primitive tells whether t is one of the eight primitive types.
func (t Type) Primitive() bool { return t != TypeObject && t.Size(0) > 0 }

// String is the Java name of the type ("int"), or "type N" for one the format does not know.
func (t Type) String() string {
	if int(t) < len(typeNames) && typeNames[t] != "" {
		return typeNames[t]
	}
	return fmt.Sprintf("type %d", uint8(t))
}

// Field is an instance field of a CLASS_DUMP.
type Field struct {
	Name uint64 // string id
	Type Type
}

// Static is a static field of a CLASS_DUMP that refers to an object.
type Static struct {
	Name uint64 // string id
	Ref  uint64 // the object; never 0
}

// Kind says which fields of a Record are set.
type Kind uint8

// The records Next returns. Records of other tags (stack traces, threads, …) are skipped.
const (
	KindString      Kind = iota + 1 // ID, Len, Bytes
	KindLoadClass                   // Serial, ID (class object), Name
	KindHeapDump                    // the start of a HEAP_DUMP or HEAP_DUMP_SEGMENT record: Len (body bytes)
	KindHeapDumpEnd                 // a HEAP_DUMP_END record
	KindHeapInfo                    // 0xFE: Serial (heap id), Name
	KindRoot                        // Tag (which root), ID
	KindClassDump                   // ID, Super, Size, Fields
	KindInstance                    // ID, Class, Len, Bytes
	KindObjArray                    // ID, Class (array class), Len (elements); elements through Elements
	KindPrimArray                   // ID, Type, Len (elements); values through Elements (none for tag 0xC3)
)

var kindNames = [...]string{"", "STRING", "LOAD_CLASS", "HEAP_DUMP", "HEAP_DUMP_END", "HEAP_DUMP_INFO",
	"root", "CLASS_DUMP", "INSTANCE_DUMP", "OBJ_ARRAY_DUMP", "PRIM_ARRAY_DUMP"}

// String is the format's name of the record ("INSTANCE_DUMP"), for messages.
func (k Kind) String() string {
	if int(k) < len(kindNames) && k != 0 {
		return kindNames[k]
	}
	return fmt.Sprintf("Kind(%d)", uint8(k))
}

// Record is one record, or one sub-record of a heap dump. Bytes and Fields belong to the
// reader: they stay valid until the next call of Next or Elements.
type Record struct {
	Kind   Kind
	Tag    uint8  // the tag as the file gives it: the record's, or the sub-record's inside a heap dump
	Offset int64  // where the record or sub-record starts
	ID     uint64 // the string, class object, object or root target
	Class  uint64 // Instance: its class; ObjArray: the array's class
	Super  uint64 // ClassDump: the superclass object (0 for none)
	Name   uint64 // LoadClass: class name string; HeapInfo: heap name string
	Serial uint32 // LoadClass: class serial; HeapInfo: heap id ('Z', 'A', 'I' on Android)
	Size   uint32 // ClassDump: instance size in bytes, as the dump states it
	Len    uint32 // String: text bytes; Instance: field bytes; arrays: elements; HeapDump: body bytes
	Type   Type   // PrimArray: element type
	Bytes  []byte // String: the text (at most MaxString bytes); Instance: field values, nil when more than MaxValues
	Fields []Field
	// Statics are a ClassDump's static fields that refer to an object (not null).
	Statics []Static
	// Values are all a ClassDump's static fields, each with its value (the object view's).
	Values []StaticValue
}

// StaticValue is a static field of a CLASS_DUMP and its value: the value's bytes, big-endian,
// as the low Type.Size bytes of Bits.
type StaticValue struct {
	Name uint64 // string id
	Type Type
	Bits uint64
}

// Record tags.
const (
	tagString      = 0x01
	tagLoadClass   = 0x02
	tagHeapDump    = 0x0C
	tagHeapSegment = 0x1C
	tagHeapEnd     = 0x2C
)

// Heap-dump sub-record tags.
const (
	subClassDump     = 0x20
	subInstance      = 0x21
	subObjArray      = 0x22
	subPrimArray     = 0x23
	subPrimNoData    = 0xC3
	subHeapInfo      = 0xFE
	rootUnknown      = 0xFF
	rootJNIGlobal    = 0x01
	rootJNILocal     = 0x02
	rootJavaFrame    = 0x03
	rootNativeStack  = 0x04
	rootStickyClass  = 0x05
	rootThreadBlock  = 0x06
	rootMonitorUsed  = 0x07
	rootThreadObject = 0x08
	rootInterned     = 0x89
	rootFinalizing   = 0x8A
	rootDebugger     = 0x8B
	rootRefCleanup   = 0x8C
	rootVMInternal   = 0x8D
	rootJNIMonitor   = 0x8E
	rootUnreachable  = 0x90
)

// magic starts every header; the version follows, up to a NUL.
const magic = "JAVA PROFILE "

var versions = []string{"1.0", "1.0.1", "1.0.2", "1.0.3"}

// Reader streams one dump. Next returns its records until io.EOF; after an error it keeps
// returning that error.
type Reader struct {
	file   string
	src    *bufio.Reader
	closer []io.Closer
	off    int64
	hdr    Header
	id     int // id size
	err    error

	inSeg    bool
	segStart int64 // where the heap dump record's header starts
	segEnd   int64 // where its body ends

	sub      int64  // where the sub-record (or record) being read starts
	subWhat  string // what it is, for errors; "" for a skipped record of tag subTag
	subTag   uint8
	pending  int64 // array bytes Elements has not handed over
	elemSize int
	fields   []Field
	statics  []Static
	vals     []StaticValue
}

// Open opens a dump file and starts reading it as NewReader does. Close the Reader when done.
func Open(path string) (*Reader, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	size := int64(-1)
	if st, err := f.Stat(); err == nil && st.Mode().IsRegular() {
		size = st.Size()
	}
	r := newReader(f, path, size)
	r.closer = append(r.closer, f)
	return r, nil
}

// NewReader starts reading a dump from r, which may be gzip-compressed; name is used in
// errors. It reads the header: when r holds something else, the first Next says so with an
// error wrapping ErrNotHPROF; a damaged header is the first Next's *inputerr.Error.
func NewReader(r io.Reader, name string) *Reader {
	size := int64(-1)
	if l, ok := r.(interface{ Len() int }); ok {
		size = int64(l.Len())
	}
	return newReader(r, name, size)
}

// newReader is NewReader told the size of r when it is known (-1 when not), so a small dump
// gets a small buffer.
func newReader(r io.Reader, name string, size int64) *Reader {
	hr := &Reader{file: name}
	first := startSize
	if size >= 0 {
		first = int(min(max(size, 4096), startSize))
	}
	src := bufio.NewReaderSize(r, first)
	if m, _ := src.Peek(2); len(m) == 2 && m[0] == 0x1f && m[1] == 0x8b {
		gz, err := gunzip.NewReader(src) // bounded: a gzip bomb is refused, not read to its end
		switch {
		case errors.Is(err, gunzip.ErrSetting):
			hr.err = fmt.Errorf("%s: %w", name, err)
			return hr
		case err != nil:
			hr.err = fmt.Errorf("%s: gzip: %v: %w", name, err, ErrNotHPROF)
			return hr
		}
		hr.closer = append(hr.closer, gz)
		src = bufio.NewReaderSize(gz, first)
	}
	hr.src = src
	hr.err = hr.header()
	return hr
}

func (r *Reader) header() error {
	head, err := r.src.Peek(len(magic) + 8)
	if !bytes.HasPrefix(head, []byte(magic)) {
		if len(head) < len(magic) && err != nil && err != io.EOF {
			return r.readErr(err, int64(len(head)))
		}
		return fmt.Errorf("%s: %w", r.file, ErrNotHPROF)
	}
	r.sub, r.subWhat = 0, "the header"
	line, err := r.src.ReadSlice(0)
	switch {
	case err == bufio.ErrBufferFull:
		return r.errorf(0, "the header's version string has no NUL in its first %d bytes", len(line))
	case err != nil:
		return r.readErr(err, int64(len(line)))
	}
	version := string(line[:len(line)-1])
	r.off = int64(len(line))
	known := false
	for _, v := range versions {
		known = known || version == magic+v
	}
	if !known {
		return r.errorf(0, "unknown HPROF version %q", clip(version))
	}
	b, err := r.take(12)
	if err != nil {
		return err
	}
	id := binary.BigEndian.Uint32(b)
	if id != 4 && id != 8 {
		return r.errorf(r.off-12, "id size %d: the reader knows 4 and 8", id)
	}
	r.id = int(id)
	r.hdr = Header{Version: version, IDSize: int(id), Timestamp: binary.BigEndian.Uint64(b[4:])}
	return nil
}

func clip(s string) string {
	if len(s) > 60 {
		return s[:60] + "…"
	}
	return s
}

// Sniff answers format detection from a file's first bytes (decompressed): nil when they start
// like an HPROF header, ErrNotHPROF when they do not. A damaged header is the reader's to report.
func Sniff(head []byte) error {
	if bytes.HasPrefix(head, []byte(magic)) {
		return nil
	}
	return ErrNotHPROF
}

// Header is what the file header states.
func (r *Reader) Header() Header { return r.hdr }

// Offset is how many bytes (decompressed) the reader has consumed.
func (r *Reader) Offset() int64 { return r.off }

// Close releases the gzip reader and, for a Reader from Open, the file.
func (r *Reader) Close() error {
	var first error
	for _, c := range r.closer {
		if err := c.Close(); err != nil && first == nil {
			first = err
		}
	}
	r.closer = nil
	return first
}

func (r *Reader) errorf(off int64, format string, args ...any) error {
	return &inputerr.Error{File: r.file, Offset: off, Msg: fmt.Sprintf(format, args...)}
}

// readErr turns a failed read, got bytes past the offset reached, into an error: the end of
// the data says "truncated" where it ends; a damaged gzip stream or a failing file says why.
func (r *Reader) readErr(err error, got int64) error {
	at := r.off + got
	where := r.subWhat
	if where == "" {
		where = fmt.Sprintf("a record of tag 0x%02x", r.subTag)
	}
	if r.sub != r.off {
		where = fmt.Sprintf("%s that starts at byte %d", where, r.sub)
	}
	switch {
	case err == io.EOF || errors.Is(err, io.ErrUnexpectedEOF):
		return &inputerr.Error{File: r.file, Offset: at, Msg: "file ends inside " + where + ": truncated", Err: nonEOF(err)}
	case isGzipErr(err):
		return &inputerr.Error{File: r.file, Offset: at, Msg: "compressed data: " + err.Error(), Err: err}
	}
	return &inputerr.Error{File: r.file, Offset: at, Msg: "read: " + err.Error(), Err: err}
}

func nonEOF(err error) error {
	if err == io.EOF {
		return nil
	}
	return err
}

func isGzipErr(err error) bool {
	return errors.Is(err, gzip.ErrChecksum) || errors.Is(err, gzip.ErrHeader) || strings.HasPrefix(err.Error(), "flate:")
}

// take consumes n bytes (n ≤ bufSize) that must be there; the slice is valid until the next read.
func (r *Reader) take(n int) ([]byte, error) {
	if n > r.src.Size() {
		// The larger buffer reads through the smaller, which hands over what it holds first
		// and, once empty, reads straight into the larger one.
		r.src = bufio.NewReaderSize(r.src, bufSize)
	}
	b, err := r.src.Peek(n)
	if err != nil {
		return nil, r.readErr(err, int64(len(b)))
	}
	r.src.Discard(n)
	r.off += int64(n)
	return b, nil
}

// need checks that n more bytes of the current sub-record stay inside its heap dump record.
func (r *Reader) need(n int64) error {
	if r.inSeg && r.off+n > r.segEnd {
		return r.errorf(r.sub, "%s needs %d more bytes at byte %d, but its heap dump record (at byte %d) ends at byte %d",
			r.subWhat, n, r.off, r.segStart, r.segEnd)
	}
	return nil
}

// field consumes n bytes of the current sub-record.
func (r *Reader) field(n int) ([]byte, error) {
	if err := r.need(int64(n)); err != nil {
		return nil, err
	}
	return r.take(n)
}

// skip consumes n bytes that must be there.
func (r *Reader) skip(n int64) error {
	for n > 0 {
		k := int(min(n, 1<<30))
		d, err := r.src.Discard(k)
		if err != nil {
			return r.readErr(err, int64(d))
		}
		r.off += int64(d)
		n -= int64(d)
	}
	return nil
}

func (r *Reader) idAt(b []byte) uint64 {
	if r.id == 4 {
		return uint64(binary.BigEndian.Uint32(b))
	}
	return binary.BigEndian.Uint64(b)
}

// bitsOf reads a big-endian value of up to 8 bytes.
func bitsOf(b []byte) uint64 {
	var v uint64
	for _, x := range b {
		v = v<<8 | uint64(x)
	}
	return v
}

// Next returns the next record, io.EOF after the last, or an *inputerr.Error.
func (r *Reader) Next() (Record, error) {
	if r.err != nil {
		return Record{}, r.err
	}
	rec, err := r.next()
	if err != nil {
		r.err = err
	}
	return rec, err
}

func (r *Reader) next() (Record, error) {
	if r.pending > 0 {
		err := r.skip(r.pending)
		r.pending = 0
		if err != nil {
			return Record{}, err
		}
	}
	for {
		if r.inSeg {
			if r.off < r.segEnd {
				return r.subRecord()
			}
			r.inSeg = false
		}
		rec, ok, err := r.record()
		if ok || err != nil {
			return rec, err
		}
	}
}

// record reads one top-level record; ok is false for a record it skips.
func (r *Reader) record() (rec Record, ok bool, err error) {
	r.sub, r.subWhat = r.off, "a record header"
	h, err := r.src.Peek(9)
	if len(h) == 0 && err == io.EOF {
		return Record{}, false, io.EOF
	}
	if err != nil {
		return Record{}, false, r.readErr(err, int64(len(h)))
	}
	tag := h[0]
	n := int64(binary.BigEndian.Uint32(h[5:]))
	rec = Record{Tag: tag, Offset: r.off}
	r.src.Discard(9)
	r.off += 9
	switch tag {
	case tagString:
		r.subWhat = "a STRING record"
		if n < int64(r.id) {
			return rec, false, r.errorf(rec.Offset, "STRING record of %d bytes has no room for its %d-byte id", n, r.id)
		}
		b, err := r.take(r.id)
		if err != nil {
			return rec, false, err
		}
		rec.Kind, rec.ID, rec.Len = KindString, r.idAt(b), uint32(n-int64(r.id))
		keep := min(int(rec.Len), MaxString)
		if rec.Bytes, err = r.take(keep); err != nil {
			return rec, false, err
		}
		return rec, true, r.skip(int64(rec.Len) - int64(keep))
	case tagLoadClass:
		r.subWhat = "a LOAD_CLASS record"
		want := 8 + 2*r.id
		if n < int64(want) {
			return rec, false, r.errorf(rec.Offset, "LOAD_CLASS record of %d bytes, needs %d", n, want)
		}
		b, err := r.take(want)
		if err != nil {
			return rec, false, err
		}
		rec.Kind = KindLoadClass
		rec.Serial = binary.BigEndian.Uint32(b)
		rec.ID = r.idAt(b[4:])
		rec.Name = r.idAt(b[8+r.id:])
		return rec, true, r.skip(n - int64(want))
	case tagHeapDump, tagHeapSegment:
		rec.Kind, rec.Len = KindHeapDump, uint32(n)
		r.inSeg, r.segStart, r.segEnd = true, rec.Offset, r.off+n
		return rec, true, nil
	case tagHeapEnd:
		r.subWhat = "a HEAP_DUMP_END record"
		rec.Kind = KindHeapDumpEnd
		return rec, true, r.skip(n)
	}
	r.subWhat, r.subTag = "", tag
	return rec, false, r.skip(n)
}

// subInfo is what the reader knows of a heap dump sub-record tag: how to name it in errors
// and, for a root, how many ids and u4s its body holds.
type subInfo struct {
	what     string
	root     bool
	ids, u4s int
}

var subTags = func() (t [256]subInfo) {
	for tag, name := range map[uint8]string{
		subClassDump: "CLASS_DUMP", subInstance: "INSTANCE_DUMP", subObjArray: "OBJ_ARRAY_DUMP",
		subPrimArray: "PRIM_ARRAY_DUMP", subPrimNoData: "PRIM_ARRAY_NODATA_DUMP", subHeapInfo: "HEAP_DUMP_INFO",
	} {
		t[tag] = subInfo{what: "the " + name + " sub-record"}
	}
	for tag, size := range map[uint8][2]int{
		rootUnknown: {1, 0}, rootJNIGlobal: {2, 0}, rootJNILocal: {1, 2}, rootJavaFrame: {1, 2},
		rootNativeStack: {1, 1}, rootStickyClass: {1, 0}, rootThreadBlock: {1, 1}, rootMonitorUsed: {1, 0},
		rootThreadObject: {1, 2}, rootInterned: {1, 0}, rootFinalizing: {1, 0}, rootDebugger: {1, 0},
		rootRefCleanup: {1, 0}, rootVMInternal: {1, 0}, rootJNIMonitor: {1, 2}, rootUnreachable: {1, 0},
	} {
		t[tag] = subInfo{what: fmt.Sprintf("the root sub-record of tag 0x%02x", tag), root: true, ids: size[0], u4s: size[1]}
	}
	return t
}()

// subRecord reads one sub-record of a heap dump.
func (r *Reader) subRecord() (Record, error) {
	r.sub, r.subWhat = r.off, "a heap dump sub-record"
	b, err := r.take(1)
	if err != nil {
		return Record{}, err
	}
	tag := b[0]
	rec := Record{Tag: tag, Offset: r.sub}
	info := &subTags[tag]
	if info.what != "" {
		r.subWhat = info.what
	}
	id := r.id
	switch tag {
	case subInstance:
		b, err := r.field(2*id + 8)
		if err != nil {
			return rec, err
		}
		rec.Kind = KindInstance
		rec.ID = r.idAt(b)
		rec.Class = r.idAt(b[id+4:])
		rec.Len = binary.BigEndian.Uint32(b[2*id+4:])
		if err := r.need(int64(rec.Len)); err != nil {
			return rec, err
		}
		if rec.Len > MaxValues {
			return rec, r.skip(int64(rec.Len))
		}
		rec.Bytes, err = r.take(int(rec.Len))
		return rec, err
	case subObjArray:
		b, err := r.field(2*id + 8)
		if err != nil {
			return rec, err
		}
		rec.Kind = KindObjArray
		rec.ID = r.idAt(b)
		rec.Len = binary.BigEndian.Uint32(b[id+4:])
		rec.Class = r.idAt(b[id+8:])
		return rec, r.startElements(int64(rec.Len), id)
	case subPrimArray, subPrimNoData:
		b, err := r.field(id + 9)
		if err != nil {
			return rec, err
		}
		rec.Kind = KindPrimArray
		rec.ID = r.idAt(b)
		rec.Len = binary.BigEndian.Uint32(b[id+4:])
		rec.Type = Type(b[id+8])
		if !rec.Type.Primitive() {
			return rec, r.errorf(r.off-1, "primitive array of %s", rec.Type)
		}
		if tag == subPrimNoData {
			return rec, nil
		}
		return rec, r.startElements(int64(rec.Len), rec.Type.Size(id))
	case subClassDump:
		return r.classDump(rec)
	case subHeapInfo:
		b, err := r.field(4 + id)
		if err != nil {
			return rec, err
		}
		rec.Kind = KindHeapInfo
		rec.Serial = binary.BigEndian.Uint32(b)
		rec.Name = r.idAt(b[4:])
		return rec, nil
	}
	if !info.root {
		return rec, r.errorf(rec.Offset, "unknown heap dump sub-record tag 0x%02x (its length cannot be known, so the dump cannot be read on)", tag)
	}
	b, err = r.field(info.ids*id + info.u4s*4)
	if err != nil {
		return rec, err
	}
	rec.Kind = KindRoot
	rec.ID = r.idAt(b)
	return rec, nil
}

// startElements checks that an array's n elements fit in the heap dump record and leaves
// them for Elements.
func (r *Reader) startElements(n int64, size int) error {
	if err := r.need(n * int64(size)); err != nil {
		return err
	}
	r.pending, r.elemSize = n*int64(size), size
	return nil
}

// Elements hands over the elements of the array Next has just returned, a run at a time: raw
// big-endian values (object ids of IDSize bytes, or primitive values), whole elements only,
// valid until the next call of Elements or Next. It returns nil, nil when all are read. What a
// caller does not read, Next skips.
func (r *Reader) Elements() ([]byte, error) {
	if r.err != nil {
		return nil, r.err
	}
	if r.pending == 0 {
		return nil, nil
	}
	n := int(min(r.pending, int64(r.src.Size()/r.elemSize*r.elemSize)))
	if k := r.src.Buffered() / r.elemSize * r.elemSize; k > 0 && k < n {
		n = k // what is already read; the next call refills
	}
	b, err := r.take(n)
	if err != nil {
		r.err = err
		return nil, err
	}
	r.pending -= int64(n)
	return b, nil
}

// classDump reads a CLASS_DUMP: the fixed part, the constant pool and statics (skipped, but
// their types decide their sizes) and the instance fields.
func (r *Reader) classDump(rec Record) (Record, error) {
	id := r.id
	b, err := r.field(7*id + 8)
	if err != nil {
		return rec, err
	}
	rec.Kind = KindClassDump
	rec.ID = r.idAt(b)
	rec.Super = r.idAt(b[id+4:])
	rec.Size = binary.BigEndian.Uint32(b[7*id+4:])
	// Constant pool: u2 index, u1 type, value.
	if err := r.values(2, "constant pool entry", false); err != nil {
		return rec, err
	}
	// Statics: id name, u1 type, value.
	r.statics, r.vals = r.statics[:0], r.vals[:0]
	if err := r.values(id, "static field", true); err != nil {
		return rec, err
	}
	rec.Statics, rec.Values = r.statics, r.vals
	b, err = r.field(2)
	if err != nil {
		return rec, err
	}
	r.fields = r.fields[:0]
	for range binary.BigEndian.Uint16(b) {
		b, err := r.field(id + 1)
		if err != nil {
			return rec, err
		}
		t := Type(b[id])
		if t.Size(id) == 0 {
			return rec, r.errorf(r.off-1, "instance field of unknown %s", t)
		}
		r.fields = append(r.fields, Field{Name: r.idAt(b), Type: t})
	}
	rec.Fields = r.fields
	return rec, nil
}

// values skips a u2-counted list of (key of keySize bytes, u1 type, value) entries; with
// statics it keeps those that refer to an object in r.statics.
func (r *Reader) values(keySize int, what string, statics bool) error {
	b, err := r.field(2)
	if err != nil {
		return err
	}
	for range binary.BigEndian.Uint16(b) {
		b, err := r.field(keySize + 1)
		if err != nil {
			return err
		}
		t := Type(b[keySize])
		size := t.Size(r.id)
		if size == 0 {
			return r.errorf(r.off-1, "%s of unknown %s", what, t)
		}
		var key uint64
		if statics {
			key = r.idAt(b) // now: b is the reader's buffer, which field may move
		}
		v, err := r.field(size)
		if err != nil {
			return err
		}
		if statics {
			r.vals = append(r.vals, StaticValue{Name: key, Type: t, Bits: bitsOf(v)})
		}
		if statics && t == TypeObject {
			if ref := r.idAt(v); ref != 0 {
				r.statics = append(r.statics, Static{Name: key, Ref: ref})
			}
		}
	}
	return nil
}
