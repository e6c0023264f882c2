package controller

import (
	"context"
	"fmt"
	"io"
	"slices"
	"strings"

	"androprof/internal/human"
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
	formatHTML       = ExportFormat{"html", ".html", "any web browser, offline (the run's report: summary, charts, tables, flame graph)"}
)

// exportFormats are the formats of each kind of run.
var exportFormats = map[model.RunKind][]ExportFormat{
	model.RunKindEmulator: {formatHTML},
	model.RunKindMethods:  {formatChrome, formatPerfetto, formatSpeedscope, formatFolded, formatPprof, formatHTML},
	model.RunKindSamples:  {formatSpeedscope, formatFolded, formatPprof, formatHTML},
	model.RunKindHeap:     {formatChrome, formatHTML},
	model.RunKindHeapDump: {formatHTML},
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
	TID   int          // one thread, 0 for every thread
	Clock string       // method runs: "wall" (real time) or "cpu" (thread-CPU); "": wall when the trace has it
	Focus FocusOptions // folded stacks only (a graph's stacks); other formats refuse it
}

// ExportSummary says what an export wrote, for the command's output and the window's notice.
type ExportSummary struct {
	Run, Format string
	Events      int             // records written: trace events, packets, speedscope events and samples, folded lines, pprof samples
	Records     string          // what a record is when not "record": "call path" (pprof of a method run)
	Slices      int             // calls written as slices (method runs' chrome, perfetto, speedscope)
	Threads     int             // threads (or, for pprof and folded, 0: they do not count them)
	Clock       string          // the clock of the times written ("real time", "thread-CPU"); "" when none applies
	Partial     string          // why not every call is in it ("" when all are)
	Focused     []flame.Focused // what the focus steps hid or moved (ExportOptions.Focus)
}

// Text says what an export wrote, as the command line and the window say it: the calls written
// as slices, the records, the threads and the clock (an HTML report: that it is one page).
func (s ExportSummary) Text() string {
	if s.Format == formatHTML.Name {
		return "the run's report as one self-contained page (opens in any web browser, no network)"
	}
	text := human.Count(s.Events, "record", "records")
	if s.Records != "" {
		text = human.Count(s.Events, s.Records, s.Records+"s")
	}
	if s.Slices > 0 {
		text = human.Count(s.Slices, "call", "calls") + " as slices, " + text
	}
	if s.Threads > 0 {
		text += " on " + human.Count(s.Threads, "thread", "threads")
	}
	if s.Clock != "" {
		text += ", " + s.Clock
	}
	return text
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
	if !opts.Focus.Empty() && format != formatFolded.Name {
		return ExportSummary{}, fmt.Errorf("run %s as %s: focus applies to folded stacks only (%s is not a flame graph's stacks)", RunText(run), format, format)
	}
	if format == formatHTML.Name {
		if opts.TID != 0 || opts.Clock != "" {
			return ExportSummary{}, fmt.Errorf("the HTML report of run %s covers every thread and clock: it takes no thread or clock", RunText(run))
		}
		return ExportSummary{Run: run, Format: format}, w.HTMLReport(ctx, run, out)
	}
	if kind != model.RunKindMethods && opts.Clock != "" {
		return ExportSummary{}, fmt.Errorf("run %s is %s: only method traces have a clock to choose", RunText(run), model.RunKindText(kind))
	}
	var s ExportSummary
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
func exportFolded(root *flame.Node, focus FocusOptions, out io.Writer) (ExportSummary, error) {
	root, focused, err := ApplyFocus(root, focus)
	if err != nil {
		return ExportSummary{}, err
	}
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
	return ExportSummary{Events: lines, Focused: focused}, flame.WriteFolded(out, root)
}
