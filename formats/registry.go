// Package formats is the one list of the input formats `androprof import` reads. Each format is
// registered once, below: its name, the kind of run it makes, how to recognise it from a file's
// first bytes, and how to stream it into its sink. Recognize opens nothing itself: the importer
// opens a file once, and Recognize reads its start once (decompressing a gzip file once), tells
// the format, and hands back the content counted by the import's one progress and cancel reader.
//
// Adding a format of a kind the importer knows is one entry in All and its reader package,
// nothing else. The format packages never import this one.
package formats

import (
	"errors"
	"fmt"
	"io"

	"androprof/formats/bbprofile"
	"androprof/formats/dpa"
	"androprof/formats/heaplog"
	"androprof/formats/hprof"
	"androprof/formats/perfscript"
	"androprof/formats/qemulog"
	"androprof/formats/rmp"
	"androprof/formats/traceview"
	"androprof/internal/inputerr"
	"androprof/model"
	"androprof/model/calls"
	"androprof/model/cost"
	"androprof/model/heap"
	"androprof/model/samples"
)

// Options are what the user chose for an import; each format takes what applies to it.
type Options struct {
	ISAs   []cost.ISA // QEMU logs: what log text without encodings is (nil: decided from the logs)
	Method MethodOptions
	// WeakRetains counts the referents of weak, soft, phantom and finalizer references as
	// retained by them in a heap dump's retained sizes (hprof.GraphOptions.Weak).
	WeakRetains bool
}

// MethodOptions choose what of a DPA or RMP log is imported (Traceview ignores them).
type MethodOptions struct {
	Measured bool                 // keep the times as measured: no clock-read or probe-cost deduction
	PID      int                  // DPA: the process section to import; 0 the first
	Round    int                  // RMP: the profiling round to import; 0 the first
	Area     *calls.ProfilingArea // RMP: only spans in this resolution under these callers (zoom-in)
}

// Format is one input format. Exactly one Read function is set, the one of its Kind.
type Format struct {
	Name string
	// Kind is the kind of run the format makes, so the importer knows which sink it needs. The
	// files of one import make one emulator run (ReadBlocks); every other kind is one file, one
	// run.
	Kind model.RunKind
	Gzip bool // a gzip-compressed file of the format is read too
	// Passes is how often reading goes through the file, so progress can be shown over all of
	// them; 0 means once.
	Passes int
	// Sniff answers from a file's first bytes (HeadSize at most, decompressed): nil when the
	// file is in this format, an error wrapping NotMine when it is not, so the next format is
	// tried; any other error stops recognition (google/pprof's ordered parsers).
	Sniff   func(head []byte) error
	NotMine error

	ReadBlocks   func(ins []*Input, o Options, sink cost.BlockSink) error
	ReadMethods  func(in *Input, o Options, sink calls.MethodSink) (calls.TraceHeader, error)
	ReadHeapLog  func(in *Input, sink heap.HeapSink) error
	ReadHeapDump func(in *Input, o Options) (*heap.HeapDump, error)
	ReadSamples  func(in *Input, o Options, sink samples.SampleSink) (samples.SampleHeader, error)
}

// sampleCounter counts the samples on their way to sink.
type sampleCounter struct {
	sink samples.SampleSink
	n    int
}

func (c *sampleCounter) Sample(s *samples.Sample) error {
	c.n++
	return c.sink.Sample(s)
}

// All are the formats in the order Recognize tries them: strict magic numbers first, the
// text sniffers after them, the QEMU log (any text whose first record parses) last.
var All = []*Format{
	{Name: "hprof", Kind: model.RunKindHeapDump, Gzip: true, Passes: 3, Sniff: hprof.Sniff, NotMine: hprof.ErrNotHPROF,
		ReadHeapDump: func(in *Input, o Options) (*heap.HeapDump, error) {
			rs, ok := in.R.(io.ReadSeeker)
			if !ok {
				return nil, fmt.Errorf("%s: a heap dump is read more than once, so it must be a file, not a pipe", in.Name)
			}
			return hprof.SummarizeWithObjects(rs, in.Name, hprof.GraphOptions{Weak: o.WeakRetains})
		}},
	{Name: "traceview", Kind: model.RunKindMethods, Gzip: true, Sniff: traceview.Sniff, NotMine: traceview.ErrNotTraceview,
		ReadMethods: func(in *Input, _ Options, sink calls.MethodSink) (calls.TraceHeader, error) {
			r := traceview.NewReader(in.R, in.Name)
			err := r.Feed(sink)
			return r.Header(), err
		}},
	{Name: "heaplog", Kind: model.RunKindHeap, Gzip: true, Sniff: heaplog.Sniff, NotMine: heaplog.ErrNotHeapLog,
		ReadHeapLog: func(in *Input, sink heap.HeapSink) error {
			return heaplog.NewReader(in.R, in.Name).Feed(sink)
		}},
	{Name: "dpa", Kind: model.RunKindMethods, Gzip: true, Sniff: dpa.Sniff, NotMine: dpa.ErrNotDPA,
		ReadMethods: func(in *Input, o Options, sink calls.MethodSink) (calls.TraceHeader, error) {
			r := dpa.NewReader(in.R, in.Name)
			r.PID, r.Measured = o.Method.PID, o.Method.Measured
			err := r.Feed(sink)
			return r.Header(), err
		}},
	{Name: "rmp", Kind: model.RunKindMethods, Gzip: true, Sniff: rmp.Sniff, NotMine: rmp.ErrNotRMP,
		ReadMethods: func(in *Input, o Options, sink calls.MethodSink) (calls.TraceHeader, error) {
			r := rmp.NewReader(in.R, in.Name)
			r.Round, r.Measured, r.Area = o.Method.Round, o.Method.Measured, o.Method.Area
			err := r.Feed(sink)
			return r.Header(), err
		}},
	{Name: "bbprofile", Kind: model.RunKindEmulator, Gzip: true, Sniff: bbprofile.Sniff, NotMine: bbprofile.ErrNotBBProfile,
		ReadBlocks: func(ins []*Input, _ Options, sink cost.BlockSink) error {
			for _, in := range ins { // one by one: each file holds whole processes
				if err := bbprofile.NewReader(in.R, in.Name).Feed(sink); err != nil {
					return err
				}
			}
			return nil
		}},
	{Name: "perf-script", Kind: model.RunKindSamples, Gzip: true, Sniff: perfscript.Sniff, NotMine: perfscript.ErrNotPerfScript,
		ReadSamples: func(in *Input, _ Options, sink samples.SampleSink) (samples.SampleHeader, error) {
			r := perfscript.NewReader(in.R, in.Name)
			counted := &sampleCounter{sink: sink}
			if err := r.Feed(counted); err != nil {
				return r.Header(), err
			}
			if counted.n == 0 { // a run of nothing helps no one
				return r.Header(), &inputerr.Error{File: in.Name, Line: r.Line(), Msg: "no sample: perf script's text ends here " +
					"without one (an empty recording, or a file cut short)"}
			}
			return r.Header(), nil
		}},
	{Name: "qemu-log", Kind: model.RunKindEmulator, Gzip: true, Sniff: qemulog.Sniff, NotMine: qemulog.ErrNotQEMULog,
		ReadBlocks: func(ins []*Input, o Options, sink cost.BlockSink) error {
			logs := make([]qemulog.Input, len(ins))
			for i, in := range ins { // together: translations and executions may be in separate files
				logs[i] = qemulog.Input{Name: in.Name, R: in.R}
			}
			return qemulog.ReadLogs(logs, o.ISAs, sink)
		}},
}

// ErrUnknownFormat says no format recognised a file.
var ErrUnknownFormat = errors.New("not a format androprof can import")

// recognize finds the format of a file from its first bytes; gz says they were decompressed.
func recognize(name string, head []byte, gz bool) (*Format, error) {
	for _, f := range All {
		if gz && !f.Gzip {
			continue
		}
		err := f.Sniff(head)
		if err == nil {
			return f, nil
		}
		if !errors.Is(err, f.NotMine) {
			return nil, fmt.Errorf("%s: %w", name, err)
		}
	}
	return nil, fmt.Errorf("%s: %w", name, ErrUnknownFormat)
}
