package controller

import (
	"context"
	"errors"
	"io"
	"os"

	"androprof/formats/dpa"
	"androprof/formats/rmp"
	"androprof/formats/traceview"
	"androprof/model"
)

// methodFormats are the method-trace formats `androprof import` recognises, tried in order;
// each reader answers its own "not mine".
var methodFormats = []struct {
	name    string
	notMine error
	sniff   func(string) error
	feed    func(r io.Reader, name string, sink model.MethodSink, o MethodLogOptions) error
}{
	{"traceview", traceview.ErrNotTraceview, traceview.Sniff, func(r io.Reader, name string, s model.MethodSink, _ MethodLogOptions) error {
		return traceview.Read(r, name, s)
	}},
	{"dpa", dpa.ErrNotDPA, dpa.Sniff, func(r io.Reader, name string, s model.MethodSink, o MethodLogOptions) error {
		rd := dpa.NewReader(r, name)
		rd.PID, rd.Measured = o.PID, o.Measured
		return rd.Read(s)
	}},
	{"rmp", rmp.ErrNotRMP, rmp.Sniff, func(r io.Reader, name string, s model.MethodSink, o MethodLogOptions) error {
		rd := rmp.NewReader(r, name)
		rd.Round, rd.Measured, rd.Area = o.Round, o.Measured, o.Area
		return rd.Read(s)
	}},
}

// MethodLogOptions choose what of a DPA or RMP log is imported (Traceview ignores them).
type MethodLogOptions struct {
	Measured bool                 // keep the times as measured: no clock-read or probe-cost deduction
	PID      int                  // DPA: the process section to import; 0 the first
	Round    int                  // RMP: the profiling round to import; 0 the first
	Area     *model.ProfilingArea // RMP: only spans in this resolution under these callers (zoom-in)
}

// methodFormat tells which method-trace reader takes path; "" when none does.
func methodFormat(path string) (int, error) {
	for i, f := range methodFormats {
		err := f.sniff(path)
		if err == nil {
			return i, nil
		}
		if !errors.Is(err, f.notMine) {
			return -1, err
		}
	}
	return -1, nil
}

// importMethodTrace reads one method trace, rebuilds its calls and stores it as a new run.
func (im Importer) importMethodTrace(ctx context.Context, run, path string, format int, progress func(done, total int64)) error {
	f, err := os.Open(path)
	if err != nil {
		return err
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return err
	}
	b := model.NewCallBuilder()
	spans := &model.SpanKeeper{}
	b.OnCall = spans.Add
	cf := &countingFile{File: f}
	sink := &methodProgress{MethodSink: b, ctx: ctx, file: cf, size: st.Size(), report: progress}
	if err := methodFormats[format].feed(cf, path, sink, im.MethodLog); err != nil {
		return err
	}
	if progress != nil {
		progress(st.Size(), st.Size())
	}
	t := &model.MethodTrace{Header: sink.header, Profile: b.Finish(), Spans: spans.Calls(), SpanMinMicros: spans.Min}
	if t.Header.Format == "" {
		t.Header.Format = methodFormats[format].name
	}
	if err := im.Store.ImportMethodRun(ctx, run, im.sourceOr("import "+path), t); err != nil {
		return err
	}
	if im.Methods != nil {
		im.Methods.Forget(run)
	}
	return nil
}

// countingFile counts how far a reader got, keeping the file seekable (the Traceview reader
// looks at a streaming trace's end for its summary).
type countingFile struct {
	*os.File
	pos int64
}

func (c *countingFile) Read(p []byte) (int, error) {
	n, err := c.File.Read(p)
	c.pos += int64(n)
	return n, err
}

func (c *countingFile) Seek(off int64, whence int) (int64, error) {
	pos, err := c.File.Seek(off, whence)
	if err == nil {
		c.pos = pos
	}
	return pos, err
}

// methodProgress passes a trace on to the call builder, keeping its header, reporting
// progress and noticing cancellation every few thousand events.
type methodProgress struct {
	model.MethodSink
	ctx    context.Context
	file   *countingFile
	size   int64
	report func(done, total int64)
	header model.TraceHeader
	events int
}

func (m *methodProgress) Header(h model.TraceHeader) error {
	m.header = h
	return m.MethodSink.Header(h)
}

func (m *methodProgress) Event(e model.MethodEvent) error {
	m.events++
	if m.events%8192 == 0 {
		if err := m.ctx.Err(); err != nil {
			return err
		}
		if m.report != nil {
			m.report(min(m.file.pos, m.size), m.size)
		}
	}
	return m.MethodSink.Event(e)
}

var errMixed = errors.New("a method trace, heap log or heap dump is imported on its own, into a run of its own")
