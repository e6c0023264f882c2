// Package rmp reads and writes RMP probe logs (docs/rmp-format.md): the probe list, caller
// filter and probe events of seed 002's reconfigurable multi-resolution profiler, one round at a
// time, in a text format the project defines. The deduction, resolutions and zoom-in filter are
// in model (model/overhead.go).
package rmp

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"
	"time"

	"androprof/formats/internal/lines"
	"androprof/internal/inputerr"
	"androprof/model/calls"
)

// Magic starts every RMP log and every round in it; format detection looks for it.
const Magic = "androprof-rmp"

// Version is the version this package reads and writes.
const Version = 1

// MaxDepth is the deepest nesting of probes a reader accepts.
const MaxDepth = 1 << 16

// ErrNotRMP says a file does not start with the RMP header, so format detection can try
// another reader.
var ErrNotRMP = errors.New("not an androprof RMP log")

// Probe is an entry of the probe list: "each probe is recorded in a probe list with its probe
// name, resolution definition, and on/off status" (seed 002 §3.2), and its kind, which decides
// its cost.
type Probe struct {
	ID         uint64
	Resolution calls.ProbeResolution
	Kind       calls.ProbeKind
	On         bool
	Name       string
}

// Kind says which field of a Record is set.
type Kind uint8

// The records of an RMP log, one per line that is not a header.
const (
	KindProcess Kind = iota + 1 // PID, Name
	KindCost                    // CostOf, Cost
	KindFilter                  // Caller: a root of the caller filter
	KindProbe                   // Probe
	KindThread                  // Thread
	KindIn                      // Span as far as known at entry (no End, no nested counts)
	KindOut                     // Span complete
	KindEnd                     // the round closed
)

// Record is one thing a Reader found.
type Record struct {
	Kind   Kind
	PID    int             // KindProcess
	Name   string          // KindProcess: the application
	CostOf calls.ProbeKind // KindCost
	Cost   time.Duration   // KindCost
	Caller string          // KindFilter
	Probe  Probe           // KindProbe
	Thread calls.ThreadInfo
	Span   calls.ProbeSpan // KindIn, KindOut
}

// stage orders the parts of a round.
type stage uint8

const (
	stageNone    stage = iota // between rounds
	stageHead                 // process, cost, filter
	stageProbes               // the probe list
	stageThreads              // threads and events
)

// Reader streams an RMP log: Next for every record, Feed to import one round into a
// model.MethodSink. Memory holds the round's probe list, threads and open spans, never its
// events.
type Reader struct {
	// Round is the round Read imports, counting from 1; 0 is the first.
	Round int
	// Measured makes Read pass the times as measured instead of deducting probe costs.
	Measured bool
	// Area, when set, makes Read pass only the spans in this profiling area (the offline
	// zoom-in); the deduction still counts every probe in the log.
	Area *calls.ProfilingArea

	src       lines.Reader // scanner, file name, fields and sticky error
	sawHeader bool
	stage     stage
	rounds    int
	pid       int
	cost      calls.ProbeCost
	probes    map[uint64]*Probe
	threads   map[int]*thread
	sent      calls.TraceHeader // what Read gave the sink
}

type thread struct {
	open  []span
	last  time.Duration
	outer [5]int // open spans per resolution
}

type span struct {
	probe          *Probe
	start          time.Duration
	caller         string
	app, framework int64
}

// NewReader reads r; name is used in errors.
func NewReader(r io.Reader, name string) *Reader {
	return &Reader{src: lines.NewReader(r, name)}
}

// Line is the number of the last line read, for progress and messages.
func (r *Reader) Line() int64 { return r.src.Line() }

// Cost is the probe cost of the current round: its cost lines, or the seed's where it has none.
func (r *Reader) Cost() calls.ProbeCost { return r.cost }

// Next returns the next record, io.EOF after the last, an error wrapping ErrNotRMP when the
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
			return Record{}, fmt.Errorf("%s: %w", r.src.File, ErrNotRMP)
		}
		if kw == Magic {
			if r.stage != stageNone {
				return Record{}, r.src.Errorf("header inside round %d: its end line is missing", r.rounds)
			}
			if v, ok := lines.Uint(rest, math.MaxInt32); !ok || v != Version {
				return Record{}, r.src.Errorf("unsupported RMP log version %q (this reader knows %d)", lines.Clip(rest), Version)
			}
			r.sawHeader, r.stage = true, stageHead
			r.rounds++
			r.pid, r.cost = 0, calls.SeedProbeCost
			r.probes, r.threads = map[uint64]*Probe{}, map[int]*thread{}
			continue
		}
		want, known := stageOf[kw]
		if !known {
			return Record{}, r.src.Errorf("unknown record %q", lines.Clip([]byte(kw)))
		}
		if r.stage == stageNone {
			return Record{}, r.src.Errorf("%s line after the round's end line (a new round starts with a header)", kw)
		}
		if want < r.stage {
			return Record{}, r.src.Errorf("%s line after the %s", kw, stageNames[r.stage])
		}
		r.stage = want
		switch kw {
		case "process":
			return r.process(rest)
		case "cost":
			return r.costLine(rest)
		case "filter":
			root, err := r.text(rest)
			if err != nil {
				return Record{}, err
			}
			return Record{Kind: KindFilter, Caller: root}, nil
		case "probe":
			return r.probe(rest)
		case "thread":
			return r.thread(rest)
		case "in":
			return r.in(rest)
		case "out":
			return r.out(rest)
		case "end":
			if len(rest) > 0 {
				return Record{}, r.src.Errorf("end line with fields")
			}
			r.stage, r.probes, r.threads = stageNone, nil, nil
			return Record{Kind: KindEnd}, nil
		}
	}
}

var stageOf = map[string]stage{
	"process": stageHead, "cost": stageHead, "filter": stageHead,
	"probe":  stageProbes,
	"thread": stageThreads, "in": stageThreads, "out": stageThreads, "end": stageThreads,
}

var stageNames = [...]string{"", "", "probe list", "first thread or event"}

func (r *Reader) end() error {
	if err := r.src.Stopped(r.sawHeader, ErrNotRMP); err != nil {
		return err
	}
	if r.stage != stageNone {
		return r.src.Errorf("file ends inside round %d (no end line): truncated", r.rounds)
	}
	return io.EOF
}

func (r *Reader) text(ln []byte) (string, error) {
	_, t, err := r.src.Split(ln, 0, true)
	return t, err
}

func (r *Reader) process(rest []byte) (Record, error) {
	if r.pid != 0 {
		return Record{}, r.src.Errorf("second process line in a round (process %d)", r.pid)
	}
	f, name, err := r.src.Split(rest, 1, true)
	if err != nil {
		return Record{}, err
	}
	pid, err := r.src.ID(f[0], "pid")
	if err != nil {
		return Record{}, err
	}
	r.pid = pid
	return Record{Kind: KindProcess, PID: pid, Name: name}, nil
}

func (r *Reader) costLine(rest []byte) (Record, error) {
	f, _, err := r.src.Split(rest, 2, false)
	if err != nil {
		return Record{}, err
	}
	k, err := calls.ParseProbeKind(string(f[0]))
	if err != nil {
		return Record{}, r.src.Errorf("%v", err)
	}
	ns, ok := lines.Uint(f[1], math.MaxInt64)
	if !ok {
		return Record{}, r.src.Errorf("bad cost %q (want nanoseconds)", lines.Clip(f[1]))
	}
	if k == calls.FrameworkProbe {
		r.cost.Framework = time.Duration(ns)
	} else {
		r.cost.App = time.Duration(ns)
	}
	return Record{Kind: KindCost, CostOf: k, Cost: time.Duration(ns)}, nil
}

func (r *Reader) probe(rest []byte) (Record, error) {
	f, name, err := r.src.Split(rest, 4, true)
	if err != nil {
		return Record{}, err
	}
	id, ok := lines.Uint(f[0], math.MaxUint64)
	if !ok {
		return Record{}, r.src.Errorf("bad probe id %q", lines.Clip(f[0]))
	}
	if r.probes[id] != nil {
		return Record{}, r.src.Errorf("probe %d declared twice", id)
	}
	res, err := calls.ParseProbeResolution(string(f[1]))
	if err != nil {
		return Record{}, r.src.Errorf("%v", err)
	}
	k, err := calls.ParseProbeKind(string(f[2]))
	if err != nil {
		return Record{}, r.src.Errorf("%v", err)
	}
	var on bool
	switch string(f[3]) {
	case "on":
		on = true
	case "off":
	default:
		return Record{}, r.src.Errorf("bad probe state %q (want on or off)", lines.Clip(f[3]))
	}
	if name == "" {
		return Record{}, r.src.Errorf("probe %d has no name", id)
	}
	p := &Probe{ID: id, Resolution: res, Kind: k, On: on, Name: name}
	r.probes[id] = p
	return Record{Kind: KindProbe, Probe: *p}, nil
}

func (r *Reader) thread(rest []byte) (Record, error) {
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
	return Record{Kind: KindThread, Thread: calls.ThreadInfo{TID: tid, Name: name}}, nil
}

// event parses the tid, time and probe that in and out lines start with.
func (r *Reader) event(f [][]byte) (*thread, int, time.Duration, *Probe, error) {
	tid, err := r.src.ID(f[0], "thread id")
	if err != nil {
		return nil, 0, 0, nil, err
	}
	th := r.threads[tid]
	if th == nil {
		return nil, 0, 0, nil, r.src.Errorf("thread %d has no thread line before its events", tid)
	}
	t, ok := lines.Uint(f[1], math.MaxInt64)
	if !ok {
		return nil, 0, 0, nil, r.src.Errorf("bad time %q (want nanoseconds)", lines.Clip(f[1]))
	}
	if time.Duration(t) < th.last {
		return nil, 0, 0, nil, r.src.Errorf("time %d on thread %d is before the thread's previous event at %d", t, tid, th.last)
	}
	id, ok := lines.Uint(f[2], math.MaxUint64)
	if !ok {
		return nil, 0, 0, nil, r.src.Errorf("bad probe id %q", lines.Clip(f[2]))
	}
	p := r.probes[id]
	switch {
	case p == nil:
		return nil, 0, 0, nil, r.src.Errorf("probe %d is not in the probe list", id)
	case !p.On:
		return nil, 0, 0, nil, r.src.Errorf("event of probe %d, which is off", id)
	}
	return th, tid, time.Duration(t), p, nil
}

func (r *Reader) in(rest []byte) (Record, error) {
	f, caller, err := r.src.Split(rest, 3, true)
	if err != nil {
		return Record{}, err
	}
	th, tid, t, p, err := r.event(f)
	if err != nil {
		return Record{}, err
	}
	if len(th.open) >= MaxDepth {
		return Record{}, r.src.Errorf("probes nested deeper than %d on thread %d", MaxDepth, tid)
	}
	outer := th.outer[p.Resolution] == 0
	th.outer[p.Resolution]++
	th.open = append(th.open, span{probe: p, start: t, caller: caller})
	th.last = t
	return Record{Kind: KindIn, Span: calls.ProbeSpan{TID: tid, Probe: p.ID, Name: p.Name, Resolution: p.Resolution,
		Kind: p.Kind, Caller: caller, Start: t, Outer: outer}}, nil
}

func (r *Reader) out(rest []byte) (Record, error) {
	f, _, err := r.src.Split(rest, 3, false)
	if err != nil {
		return Record{}, err
	}
	th, tid, t, p, err := r.event(f)
	if err != nil {
		return Record{}, err
	}
	n := len(th.open)
	switch {
	case n == 0:
		return Record{}, r.src.Errorf("out of probe %d, but thread %d has no open probe", p.ID, tid)
	case th.open[n-1].probe != p:
		return Record{}, r.src.Errorf("out of probe %d, but the innermost open probe on thread %d is %d", p.ID, tid, th.open[n-1].probe.ID)
	}
	sp := th.open[n-1]
	th.open = th.open[:n-1]
	th.outer[p.Resolution]--
	if n > 1 {
		parent := &th.open[n-2]
		parent.app += sp.app
		parent.framework += sp.framework
		if p.Kind == calls.FrameworkProbe {
			parent.framework++
		} else {
			parent.app++
		}
	}
	th.last = t
	return Record{Kind: KindOut, Span: calls.ProbeSpan{TID: tid, Probe: p.ID, Name: p.Name, Resolution: p.Resolution,
		Kind: p.Kind, Caller: sp.caller, Start: sp.start, End: t, NestedApp: sp.app, NestedFramework: sp.framework,
		Outer: th.outer[p.Resolution] == 0}}, nil
}

// Feed streams one round (Round, or the first) into sink: the header once the round's head is
// read, one method per probe, its threads and the events of its spans. Unless Measured is set,
// event times are corrected on each thread's timeline (docs/rmp-format.md, "Deduction"); with
// Area set, only spans in the area are passed. The rest of the log is still read, so a damaged
// file is refused as a whole.
func (r *Reader) Feed(sink calls.MethodSink) error {
	want := max(r.Round, 1)
	var (
		active, sent bool
		timeline     *calls.OverheadTimeline
		filter       *calls.AreaFilter
		process      string
		roots        []string
	)
	for {
		rec, err := r.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			return err
		}
		if r.rounds != want {
			continue
		}
		if !active {
			active, timeline = true, calls.NewOverheadTimeline()
			if r.Area != nil {
				filter = calls.NewAreaFilter(*r.Area)
			}
		}
		switch rec.Kind {
		case KindProcess:
			process = rec.Name
			continue
		case KindFilter:
			roots = append(roots, rec.Caller)
			continue
		case KindCost:
			continue
		}
		if !sent {
			sent = true
			r.sent = r.header(process, roots)
			if err := sink.Header(r.sent); err != nil {
				return &inputerr.Error{File: r.src.File, Line: r.Line(), Err: err}
			}
		}
		if err := r.feed(sink, rec, timeline, filter); err != nil {
			return &inputerr.Error{File: r.src.File, Line: r.Line(), Err: err}
		}
	}
	if r.rounds < want {
		return r.src.Errorf("no round %d in the log, which ends here (it has %d)", want, r.rounds)
	}
	return nil
}

// Header is the header Read gave the sink, so a caller that stores the trace has it at hand.
func (r *Reader) Header() calls.TraceHeader { return r.sent }

func (r *Reader) header(process string, roots []string) calls.TraceHeader {
	props := map[string]string{
		"process":                 process,
		"times":                   "measured",
		"probe-cost-app-ns":       strconv.FormatInt(int64(r.cost.App), 10),
		"probe-cost-framework-ns": strconv.FormatInt(int64(r.cost.Framework), 10),
		"round":                   strconv.Itoa(r.rounds),
	}
	if !r.Measured {
		props["times"] = "corrected"
	}
	if len(roots) > 0 {
		props["filter"] = strings.Join(roots, "\n")
	}
	if a := r.Area; a != nil {
		res := "every resolution"
		if a.Resolution != 0 {
			res = a.Resolution.String() + " level"
		}
		props["area"] = res
		if len(a.Callers) > 0 {
			props["area"] += " under " + strings.Join(a.Callers, ", ")
		}
	}
	return calls.TraceHeader{Format: "rmp", Version: Version, Clock: calls.ClockWall, VM: "dalvik", PID: r.pid, Properties: props}
}

func (r *Reader) feed(sink calls.MethodSink, rec Record, tl *calls.OverheadTimeline, f *calls.AreaFilter) error {
	switch rec.Kind {
	case KindProbe:
		return sink.Method(methodInfo(rec.Probe))
	case KindThread:
		return sink.Thread(rec.Thread)
	case KindIn, KindOut:
		s := rec.Span
		c := r.cost.Of(s.Kind)
		t := s.Start
		var keep bool
		action := calls.Enter
		if rec.Kind == KindIn {
			if !r.Measured {
				t = tl.Enter(s.TID, t, c/2)
			}
			keep = f == nil || f.Enter(s.TID, s.Name, s.Caller, s.Resolution)
		} else {
			action, t = calls.Exit, s.End
			if !r.Measured {
				t = tl.Exit(s.TID, t, s.Deduction(r.cost), c-c/2)
			}
			if f != nil {
				keep, _ = f.Exit(s.TID) // the reader has checked the nesting
			} else {
				keep = true
			}
		}
		if !keep {
			return nil
		}
		return sink.Event(calls.MethodEvent{TID: s.TID, Method: s.Probe, Action: action, Wall: uint64(t / time.Microsecond)})
	}
	return nil
}

// methodInfo names a probe as a method: class and method split at the last dot before any
// "#" of a loop probe ("a.B.c#2" → class "a.B", name "c#2").
func methodInfo(p Probe) calls.MethodInfo {
	head := p.Name
	if i := strings.IndexByte(head, '#'); i >= 0 {
		head = head[:i]
	}
	m := calls.MethodInfo{ID: p.ID, Name: p.Name, Line: -1}
	if i := strings.LastIndexByte(head, '.'); i > 0 {
		m.Class, m.Name = p.Name[:i], p.Name[i+1:]
	}
	return m
}

// Sniff answers format detection from a file's first bytes: nil when they start with the RMP header,
// ErrNotRMP when they do not.
func Sniff(head []byte) error {
	r := NewReader(bytes.NewReader(head[:min(len(head), lines.MaxLine)]), "")
	if _, err := r.Next(); errors.Is(err, ErrNotRMP) {
		return ErrNotRMP
	}
	return nil
}
