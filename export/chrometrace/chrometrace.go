// Package chrometrace writes Chrome's trace-event JSON (the "JSON Object Format"), which
// chrome://tracing, ui.perfetto.dev and speedscope open. Events are written as they come, so
// a trace of millions of calls takes no more memory than one event.
package chrometrace

import (
	"bufio"
	"encoding/json"
	"io"
	"strconv"
)

// Arg is one entry of an event's "args": the viewers show them beside the slice.
type Arg struct {
	Key, Value string
}

// Slice is one complete event ("ph":"X"): a call on a thread, in microseconds.
type Slice struct {
	PID, TID         int
	Name             string
	Category         string
	StartMicros, Dur uint64
	Args             []Arg
}

// CounterValue is one series of a counter event at one time: viewers stack a counter's series.
type CounterValue struct {
	Series string
	Value  float64
}

// Writer streams one trace-event file: NewWriter opens it, Close ends the JSON.
type Writer struct {
	w      *bufio.Writer
	events int
	err    error
	quoted map[string]string // names repeat: each is escaped once
}

// NewWriter starts a trace-event file on w.
func NewWriter(w io.Writer) *Writer {
	tw := &Writer{w: bufio.NewWriterSize(w, 1<<16), quoted: map[string]string{}}
	tw.str(`{"traceEvents":[`)
	return tw
}

// Events is how many events were written so far.
func (w *Writer) Events() int { return w.events }

// ProcessName names a process in the viewers' track list ("M" metadata).
func (w *Writer) ProcessName(pid int, name string) {
	w.begin("M", pid, 0)
	w.str(`,"name":"process_name","args":{"name":`)
	w.quote(name)
	w.str("}}")
}

// ThreadName names a thread's track ("M" metadata).
func (w *Writer) ThreadName(pid, tid int, name string) {
	w.begin("M", pid, tid)
	w.str(`,"name":"thread_name","args":{"name":`)
	w.quote(name)
	w.str("}}")
}

// Slice writes one complete event.
func (w *Writer) Slice(s Slice) {
	w.begin("X", s.PID, s.TID)
	w.str(`,"ts":`)
	w.uint(s.StartMicros)
	w.str(`,"dur":`)
	w.uint(s.Dur)
	w.str(`,"name":`)
	w.quote(s.Name)
	if s.Category != "" {
		w.str(`,"cat":`)
		w.quote(s.Category)
	}
	if len(s.Args) > 0 {
		w.str(`,"args":{`)
		for i, a := range s.Args {
			if i > 0 {
				w.str(",")
			}
			w.quote(a.Key)
			w.str(":")
			w.quote(a.Value)
		}
		w.str("}")
	}
	w.str("}")
}

// Counter writes one counter event ("ph":"C"): the values of a counter's series at one time.
func (w *Writer) Counter(pid int, name string, tsMicros uint64, values []CounterValue) {
	w.begin("C", pid, 0)
	w.str(`,"ts":`)
	w.uint(tsMicros)
	w.str(`,"name":`)
	w.quote(name)
	w.str(`,"args":{`)
	for i, v := range values {
		if i > 0 {
			w.str(",")
		}
		w.quote(v.Series)
		w.str(":")
		w.str(strconv.FormatFloat(v.Value, 'g', -1, 64))
	}
	w.str("}}")
}

// Close ends the file (displayTimeUnit "ms": the viewers' default scale) and flushes it; the
// first write error, if any, is returned.
func (w *Writer) Close() error {
	w.str(`],"displayTimeUnit":"ms"}` + "\n")
	if w.err == nil {
		w.err = w.w.Flush()
	}
	return w.err
}

func (w *Writer) begin(ph string, pid, tid int) {
	if w.events > 0 {
		w.str(",\n")
	}
	w.events++
	w.str(`{"ph":"` + ph + `","pid":`)
	w.str(strconv.Itoa(pid))
	w.str(`,"tid":`)
	w.str(strconv.Itoa(tid))
}

func (w *Writer) str(s string) {
	if w.err == nil {
		_, w.err = w.w.WriteString(s)
	}
}

func (w *Writer) uint(v uint64) { w.str(strconv.FormatUint(v, 10)) }

// quote writes s as a JSON string (invalid UTF-8 becomes U+FFFD, as encoding/json makes it).
func (w *Writer) quote(s string) {
	q, ok := w.quoted[s]
	if !ok {
		b, _ := json.Marshal(s) // a string always marshals
		q = string(b)
		if len(w.quoted) < 1<<16 {
			w.quoted[s] = q
		}
	}
	w.str(q)
}
