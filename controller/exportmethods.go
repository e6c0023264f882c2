package controller

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strconv"

	"androprof/export/chrometrace"
	"androprof/export/perfetto"
	"androprof/export/speedscope"
	"androprof/model/calls"
)

// export writes a method run in one of its formats (ExportFormats).
func (a *MethodAnalysis) export(ctx context.Context, run, format string, opts ExportOptions, out io.Writer) (ExportSummary, error) {
	t, err := a.Load(ctx, run)
	if err != nil {
		return ExportSummary{}, err
	}
	wall, err := exportClock(t.Profile.Clock, opts.Clock, run)
	if err != nil {
		return ExportSummary{}, err
	}
	switch format {
	case formatFolded.Name:
		root, err := a.Flame(ctx, run, FlameOptions{TID: opts.TID, Wall: wall})
		if err != nil {
			return ExportSummary{}, err
		}
		s, err := exportFolded(root, opts.Focus, out)
		s.Clock = FlameClockText(wall)
		return s, err
	case formatPprof.Name:
		p, err := a.Pprof(ctx, run)
		s, err := exportPprof(p, err, opts.TID, out)
		s.Records = "call path" // a pprof sample of a method run is one call path of a thread
		return s, err
	}
	m := methodCalls{p: t.Profile, run: run, pid: t.Header.PID, tid: opts.TID, at: clockOf(wall),
		each: func(fn func(calls.Call) error) error { return a.EachCall(ctx, run, opts.TID, 0, 0, fn) }}
	var s ExportSummary
	switch format {
	case formatChrome.Name:
		s, err = m.chrome(out)
	case formatPerfetto.Name:
		s, err = m.perfetto(out)
	case formatSpeedscope.Name:
		s, err = m.speedscope(out)
	}
	s.Clock = FlameClockText(wall)
	return s, err
}

// exportClock picks the clock of an export: want "wall", "cpu" or "" (real time when the trace
// has it).
func exportClock(c calls.Clock, want, run string) (wall bool, err error) {
	cpu, real := ChartClocks(c)
	switch want {
	case "":
		return real, nil
	case "wall", "cpu":
		if want == "wall" && !real || want == "cpu" && !cpu {
			return false, fmt.Errorf("run %s has no %s clock: it has %s", RunText(run), FlameClockText(want == "wall"), clocksText(c))
		}
		return want == "wall", nil
	}
	return false, fmt.Errorf("unknown clock %q (want cpu or wall)", want)
}

// methodCalls is what the slice formats read of a method run: its profile, and its calls as
// EachCall hands them (a thread's together, in the order they ended).
type methodCalls struct {
	p    *calls.CallProfile
	run  string
	pid  int
	tid  int
	at   func(calls.Call) (start, end uint64)
	each func(fn func(calls.Call) error) error
}

// walk hands fn every call; a run that keeps only its longest calls is written all the same,
// and partial says so.
func (m methodCalls) walk(fn func(calls.Call) error) (partial string, err error) {
	err = m.each(fn)
	if errors.Is(err, calls.ErrOnlySpans) {
		return err.Error(), nil
	}
	return "", err
}

// threadName names a thread's track: its name, else its id.
func (m methodCalls) threadName(tid int) string {
	for _, th := range m.p.Threads {
		if th.TID == tid {
			return ThreadLabel(th)
		}
	}
	return strconv.Itoa(tid)
}

// sliceNames names methods as slices show them, class and name (the signature is left to the
// args), each made once.
func (m methodCalls) sliceNames() func(id uint64) string {
	names := map[uint64]string{}
	return func(id uint64) string {
		if n, ok := names[id]; ok {
			return n
		}
		meth := m.p.Methods[id]
		meth.Signature = ""
		names[id] = calls.MethodName(meth)
		return names[id]
	}
}

// chrome writes every call as a complete slice, a caller before its callees (viewers nest
// slices of equal times in the order of the file), with the method's class and signature.
func (m methodCalls) chrome(out io.Writer) (ExportSummary, error) {
	w := chrometrace.NewWriter(out)
	w.ProcessName(m.pid, "run "+m.run)
	name := m.sliceNames()
	for _, th := range m.p.Threads {
		if m.tid == 0 || th.TID == m.tid {
			w.ThreadName(m.pid, th.TID, ThreadLabel(th))
		}
	}
	var s ExportSummary
	var err error
	s.Partial, s.Threads, err = m.eachThread(func(tid int) *callNester {
		return &callNester{
			open: func(method, start, end uint64) error {
				meth := m.p.Methods[method]
				w.Slice(chrometrace.Slice{PID: m.pid, TID: tid, Name: name(method), Category: calls.PackageOf(meth.Class),
					StartMicros: start, Dur: end - start,
					Args: []chrometrace.Arg{{Key: "class", Value: meth.Class}, {Key: "signature", Value: meth.Signature}}})
				s.Slices++
				return nil
			},
			close: func(uint64, uint64) error { return nil },
		}
	}, func(n *callNester) error { return n.flush() })
	if err != nil {
		return s, err
	}
	err = w.Close()
	s.Events = w.Events()
	return s, err
}

// eachThread walks the calls a thread at a time: begin starts a thread and hands back the
// nester of its calls; the thread ends when the next begins, or at the walk's end.
func (m methodCalls) eachThread(begin func(tid int) *callNester, end func(n *callNester) error) (partial string, threads int, err error) {
	var n *callNester
	last := 0
	partial, err = m.walk(func(c calls.Call) error {
		if n == nil || c.TID != last {
			if n != nil {
				if err := end(n); err != nil {
					return err
				}
			}
			last, threads = c.TID, threads+1
			n = begin(c.TID)
			n.at = m.at
		}
		return n.add(c)
	})
	if err == nil && n != nil {
		err = end(n)
	}
	return partial, threads, err
}

func (m methodCalls) perfetto(out io.Writer) (ExportSummary, error) {
	w := perfetto.NewWriter(out)
	proc := w.Process(m.pid, "run "+m.run)
	name := m.sliceNames()
	var s ExportSummary
	var err error
	s.Partial, s.Threads, err = m.eachThread(func(tid int) *callNester {
		th := w.Thread(proc, m.pid, tid, m.threadName(tid))
		return &callNester{
			open:  func(method, start, _ uint64) error { th.Begin(start*1000, name(method)); s.Slices++; return nil },
			close: func(_, ts uint64) error { th.End(ts * 1000); return nil },
		}
	}, func(n *callNester) error { return n.flush() })
	if err != nil {
		return s, err
	}
	err = w.Close()
	s.Events = w.Packets()
	return s, err
}

func (m methodCalls) speedscope(out io.Writer) (ExportSummary, error) {
	w := speedscope.NewWriter(out, "run "+m.run, "androprof")
	frames := map[uint64]int{}
	frame := func(id uint64) int {
		if f, ok := frames[id]; ok {
			return f
		}
		meth := m.p.Methods[id]
		f := w.Frame(speedscope.Frame{Name: calls.MethodName(meth), File: meth.File, Line: max(meth.Line, 0)})
		frames[id] = f
		return f
	}
	var s ExportSummary
	var first uint64
	opened := false
	var err error
	s.Partial, s.Threads, err = m.eachThread(func(tid int) *callNester {
		w.BeginEvented("thread "+m.threadName(tid), "microseconds")
		opened = false
		return &callNester{
			open: func(method, start, _ uint64) error {
				if !opened {
					first, opened = start, true
				}
				w.Open(frame(method), start)
				s.Slices++
				return nil
			},
			close: func(method, ts uint64) error { w.Close(frame(method), ts); return nil },
		}
	}, func(n *callNester) error {
		err := n.flush()
		w.EndEvented(first, n.last)
		return err
	})
	if err != nil {
		return s, err
	}
	err = w.Finish()
	s.Events = w.Events
	return s, err
}
