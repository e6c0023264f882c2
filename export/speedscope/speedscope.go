// Package speedscope writes speedscope's JSON file format
// (https://www.speedscope.app/file-format-schema.json): "evented" profiles (frames opened and
// closed in time order, for method traces) and "sampled" profiles (stacks with weights), with
// the frames shared at the end. Events are written as they come, so memory stays flat but for
// the frames and a sampled profile's weights.
package speedscope

import (
	"bufio"
	"encoding/json"
	"io"
	"strconv"
)

// Schema is the file format's schema, which a file names as its "$schema".
const Schema = "https://www.speedscope.app/file-format-schema.json"

// Frame is a function as speedscope lists it.
type Frame struct {
	Name string
	File string // "" when unknown
	Line int    // 0 when unknown
}

// Writer streams one speedscope file: profiles first, then the frames they used.
type Writer struct {
	w         *bufio.Writer
	err       error
	frames    []Frame
	index     map[Frame]int
	profiles  int
	inProfile int     // events or samples of the profile being written
	weights   []int64 // of the sampled profile being written
	Events    int     // events and samples written in all
}

// NewWriter starts a file named name (speedscope shows it in its title) on w.
func NewWriter(w io.Writer, name, exporter string) *Writer {
	sw := &Writer{w: bufio.NewWriterSize(w, 1<<16), index: map[Frame]int{}}
	sw.str(`{"$schema":"` + Schema + `","name":`)
	sw.quote(name)
	sw.str(`,"exporter":`)
	sw.quote(exporter)
	sw.str(`,"activeProfileIndex":0,"profiles":[`)
	return sw
}

// Profiles is how many profiles were begun.
func (w *Writer) Profiles() int { return w.profiles }

// Frame returns the index of a frame, adding it the first time.
func (w *Writer) Frame(f Frame) int {
	if i, ok := w.index[f]; ok {
		return i
	}
	w.index[f] = len(w.frames)
	w.frames = append(w.frames, f)
	return len(w.frames) - 1
}

// BeginEvented starts an evented profile; unit is one of speedscope's ("microseconds", …).
func (w *Writer) BeginEvented(name, unit string) {
	w.beginProfile("evented", name, unit)
	w.str(`,"events":[`)
}

// Open opens a frame at a time; frames close in the reverse order.
func (w *Writer) Open(frame int, at uint64) { w.event("O", frame, at) }

// Close closes the innermost open frame, which must be frame.
func (w *Writer) Close(frame int, at uint64) { w.event("C", frame, at) }

// EndEvented ends the evented profile, which spans [start, end].
func (w *Writer) EndEvented(start, end uint64) {
	w.str(`],"startValue":`)
	w.uint(start)
	w.str(`,"endValue":`)
	w.uint(end)
	w.str("}")
}

// BeginSampled starts a sampled profile.
func (w *Writer) BeginSampled(name, unit string) {
	w.beginProfile("sampled", name, unit)
	w.str(`,"startValue":0,"samples":[`)
	w.weights = w.weights[:0]
}

// Sample adds one stack (frame indexes, outermost first) of a weight.
func (w *Writer) Sample(stack []int, weight int64) {
	if w.inProfile > 0 {
		w.str(",")
	}
	w.inProfile++
	w.Events++
	w.str("[")
	for i, f := range stack {
		if i > 0 {
			w.str(",")
		}
		w.str(strconv.Itoa(f))
	}
	w.str("]")
	w.weights = append(w.weights, weight)
}

// EndSampled ends the sampled profile: its weights, and its end, their sum.
func (w *Writer) EndSampled() {
	w.str(`],"weights":[`)
	var sum int64
	for i, v := range w.weights {
		if i > 0 {
			w.str(",")
		}
		w.str(strconv.FormatInt(v, 10))
		sum += v
	}
	w.str(`],"endValue":`)
	w.str(strconv.FormatInt(sum, 10))
	w.str("}")
}

// Finish writes the frames and ends the file, flushing it; the first write error, if any, is
// returned.
func (w *Writer) Finish() error {
	w.str(`],"shared":{"frames":[`)
	for i, f := range w.frames {
		if i > 0 {
			w.str(",")
		}
		w.str(`{"name":`)
		w.quote(f.Name)
		if f.File != "" {
			w.str(`,"file":`)
			w.quote(f.File)
		}
		if f.Line > 0 {
			w.str(`,"line":`)
			w.str(strconv.Itoa(f.Line))
		}
		w.str("}")
	}
	w.str("]}}\n")
	if w.err == nil {
		w.err = w.w.Flush()
	}
	return w.err
}

func (w *Writer) beginProfile(typ, name, unit string) {
	if w.profiles > 0 {
		w.str(",\n")
	}
	w.profiles++
	w.inProfile = 0
	w.str(`{"type":"` + typ + `","name":`)
	w.quote(name)
	w.str(`,"unit":`)
	w.quote(unit)
}

func (w *Writer) event(typ string, frame int, at uint64) {
	if w.inProfile > 0 {
		w.str(",")
	}
	w.inProfile++
	w.Events++
	w.str(`{"type":"` + typ + `","frame":` + strconv.Itoa(frame) + `,"at":`)
	w.uint(at)
	w.str("}")
}

func (w *Writer) str(s string) {
	if w.err == nil {
		_, w.err = w.w.WriteString(s)
	}
}

func (w *Writer) uint(v uint64) { w.str(strconv.FormatUint(v, 10)) }

func (w *Writer) quote(s string) {
	b, _ := json.Marshal(s) // a string always marshals
	w.str(string(b))
}
