package rmp

import (
	"bufio"
	"errors"
	"fmt"
	"io"

	"androprof/formats/internal/lines"
	"androprof/model/calls"
)

// Writer writes an RMP log record by record: how tests, converters and the demo data make logs
// a Reader accepts. It starts each round with a header and keeps the order of a round's parts;
// nesting is left to the caller, and the Reader checks it.
type Writer struct {
	w     *bufio.Writer
	stage stage
}

// NewWriter writes to w; call Flush at the end.
func NewWriter(w io.Writer) *Writer { return &Writer{w: bufio.NewWriter(w)} }

// to moves the round to stage s, starting a round if none is open.
func (w *Writer) to(s stage, what string) error {
	if w.stage == stageNone {
		fmt.Fprintf(w.w, "%s %d\n", Magic, Version)
		w.stage = stageHead
	}
	if s < w.stage {
		return fmt.Errorf("rmp: %s after the %s", what, stageNames[w.stage])
	}
	w.stage = s
	return nil
}

// Process names the profiled application.
func (w *Writer) Process(pid int, name string) error {
	if pid <= 0 {
		return fmt.Errorf("rmp: bad pid %d", pid)
	}
	if err := w.to(stageHead, "process"); err != nil {
		return err
	}
	fmt.Fprintf(w.w, "process %d", pid)
	return w.text(name)
}

func (w *Writer) text(s string) error {
	if s != "" {
		fmt.Fprintf(w.w, " %s", lines.Text(s))
	}
	return w.w.WriteByte('\n')
}

// Cost writes what one probe of kind k costs.
func (w *Writer) Cost(k calls.ProbeKind, d int64) error {
	if d < 0 || (k != calls.AppProbe && k != calls.FrameworkProbe) {
		return fmt.Errorf("rmp: bad cost %d for %v", d, k)
	}
	if err := w.to(stageHead, "cost"); err != nil {
		return err
	}
	_, err := fmt.Fprintf(w.w, "cost %s %d\n", k, d)
	return err
}

// Costs writes both costs.
func (w *Writer) Costs(c calls.ProbeCost) error {
	if err := w.Cost(calls.AppProbe, int64(c.App)); err != nil {
		return err
	}
	return w.Cost(calls.FrameworkProbe, int64(c.Framework))
}

// Filter writes a root of the round's caller filter.
func (w *Writer) Filter(root string) error {
	if err := w.to(stageHead, "filter"); err != nil {
		return err
	}
	_, err := fmt.Fprintf(w.w, "filter %s\n", lines.Text(root))
	return err
}

// Probe writes an entry of the probe list.
func (w *Writer) Probe(p Probe) error {
	if p.Name == "" || p.Resolution < calls.ResolutionProcess || p.Resolution > calls.ResolutionLoop ||
		(p.Kind != calls.AppProbe && p.Kind != calls.FrameworkProbe) {
		return fmt.Errorf("rmp: bad probe %+v", p)
	}
	if err := w.to(stageProbes, "probe"); err != nil {
		return err
	}
	state := "off"
	if p.On {
		state = "on"
	}
	_, err := fmt.Fprintf(w.w, "probe %d %s %s %s %s\n", p.ID, p.Resolution, p.Kind, state, lines.Text(p.Name))
	return err
}

// Thread declares a thread.
func (w *Writer) Thread(t calls.ThreadInfo) error {
	if t.TID <= 0 {
		return fmt.Errorf("rmp: bad thread id %d", t.TID)
	}
	if err := w.to(stageThreads, "thread"); err != nil {
		return err
	}
	fmt.Fprintf(w.w, "thread %d", t.TID)
	return w.text(t.Name)
}

// In writes a span's entry point: TID, Start, Probe and Caller of s.
func (w *Writer) In(s calls.ProbeSpan) error {
	if s.TID <= 0 || s.Start < 0 {
		return fmt.Errorf("rmp: bad entry: thread %d at %v", s.TID, s.Start)
	}
	if err := w.to(stageThreads, "event"); err != nil {
		return err
	}
	fmt.Fprintf(w.w, "in %d %d %d", s.TID, int64(s.Start), s.Probe)
	return w.text(s.Caller)
}

// Out writes a span's exit point: TID, End and Probe of s.
func (w *Writer) Out(s calls.ProbeSpan) error {
	if s.TID <= 0 || s.End < s.Start || s.Start < 0 {
		return fmt.Errorf("rmp: bad exit: thread %d at %v (entry %v)", s.TID, s.End, s.Start)
	}
	if err := w.to(stageThreads, "event"); err != nil {
		return err
	}
	_, err := fmt.Fprintf(w.w, "out %d %d %d\n", s.TID, int64(s.End), s.Probe)
	return err
}

// End closes the round; the next record starts a new one.
func (w *Writer) End() error {
	if w.stage == stageNone {
		return errors.New("rmp: End outside a round")
	}
	w.stage = stageNone
	_, err := w.w.WriteString("end\n")
	return err
}

// Write writes one record as a Reader returned it, so a log can be filtered or copied record
// by record.
func (w *Writer) Write(rec Record) error {
	switch rec.Kind {
	case KindProcess:
		return w.Process(rec.PID, rec.Name)
	case KindCost:
		return w.Cost(rec.CostOf, int64(rec.Cost))
	case KindFilter:
		return w.Filter(rec.Caller)
	case KindProbe:
		return w.Probe(rec.Probe)
	case KindThread:
		return w.Thread(rec.Thread)
	case KindIn:
		return w.In(rec.Span)
	case KindOut:
		return w.Out(rec.Span)
	case KindEnd:
		if w.stage == stageNone {
			w.to(stageHead, "end") // an empty round
		}
		return w.End()
	}
	return fmt.Errorf("rmp: record of unknown kind %d", rec.Kind)
}

// Flush writes what is buffered. A round still open is left open: the log is then truncated,
// as a reader will say.
func (w *Writer) Flush() error { return w.w.Flush() }
