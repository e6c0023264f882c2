package heap

import (
	"bufio"
	"encoding/binary"
	"errors"
	"fmt"
	"os"
)

// The object level keeps every reachable object's record (docs/heap-objects.md): its field
// values, array elements or statics, as the dump's reader encodes them. A dump of 1 GB holds
// about as many bytes of records, so the import writes them to a temporary file (a spill)
// in chunks, and the store keeps each chunk as one row: the object view reads the one chunk
// an object is in.

// ChunkBytes is the size a chunk of records grows to before the next starts (a record larger
// than that makes a chunk of its own).
const ChunkBytes = 16 << 10

// ObjectRecords are the records an import spilled, what the store writes with the retention.
type ObjectRecords struct {
	RecordIndex
	Chunks []RecordChunk
	spill  *os.File
	path   string // removed by Close, when the system could not remove it while open
}

// RecordIndex is what finds an object's record, and decodes it: kept by the store beside the
// chunks, loaded once per run by the object view.
type RecordIndex struct {
	IDSize int
	// Record is each reachable object's record (by seq): its index among the records, which
	// are numbered in the order the dump lists the objects.
	Record []uint32
	// Layouts are the classes the records need (fields, statics), in the reader's encoding.
	Layouts []byte
}

// RecordChunk is where one chunk of records sits in the spill.
type RecordChunk struct {
	First  uint32 // the index of its first record
	Offset int64
	Size   int
}

// NoRecord marks an object in RecordIndex.Record that has no record (a damaged dump).
const NoRecord = ^uint32(0)

// RecordSpill writes records to a temporary file, in chunks.
type RecordSpill struct {
	out    *ObjectRecords
	w      *bufio.Writer
	n      uint32 // records written
	off    int64  // bytes written
	pend   int    // bytes the record being written still needs
	chunk0 int64  // where the open chunk starts
}

// NewRecordSpill makes the spill of a dump whose ids are idSize bytes, for objects reachable
// objects. The file is removed at once where the system allows (so nothing stays behind a
// crash), else by Close.
func NewRecordSpill(idSize, objects int) (*RecordSpill, error) {
	f, err := os.CreateTemp("", "androprof-records-*")
	if err != nil {
		return nil, fmt.Errorf("temporary file for the objects' records: %w", err)
	}
	out := &ObjectRecords{RecordIndex: RecordIndex{IDSize: idSize, Record: make([]uint32, objects)}, spill: f}
	if os.Remove(f.Name()) != nil {
		out.path = f.Name()
	}
	for i := range out.Record {
		out.Record[i] = NoRecord
	}
	return &RecordSpill{out: out, w: bufio.NewWriterSize(f, 1<<20)}, nil
}

// Start begins the record of object seq, size bytes long, which Write then hands over whole;
// it is the next record in order. It returns false (and writes nothing) when seq already has one.
func (s *RecordSpill) Start(seq int32, size int) (bool, error) {
	if s.pend != 0 {
		return false, errors.New("record spill: a record started before the last one was whole")
	}
	if s.out.Record[seq] != NoRecord {
		return false, nil
	}
	if s.off-s.chunk0 >= ChunkBytes || len(s.out.Chunks) == 0 {
		s.cut()
		s.out.Chunks = append(s.out.Chunks, RecordChunk{First: s.n, Offset: s.off})
	}
	s.out.Record[seq] = s.n
	s.n++
	var b [binary.MaxVarintLen64]byte
	k := binary.PutUvarint(b[:], uint64(size))
	s.pend = size
	_, err := s.w.Write(b[:k])
	s.off += int64(k)
	return true, err
}

// Write hands over part of the record started last.
func (s *RecordSpill) Write(p []byte) error {
	if len(p) > s.pend {
		return fmt.Errorf("record spill: %d bytes more than the record's size", len(p)-s.pend)
	}
	s.pend -= len(p)
	s.off += int64(len(p))
	_, err := s.w.Write(p)
	return err
}

// cut closes the open chunk.
func (s *RecordSpill) cut() {
	if k := len(s.out.Chunks); k > 0 {
		s.out.Chunks[k-1].Size = int(s.off - s.out.Chunks[k-1].Offset)
	}
	s.chunk0 = s.off
}

// Finish closes the spill for reading, with the layouts the records need.
func (s *RecordSpill) Finish(layouts []byte) (*ObjectRecords, error) {
	if s.pend != 0 {
		s.Abort()
		return nil, errors.New("record spill: the last record is not whole")
	}
	s.cut()
	if err := s.w.Flush(); err != nil {
		s.Abort()
		return nil, fmt.Errorf("writing the objects' records to a temporary file: %w", err)
	}
	s.out.Layouts = layouts
	return s.out, nil
}

// Abort drops the spill (an import that failed).
func (s *RecordSpill) Abort() { s.out.Close() }

// Each hands every chunk's bytes to fn in order (the store writes each as a row); data is
// valid until fn returns.
func (o *ObjectRecords) Each(fn func(c RecordChunk, data []byte) error) error {
	var buf []byte
	for _, c := range o.Chunks {
		if cap(buf) < c.Size {
			buf = make([]byte, c.Size)
		}
		data := buf[:c.Size]
		if _, err := o.spill.ReadAt(data, c.Offset); err != nil {
			return fmt.Errorf("reading the objects' records back from their temporary file: %w", err)
		}
		if err := fn(c, data); err != nil {
			return err
		}
	}
	return nil
}

// Close removes the spill; the records stored stay. It may be called on nil and more than once.
func (o *ObjectRecords) Close() error {
	if o == nil || o.spill == nil {
		return nil
	}
	err := o.spill.Close()
	if o.path != "" {
		os.Remove(o.path)
	}
	o.spill = nil
	return err
}

// Close releases what an imported dump holds outside memory (its records' spill), once the
// store has kept it or the import failed.
func (d *HeapDump) Close() error {
	if d == nil || d.Retention == nil {
		return nil
	}
	return d.Retention.Records.Close()
}

// ErrDamagedRecord says a stored chunk does not hold the record asked for.
var ErrDamagedRecord = errors.New("the object's record is damaged")

// RecordIn is record k of a chunk whose first record is first.
func RecordIn(chunk []byte, first, k uint32) ([]byte, error) {
	if k < first {
		return nil, ErrDamagedRecord
	}
	for i := first; ; i++ {
		size, n := binary.Uvarint(chunk)
		if n <= 0 || size > uint64(len(chunk)-n) {
			return nil, ErrDamagedRecord
		}
		if i == k {
			return chunk[n : n+int(size)], nil
		}
		chunk = chunk[n+int(size):]
	}
}

// ChunkRecords calls fn with each record of a chunk whose first record is first, in order
// (the referrers of an object are decoded a chunk at a time).
func ChunkRecords(chunk []byte, first uint32, fn func(k uint32, rec []byte)) error {
	for k := first; len(chunk) > 0; k++ {
		size, n := binary.Uvarint(chunk)
		if n <= 0 || size > uint64(len(chunk)-n) {
			return ErrDamagedRecord
		}
		fn(k, chunk[n:n+int(size)])
		chunk = chunk[n+int(size):]
	}
	return nil
}
