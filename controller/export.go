package controller

import (
	"context"
	"fmt"
	"io"
	"slices"
	"strings"

	"androprof/model"
	"androprof/model/flame"
)

// ExportFormat is a file format a run can be written in for another tool.
type ExportFormat struct {
	Name  string // as `androprof export --format` takes it
	Ext   string // the file name's usual ending, with its dot
	Opens string // which tools open it
}

// Export formats by name.
var (
	formatChrome     = ExportFormat{"chrome", ".json", "chrome://tracing, ui.perfetto.dev, speedscope"}
	formatPerfetto   = ExportFormat{"perfetto", ".perfetto-trace", "ui.perfetto.dev, trace_processor"}
	formatSpeedscope = ExportFormat{"speedscope", ".speedscope.json", "speedscope (www.speedscope.app, npx speedscope)"}
	formatFolded     = ExportFormat{"folded", ".folded", "FlameGraph's flamegraph.pl, inferno, speedscope"}
	formatPprof      = ExportFormat{"pprof", ".pb.gz", "go tool pprof"}
)

// exportFormats are the formats of each kind of run.
var exportFormats = map[model.RunKind][]ExportFormat{
	model.RunKindMethods: {formatChrome, formatPerfetto, formatSpeedscope, formatFolded, formatPprof},
	model.RunKindSamples: {formatSpeedscope, formatFolded, formatPprof},
	model.RunKindHeap:    {formatChrome},
	// The HTML report (Workspace.HTMLReport) is for every kind: an ExportFormat "html" in each
	// list, and its case at the top of Export.
}

// ExportFormats lists the formats a kind of run can be exported in, for the command's usage
// error and the window's format list (empty: none).
func ExportFormats(kind model.RunKind) []ExportFormat { return slices.Clone(exportFormats[kind]) }

// ExportFormatNames lists the names of a kind's formats, for messages.
func ExportFormatNames(kind model.RunKind) string {
	var names []string
	for _, f := range exportFormats[kind] {
		names = append(names, f.Name)
	}
	if len(names) == 0 {
		return "none"
	}
	return strings.Join(names, ", ")
}

// ExportOptions are the choices of an export.
type ExportOptions struct {
	TID   int    // one thread, 0 for every thread
	Clock string // method runs: "wall" (real time) or "cpu" (thread-CPU); "": wall when the trace has it
}

// ExportSummary says what an export wrote, for the command's output and the window's notice.
type ExportSummary struct {
	Run, Format string
	Events      int    // records written: trace events, packets, speedscope events and samples, folded lines, pprof samples
	Slices      int    // calls written as slices (method runs' chrome, perfetto, speedscope)
	Threads     int    // threads (or, for pprof and folded, 0: they do not count them)
	Clock       string // the clock of the times written ("real time", "thread-CPU"); "" when none applies
	Partial     string // why not every call is in it ("" when all are)
}

// ErrNoExportFormat says a run's kind has no export of the asked format; its message lists those
// it has.
type ErrNoExportFormat struct {
	Run    string
	Kind   model.RunKind
	Format string
}

func (e *ErrNoExportFormat) Error() string {
	return fmt.Sprintf("run %s is %s: it exports as %s, not %q", RunText(e.Run), model.RunKindText(e.Kind),
		ExportFormatNames(e.Kind), e.Format)
}

// Export writes a run in a format another tool opens (ExportFormats lists each kind's): the one
// door the command line and the window's File ▸ Export… go through.
func (w *Workspace) Export(ctx context.Context, run, format string, opts ExportOptions, out io.Writer) (ExportSummary, error) {
	kind, err := w.RunKind(ctx, run)
	if err != nil {
		return ExportSummary{}, err
	}
	if !slices.ContainsFunc(exportFormats[kind], func(f ExportFormat) bool { return f.Name == format }) {
		return ExportSummary{}, &ErrNoExportFormat{Run: run, Kind: kind, Format: format}
	}
	if kind != model.RunKindMethods && opts.Clock != "" {
		return ExportSummary{}, fmt.Errorf("run %s is %s: only method traces have a clock to choose", RunText(run), model.RunKindText(kind))
	}
	var s ExportSummary
	// The HTML report, of any kind, goes here: if format == "html" { … w.HTMLReport(ctx, run, out) }.
	switch kind {
	case model.RunKindMethods:
		s, err = w.Methods.export(ctx, run, format, opts, out)
	case model.RunKindSamples:
		s, err = w.Samples.export(ctx, run, format, opts, out)
	case model.RunKindHeap:
		s, err = w.HeapLogs.exportChrome(ctx, run, opts, out)
	}
	s.Run, s.Format = run, format
	if err != nil {
		return s, fmt.Errorf("export run %s as %s: %w", RunText(run), format, err)
	}
	return s, nil
}

// exportFolded writes a flame graph as folded stacks; the lines are its frames with time of
// their own.
func exportFolded(root *flame.Node, out io.Writer) (ExportSummary, error) {
	lines := 0
	var count func(n *flame.Node)
	count = func(n *flame.Node) {
		if n.Self > 0 {
			lines++
		}
		for _, c := range n.Children {
			count(c)
		}
	}
	for _, c := range root.Children {
		count(c)
	}
	return ExportSummary{Events: lines}, flame.WriteFolded(out, root)
}
