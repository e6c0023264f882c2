package heaplog

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"maps"
	"math"
	"slices"
	"strconv"

	"androprof/formats/internal/lines"
	"androprof/model/heap"
)

// Writer writes a heap log record by record: how tests, converters and benchmarks make logs.
// It refuses what a Reader would refuse (times that go back or do not add up, undeclared or
// twice-declared ids, out-of-range fields), so what it writes always reads back; a refused
// event writes nothing and leaves the Writer as it was. Names are made to fit their fields:
// control characters in text become spaces, blanks in tokens become '_'.
type Writer struct {
	w       *bufio.Writer
	buf     []byte
	time    uint64 // the last record's time
	total   uint64 // bytes allocated so far
	threads map[uint32]struct{}
	classes map[uint32]string
}

// NewWriter writes the header of a log to w: magic line, vm and props (sorted by key). Format
// and Version of h may be left zero. Call Flush at the end.
func NewWriter(w io.Writer, h heap.HeapHeader) (*Writer, error) {
	if h.Format != "" && h.Format != Format {
		return nil, fmt.Errorf("heaplog: header of format %q", h.Format)
	}
	if h.Version != 0 && h.Version != Version {
		return nil, fmt.Errorf("heaplog: cannot write version %d (this writer knows %d)", h.Version, Version)
	}
	hw := &Writer{w: bufio.NewWriterSize(w, 64<<10), buf: make([]byte, 0, 256),
		threads: map[uint32]struct{}{}, classes: map[uint32]string{}}
	fmt.Fprintf(hw.w, "%s %d\n", Magic, Version)
	if h.VM != "" {
		fmt.Fprintf(hw.w, "vm %s\n", lines.Text(h.VM))
	}
	for _, k := range slices.Sorted(maps.Keys(h.Props)) {
		if k == "" {
			return nil, errors.New("heaplog: property with an empty key")
		}
		fmt.Fprintf(hw.w, "prop %s %s\n", lines.Token(k), lines.Text(h.Props[k]))
	}
	return hw, nil
}

// Write writes one record; e is not kept.
func (w *Writer) Write(e *heap.HeapEvent) error {
	b := w.buf[:0]
	switch e.Kind {
	case heap.HeapAlloc:
		if err := w.checkAlloc(e); err != nil {
			return err
		}
		w.time, w.total = e.Time, w.total+e.Size
		b = append(b, 'a', ' ')
		b = strconv.AppendUint(b, e.Object, 10)
		b = w.num(b, e.Time)
		b = w.num(b, e.Size)
		b = w.num(b, uint64(e.Thread))
		b = w.num(b, uint64(e.Class))
		if e.Array {
			b = append(b, " 1\n"...)
		} else {
			b = append(b, " 0\n"...)
		}
	case heap.HeapFree:
		if err := w.checkTime(e); err != nil {
			return err
		}
		if e.Object == 0 {
			return errors.New("heaplog: death of object 0")
		}
		w.time = e.Time
		b = append(b, 'd', ' ')
		b = strconv.AppendUint(b, e.Object, 10)
		b = w.num(b, e.Time)
		b = append(b, '\n')
	case heap.HeapMutation:
		if err := w.checkTime(e); err != nil {
			return err
		}
		if e.Object == 0 {
			return errors.New("heaplog: mutation of object 0")
		}
		w.time = e.Time
		b = append(b, 'm', ' ')
		b = strconv.AppendUint(b, e.Time, 10)
		b = w.num(b, e.Object)
		b = w.num(b, uint64(e.Offset))
		b = w.num(b, e.Target)
		b = append(b, '\n')
	case heap.HeapGCStart:
		kind := e.GCKind
		switch kind {
		case "":
			kind = heap.GCUnknown
		case heap.GCConcurrent, heap.GCForMalloc, heap.GCExplicit, heap.GCBeforeOOM, heap.GCUnknown:
		default:
			return fmt.Errorf("heaplog: unknown GC kind %q", kind)
		}
		if err := w.checkTime(e); err != nil {
			return err
		}
		w.time = e.Time
		b = append(b, 'g', ' ')
		b = strconv.AppendUint(b, e.Time, 10)
		b = append(b, ' ')
		b = append(b, kind...)
		b = append(b, '\n')
	case heap.HeapGCEnd:
		if err := w.checkTime(e); err != nil {
			return err
		}
		w.time = e.Time
		b = append(b, 'h', ' ')
		b = strconv.AppendUint(b, e.Time, 10)
		b = append(b, '\n')
	case heap.HeapSnapshot:
		if err := w.checkTime(e); err != nil {
			return err
		}
		if e.Distance == 0 || e.Distance < -64 || e.Distance > 64 {
			return fmt.Errorf("heaplog: distance bucket %d (want -64…-1 or 1…64)", e.Distance)
		}
		w.time = e.Time
		b = append(b, 's', ' ')
		b = strconv.AppendUint(b, e.Time, 10)
		b = append(b, ' ')
		b = strconv.AppendInt(b, int64(e.Distance), 10)
		b = w.num(b, e.Count)
		b = append(b, '\n')
	case heap.HeapClass:
		name := lines.Token(e.Name)
		switch old, ok := w.classes[e.Class]; {
		case name == "":
			return fmt.Errorf("heaplog: class %d has no name", e.Class)
		case e.Array != (name[0] == '['):
			return fmt.Errorf("heaplog: class %d %q: array flag %v, but array names start with '['", e.Class, name, e.Array)
		case ok && old == name:
			return nil // declared already
		case ok:
			return fmt.Errorf("heaplog: class %d declared twice, as %q and %q", e.Class, old, name)
		}
		w.classes[e.Class] = name
		b = append(b, 'c', ' ')
		b = strconv.AppendUint(b, uint64(e.Class), 10)
		b = append(b, ' ')
		b = append(b, name...)
		b = append(b, '\n')
	case heap.HeapThreadStart:
		if _, ok := w.threads[e.Thread]; ok {
			return fmt.Errorf("heaplog: thread %d declared twice", e.Thread)
		}
		if err := w.checkTime(e); err != nil {
			return err
		}
		w.time = e.Time
		w.threads[e.Thread] = struct{}{}
		group := "-"
		if e.Group != "" {
			group = lines.Token(e.Group)
		}
		b = append(b, 't', ' ')
		b = strconv.AppendUint(b, uint64(e.Thread), 10)
		b = w.num(b, e.Time)
		b = append(b, ' ')
		b = append(b, group...)
		if e.Name != "" {
			b = append(b, ' ')
			b = append(b, lines.Text(e.Name)...)
		}
		b = append(b, '\n')
	case heap.HeapThreadEnd:
		if _, ok := w.threads[e.Thread]; !ok {
			return fmt.Errorf("heaplog: end of thread %d, which was never started", e.Thread)
		}
		if err := w.checkTime(e); err != nil {
			return err
		}
		w.time = e.Time
		b = append(b, 'e', ' ')
		b = strconv.AppendUint(b, uint64(e.Thread), 10)
		b = w.num(b, e.Time)
		b = append(b, '\n')
	default:
		return fmt.Errorf("heaplog: event of unknown kind %d", e.Kind)
	}
	w.buf = b
	_, err := w.w.Write(b)
	return err
}

// num appends a separator and a number.
func (w *Writer) num(b []byte, v uint64) []byte {
	return strconv.AppendUint(append(b, ' '), v, 10)
}

// checkTime applies the reader's rule for the time of a record that is not an allocation.
func (w *Writer) checkTime(e *heap.HeapEvent) error {
	switch {
	case e.Time < w.time:
		return fmt.Errorf("heaplog: record of kind %d at time %d, before the previous record's %d", e.Kind, e.Time, w.time)
	case e.Time > w.total:
		return fmt.Errorf("heaplog: record of kind %d at time %d, past the %d bytes allocated so far", e.Kind, e.Time, w.total)
	}
	return nil
}

func (w *Writer) checkAlloc(e *heap.HeapEvent) error {
	switch {
	case e.Object == 0:
		return errors.New("heaplog: allocation of object 0")
	case e.Size == 0:
		return fmt.Errorf("heaplog: allocation of object %d has size 0", e.Object)
	case e.Time != w.total:
		return fmt.Errorf("heaplog: allocation of object %d at time %d, but the allocations before it total %d bytes", e.Object, e.Time, w.total)
	case e.Size > math.MaxUint64-w.total:
		return fmt.Errorf("heaplog: allocation of %d bytes takes the total past 2^64 bytes", e.Size)
	}
	if _, ok := w.threads[e.Thread]; !ok {
		return fmt.Errorf("heaplog: allocation on thread %d, which was never started", e.Thread)
	}
	if _, ok := w.classes[e.Class]; !ok {
		return fmt.Errorf("heaplog: allocation of class %d, which was never declared", e.Class)
	}
	return nil
}

// Total is the number of bytes allocated so far: the time of the next allocation, and the
// latest time any other record may have.
func (w *Writer) Total() uint64 { return w.total }

// Flush writes what is buffered.
func (w *Writer) Flush() error { return w.w.Flush() }
