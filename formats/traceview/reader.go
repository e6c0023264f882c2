// Package traceview reads and writes Android Traceview method traces (.trace files from
// Debug.startMethodTracing, DDMS and Android Studio; docs: docs/formats.md#traceview-method-traces).
//
// Both layouts are read: the classic one (a text key section, then "SLOW" binary records) of
// versions 1, 2 and 3, and ART's streaming one (the binary header first, with methods, threads
// and a closing summary as packets between the records). Gzip-compressed input is read
// transparently (the importer decompresses files itself, once, before it recognises them). The
// reader streams: memory stays the same whatever the file's size or what its lengths claim.
package traceview

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"

	"androprof/internal/gunzip"
	"androprof/internal/inputerr"
	"androprof/model/calls"
)

// Magic starts the binary part of every trace ("SLOW", little-endian).
const Magic = 0x574F4C53

// streamingFlag marks the version of an ART streaming trace.
const streamingFlag = 0xF0

// The packet codes of the streaming layout, after a zero thread id.
const (
	opNewMethod = 1
	opNewThread = 2
	opSummary   = 3
)

// bufSize is the read buffer: the longest key line the reader accepts, room for the longest
// packet or record a 16-bit length allows, and the window in which the record size of a
// version-2 streaming trace is decided.
const bufSize = 64<<10 + 64

// tailScan is how much of the end of a plain streaming file is searched for its summary.
const tailScan = 1 << 20

// ErrNotTraceview says a file does not start like a Traceview trace, so format detection can try
// another reader.
var ErrNotTraceview = errors.New("not a Traceview method trace")

// Kind says which field of a Record is set.
type Kind uint8

// The kinds of records, in the order a trace usually yields them.
const (
	KindHeader Kind = iota + 1
	KindThread
	KindMethod
	KindEvent
)

// Record is one thing the reader found. The header comes first; threads and methods come
// before the first event that names them (in a streaming trace they are interleaved with
// events, and the summary at its end may name threads again).
type Record struct {
	Kind   Kind
	Header *calls.TraceHeader
	Thread calls.ThreadInfo
	Method *calls.MethodInfo
	Event  calls.MethodEvent
}

type state uint8

const (
	stKey     state = iota // key section lines
	stData                 // classic records
	stStream               // streaming records and packets
	stSummary              // lines of the streaming summary
	stAfter                // after the summary: only the end of the file may follow
	stDone
)

type section uint8

const (
	secStart section = iota // before "*version"
	secVersionNumber
	secVersionKeys
	secThreads
	secMethods
	secEnd
)

// Reader streams one trace. Next returns records until io.EOF; Feed hands them to a
// model.MethodSink.
type Reader struct {
	file      string
	src       *bufio.Reader
	off       int64
	st        state
	err       error
	streaming bool

	version int
	clock   calls.Clock
	guessed bool // streaming: the clock was guessed before the summary could say
	recSize int
	tidSize int

	// Key section (and summary) parsing.
	sec        section
	keyVersion int
	props      map[string]string
	headerSent bool              // streaming: the header record has been returned
	lookahead  bool              // a prescan's reader: it returns the summary's header too
	summary    bool              // parsing the streaming summary
	summaryEnd int64             // offset where the summary packet ends
	compressed bool              // the reader decompresses its input
	header     calls.TraceHeader // the header record, completed by a late summary
	claimed    int64             // num-method-calls, or -1
	pre        preInfo
	startUS    uint64 // from the binary header
	records    int64

	clocks  map[int]*unwrap
	lastTID int
	lastClk *unwrap
}

// preInfo is what a first look at a seekable file found further on than the reader has got.
type preInfo struct {
	startUS uint64
	recSize int
	header  *calls.TraceHeader // a streaming trace's summary
}

// unwrap extends a thread's 32-bit microsecond clocks past their wrap (about 71 minutes).
type unwrap struct {
	cpu, wall     uint32
	cpuHi, wallHi uint64
	seen          bool
}

func (u *unwrap) extend(last *uint32, hi *uint64, v uint32) uint64 {
	if u.seen && v < *last && *last-v > 1<<31 {
		*hi += 1 << 32
	}
	*last = v
	return *hi | uint64(v)
}

// NewReader starts reading a trace from r, which may be gzip-compressed; name is used in
// errors. When r holds something else, the first Next says so with an error wrapping
// ErrNotTraceview; a damaged header is the first Next's error too.
//
// When r can seek, the reader first looks ahead for what the layout only gives later: a classic
// trace's start time (in the binary header after the key section) and a streaming trace's
// summary (its clock, pid and VM), which a plain file has at its end. An input that can only
// go back to its start (a file the importer decompresses) is not read twice for the summary:
// the header is completed when the summary comes (see Header), unless the trace has a single
// clock, which the records cannot be read without. Without seeking, a single-clock streaming
// trace's clock has to be guessed as wall until the summary arrives; if the summary then says
// thread-cpu, Next returns an error rather than wrong times.
func NewReader(r io.Reader, name string) *Reader {
	var pre preInfo
	if rs, ok := r.(io.ReadSeeker); ok {
		pre = prescan(rs, name)
	}
	tr, err := newReader(r, name, pre, false)
	if err != nil {
		tr.err, tr.st = err, stDone
	}
	return tr
}

// newReader reads the start of a trace; after an error the Reader is only good for its fields.
func newReader(r io.Reader, name string, pre preInfo, lookahead bool) (*Reader, error) {
	tr := &Reader{file: name, claimed: -1, pre: pre, lookahead: lookahead, clocks: make(map[int]*unwrap), lastTID: -1}
	src := bufio.NewReaderSize(r, bufSize)
	magic, _ := src.Peek(2)
	if len(magic) == 2 && magic[0] == 0x1f && magic[1] == 0x8b {
		gz, err := gunzip.NewReader(src) // within gunzip's bounds: a bomb is refused
		if err != nil {
			return tr, &inputerr.Error{File: name, Msg: "gzip: " + err.Error(), Err: err}
		}
		src = bufio.NewReaderSize(gz, bufSize)
		tr.compressed = true
	}
	tr.src = src
	head, err := src.Peek(18)
	switch {
	case isKeyStart(head):
		tr.st = stKey
		return tr, nil
	case isStreamStart(head):
		tr.streaming = true
		return tr, tr.streamHeader()
	case err != nil && err != io.EOF && !errors.Is(err, bufio.ErrBufferFull):
		return tr, tr.wrapRead(err)
	}
	return tr, fmt.Errorf("%s: %w", name, ErrNotTraceview)
}

func isKeyStart(b []byte) bool {
	const tok = "*version"
	if !bytes.HasPrefix(b, []byte(tok)) {
		return false
	}
	rest := b[len(tok):]
	return len(rest) == 0 || rest[0] == '\n' || rest[0] == '\r'
}

// isStreamStart tells the binary header of a streaming trace: the magic, then a version with
// the streaming flag.
func isStreamStart(b []byte) bool {
	return len(b) >= 6 && binary.LittleEndian.Uint32(b) == Magic && b[5] == 0 && b[4]&0xF0 == streamingFlag
}

// Sniff answers format detection from a file's first bytes (decompressed): nil when they start
// like a Traceview trace, ErrNotTraceview when they do not. A damaged header is the reader's to
// report.
func Sniff(head []byte) error {
	if isKeyStart(head[:min(len(head), 18)]) || isStreamStart(head) {
		return nil
	}
	return ErrNotTraceview
}

// prescan reads ahead in a seekable input, then puts it back. It never fails: what it cannot
// find is simply not known early.
func prescan(rs io.ReadSeeker, name string) (pre preInfo) {
	start, err := rs.Seek(0, io.SeekCurrent)
	if err != nil {
		return pre
	}
	defer rs.Seek(start, io.SeekStart)
	sub, err := newReader(rs, name, preInfo{}, true)
	if err != nil {
		return pre
	}
	if !sub.streaming {
		// The start time is in the data header after the key section: parse the version
		// section, skip the threads and methods to *end unparsed, read the data header.
		for sub.st == stKey && sub.version == 0 {
			if _, err := sub.Next(); err != nil {
				return pre
			}
		}
		for sub.st == stKey {
			ln, _, err := sub.line()
			if err != nil {
				return pre
			}
			if string(ln) == "*end" {
				if sub.dataHeader() != nil {
					return pre
				}
			}
		}
		return preInfo{startUS: sub.startUS, recSize: sub.recSize}
	}
	if !sub.compressed {
		if h, ok := tailSummary(rs, start, name, sub.tidSize); ok || !sub.guessed {
			// Without the end (an input that can only go back to its start), a trace whose
			// clock the header tells learns the rest when its summary comes.
			return preInfo{header: h}
		}
	}
	// The only way to the end is through the data: worth it only for the clock of the records.
	for {
		rec, err := sub.Next()
		if err != nil {
			return preInfo{}
		}
		if rec.Kind == KindHeader && sub.summary {
			return preInfo{header: rec.Header}
		}
	}
}

// tailSummary finds the summary packet that ends a plain streaming file and parses it; ok is
// false when the input cannot seek to its end.
func tailSummary(rs io.ReadSeeker, start int64, name string, tidSize int) (h *calls.TraceHeader, ok bool) {
	end, err := rs.Seek(0, io.SeekEnd)
	if err != nil {
		return nil, false
	}
	if end-start < 32 {
		return nil, true
	}
	n := min(end-start-32, tailScan)
	if _, err := rs.Seek(end-n, io.SeekStart); err != nil {
		return nil, true
	}
	buf := make([]byte, n)
	if _, err := io.ReadFull(rs, buf); err != nil {
		return nil, true
	}
	head := 5 + tidSize // zero thread id, packet code, u4 length
	for i := bytes.LastIndex(buf, []byte("*version\n")); i >= head; i = bytes.LastIndex(buf[:i], []byte("*version\n")) {
		if buf[i-head] == 0 && buf[i-5] == opSummary && (tidSize == 1 || buf[i-6] == 0) &&
			int64(binary.LittleEndian.Uint32(buf[i-4:i])) == int64(len(buf)-i) {
			sub := &Reader{file: name, claimed: -1, st: stKey, clocks: map[int]*unwrap{}, lastTID: -1,
				lookahead: true, src: bufio.NewReader(bytes.NewReader(buf[i:]))}
			if rec, err := sub.Next(); err == nil && rec.Kind == KindHeader {
				return rec.Header, true
			}
			return nil, true
		}
	}
	return nil, true
}

func (r *Reader) errorf(off int64, format string, args ...any) error {
	return &inputerr.Error{File: r.file, Offset: off, Msg: fmt.Sprintf(format, args...)}
}

// wrapRead turns a failed read into an error: a damaged gzip stream is a syntax error at the
// offset reached, anything else is an I/O error.
func (r *Reader) wrapRead(err error) error {
	if isGzipErr(err) || errors.Is(err, io.ErrUnexpectedEOF) {
		return &inputerr.Error{File: r.file, Offset: r.off, Msg: "compressed data: " + err.Error(), Err: err}
	}
	return &inputerr.Error{File: r.file, Offset: r.off, Err: err}
}

// Offset is how many bytes (decompressed) the reader has consumed, for progress.
func (r *Reader) Offset() int64 { return r.off }

// Version is the trace's format version (1, 2 or 3; without the streaming flag).
func (r *Reader) Version() int { return r.version }

// Streaming tells whether the trace has ART's streaming layout.
func (r *Reader) Streaming() bool { return r.streaming }

// RecordSize is the size of one record as the reader reads it, which for Android 6–12
// single-clock streaming traces is not what their header states.
func (r *Reader) RecordSize() int { return r.recSize }

// Clock is the clock the records are read with.
func (r *Reader) Clock() calls.Clock { return r.clock }

// Events is how many event records have been read.
func (r *Reader) Events() int64 { return r.records }

// Header is the header the first record gave, completed by a streaming trace's summary once
// read when the reader could not look ahead for it (its VM, pid, elapsed time and properties):
// after Read, the trace's header as the file tells it.
func (r *Reader) Header() calls.TraceHeader { return r.header }

// Next returns the next record, io.EOF after the last, or an error (an *inputerr.Error for a
// damaged or truncated file). Errors are sticky.
func (r *Reader) Next() (Record, error) {
	if r.err != nil {
		return Record{}, r.err
	}
	rec, err := r.next()
	if err != nil {
		r.err = err
		r.st = stDone
	}
	return rec, err
}

func (r *Reader) next() (Record, error) {
	for {
		var (
			rec  Record
			emit bool
			err  error
		)
		switch r.st {
		case stKey, stSummary:
			rec, emit, err = r.keyStep()
		case stData:
			return r.classicRecord()
		case stStream:
			rec, emit, err = r.streamStep()
		case stAfter:
			if _, err := r.src.Peek(1); err == io.EOF {
				r.st = stDone
				return Record{}, io.EOF
			} else if err != nil {
				return Record{}, r.wrapRead(err)
			}
			return Record{}, r.errorf(r.off, "data after the summary packet, which ends the trace")
		default:
			return Record{}, io.EOF
		}
		if err != nil {
			return Record{}, err
		}
		if emit {
			return rec, nil
		}
	}
}

// line reads one line of the key section or summary, without its line end.
func (r *Reader) line() ([]byte, int64, error) {
	at := r.off
	b, err := r.src.ReadSlice('\n')
	r.off += int64(len(b))
	switch {
	case errors.Is(err, bufio.ErrBufferFull):
		return nil, at, r.errorf(at, "key line longer than %d bytes", bufSize)
	case err == io.EOF:
		if r.summary {
			return nil, at, r.errorf(at, "file ends inside the summary, which claims %d bytes more", r.summaryEnd-at)
		}
		return nil, at, r.errorf(at, "file ends inside the key section (no *end line): truncated")
	case err != nil:
		return nil, at, r.wrapRead(err)
	}
	if r.summary && r.off > r.summaryEnd {
		return nil, at, r.errorf(at, "summary line runs past the end of its packet")
	}
	b = b[:len(b)-1]
	if n := len(b); n > 0 && b[n-1] == '\r' {
		b = b[:n-1]
	}
	return b, at, nil
}

// keyStep takes one line of the key section (or of a streaming trace's summary, which is a key
// section without methods).
func (r *Reader) keyStep() (Record, bool, error) {
	if r.summary && r.off >= r.summaryEnd {
		if r.sec != secEnd {
			return Record{}, false, r.errorf(r.off, "the summary packet ends before its *end line")
		}
		r.st = stAfter
		return Record{}, false, nil
	}
	ln, at, err := r.line()
	if err != nil {
		return Record{}, false, err
	}
	if len(ln) > 0 && ln[0] == '*' {
		return r.sectionLine(ln, at)
	}
	switch r.sec {
	case secStart:
		return Record{}, false, r.errorf(at, "key section does not start with *version")
	case secVersionNumber:
		v, err := strconv.Atoi(string(bytes.TrimSpace(ln)))
		if err != nil || v < 1 || v > 3 {
			return Record{}, false, r.errorf(at, "unsupported trace version %q (this reader knows 1, 2 and 3)", clip(ln))
		}
		if r.summary && v != r.version {
			return Record{}, false, r.errorf(at, "summary says version %d, the header %d", v, r.version)
		}
		r.keyVersion = v
		r.props = map[string]string{}
		r.sec = secVersionKeys
	case secVersionKeys:
		if k, v, ok := bytes.Cut(ln, []byte("=")); ok && len(k) > 0 {
			r.props[string(k)] = string(v)
		}
	case secThreads:
		if len(ln) == 0 {
			return Record{}, false, nil
		}
		t, err := r.threadLine(ln, at)
		return Record{Kind: KindThread, Thread: t}, err == nil, err
	case secMethods:
		if len(ln) == 0 {
			return Record{}, false, nil
		}
		m, err := r.methodLine(ln, at)
		if err != nil {
			return Record{}, false, err
		}
		return Record{Kind: KindMethod, Method: &m}, true, nil
	case secEnd:
		if len(ln) != 0 || !r.summary {
			return Record{}, false, r.errorf(at, "text after *end in the summary")
		}
	}
	return Record{}, false, nil
}

func (r *Reader) sectionLine(ln []byte, at int64) (Record, bool, error) {
	name := string(ln)
	if r.sec == secStart {
		if name != "*version" {
			return Record{}, false, r.errorf(at, "key section does not start with *version")
		}
		r.sec = secVersionNumber
		return Record{}, false, nil
	}
	if r.sec == secVersionNumber {
		return Record{}, false, r.errorf(at, "no version number after *version")
	}
	var next section
	switch name {
	case "*threads":
		next = secThreads
	case "*methods":
		next = secMethods
	case "*end":
		next = secEnd
	default:
		return Record{}, false, r.errorf(at, "unknown key section %q", clip(ln))
	}
	if r.sec == secEnd {
		return Record{}, false, r.errorf(at, "%s after *end", name)
	}
	var rec Record
	emit := false
	if r.sec == secVersionKeys {
		h, err := r.makeHeader(at)
		if err != nil {
			return Record{}, false, err
		}
		if h != nil {
			rec, emit = Record{Kind: KindHeader, Header: h}, true
		}
	}
	r.sec = next
	if next == secEnd && !r.summary {
		if err := r.dataHeader(); err != nil {
			return Record{}, false, err
		}
	}
	return rec, emit, nil
}

// makeHeader turns the version section into the header. In a streaming trace's summary it
// checks the summary against what the records were read with, and yields the header only when
// a look-ahead wants it.
func (r *Reader) makeHeader(at int64) (*calls.TraceHeader, error) {
	clock, err := r.parseClock(at)
	if err != nil {
		return nil, err
	}
	h := &calls.TraceHeader{Format: "traceview", Version: r.keyVersion, Clock: clock, VM: r.props["vm"],
		Properties: r.props, StartMicros: r.pre.startUS}
	h.PID, _ = strconv.Atoi(r.props["pid"])
	h.ElapsedMicro, _ = strconv.ParseUint(r.props["elapsed-time-usec"], 10, 64)
	if n, err := strconv.ParseInt(r.props["num-method-calls"], 10, 64); err == nil && n >= 0 {
		r.claimed = n
	}
	if !r.summary {
		r.version, r.clock = r.keyVersion, clock
		r.header = *h
		return h, nil
	}
	h.StartMicros = r.startUS
	switch {
	case r.lookahead:
		return h, nil // what the look-ahead came for
	case clock != r.clock && r.guessed:
		return nil, r.errorf(at, "the summary says clock=%s, but the records were read as %s: a single-clock streaming trace read from a stream that cannot seek; open the file itself", clock, r.clock)
	case clock != r.clock:
		return nil, r.errorf(at, "the summary says clock=%s, the header %s", clock, r.clock)
	}
	if r.pre.header == nil { // no look-ahead: the summary completes the header now
		r.header.VM, r.header.PID, r.header.ElapsedMicro, r.header.Properties = h.VM, h.PID, h.ElapsedMicro, h.Properties
	}
	return nil, nil
}

func (r *Reader) parseClock(at int64) (calls.Clock, error) {
	v, ok := r.props["clock"]
	if !ok {
		// Files from before the clock line timed everything with the global clock, which is wall;
		// version 3 came with dual.
		if r.keyVersion == 3 && (r.pre.recSize == 0 || r.pre.recSize >= 14) {
			return calls.ClockDual, nil
		}
		return calls.ClockWall, nil
	}
	switch v {
	case "thread-cpu":
		return calls.ClockThreadCPU, nil
	case "wall", "global":
		return calls.ClockWall, nil
	case "dual":
		if r.keyVersion != 3 {
			return "", r.errorf(at, "clock=dual needs version 3 (records of version %d hold one time)", r.keyVersion)
		}
		return calls.ClockDual, nil
	}
	return "", r.errorf(at, "unknown clock %q", clip([]byte(v)))
}

// threadLine parses "<tid> TAB <name>".
func (r *Reader) threadLine(ln []byte, at int64) (calls.ThreadInfo, error) {
	id, name, ok := bytes.Cut(ln, []byte("\t"))
	tid, err := strconv.ParseInt(string(bytes.TrimSpace(id)), 10, 32)
	if !ok || err != nil || tid < 0 {
		return calls.ThreadInfo{}, r.errorf(at, "bad thread line %q (want tid TAB name)", clip(ln))
	}
	return calls.ThreadInfo{TID: int(tid), Name: string(bytes.TrimSpace(name))}, nil
}

// methodLine parses a method line by perflib's token rule (docs/formats.md#traceview-key-section): six tokens are id,
// class, method, signature, file, line; with more than two, a fourth token starting with '('
// makes the third and fourth method and signature (and a fifth the file), otherwise they are
// file and line. Two tokens are id and a bare name (kept as the class, as dmtracedump does);
// three are id, class, method.
func (r *Reader) methodLine(ln []byte, at int64) (calls.MethodInfo, error) {
	tok := strings.Split(string(ln), "\t")
	if len(tok) < 2 {
		return calls.MethodInfo{}, r.errorf(at, "method line %q has no tab", clip(ln))
	}
	id, ok := parseMethodID(tok[0])
	if !ok {
		return calls.MethodInfo{}, r.errorf(at, "bad method id %q", clip([]byte(tok[0])))
	}
	m := calls.MethodInfo{ID: id, Class: tok[1], Line: -1}
	switch {
	case len(tok) == 6:
		m.Name, m.Signature, m.File = tok[2], tok[3], tok[4]
		m.Line = lineNumber(tok[5])
	case len(tok) == 3:
		m.Name = tok[2]
	case len(tok) > 3 && strings.HasPrefix(tok[3], "("):
		m.Name, m.Signature = tok[2], tok[3]
		if len(tok) > 4 {
			m.File = tok[4]
		}
	case len(tok) > 3:
		m.File, m.Line = tok[2], lineNumber(tok[3])
	}
	return m, nil
}

// parseMethodID reads a method id: hex, with or without 0x (ART 9+ writes id 0 as "0").
func parseMethodID(s string) (uint64, bool) {
	s = strings.TrimSpace(s)
	if len(s) > 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X') {
		s = s[2:]
	}
	v, err := strconv.ParseUint(s, 16, 32)
	return v, err == nil
}

func lineNumber(s string) int {
	n, err := strconv.ParseInt(strings.TrimSpace(s), 0, 32)
	if err != nil {
		return -1
	}
	return int(n)
}

func clip(b []byte) string {
	if len(b) > 60 {
		return string(b[:60]) + "…"
	}
	return string(b)
}

// take reads n bytes (n ≤ bufSize) that must be there.
func (r *Reader) take(n int, what string) ([]byte, error) {
	b, err := r.src.Peek(n)
	if err != nil {
		if err == io.EOF {
			return nil, r.errorf(r.off, "file ends inside %s (%d of %d bytes): truncated", what, len(b), n)
		}
		return nil, r.wrapRead(err)
	}
	r.src.Discard(n)
	r.off += int64(n)
	return b, nil
}

func isGzipErr(err error) bool {
	return errors.Is(err, gzip.ErrChecksum) || errors.Is(err, gzip.ErrHeader) || strings.HasPrefix(err.Error(), "flate:")
}

func (r *Reader) skip(n int, what string) error {
	for n > 0 {
		k := min(n, bufSize)
		if _, err := r.take(k, what); err != nil {
			return err
		}
		n -= k
	}
	return nil
}

// dataHeader reads the binary header after "*end".
func (r *Reader) dataHeader() error {
	at := r.off
	b, err := r.take(16, "the data header")
	if err != nil {
		return err
	}
	if m := binary.LittleEndian.Uint32(b); m != Magic {
		return r.errorf(at, "data header magic %#08x, want %#08x (\"SLOW\")", m, Magic)
	}
	v := int(binary.LittleEndian.Uint16(b[4:]))
	if v != r.version {
		return r.errorf(at+4, "data header says version %d, the key section %d", v, r.version)
	}
	offset := int(binary.LittleEndian.Uint16(b[6:]))
	r.startUS = binary.LittleEndian.Uint64(b[8:])
	used := 16
	switch v {
	case 1:
		r.recSize, r.tidSize = 9, 1
	case 2:
		r.recSize, r.tidSize = 10, 2
	case 3:
		s, err := r.take(2, "the data header")
		if err != nil {
			return err
		}
		used += 2
		r.recSize, r.tidSize = int(binary.LittleEndian.Uint16(s)), 2
	}
	if offset < used {
		return r.errorf(at+6, "offset to data %d is inside the %d-byte data header", offset, used)
	}
	if err := r.checkRecordSize(at + 16); err != nil {
		return err
	}
	if err := r.skip(offset-used, "the data header"); err != nil {
		return err
	}
	r.st = stData
	return nil
}

func (r *Reader) checkRecordSize(at int64) error {
	need := r.tidSize + 8
	if r.clock == calls.ClockDual {
		need += 4
	}
	if r.recSize < need {
		return r.errorf(at, "record size %d is too small for version %d with clock=%s (need %d)", r.recSize, r.version, r.clock, need)
	}
	return nil
}

// classicRecord reads one record of the classic layout.
func (r *Reader) classicRecord() (Record, error) {
	b, err := r.src.Peek(r.recSize)
	if err != nil {
		if err == io.EOF && len(b) == 0 {
			if r.claimed > r.records {
				return Record{}, r.errorf(r.off, "the key section claims %d records, the file holds %d: truncated", r.claimed, r.records)
			}
			r.st = stDone
			return Record{}, io.EOF
		}
		if err == io.EOF {
			return Record{}, r.errorf(r.off, "file ends inside a record (%d of %d bytes): truncated", len(b), r.recSize)
		}
		return Record{}, r.wrapRead(err)
	}
	rec, err := r.event(b, r.off)
	r.src.Discard(r.recSize)
	r.off += int64(r.recSize)
	return rec, err
}

// event decodes a record's fields.
func (r *Reader) event(b []byte, at int64) (Record, error) {
	var tid int
	if r.tidSize == 1 {
		tid = int(b[0])
	} else {
		tid = int(binary.LittleEndian.Uint16(b))
	}
	b = b[r.tidSize:]
	mv := binary.LittleEndian.Uint32(b)
	action := calls.MethodAction(mv & 3)
	if action > calls.Unroll {
		return Record{}, r.errorf(at+int64(r.tidSize), "record action 3 (method value %#08x): not enter, exit or unroll", mv)
	}
	t1 := binary.LittleEndian.Uint32(b[4:])
	if tid != r.lastTID {
		r.lastClk = r.clocks[tid]
		if r.lastClk == nil {
			r.lastClk = &unwrap{}
			r.clocks[tid] = r.lastClk
		}
		r.lastTID = tid
	}
	u := r.lastClk
	e := calls.MethodEvent{TID: tid, Method: uint64(mv &^ 3), Action: action}
	switch r.clock {
	case calls.ClockDual:
		e.ThreadCPU = u.extend(&u.cpu, &u.cpuHi, t1)
		e.Wall = u.extend(&u.wall, &u.wallHi, binary.LittleEndian.Uint32(b[8:]))
	case calls.ClockThreadCPU:
		e.ThreadCPU = u.extend(&u.cpu, &u.cpuHi, t1)
	default:
		e.Wall = u.extend(&u.wall, &u.wallHi, t1)
	}
	u.seen = true
	r.records++
	return Record{Kind: KindEvent, Event: e}, nil
}

// streamHeader reads the 32-byte header that starts a streaming trace and decides its record
// size and clock.
func (r *Reader) streamHeader() error {
	b, err := r.take(16, "the header")
	if err != nil {
		return err
	}
	raw := binary.LittleEndian.Uint16(b[4:])
	r.version = int(raw &^ streamingFlag)
	if r.version < 1 || r.version > 3 {
		return r.errorf(4, "unsupported streaming version %#x (this reader knows 0xF1 to 0xF3)", raw)
	}
	offset := int(binary.LittleEndian.Uint16(b[6:]))
	r.startUS = binary.LittleEndian.Uint64(b[8:])
	if offset < 18 {
		return r.errorf(6, "offset to data %d is inside the 18-byte streaming header", offset)
	}
	s, err := r.take(2, "the header")
	if err != nil {
		return err
	}
	stated := int(binary.LittleEndian.Uint16(s))
	switch r.version {
	case 1:
		r.recSize, r.tidSize = 9, 1
	case 2:
		r.recSize, r.tidSize = 10, 2
	case 3:
		r.recSize, r.tidSize = stated, 2
	}
	if err := r.skip(offset-18, "the header"); err != nil {
		return err
	}
	if r.version == 2 {
		r.recSize = r.detectRecordSize()
	}
	switch h := r.pre.header; {
	case h != nil && h.Version == r.version:
		r.clock = h.Clock
	case r.version == 3 && r.recSize >= 14:
		r.clock = calls.ClockDual
	default:
		r.clock, r.guessed = calls.ClockWall, true
	}
	if err := r.checkRecordSize(16); err != nil {
		return err
	}
	r.st = stStream
	return nil
}

// streamHeaderRecord is the header of a streaming trace, with what a look-ahead found in its
// summary; the first Next yields it.
func (r *Reader) streamHeaderRecord() Record {
	h := &calls.TraceHeader{Format: "traceview", Version: r.version, Clock: r.clock, StartMicros: r.startUS,
		Properties: map[string]string{}}
	if p := r.pre.header; p != nil {
		h.VM, h.PID, h.ElapsedMicro, h.Properties = p.VM, p.PID, p.ElapsedMicro, p.Properties
	}
	r.header = *h
	return Record{Kind: KindHeader, Header: h}
}

// detectRecordSize decides between the 10 bytes a version-2 streaming header states and the 14
// that Android 6 to 12 really wrote for a single clock: it parses the start of the data both
// ways and keeps the layout that stays consistent (known packet codes, well-formed method
// packets, valid actions), and of two consistent ones the one whose records name fewer methods
// that were never declared (ART declares each method before its first record).
func (r *Reader) detectRecordSize() int {
	win, _ := r.src.Peek(bufSize)
	s10, s14 := scoreLayout(win, 10), scoreLayout(win, 14)
	switch {
	case s10.ok != s14.ok:
		if s14.ok {
			return 14
		}
		return 10
	case !s10.ok:
		if s14.reached > s10.reached {
			return 14
		}
		return 10
	case s14.undeclared*max(s10.records, 1) < s10.undeclared*max(s14.records, 1):
		return 14
	}
	return 10
}

// layoutScore is how well a window of streaming data parses with one record size.
type layoutScore struct {
	ok         bool // nothing contradicts the layout
	reached    int  // bytes parsed before a contradiction
	records    int
	undeclared int // records naming a method no packet declared before them
}

// scoreLayout parses a window of streaming data with one record size. An item cut by the end of
// the window (or of a truncated file) is no contradiction.
func scoreLayout(b []byte, size int) layoutScore {
	methods := make(map[uint32]bool)
	s := layoutScore{ok: true}
	for p := 0; ; s.reached = p {
		if p+3 > len(b) {
			return s
		}
		if binary.LittleEndian.Uint16(b[p:]) != 0 {
			if p+size > len(b) {
				return s
			}
			mv := binary.LittleEndian.Uint32(b[p+2:])
			if mv&3 == 3 {
				s.ok = false
				return s
			}
			if !methods[mv&^3] {
				s.undeclared++
			}
			s.records++
			p += size
			continue
		}
		switch b[p+2] {
		case opNewMethod:
			if p+5 > len(b) {
				return s
			}
			n := int(binary.LittleEndian.Uint16(b[p+3:]))
			if p+5+n > len(b) {
				return s
			}
			ln := b[p+5 : p+5+n]
			id, _, found := bytes.Cut(ln, []byte("\t"))
			v, good := parseMethodID(string(id))
			if n == 0 || ln[n-1] != '\n' || !found || !good {
				s.ok = false
				return s
			}
			methods[uint32(v)] = true
			p += 5 + n
		case opNewThread:
			if p+7 > len(b) {
				return s
			}
			p += 7 + int(binary.LittleEndian.Uint16(b[p+5:]))
		case opSummary:
			return s
		default:
			s.ok = false
			return s
		}
	}
}

// streamStep takes one record or packet of a streaming trace.
func (r *Reader) streamStep() (Record, bool, error) {
	if !r.headerSent {
		r.headerSent = true
		return r.streamHeaderRecord(), true, nil
	}
	at := r.off
	b, err := r.src.Peek(r.tidSize)
	if err != nil {
		if err == io.EOF && len(b) == 0 {
			r.st = stDone
			return Record{}, false, io.EOF
		}
		if err == io.EOF {
			return Record{}, false, r.errorf(at, "file ends inside a record: truncated")
		}
		return Record{}, false, r.wrapRead(err)
	}
	if b[0] != 0 || (r.tidSize == 2 && b[1] != 0) {
		rb, err := r.take(r.recSize, "a record")
		if err != nil {
			return Record{}, false, err
		}
		rec, err := r.event(rb, at)
		return rec, err == nil, err
	}
	hb, err := r.take(r.tidSize+1, "a packet")
	if err != nil {
		return Record{}, false, err
	}
	switch op := hb[r.tidSize]; op {
	case opNewMethod:
		lb, err := r.take(2, "a method packet")
		if err != nil {
			return Record{}, false, err
		}
		n := int(binary.LittleEndian.Uint16(lb))
		text, err := r.take(n, "a method packet")
		if err != nil {
			return Record{}, false, err
		}
		text = bytes.TrimSuffix(text, []byte("\n"))
		m, err := r.methodLine(text, at)
		if err != nil {
			return Record{}, false, err
		}
		return Record{Kind: KindMethod, Method: &m}, true, nil
	case opNewThread:
		tb, err := r.take(4, "a thread packet")
		if err != nil {
			return Record{}, false, err
		}
		tid := int(binary.LittleEndian.Uint16(tb))
		name, err := r.take(int(binary.LittleEndian.Uint16(tb[2:])), "a thread packet")
		if err != nil {
			return Record{}, false, err
		}
		return Record{Kind: KindThread, Thread: calls.ThreadInfo{TID: tid, Name: string(name)}}, true, nil
	case opSummary:
		lb, err := r.take(4, "the summary packet")
		if err != nil {
			return Record{}, false, err
		}
		r.summary = true
		r.summaryEnd = r.off + int64(binary.LittleEndian.Uint32(lb))
		r.sec = secStart
		r.st = stSummary
		return Record{}, false, nil
	default:
		return Record{}, false, r.errorf(at+int64(r.tidSize), "unknown packet code %d", op)
	}
}

// Feed streams every record into sink. Errors from the sink come back located at the offset
// the reader had reached.
func (r *Reader) Feed(sink calls.MethodSink) error {
	for {
		if r.st == stData && r.err == nil {
			// The bulk of a classic trace: decode whole buffers of records at once.
			if err := r.feedRecords(sink); err != nil {
				return err
			}
		}
		rec, err := r.Next()
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return err
		}
		switch rec.Kind {
		case KindHeader:
			err = sink.Header(*rec.Header)
		case KindThread:
			err = sink.Thread(rec.Thread)
		case KindMethod:
			err = sink.Method(*rec.Method)
		case KindEvent:
			err = sink.Event(rec.Event)
		}
		if err != nil {
			return &inputerr.Error{File: r.file, Offset: r.off, Err: err}
		}
	}
}

// feedRecords hands the complete records in the read buffer straight to sink, until fewer than
// one record is buffered; Next deals with the end of the data.
func (r *Reader) feedRecords(sink calls.MethodSink) error {
	for {
		n := r.src.Buffered() / r.recSize
		if n == 0 {
			if _, err := r.src.Peek(r.recSize); err != nil {
				return nil // the end, or an error Next will report
			}
			continue
		}
		b, _ := r.src.Peek(n * r.recSize)
		for i := 0; i < n; i++ {
			at := r.off + int64(i*r.recSize)
			rec, err := r.event(b[i*r.recSize:(i+1)*r.recSize], at)
			if err == nil {
				err = sink.Event(rec.Event)
				if err != nil {
					err = &inputerr.Error{File: r.file, Offset: at, Err: err}
				}
			}
			if err != nil {
				r.src.Discard(i * r.recSize)
				r.off = at
				r.err, r.st = err, stDone
				return err
			}
		}
		r.src.Discard(n * r.recSize)
		r.off += int64(n * r.recSize)
	}
}
