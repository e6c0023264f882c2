package dpa

import (
	"bufio"
	"errors"
	"fmt"
	"io"

	"androprof/formats/internal/lines"
	"androprof/model/calls"
)

// Writer writes a DPA log record by record: how tests, converters and the demo data make logs
// a Reader accepts. It checks what it cannot fix (order of sections, positive ids) and leaves
// nesting to the caller; the Reader checks the rest.
type Writer struct {
	w       *bufio.Writer
	header  bool // a header line starts the current part of the file
	written bool // a process section followed the last header line
	open    bool
}

// NewWriter writes to w; call Flush at the end.
func NewWriter(w io.Writer) *Writer { return &Writer{w: bufio.NewWriter(w)} }

// startPart writes a header line when the file, or a new part of it, begins.
func (w *Writer) startPart() {
	if !w.header || w.written {
		fmt.Fprintf(w.w, "%s %d\n", Magic, Version)
		w.header, w.written = true, false
	}
}

// Calibrate writes the clock-read calibration; outside a process, it starts a new part of the
// file when sections were written since the last header.
func (w *Writer) Calibrate(c calls.ClockCost) error {
	if w.open {
		return errors.New("dpa: Calibrate inside a process section")
	}
	if !c.Known() {
		return fmt.Errorf("dpa: calibration of %d reads in %v is not a measurement", c.Reads, c.Elapsed)
	}
	w.startPart()
	_, err := fmt.Fprintf(w.w, "calibrate %d %d\n", c.Reads, int64(c.Elapsed))
	return err
}

// Process opens a process section.
func (w *Writer) Process(pid int, name string) error {
	if w.open {
		return errors.New("dpa: Process before End of the previous one")
	}
	if pid <= 0 {
		return fmt.Errorf("dpa: bad pid %d", pid)
	}
	if !w.header {
		w.startPart()
	}
	w.open, w.written = true, true
	fmt.Fprintf(w.w, "process %d", pid)
	return w.text(name)
}

func (w *Writer) text(s string) error {
	if s != "" {
		fmt.Fprintf(w.w, " %s", lines.Text(s))
	}
	return w.w.WriteByte('\n')
}

// Thread declares a thread of the open process.
func (w *Writer) Thread(t calls.ThreadInfo) error {
	if !w.open || t.TID <= 0 {
		return fmt.Errorf("dpa: thread %d outside a process or not positive", t.TID)
	}
	fmt.Fprintf(w.w, "thread %d", t.TID)
	return w.text(t.Name)
}

// Method declares a method of the open process.
func (w *Writer) Method(m calls.MethodInfo) error {
	if !w.open {
		return errors.New("dpa: Method outside a process")
	}
	if m.Class == "" || m.Name == "" {
		return fmt.Errorf("dpa: method %d has no class or name", m.ID)
	}
	fmt.Fprintf(w.w, "method %d %s %s", m.ID, lines.Token(m.Class), lines.Token(m.Name))
	if m.Signature != "" {
		fmt.Fprintf(w.w, " %s", lines.Token(m.Signature))
	}
	return w.w.WriteByte('\n')
}

// Enter writes a call's entry: TID, Level, Entry and Method of c.
func (w *Writer) Enter(c calls.DPACall) error {
	if err := w.checkCall(c); err != nil {
		return err
	}
	_, err := fmt.Fprintf(w.w, "enter %d %d %d %d\n", c.TID, c.Level, int64(c.Entry), c.Method)
	return err
}

// Exit writes a call's exit: TID, Level, Exit, ClockReads and Method of c; unwind when
// Unwound.
func (w *Writer) Exit(c calls.DPACall) error {
	if err := w.checkCall(c); err != nil {
		return err
	}
	if c.ClockReads < 0 || c.Exit < c.Entry {
		return fmt.Errorf("dpa: call of method %d: %d clock reads, exit %v before entry %v", c.Method, c.ClockReads, c.Exit, c.Entry)
	}
	kw := "exit"
	if c.Unwound {
		kw = "unwind"
	}
	_, err := fmt.Fprintf(w.w, "%s %d %d %d %d %d\n", kw, c.TID, c.Level, int64(c.Exit), c.ClockReads, c.Method)
	return err
}

func (w *Writer) checkCall(c calls.DPACall) error {
	if !w.open {
		return errors.New("dpa: event outside a process")
	}
	if c.TID <= 0 || c.Level <= 0 || c.Entry < 0 || c.Exit < 0 {
		return fmt.Errorf("dpa: bad event: thread %d, level %d, times %v %v", c.TID, c.Level, c.Entry, c.Exit)
	}
	return nil
}

// End closes the open process section.
func (w *Writer) End() error {
	if !w.open {
		return errors.New("dpa: End without Process")
	}
	w.open = false
	_, err := w.w.WriteString("end\n")
	return err
}

// Write writes one record as a Reader returned it, so a log can be filtered or copied record
// by record.
func (w *Writer) Write(rec Record) error {
	switch rec.Kind {
	case KindCalibration:
		return w.Calibrate(rec.Cost)
	case KindProcess:
		return w.Process(rec.PID, rec.Name)
	case KindThread:
		return w.Thread(rec.Thread)
	case KindMethod:
		return w.Method(rec.Method)
	case KindEnter:
		return w.Enter(rec.Call)
	case KindExit:
		return w.Exit(rec.Call)
	case KindEnd:
		return w.End()
	}
	return fmt.Errorf("dpa: record of unknown kind %d", rec.Kind)
}

// Flush writes what is buffered; a log with no record is still a log (its header).
func (w *Writer) Flush() error {
	if !w.header {
		w.startPart()
	}
	return w.w.Flush()
}
