package traceview

import (
	"bufio"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"maps"
	"slices"
	"strconv"
	"strings"

	"androprof/model/calls"
)

// WriterOptions say what kind of trace a Writer makes. The zero value of each field is what
// Android writes most often.
type WriterOptions struct {
	Version   int         // 1, 2 or 3
	Clock     calls.Clock // thread-cpu, wall, or dual (version 3 only)
	Streaming bool        // ART's streaming layout instead of key section + data
	// RecordSize is, for version 3, the bytes per record the header states and every record
	// takes; extra bytes are zeros. 0 means 14 for dual, 10 otherwise.
	RecordSize int
	// LegacyRecords writes a single-clock version-2 streaming trace as Android 6 to 12 did: its
	// header states 10-byte records but each record takes 14.
	LegacyRecords bool
	// NoSummary leaves the summary packet out of a streaming trace, as Android 6 and 7 did.
	NoSummary bool
	// DataOffset is the header's offset to the records; 0 means 32. Some writers used 16.
	DataOffset int
	// ARTMethodLines writes method lines as ART does (id as %#x, no line number) instead of
	// Dalvik's six tokens.
	ARTMethodLines bool

	StartMicros    uint64 // wall-clock start, µs since the epoch
	ElapsedMicros  uint64
	NumMethodCalls int64 // written to a classic key section when positive; readers check it
	PID            int   // written when positive
	VM             string
	Overhead       int // clock-call-overhead-nsec
	// Properties are more key=value lines for the version section, written sorted.
	Properties map[string]string
}

// Writer writes a Traceview trace, so tests and benchmarks can make traces of any size and
// shape. Declare threads and methods with Thread and Method, then write events; Close ends the
// trace (it does not close the underlying writer). In the classic layout every thread and
// method must be declared before the first event, since the key section comes first; in the
// streaming layout they can come at any time. Event accepts ids that were never declared, as
// real traces hold them.
type Writer struct {
	w          *bufio.Writer
	o          WriterOptions
	recSize    int // bytes per record written
	statedSize int // record size the header states
	tidSize    int
	rec        []byte
	threads    []calls.ThreadInfo
	methods    []calls.MethodInfo
	started    bool // classic: key section written
	closed     bool
	err        error
}

// NewWriter checks the options and, for the streaming layout, writes the header.
func NewWriter(w io.Writer, o WriterOptions) (*Writer, error) {
	tw := &Writer{w: bufio.NewWriterSize(w, 1<<20), o: o}
	if o.Version < 1 || o.Version > 3 {
		return nil, fmt.Errorf("traceview: version %d (want 1, 2 or 3)", o.Version)
	}
	switch o.Clock {
	case calls.ClockThreadCPU, calls.ClockWall:
	case calls.ClockDual:
		if o.Version != 3 {
			return nil, fmt.Errorf("traceview: clock=dual needs version 3")
		}
	default:
		return nil, fmt.Errorf("traceview: unknown clock %q", o.Clock)
	}
	tw.tidSize = 2
	switch o.Version {
	case 1:
		tw.tidSize, tw.recSize = 1, 9
	case 2:
		tw.recSize = 10
	case 3:
		tw.recSize = 10
		if o.Clock == calls.ClockDual {
			tw.recSize = 14
		}
		if o.RecordSize != 0 {
			if o.RecordSize < tw.recSize || o.RecordSize > 0xFFFF {
				return nil, fmt.Errorf("traceview: record size %d (want %d…65535)", o.RecordSize, tw.recSize)
			}
			tw.recSize = o.RecordSize
		}
	}
	if o.RecordSize != 0 && o.Version != 3 {
		return nil, fmt.Errorf("traceview: only version 3 states a record size")
	}
	tw.statedSize = tw.recSize
	if o.LegacyRecords {
		if !o.Streaming || o.Version != 2 {
			return nil, errors.New("traceview: legacy 14-byte records are a version-2 streaming quirk")
		}
		tw.recSize = 14
	}
	if o.DataOffset == 0 {
		tw.o.DataOffset = 32
	}
	headerLen := 16
	if o.Version == 3 || o.Streaming {
		headerLen = 18
	}
	if tw.o.DataOffset < headerLen || tw.o.DataOffset > 0xFFFF {
		return nil, fmt.Errorf("traceview: data offset %d (want %d…65535)", tw.o.DataOffset, headerLen)
	}
	tw.rec = make([]byte, tw.recSize)
	if o.Streaming {
		tw.dataHeader(streamingFlag|o.Version, true)
		tw.started = true
	}
	return tw, tw.w.Flush()
}

// dataHeader writes the binary header: magic, version, offset, start time and (for version 3 and,
// as ART does, every streaming trace) the record size, padded to the offset.
func (tw *Writer) dataHeader(version int, withSize bool) {
	b := make([]byte, tw.o.DataOffset)
	binary.LittleEndian.PutUint32(b, Magic)
	binary.LittleEndian.PutUint16(b[4:], uint16(version))
	binary.LittleEndian.PutUint16(b[6:], uint16(tw.o.DataOffset))
	binary.LittleEndian.PutUint64(b[8:], tw.o.StartMicros)
	if withSize {
		binary.LittleEndian.PutUint16(b[16:], uint16(tw.statedSize))
	}
	tw.w.Write(b)
}

func (tw *Writer) fail(err error) error {
	if tw.err == nil {
		tw.err = err
	}
	return err
}

// Thread declares a thread.
func (tw *Writer) Thread(t calls.ThreadInfo) error {
	if tw.err != nil {
		return tw.err
	}
	if err := tw.checkTID(t.TID); err != nil {
		return err
	}
	if strings.ContainsAny(t.Name, "\n") || len(t.Name) > 0xFFFF {
		return fmt.Errorf("traceview: thread %d: name has a line break or is longer than 65535 bytes", t.TID)
	}
	if !tw.o.Streaming {
		if tw.started {
			return fmt.Errorf("traceview: thread %d declared after the first event of a classic trace", t.TID)
		}
		tw.threads = append(tw.threads, t)
		return nil
	}
	tw.threads = append(tw.threads, t) // for the summary
	tw.marker(opNewThread)
	var b [4]byte
	binary.LittleEndian.PutUint16(b[:], uint16(t.TID))
	binary.LittleEndian.PutUint16(b[2:], uint16(len(t.Name)))
	tw.w.Write(b[:])
	_, err := tw.w.WriteString(t.Name)
	return tw.fail(err)
}

func (tw *Writer) checkTID(tid int) error {
	max := 0xFFFF
	if tw.tidSize == 1 {
		max = 0xFF
	}
	if tid < 0 || tid > max || tw.o.Streaming && tid == 0 {
		return fmt.Errorf("traceview: thread id %d does not fit version %d (1…%d)", tid, tw.o.Version, max)
	}
	return nil
}

func (tw *Writer) marker(op byte) {
	for range tw.tidSize {
		tw.w.WriteByte(0)
	}
	tw.w.WriteByte(op)
}

// Method declares a method.
func (tw *Writer) Method(m calls.MethodInfo) error {
	if tw.err != nil {
		return tw.err
	}
	line, err := tw.methodLine(m)
	if err != nil {
		return err
	}
	if !tw.o.Streaming {
		if tw.started {
			return fmt.Errorf("traceview: method %#x declared after the first event of a classic trace", m.ID)
		}
		tw.methods = append(tw.methods, m)
		return nil
	}
	if len(line) > 0xFFFF {
		return fmt.Errorf("traceview: method %#x: line longer than 65535 bytes", m.ID)
	}
	tw.marker(opNewMethod)
	var b [2]byte
	binary.LittleEndian.PutUint16(b[:], uint16(len(line)))
	tw.w.Write(b[:])
	_, err = tw.w.WriteString(line)
	return tw.fail(err)
}

func (tw *Writer) methodLine(m calls.MethodInfo) (string, error) {
	if m.ID > 0xFFFFFFFF || m.ID&3 != 0 {
		return "", fmt.Errorf("traceview: method id %#x is not a 32-bit multiple of 4", m.ID)
	}
	for _, s := range []string{m.Class, m.Name, m.Signature, m.File} {
		if strings.ContainsAny(s, "\t\n") {
			return "", fmt.Errorf("traceview: method %#x: a field holds a tab or line break", m.ID)
		}
	}
	if m.Class == "" {
		return "", fmt.Errorf("traceview: method %#x has no class", m.ID)
	}
	switch {
	case m.Name == "":
		return fmt.Sprintf("%#x\t%s\n", m.ID, m.Class), nil
	case tw.o.ARTMethodLines:
		if !strings.HasPrefix(m.Signature, "(") {
			return "", fmt.Errorf("traceview: method %#x: an ART method line needs a signature starting with '('", m.ID)
		}
		return fmt.Sprintf("%#x\t%s\t%s\t%s\t%s\n", m.ID, m.Class, m.Name, m.Signature, m.File), nil
	}
	return fmt.Sprintf("0x%08x\t%s\t%s\t%s\t%s\t%d\n", m.ID, m.Class, m.Name, m.Signature, m.File, m.Line), nil
}

// versionSection is the text from "*version" up to (not including) "*threads".
func (tw *Writer) versionSection(sb *strings.Builder, withCount bool) {
	o := tw.o
	fmt.Fprintf(sb, "*version\n%d\ndata-file-overflow=false\nclock=%s\nelapsed-time-usec=%d\n", o.Version, o.Clock, o.ElapsedMicros)
	if withCount && o.NumMethodCalls > 0 {
		fmt.Fprintf(sb, "num-method-calls=%d\n", o.NumMethodCalls)
	}
	fmt.Fprintf(sb, "clock-call-overhead-nsec=%d\n", o.Overhead)
	if o.VM != "" {
		fmt.Fprintf(sb, "vm=%s\n", o.VM)
	}
	if o.PID > 0 {
		fmt.Fprintf(sb, "pid=%d\n", o.PID)
	}
	for _, k := range slices.Sorted(maps.Keys(o.Properties)) {
		fmt.Fprintf(sb, "%s=%s\n", k, o.Properties[k])
	}
}

func (tw *Writer) threadSection(sb *strings.Builder) {
	sb.WriteString("*threads\n")
	for _, t := range tw.threads {
		sb.WriteString(strconv.Itoa(t.TID))
		sb.WriteByte('\t')
		sb.WriteString(t.Name)
		sb.WriteByte('\n')
	}
}

// start writes a classic trace's key section and data header.
func (tw *Writer) start() {
	tw.started = true
	var sb strings.Builder
	tw.versionSection(&sb, true)
	tw.threadSection(&sb)
	sb.WriteString("*methods\n")
	for _, m := range tw.methods {
		line, _ := tw.methodLine(m)
		sb.WriteString(line)
	}
	sb.WriteString("*end\n")
	tw.w.WriteString(sb.String())
	tw.dataHeader(tw.o.Version, tw.o.Version == 3)
	tw.threads, tw.methods = nil, nil
}

// Event writes one record. Times are cut to 32 bits, as every VM does; readers extend them again.
func (tw *Writer) Event(e calls.MethodEvent) error {
	if tw.err != nil {
		return tw.err
	}
	if tw.closed {
		return errors.New("traceview: event after Close")
	}
	if err := tw.checkTID(e.TID); err != nil {
		return err
	}
	if e.Method > 0xFFFFFFFF || e.Method&3 != 0 || e.Action > calls.Unroll {
		return fmt.Errorf("traceview: method %#x with action %d does not fit a record", e.Method, e.Action)
	}
	if !tw.started {
		tw.start()
	}
	b := tw.rec
	p := 0
	if tw.tidSize == 1 {
		b[0] = byte(e.TID)
		p = 1
	} else {
		binary.LittleEndian.PutUint16(b, uint16(e.TID))
		p = 2
	}
	binary.LittleEndian.PutUint32(b[p:], uint32(e.Method)|uint32(e.Action))
	switch tw.o.Clock {
	case calls.ClockDual:
		binary.LittleEndian.PutUint32(b[p+4:], uint32(e.ThreadCPU))
		binary.LittleEndian.PutUint32(b[p+8:], uint32(e.Wall))
	case calls.ClockThreadCPU:
		binary.LittleEndian.PutUint32(b[p+4:], uint32(e.ThreadCPU))
	default:
		binary.LittleEndian.PutUint32(b[p+4:], uint32(e.Wall))
	}
	_, err := tw.w.Write(b)
	return tw.fail(err)
}

// Close ends the trace: a classic trace without events still gets its key section, a
// streaming one its summary packet (unless NoSummary). It flushes but does not close the
// underlying writer.
func (tw *Writer) Close() error {
	if tw.err != nil {
		return tw.err
	}
	if tw.closed {
		return nil
	}
	tw.closed = true
	if !tw.started {
		tw.start()
	}
	if tw.o.Streaming && !tw.o.NoSummary {
		var sb strings.Builder
		tw.versionSection(&sb, false)
		tw.threadSection(&sb)
		sb.WriteString("*methods\n*end\n")
		tw.marker(opSummary)
		var b [4]byte
		binary.LittleEndian.PutUint32(b[:], uint32(sb.Len()))
		tw.w.Write(b[:])
		tw.w.WriteString(sb.String())
	}
	return tw.fail(tw.w.Flush())
}
