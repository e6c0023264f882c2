// Package heaplog reads and writes Dalvik heap logs (docs/heaplog-format.md): the allocations,
// deaths, threads, GCs, pointer mutations and heap snapshots that seed 001's instrumented Dalvik
// VM records, in a text format the project defines, which the project's JVMTI agent writes too.
// "Time" in a heap log is the number of bytes allocated so far.
//
// The reader streams: memory holds the ids of the classes and threads the log declared, never
// its objects or events. Gzip-compressed logs are read transparently.
package heaplog

import (
	"bufio"
	"bytes"
	"compress/flate"
	"compress/gzip"
	"errors"
	"fmt"
	"io"
	"maps"
	"math"
	"os"
	"strings"

	"androprof/formats/internal/lines"
	"androprof/internal/countio"
	"androprof/internal/gunzip"
	"androprof/internal/inputerr"
	"androprof/model/heap"
)

// Magic starts every heap log; format detection looks for it.
const Magic = "androprof-heaplog"

// Version is the version this package reads and writes.
const Version = 1

// Format is what HeapHeader.Format says of a heap log.
const Format = "heaplog"

// ErrNotHeapLog says a file does not start with the heap log header, so format detection can
// try another reader.
var ErrNotHeapLog = errors.New("not an androprof heap log")

// maxFields is the most fields a record has (an allocation's).
const maxFields = 6

// shape is what a record letter's line holds after the letter.
type shape struct {
	form   string // its fields, for messages about a line with too few or too many
	fields int
	text   bool // free text follows the fields
}

var shapes = [256]shape{
	'c': {"c CLASS NAME", 2, false},
	't': {"t TID TIME GROUP NAME", 3, true},
	'e': {"e TID TIME", 2, false},
	'a': {"a OID TIME SIZE TID CLASS ARRAY", 6, false},
	'd': {"d OID TIME", 2, false},
	'g': {"g TIME KIND", 2, false},
	'h': {"h TIME", 1, false},
	'm': {"m TIME SRC OFFSET DST", 4, false},
	's': {"s TIME BUCKET COUNT", 3, false},
}

// Reader streams one heap log. Next returns its records one by one; Feed hands them all to a
// model.HeapSink. Memory holds the declared class and thread ids, never objects or events.
type Reader struct {
	src     lines.Reader    // scanner, file name and sticky error
	in      *countio.Reader // the input as stored
	spy     *spy            // the input as the scanner reads it
	closers []io.Closer
	header  heap.HeapHeader
	pending []byte // the first record, read with the header
	ev      heap.HeapEvent
	fields  [maxFields][]byte
	time    uint64              // the last record's time
	total   uint64              // bytes allocated so far: the next allocation's time
	threads map[uint32]struct{} // declared thread ids
	classes map[uint32]string   // declared class ids and their names
}

// spy remembers the error that ended the input, so a line that failed only because the input
// broke off in it is reported as the break.
type spy struct {
	r   io.Reader
	err error
}

func (s *spy) Read(p []byte) (int, error) {
	n, err := s.r.Read(p)
	if err != nil && err != io.EOF && s.err == nil {
		s.err = err
	}
	return n, err
}

// Open opens a heap log file and starts reading it as NewReader does. Close the Reader to close
// the file.
func Open(path string) (*Reader, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	r := NewReader(f, path)
	r.closers = append(r.closers, f)
	return r, nil
}

// NewReader starts reading a heap log from in, plain or gzip-compressed, and reads its header;
// name is used in errors. When in holds something else, the first Next says so with an error
// wrapping ErrNotHeapLog; a header that is damaged or of another version is the first Next's
// *inputerr.Error.
func NewReader(in io.Reader, name string) *Reader {
	r := &Reader{in: &countio.Reader{R: in}, threads: map[uint32]struct{}{}, classes: map[uint32]string{}}
	src, gz, err := decompress(r.in, name)
	if gz != nil {
		r.closers = append(r.closers, gz)
	}
	if err != nil {
		src = strings.NewReader("")
	}
	r.spy = &spy{r: src}
	r.src = lines.NewReader(r.spy, name)
	r.header = heap.HeapHeader{Format: Format, Version: Version}
	if err == nil {
		err = r.readHeader()
	}
	r.src.Stick(err)
	return r
}

// decompress puts a gunzipping reader, within gunzip's bounds, in front of a gzip stream, told
// by its magic bytes.
func decompress(in io.Reader, name string) (io.Reader, io.Closer, error) {
	br := bufio.NewReaderSize(in, 64<<10)
	if magic, _ := br.Peek(2); len(magic) < 2 || magic[0] != 0x1f || magic[1] != 0x8b {
		return br, nil, nil
	}
	gz, err := gunzip.NewReader(br)
	switch {
	case errors.Is(err, gunzip.ErrSetting):
		return nil, nil, fmt.Errorf("%s: %w", name, err)
	case err != nil:
		return nil, nil, fmt.Errorf("%s: %w: gzip: %v", name, ErrNotHeapLog, err)
	}
	return gz, gz, nil
}

// readHeader reads the magic line and the vm and prop lines after it, and keeps the first
// record for Next.
func (r *Reader) readHeader() error {
	ln, ok := r.src.Next()
	if !ok {
		return r.stopped(false)
	}
	kw, rest := cut(ln)
	if kw != Magic {
		return fmt.Errorf("%s: %w", r.src.File, ErrNotHeapLog)
	}
	if v, ok := lines.Uint(trim(rest), math.MaxInt32); !ok || v != Version {
		if r.spy.err != nil {
			return r.broken(r.spy.err)
		}
		return r.src.Errorf("unsupported heap log version %q (this reader knows %d)", lines.Clip(trim(rest)), Version)
	}
	for {
		ln, ok := r.src.Next()
		if !ok {
			return r.stopped(true)
		}
		kw, rest := cut(ln)
		switch kw {
		case "vm":
			r.header.VM = string(rest)
		case "prop":
			f, text, err := r.split(rest, 1, true, "prop KEY VALUE")
			if err != nil {
				return r.blame(err)
			}
			if r.header.Props == nil {
				r.header.Props = map[string]string{}
			}
			r.header.Props[string(f[0])] = string(text)
		default:
			r.pending = ln // valid until the scanner moves on, which only Next makes it do
			return nil
		}
	}
}

// stopped says why the lines ran out: nil at a clean end of a log whose header was seen.
func (r *Reader) stopped(sawHeader bool) error {
	err := r.src.Stopped(sawHeader, ErrNotHeapLog)
	if err == nil || errors.Is(err, ErrNotHeapLog) || r.spy.err == nil {
		return err
	}
	return r.broken(r.spy.err)
}

// broken reports the input breaking off: damaged compressed data is the log's fault, at the
// last line read (which may be cut short), anything else the device's.
func (r *Reader) broken(err error) error {
	if isDecompressErr(err) {
		return &inputerr.Error{File: r.src.File, Line: max(r.src.Line(), 1), Msg: "compressed data damaged or cut off by this line: " + err.Error()}
	}
	return fmt.Errorf("%s: after line %d: %w", r.src.File, r.src.Line(), err)
}

// blame reports the input breaking off, when it did, rather than an error in a line it may have
// cut short.
func (r *Reader) blame(err error) error {
	if r.spy.err != nil {
		return r.broken(r.spy.err)
	}
	return err
}

func isDecompressErr(err error) bool {
	var corrupt flate.CorruptInputError
	return errors.Is(err, io.ErrUnexpectedEOF) || errors.Is(err, gzip.ErrChecksum) || errors.Is(err, gzip.ErrHeader) ||
		errors.As(err, &corrupt) || strings.Contains(err.Error(), "flate:")
}

// Header is what the log says about itself: its VM and properties. The map is a copy.
func (r *Reader) Header() heap.HeapHeader {
	h := r.header
	h.Props = maps.Clone(h.Props)
	return h
}

// Line is the number of the last line read: the line of the record Next returned last.
func (r *Reader) Line() int64 { return r.src.Line() }

// Offset is how many bytes of the input as stored (compressed, for a gzip file) the reader has
// taken, so progress can be shown against the file's size. Reading is buffered: Offset runs
// up to a buffer (64 KiB) ahead of Line and reaches the input's size at the end.
func (r *Reader) Offset() int64 { return r.in.N }

// Close closes the gzip stream and, for a Reader from Open, the file. It does not close the
// io.Reader given to NewReader.
func (r *Reader) Close() error {
	var err error
	for i := len(r.closers) - 1; i >= 0; i-- {
		if e := r.closers[i].Close(); e != nil && err == nil {
			err = e
		}
	}
	r.closers = nil
	return err
}

// Next returns the next record, io.EOF after the last, an *inputerr.Error for a log it refuses
// (damaged compressed data included), or the input's own error with the file name and line.
// The event is the Reader's own and is overwritten by the next call: copy it to keep it. After
// an error Next returns that error again.
func (r *Reader) Next() (*heap.HeapEvent, error) {
	if err := r.src.Failed(); err != nil {
		return nil, err
	}
	if err := r.next(); err != nil {
		return nil, r.src.Stick(err)
	}
	return &r.ev, nil
}

func (r *Reader) next() error {
	for {
		ln, ok := r.pending, true
		if ln != nil {
			r.pending = nil
		} else if ln, ok = r.src.Next(); !ok {
			if err := r.stopped(true); err != nil {
				return err
			}
			return io.EOF
		}
		emitted, err := r.record(ln)
		if err != nil {
			return r.blame(err)
		}
		if emitted {
			return nil
		}
	}
}

// Feed streams the log into sink: the header first, then every record. A sink's error stops
// it, located at the record's line.
func (r *Reader) Feed(sink heap.HeapSink) error {
	if err := r.src.Failed(); err != nil {
		return err
	}
	if err := sink.HeapHeader(r.Header()); err != nil {
		return &inputerr.Error{File: r.src.File, Line: max(r.Line(), 1), Err: err}
	}
	for {
		e, err := r.Next()
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return err
		}
		if err := sink.HeapEvent(e); err != nil {
			return &inputerr.Error{File: r.src.File, Line: r.Line(), Err: err}
		}
	}
}

func isSep(c byte) bool { return c == ' ' || c == '\t' }

// cut splits a line into its keyword and what follows the one separator after it.
func cut(ln []byte) (string, []byte) {
	for i, c := range ln {
		if isSep(c) {
			return string(ln[:i]), ln[i+1:]
		}
	}
	return string(ln), nil
}

// trim drops separators at both ends.
func trim(b []byte) []byte {
	for len(b) > 0 && isSep(b[0]) {
		b = b[1:]
	}
	for len(b) > 0 && isSep(b[len(b)-1]) {
		b = b[:len(b)-1]
	}
	return b
}

// split cuts n fields off rest, separated by runs of spaces or tabs. With text, what follows the
// n-th field after one separator is returned as free text (possibly empty); without, only
// separators may follow. The fields are valid until the next line is read.
func (r *Reader) split(rest []byte, n int, text bool, form string) ([][]byte, []byte, error) {
	f := r.fields[:0]
	i := 0
	for len(f) < n {
		for i < len(rest) && isSep(rest[i]) {
			i++
		}
		if i == len(rest) {
			return nil, nil, r.src.Errorf("want %d fields (%s), found %d", n, form, len(f))
		}
		j := i
		for j < len(rest) && !isSep(rest[j]) {
			j++
		}
		f = append(f, rest[i:j])
		i = j
	}
	if text {
		if i < len(rest) {
			i++
		}
		return f, rest[i:], nil
	}
	if t := trim(rest[i:]); len(t) > 0 {
		return nil, nil, r.src.Errorf("unexpected %q after the %d fields of %s", lines.Clip(t), n, form)
	}
	return f, nil, nil
}

// record parses one line into r.ev; emitted is false for a line that yields no event (a class
// declared again with the same name).
func (r *Reader) record(ln []byte) (emitted bool, err error) {
	if len(ln) > 1 && !isSep(ln[1]) {
		return false, r.word(ln)
	}
	kw := ln[0]
	sh := &shapes[kw]
	if sh.form == "" {
		return false, r.src.Errorf("unknown record %q", lines.Clip(ln[:1]))
	}
	f, text, err := r.split(ln[1:], sh.fields, sh.text, sh.form)
	if err != nil {
		return false, err
	}
	e := &r.ev
	*e = heap.HeapEvent{}
	switch kw {
	case 'a':
		return true, r.alloc(f)
	case 'd':
		e.Kind = heap.HeapFree
		if e.Object, err = r.oid(f[0], "object id"); err != nil {
			return false, err
		}
		e.Time, err = r.at(f[1])
	case 'm':
		e.Kind = heap.HeapMutation
		if e.Time, err = r.at(f[0]); err != nil {
			return false, err
		}
		if e.Object, err = r.oid(f[1], "source object id"); err != nil {
			return false, err
		}
		if e.Offset, err = r.u32(f[2], "field offset"); err != nil {
			return false, err
		}
		e.Target, err = r.u64(f[3], "target object id")
	case 'g':
		e.Kind = heap.HeapGCStart
		if e.Time, err = r.at(f[0]); err != nil {
			return false, err
		}
		e.GCKind, err = r.gcKind(f[1])
	case 'h':
		e.Kind = heap.HeapGCEnd
		e.Time, err = r.at(f[0])
	case 's':
		e.Kind = heap.HeapSnapshot
		if e.Time, err = r.at(f[0]); err != nil {
			return false, err
		}
		if e.Distance, err = r.bucket(f[1]); err != nil {
			return false, err
		}
		e.Count, err = r.u64(f[2], "count")
	case 'c':
		return r.class(f)
	case 't':
		return true, r.threadStart(f, text)
	case 'e':
		e.Kind = heap.HeapThreadEnd
		if e.Thread, err = r.u32(f[0], "thread id"); err != nil {
			return false, err
		}
		if _, ok := r.threads[e.Thread]; !ok {
			return false, r.src.Errorf("end of thread %d, which no t line declared", e.Thread)
		}
		e.Time, err = r.at(f[1])
	}
	return err == nil, err
}

func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}

// word explains a line whose keyword is longer than a record letter.
func (r *Reader) word(ln []byte) error {
	kw, _ := cut(ln)
	switch kw {
	case "vm", "prop":
		return r.src.Errorf("%s line after the first record (header lines come first)", kw)
	case Magic:
		return r.src.Errorf("a second header line: concatenated heap logs are not supported")
	}
	return r.src.Errorf("unknown record %q", lines.Clip([]byte(kw)))
}

func (r *Reader) alloc(f [][]byte) error {
	e := &r.ev
	e.Kind = heap.HeapAlloc
	var err error
	if e.Object, err = r.oid(f[0], "object id"); err != nil {
		return err
	}
	t, ok := lines.Uint(f[1], math.MaxUint64)
	if !ok {
		return r.src.Errorf("bad time %q", lines.Clip(f[1]))
	}
	if t != r.total {
		return r.src.Errorf("allocation at time %d, but the allocations before it total %d bytes (an allocation's time is the sum of the sizes before it)", t, r.total)
	}
	if e.Size, err = r.u64(f[2], "size"); err != nil {
		return err
	}
	if e.Size == 0 {
		return r.src.Errorf("allocation of object %d has size 0", e.Object)
	}
	if e.Size > math.MaxUint64-r.total {
		return r.src.Errorf("allocation of %d bytes takes the total past 2^64 bytes", e.Size)
	}
	if e.Thread, err = r.u32(f[3], "thread id"); err != nil {
		return err
	}
	if _, ok := r.threads[e.Thread]; !ok {
		return r.src.Errorf("allocation on thread %d, which no t line declared before", e.Thread)
	}
	if e.Class, err = r.u32(f[4], "class id"); err != nil {
		return err
	}
	if _, ok := r.classes[e.Class]; !ok {
		return r.src.Errorf("allocation of class %d, which no c line declared before", e.Class)
	}
	switch string(f[5]) {
	case "0":
	case "1":
		e.Array = true
	default:
		return r.src.Errorf("bad array flag %q (want 0 or 1)", lines.Clip(f[5]))
	}
	e.Time, r.time = t, t
	r.total += e.Size
	return nil
}

func (r *Reader) class(f [][]byte) (bool, error) {
	id, err := r.u32(f[0], "class id")
	if err != nil {
		return false, err
	}
	if name, ok := r.classes[id]; ok {
		if name == string(f[1]) {
			return false, nil // declared again, as before: nothing new
		}
		return false, r.src.Errorf("class %d declared twice, as %q and %q", id, lines.Clip([]byte(name)), lines.Clip(f[1]))
	}
	name := string(f[1])
	r.classes[id] = name
	r.ev = heap.HeapEvent{Kind: heap.HeapClass, Class: id, Name: name, Array: name[0] == '['}
	return true, nil
}

func (r *Reader) threadStart(f [][]byte, name []byte) error {
	e := &r.ev
	e.Kind = heap.HeapThreadStart
	var err error
	if e.Thread, err = r.u32(f[0], "thread id"); err != nil {
		return err
	}
	if _, ok := r.threads[e.Thread]; ok {
		return r.src.Errorf("thread %d declared twice", e.Thread)
	}
	if e.Time, err = r.at(f[1]); err != nil {
		return err
	}
	if g := f[2]; string(g) != "-" {
		e.Group = string(g)
	}
	e.Name = string(name)
	r.threads[e.Thread] = struct{}{}
	return nil
}

// at reads the time of a record that is not an allocation: never before the previous record,
// never past the bytes allocated so far.
func (r *Reader) at(b []byte) (uint64, error) {
	t, ok := lines.Uint(b, math.MaxUint64)
	switch {
	case !ok:
		return 0, r.src.Errorf("bad time %q", lines.Clip(b))
	case t < r.time:
		return 0, r.src.Errorf("time %d is before the previous record's time %d (times never decrease)", t, r.time)
	case t > r.total:
		return 0, r.src.Errorf("time %d is past the %d bytes allocated so far (time counts allocated bytes)", t, r.total)
	}
	r.time = t
	return t, nil
}

func (r *Reader) u64(b []byte, what string) (uint64, error) {
	v, ok := lines.Uint(b, math.MaxUint64)
	if !ok {
		return 0, r.src.Errorf("bad %s %q (want a decimal number below 2^64)", what, lines.Clip(b))
	}
	return v, nil
}

func (r *Reader) u32(b []byte, what string) (uint32, error) {
	v, ok := lines.Uint(b, math.MaxUint32)
	if !ok {
		return 0, r.src.Errorf("bad %s %q (want a decimal number below 2^32)", what, lines.Clip(b))
	}
	return uint32(v), nil
}

func (r *Reader) oid(b []byte, what string) (uint64, error) {
	v, err := r.u64(b, what)
	if err == nil && v == 0 {
		return 0, r.src.Errorf("%s 0 (0 is null, never an object)", what)
	}
	return v, err
}

// bucket reads a signed power-of-two distance bucket (model.DistanceBucket).
func (r *Reader) bucket(b []byte) (int, error) {
	neg := len(b) > 0 && b[0] == '-'
	v, ok := lines.Uint(b[boolInt(neg):], 64)
	if !ok || v == 0 {
		return 0, r.src.Errorf("bad distance bucket %q (want -64…-1 or 1…64)", lines.Clip(b))
	}
	if neg {
		return -int(v), nil
	}
	return int(v), nil
}

// gcKind returns the package's constant for a GC kind, so the hot path does not allocate.
func (r *Reader) gcKind(b []byte) (string, error) {
	switch string(b) {
	case heap.GCConcurrent:
		return heap.GCConcurrent, nil
	case heap.GCForMalloc:
		return heap.GCForMalloc, nil
	case heap.GCExplicit:
		return heap.GCExplicit, nil
	case heap.GCBeforeOOM:
		return heap.GCBeforeOOM, nil
	case heap.GCUnknown:
		return heap.GCUnknown, nil
	}
	return "", r.src.Errorf("unknown GC kind %q (want %s, %s, %s, %s or %s)", lines.Clip(b),
		heap.GCConcurrent, heap.GCForMalloc, heap.GCExplicit, heap.GCBeforeOOM, heap.GCUnknown)
}

// Sniff answers format detection from a file's first bytes (decompressed): nil when they start
// with the heap log header, of any version, ErrNotHeapLog when they do not.
func Sniff(head []byte) error {
	sc := lines.NewScanner(bytes.NewReader(head[:min(len(head), lines.MaxLine)]))
	if ln, ok := sc.Next(); ok {
		if kw, _ := cut(ln); kw == Magic {
			return nil
		}
	}
	return ErrNotHeapLog
}
