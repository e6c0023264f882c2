package hprof

import (
	"encoding/binary"
	"fmt"
	"io"
	"slices"

	"androprof/internal/inputerr"
	"androprof/model/heap"
)

// The object level (docs/heap-objects.md): after the retention is known, one more pass over
// the dump spills the record of every reachable object (heap.RecordSpill), and keeps the
// class layouts decoding them needs (objects.go decodes them).

// Record kinds, the first byte of a spilled record; then:
//
//	recInstance  the field bytes as the dump holds them
//	recObjArray  u32 length, the first elements' ids
//	recPrimArray u1 type, u32 length, the first elements' values
//	recNoData    u1 type, u32 length (Android's PRIM_ARRAY_NODATA)
//	recClass     nothing more: a class's statics are in its layout
//
// An object's id is the retention's (DumpColumns.ID), its class object's id is in the layouts
// (by the retention's class index): records leave both out, 16 bytes an object.
const (
	recInstance byte = iota + 1
	recObjArray
	recPrimArray
	recNoData
	recClass
)

// MaxArrayBytes is how much of one array the object level keeps: a 4096×4096 ARGB bitmap.
// A longer array keeps its first elements and its length.
const MaxArrayBytes = 64 << 20

// keptString is the longest string the records pass keeps before it knows whether a layout
// names it: field and class names are short.
const keptString = 1024

// SummarizeWithObjects is SummarizeWithRetention, then ReadRecords on the same input: what an
// import keeps, the object level included. The caller closes the result (HeapDump.Close)
// once the store has kept it.
func SummarizeWithObjects(r io.ReadSeeker, name string, opts GraphOptions) (*heap.HeapDump, error) {
	start, err := r.Seek(0, io.SeekCurrent)
	if err != nil {
		return nil, &inputerr.Error{File: name, Msg: "seek: " + err.Error(), Err: err}
	}
	d, err := SummarizeWithRetention(r, name, opts)
	if err != nil {
		return nil, err
	}
	if _, err := r.Seek(start, io.SeekStart); err != nil {
		return nil, &inputerr.Error{File: name, Msg: "seek back for the objects' records: " + err.Error(), Err: err}
	}
	if d.Retention.Records, err = ReadRecords(r, name, d.Retention); err != nil {
		return nil, err
	}
	return d, nil
}

// ReadRecords reads the dump in r once and spills the record of each object ret holds (the
// reachable ones), with the layouts of the dump's classes. Memory: the layouts and short
// strings, and 4 bytes an object for where its record is; the records go to a temporary file.
func ReadRecords(r io.Reader, name string, ret *heap.DumpRetention) (*heap.ObjectRecords, error) {
	rd := newReader(r, name, -1)
	defer rd.Close()
	if rd.err != nil {
		return nil, rd.err
	}
	spill, err := heap.NewRecordSpill(rd.hdr.IDSize, ret.Objects.Len())
	if err != nil {
		return nil, &inputerr.Error{File: name, Msg: err.Error(), Err: err}
	}
	p := &recordPass{r: rd, spill: spill, seek: ret.Seeker(), strs: map[uint64]string{}, names: map[uint64]uint64{},
		classOf: ret.Objects.Class, classIDs: make([]uint64, len(ret.Classes))}
	if err := p.run(); err != nil {
		spill.Abort()
		return nil, err
	}
	out, err := spill.Finish(p.layouts())
	if err != nil {
		return nil, &inputerr.Error{File: name, Msg: err.Error(), Err: err}
	}
	if k := slices.Index(out.Record, heap.NoRecord); k >= 0 {
		out.Close()
		return nil, &inputerr.Error{File: name, Msg: fmt.Sprintf("the file changed between the passes of its import: object %#x is gone", ret.Objects.ID[k])}
	}
	return out, nil
}

type recordPass struct {
	r     *Reader
	spill *heap.RecordSpill
	seek  *heap.IDSeeker
	strs  map[uint64]string // short strings, by id
	names map[uint64]uint64 // class object id → its name string (LOAD_CLASS)
	class []rawLayout
	head  []byte
	// classIDs are the class object id of each of the retention's classes (classOf indexes).
	classOf  []int32
	classIDs []uint64
}

// rawLayout is a CLASS_DUMP as the pass meets it: names still string ids.
type rawLayout struct {
	id, super uint64
	fields    []Field
	statics   []StaticValue
}

func (p *recordPass) run() error {
	for {
		rec, err := p.r.Next()
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return err
		}
		if err := p.record(&rec); err != nil {
			return err
		}
	}
}

// record keeps what one record gives: a short string, a class's name or layout, an object's record.
func (p *recordPass) record(rec *Record) error {
	switch rec.Kind {
	case KindString:
		if len(rec.Bytes) <= keptString {
			p.strs[rec.ID] = string(rec.Bytes)
		}
		return nil
	case KindLoadClass:
		p.names[rec.ID] = rec.Name
		return nil
	case KindClassDump:
		p.class = append(p.class, rawLayout{id: rec.ID, super: rec.Super, fields: slices.Clone(rec.Fields), statics: slices.Clone(rec.Values)})
	case KindInstance, KindObjArray, KindPrimArray:
	default:
		return nil
	}
	seq := p.seek.Seq(rec.ID)
	if seq < 0 {
		return nil
	}
	id := p.r.hdr.IDSize
	h := append(p.head[:0], 0)
	var body int // bytes after the head
	var size int // of each element, for arrays
	switch rec.Kind {
	case KindClassDump:
		h[0] = recClass
		p.classIDs[p.classOf[seq]] = rec.ID
	case KindInstance:
		h[0] = recInstance
		p.classIDs[p.classOf[seq]] = rec.Class
		body = len(rec.Bytes)
	case KindObjArray:
		h[0], size = recObjArray, id
		p.classIDs[p.classOf[seq]] = rec.Class
		h = binary.BigEndian.AppendUint32(h, rec.Len)
	case KindPrimArray:
		h[0], size = recPrimArray, rec.Type.Size(id)
		if rec.Tag == subPrimNoData {
			h[0], size = recNoData, 0
		}
		h = append(h, byte(rec.Type))
		h = binary.BigEndian.AppendUint32(h, rec.Len)
	}
	if size > 0 {
		body = int(min(int64(rec.Len)*int64(size), MaxArrayBytes/int64(size)*int64(size)))
	}
	p.head = h
	fresh, err := p.spill.Start(seq, len(h)+body)
	if err != nil || !fresh {
		return p.wrap(err) // a duplicate id: the first record is the object
	}
	if err := p.spill.Write(h); err != nil {
		return p.wrap(err)
	}
	if size == 0 {
		return p.wrap(p.spill.Write(rec.Bytes[:body]))
	}
	for body > 0 {
		els, err := p.r.Elements()
		if err != nil {
			return err
		}
		k := min(len(els), body)
		if err := p.spill.Write(els[:k]); err != nil {
			return p.wrap(err)
		}
		body -= k
	}
	return nil
}

func (p *recordPass) wrap(err error) error {
	if err == nil {
		return nil
	}
	return &inputerr.Error{File: p.r.file, Msg: "writing the objects' records to a temporary file: " + err.Error(), Err: err}
}

// layouts encodes the classes with their names resolved (ClassLayout, DecodeLayouts), then
// the class object id of each of the retention's classes.
func (p *recordPass) layouts() []byte {
	name := func(id uint64) string {
		if s, ok := p.strs[id]; ok {
			return s
		}
		return fmt.Sprintf("field@%#x", id)
	}
	b := binary.AppendUvarint(nil, uint64(len(p.class)))
	for _, c := range p.class {
		b = binary.LittleEndian.AppendUint64(b, c.id)
		b = binary.LittleEndian.AppendUint64(b, c.super)
		cname := fmt.Sprintf("class@%#x", c.id)
		if n, ok := p.names[c.id]; ok {
			if s, ok := p.strs[n]; ok {
				cname = s
			}
		}
		b = appendString(b, cname)
		b = binary.AppendUvarint(b, uint64(len(c.fields)))
		for _, f := range c.fields {
			b = append(appendString(b, name(f.Name)), byte(f.Type))
		}
		b = binary.AppendUvarint(b, uint64(len(c.statics)))
		for _, s := range c.statics {
			b = append(appendString(b, name(s.Name)), byte(s.Type))
			b = binary.LittleEndian.AppendUint64(b, s.Bits)
		}
	}
	b = binary.AppendUvarint(b, uint64(len(p.classIDs)))
	for _, id := range p.classIDs {
		b = binary.LittleEndian.AppendUint64(b, id)
	}
	return b
}

func appendString(b []byte, s string) []byte {
	return append(binary.AppendUvarint(b, uint64(len(s))), s...)
}
