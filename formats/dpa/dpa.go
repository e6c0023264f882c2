// Package dpa reads and writes DPA method logs (docs/dpa-format.md): the entry and exit times,
// nesting levels and clock-read counts that seed 003's instrumented Dalvik VM records, in a text
// format the project defines. The overhead deduction itself is in model (model/overhead.go).
package dpa

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"math"
	"strconv"
	"time"

	"androprof/formats/internal/lines"
	"androprof/internal/inputerr"
	"androprof/model/calls"
)

// Magic starts every DPA log; format detection looks for it.
const Magic = "androprof-dpa"

// Version is the version this package reads and writes.
const Version = 1

// MaxDepth is the deepest nesting a reader accepts; Dalvik's stack overflows long before.
const MaxDepth = 1 << 16

// maxReads bounds a clock-read count so that reads × cost cannot overflow the arithmetic.
const maxReads = 1 << 62

// ErrNotDPA says a file does not start with the DPA header, so format detection can try
// another reader.
var ErrNotDPA = errors.New("not an androprof DPA log")

// Kind says which field of a Record is set.
type Kind uint8

// The records of a DPA log, one per line that is not the header.
const (
	KindCalibration Kind = iota + 1 // Cost
	KindProcess                     // PID, Name
	KindThread                      // PID, Thread
	KindMethod                      // PID, Method
	KindEnter                       // PID, Call as far as known at entry (Entry, Level, TID, Method)
	KindExit                        // PID, Call complete
	KindEnd                         // PID: the process section closed
)

// Record is one thing a Reader found.
type Record struct {
	Kind   Kind
	PID    int
	Name   string           // KindProcess: the process name
	Cost   calls.ClockCost  // KindCalibration
	Thread calls.ThreadInfo // KindThread
	Method calls.MethodInfo // KindMethod
	Call   calls.DPACall    // KindEnter, KindExit
}

// Reader streams a DPA log: Next for every record, Feed to import one process into a
// model.MethodSink. Memory holds the current process's declared threads and methods and its
// open calls, never its events.
type Reader struct {
	// PID is the process Read imports; 0 takes the first section.
	PID int
	// Measured makes Read pass the times as measured instead of deducting clock reads.
	Measured bool

	src       lines.Reader // scanner, file name, fields and sticky error
	sawHeader bool
	inHeader  bool // after a header line, before a process: calibrate may follow
	cost      calls.ClockCost
	pid       int // open section; 0 between sections
	threads   map[int]*thread
	methods   map[uint64]bool
	sent      calls.TraceHeader // what Read gave the sink
}

type thread struct {
	open []frame
	last time.Duration
}

type frame struct {
	method uint64
	entry  time.Duration
	nested int64
}

// NewReader reads r; name is used in errors.
func NewReader(r io.Reader, name string) *Reader {
	return &Reader{src: lines.NewReader(r, name)}
}

// Line is the number of the last line read, for progress and messages.
func (r *Reader) Line() int64 { return r.src.Line() }

// Cost is the calibration read so far; not Known when the log has none.
func (r *Reader) Cost() calls.ClockCost { return r.cost }

// Next returns the next record, io.EOF after the last, an error wrapping ErrNotDPA when the
// first record is not the header, or an *inputerr.Error. After an error it returns that error.
func (r *Reader) Next() (Record, error) {
	if err := r.src.Failed(); err != nil {
		return Record{}, err
	}
	rec, err := r.next()
	return rec, r.src.Stick(err)
}

func (r *Reader) next() (Record, error) {
	for {
		ln, ok := r.src.Next()
		if !ok {
			return Record{}, r.end()
		}
		kw, rest := lines.Cut(ln)
		if !r.sawHeader && kw != Magic {
			return Record{}, fmt.Errorf("%s: %w", r.src.File, ErrNotDPA)
		}
		switch kw {
		case Magic:
			if r.pid != 0 {
				return Record{}, r.src.Errorf("header inside process %d: its end line is missing", r.pid)
			}
			if v, ok := lines.Uint(rest, math.MaxInt32); !ok || v != Version {
				return Record{}, r.src.Errorf("unsupported DPA log version %q (this reader knows %d)", lines.Clip(rest), Version)
			}
			r.sawHeader, r.inHeader = true, true
			continue
		case "calibrate":
			if !r.inHeader {
				return Record{}, r.src.Errorf("calibrate line outside the file header (it must come before the first process)")
			}
			f, _, err := r.src.Split(rest, 2, false)
			if err != nil {
				return Record{}, err
			}
			n, ok1 := lines.Uint(f[0], math.MaxInt64)
			ns, ok2 := lines.Uint(f[1], math.MaxInt64)
			if !ok1 || !ok2 || n == 0 || ns == 0 {
				return Record{}, r.src.Errorf("bad calibration %q %q (want reads ≥ 1 and nanoseconds ≥ 1)", lines.Clip(f[0]), lines.Clip(f[1]))
			}
			r.cost = calls.ClockCost{Reads: int64(n), Elapsed: time.Duration(ns)}
			return Record{Kind: KindCalibration, Cost: r.cost}, nil
		case "process":
			if r.pid != 0 {
				return Record{}, r.src.Errorf("process line inside process %d: its end line is missing", r.pid)
			}
			f, name, err := r.src.Split(rest, 1, true)
			if err != nil {
				return Record{}, err
			}
			pid, err := r.src.ID(f[0], "pid")
			if err != nil {
				return Record{}, err
			}
			r.pid, r.inHeader = pid, false
			r.threads, r.methods = map[int]*thread{}, map[uint64]bool{}
			return Record{Kind: KindProcess, PID: pid, Name: name}, nil
		}
		if r.pid == 0 {
			if isRecord(kw) {
				return Record{}, r.src.Errorf("%s line outside a process section", kw)
			}
			return Record{}, r.src.Errorf("unknown record %q", lines.Clip([]byte(kw)))
		}
		switch kw {
		case "thread":
			f, name, err := r.src.Split(rest, 1, true)
			if err != nil {
				return Record{}, err
			}
			tid, err := r.src.ID(f[0], "thread id")
			if err != nil {
				return Record{}, err
			}
			if r.threads[tid] != nil {
				return Record{}, r.src.Errorf("thread %d declared twice", tid)
			}
			r.threads[tid] = &thread{}
			return Record{Kind: KindThread, PID: r.pid, Thread: calls.ThreadInfo{TID: tid, Name: name}}, nil
		case "method":
			return r.method(rest)
		case "enter":
			return r.enter(rest)
		case "exit", "unwind":
			return r.exit(rest, kw == "unwind")
		case "end":
			if len(rest) > 0 {
				return Record{}, r.src.Errorf("end line with fields")
			}
			pid := r.pid
			r.pid, r.threads, r.methods = 0, nil, nil
			return Record{Kind: KindEnd, PID: pid}, nil
		}
		return Record{}, r.src.Errorf("unknown record %q", lines.Clip([]byte(kw)))
	}
}

// end decides what the end of the input means.
func (r *Reader) end() error {
	if err := r.src.Stopped(r.sawHeader, ErrNotDPA); err != nil {
		return err
	}
	if r.pid != 0 {
		return r.src.Errorf("file ends inside process %d (no end line): truncated", r.pid)
	}
	return io.EOF
}

func isRecord(kw string) bool {
	switch kw {
	case "thread", "method", "enter", "exit", "unwind", "end":
		return true
	}
	return false
}

func (r *Reader) method(rest []byte) (Record, error) {
	f, sig, err := r.src.Split(rest, 3, true)
	if err != nil {
		return Record{}, err
	}
	for _, c := range sig {
		if c == ' ' {
			return Record{}, r.src.Errorf("unexpected %q after the signature", lines.Clip([]byte(sig)))
		}
	}
	id, ok := lines.Uint(f[0], math.MaxUint64)
	if !ok {
		return Record{}, r.src.Errorf("bad method id %q", lines.Clip(f[0]))
	}
	if r.methods[id] {
		return Record{}, r.src.Errorf("method %d declared twice", id)
	}
	r.methods[id] = true
	return Record{Kind: KindMethod, PID: r.pid, Method: calls.MethodInfo{ID: id, Class: string(f[1]),
		Name: string(f[2]), Signature: string(sig), Line: -1}}, nil
}

// event is what enter and exit lines share.
type eventLine struct {
	th     *thread
	tid    int
	level  int
	t      time.Duration
	method uint64
	fields [][]byte
}

// event parses an enter or exit line of n fields: tid, level and time first, method last.
func (r *Reader) event(rest []byte, n int) (eventLine, error) {
	f, _, err := r.src.Split(rest, n, false)
	if err != nil {
		return eventLine{}, err
	}
	tid, err := r.src.ID(f[0], "thread id")
	if err != nil {
		return eventLine{}, err
	}
	th := r.threads[tid]
	if th == nil {
		return eventLine{}, r.src.Errorf("thread %d has no thread line before its events", tid)
	}
	level, ok := lines.Uint(f[1], MaxDepth)
	if !ok || level == 0 {
		return eventLine{}, r.src.Errorf("bad level %q (want 1…%d)", lines.Clip(f[1]), MaxDepth)
	}
	t, ok := lines.Uint(f[2], math.MaxInt64)
	if !ok {
		return eventLine{}, r.src.Errorf("bad time %q (want nanoseconds)", lines.Clip(f[2]))
	}
	if time.Duration(t) < th.last {
		return eventLine{}, r.src.Errorf("time %d on thread %d is before the thread's previous event at %d", t, tid, th.last)
	}
	m, ok := lines.Uint(f[n-1], math.MaxUint64)
	if !ok {
		return eventLine{}, r.src.Errorf("bad method id %q", lines.Clip(f[n-1]))
	}
	if !r.methods[m] {
		return eventLine{}, r.src.Errorf("method %d has no method line before its events", m)
	}
	return eventLine{th: th, tid: tid, level: int(level), t: time.Duration(t), method: m, fields: f}, nil
}

func (r *Reader) enter(rest []byte) (Record, error) {
	e, err := r.event(rest, 4)
	if err != nil {
		return Record{}, err
	}
	th := e.th
	if e.level != len(th.open)+1 {
		return Record{}, r.src.Errorf("enter at level %d, but thread %d has %d open calls (want level %d)", e.level, e.tid, len(th.open), len(th.open)+1)
	}
	th.open = append(th.open, frame{method: e.method, entry: e.t})
	th.last = e.t
	return Record{Kind: KindEnter, PID: r.pid, Call: calls.DPACall{PID: r.pid, TID: e.tid, Method: e.method, Level: e.level, Entry: e.t}}, nil
}

func (r *Reader) exit(rest []byte, unwound bool) (Record, error) {
	e, err := r.event(rest, 5)
	if err != nil {
		return Record{}, err
	}
	reads, ok := lines.Uint(e.fields[3], maxReads)
	if !ok {
		return Record{}, r.src.Errorf("bad clock-read count %q", lines.Clip(e.fields[3]))
	}
	th := e.th
	n := len(th.open)
	switch {
	case n == 0:
		return Record{}, r.src.Errorf("exit of method %d, but thread %d has no open call", e.method, e.tid)
	case e.level != n:
		return Record{}, r.src.Errorf("exit at level %d, but thread %d has %d open calls", e.level, e.tid, n)
	case th.open[n-1].method != e.method:
		return Record{}, r.src.Errorf("exit of method %d, but the open call on thread %d is method %d", e.method, e.tid, th.open[n-1].method)
	}
	fr := th.open[n-1]
	th.open = th.open[:n-1]
	if n > 1 {
		th.open[n-2].nested += fr.nested + 1
	}
	th.last = e.t
	return Record{Kind: KindExit, PID: r.pid, Call: calls.DPACall{PID: r.pid, TID: e.tid, Method: e.method, Level: e.level,
		Entry: fr.entry, Exit: e.t, ClockReads: int64(reads), Nested: fr.nested, Unwound: unwound}}, nil
}

// Feed streams one process (PID, or the first) into sink: the header when its section starts,
// then its threads, methods and events. Unless Measured is set and when the log is calibrated,
// event times are corrected: each thread's timeline loses the clock reads (docs/dpa-format.md,
// "Deduction"), so the sink's inclusive times are the seed's corrected ones. The rest of the
// log is still read, so a damaged file is refused as a whole.
func (r *Reader) Feed(sink calls.MethodSink) error {
	var (
		chosen   int
		active   bool
		timeline *calls.OverheadTimeline
	)
	for {
		rec, err := r.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			return err
		}
		if rec.Kind == KindProcess && chosen == 0 && (r.PID == 0 || r.PID == rec.PID) {
			chosen, active = rec.PID, true
			timeline = calls.NewOverheadTimeline()
			r.sent = r.header(rec.PID, rec.Name)
			err = sink.Header(r.sent)
		} else if active {
			err = r.feed(sink, rec, timeline, &active)
		}
		if err != nil {
			return &inputerr.Error{File: r.src.File, Line: r.Line(), Err: err}
		}
	}
	switch {
	case chosen != 0:
		return nil
	case r.PID != 0:
		return r.src.Errorf("no process %d in the log, which ends here", r.PID)
	}
	r.sent = calls.TraceHeader{Format: "dpa", Version: Version, Clock: calls.ClockWall, VM: "dalvik"}
	return sink.Header(r.sent)
}

// Header is the header Read gave the sink, so a caller that stores the trace has it at hand.
func (r *Reader) Header() calls.TraceHeader { return r.sent }

func (r *Reader) corrects() bool { return !r.Measured && r.cost.Known() }

func (r *Reader) header(pid int, name string) calls.TraceHeader {
	props := map[string]string{"process": name, "times": "measured"}
	if r.cost.Known() {
		props["clock-read-ns"] = strconv.FormatFloat(r.cost.PerRead(), 'f', -1, 64)
		props["calibration"] = fmt.Sprintf("%d reads in %d ns", r.cost.Reads, int64(r.cost.Elapsed))
	}
	if r.corrects() {
		props["times"] = "corrected"
	}
	return calls.TraceHeader{Format: "dpa", Version: Version, Clock: calls.ClockWall, VM: "dalvik", PID: pid, Properties: props}
}

func (r *Reader) feed(sink calls.MethodSink, rec Record, tl *calls.OverheadTimeline, active *bool) error {
	switch rec.Kind {
	case KindThread:
		return sink.Thread(rec.Thread)
	case KindMethod:
		return sink.Method(rec.Method)
	case KindEnter:
		c := rec.Call
		t := c.Entry
		if r.corrects() {
			t = tl.Enter(c.TID, t, r.cost.Of(1))
		}
		return sink.Event(calls.MethodEvent{TID: c.TID, Method: c.Method, Action: calls.Enter, Wall: micros(t)})
	case KindExit:
		c := rec.Call
		t := c.Exit
		if r.corrects() {
			t = tl.Exit(c.TID, t, r.cost.Of(c.ClockReads), r.cost.Of(1))
		}
		action := calls.Exit
		if c.Unwound {
			action = calls.Unroll
		}
		return sink.Event(calls.MethodEvent{TID: c.TID, Method: c.Method, Action: action, Wall: micros(t)})
	case KindEnd:
		*active = false
	}
	return nil
}

func micros(t time.Duration) uint64 { return uint64(t / time.Microsecond) }

// Sniff answers format detection from a file's first bytes: nil when they start with the DPA header,
// ErrNotDPA when they do not.
func Sniff(head []byte) error {
	r := NewReader(bytes.NewReader(head[:min(len(head), lines.MaxLine)]), "")
	if _, err := r.Next(); errors.Is(err, ErrNotDPA) {
		return ErrNotDPA
	}
	return nil
}
