package cli

import (
	"context"
	"flag"
	"fmt"
	"io"

	"androprof/chart"
	"androprof/chart/render"
	"androprof/controller"
	"androprof/model"
	"androprof/model/cost"
)

// chartArgs are chart's flags: those every kind of run reads and each kind's own.
type chartArgs struct {
	rf      reportFlags
	metric  chart.Metric // emulator runs
	sources bool         // emulator runs, --metric sources: cycles by source per row
	kind    chart.Kind   // emulator runs and method traces
	figure  string       // heap logs and dumps
	hf      heapFlags
	mf      methodChartFlags
	sf      sampleFlags
	buckets int        // sampled runs, --by layer-time
	counts  bool       // sampled runs, --by layer-time
	focus   focusFlags // --by flame
}

// add registers the flags on fs; one flag set holds every kind's, since the kind is known
// only once --run is read.
func (a *chartArgs) add(fs *flag.FlagSet) (metric, kind *string) {
	fs.StringVar(&a.rf.run, "run", "", "run `NAME`")
	fs.StringVar(&a.rf.profile, "profile", "", "profile `NAME|FILE` (default: the window's for each run's instruction set: cortex-a8 for ARM and Thumb, cortex-a55 for AArch64, mips-74k for MIPS, atom-silvermont for x86-64); an item of an instruction set it does not price gets that set's default")
	fs.StringVar(&a.rf.by, "by", "pid", "bars per `pid|bb|insn|category|function|image|layer|syscall` (layer: each process split into program, libraries, loader; method traces: method|class|package|thread|flame; sampled runs: layer-time|layer|image|symbol|component|thread|flame)")
	fs.IntVar(&a.rf.pid, "pid", 0, "only this process (method traces: this thread)")
	fs.Float64Var(&a.rf.freq, "frequency-ghz", 0, "clock `GHz` (default: the profile's, else 1)")
	metric = fs.String("metric", "cycles", "`cycles|time|energy|instructions|sources` (sources: each row's category, pipeline and memory stall cycles)")
	kind = fs.String("kind", "bar", "`bar|column|pie`")
	a.hf.add(fs)
	fs.StringVar(&a.figure, "figure", "", "heap runs: the seed figure `5.1..5.23|NAME` (dumps: dump-classes|dump-packages|dump-sizes|dump-pointers)")
	a.mf.add(fs)
	a.sf.add(fs, false)
	a.focus.addChart(fs, &a.sf.target.focus)
	fs.IntVar(&a.buckets, "buckets", 100, "sampled runs, --by layer-time: columns `N`")
	fs.BoolVar(&a.counts, "counts", false, "sampled runs, --by layer-time: stack sample counts, not each column's shares")
	return metric, kind
}

// sourcesMetric is --metric sources: an emulator run's cycles by source (category, pipeline,
// memory stalls) per row, Analysis.SourcesChart.
const sourcesMetric = "sources"

// runChart writes the analysis window's charts as files: a run's chart or a comparison of
// runs, each drawn by its kind's entry in runKinds, as PNG or SVG by the file's extension.
func runChart(ctx context.Context, args []string, env Env) error {
	fs, dbPath := newFlags("chart", env)
	var a chartArgs
	metric, kind := a.add(fs)
	compare := fs.String("compare", "", "compare `RUN[:PID],RUN[:PID],...` instead of one run (with --by image: image by image)")
	out := fs.String("out", "", "output `FILE.png|FILE.svg|FILE.csv` (CSV: the numbers drawn)")
	width := fs.Int("width", 1200, "width in pixels")
	height := fs.Int("height", 700, "height in pixels")
	asJSON := fs.Bool("json", false, "write JSON for scripts")
	if _, err := parse(fs, args); err != nil {
		return err
	}
	if *out == "" {
		return fmt.Errorf("%w: chart needs --out FILE.png|FILE.svg|FILE.csv", errUsage)
	}
	format, err := render.FormatFor(*out)
	if err != nil {
		return fmt.Errorf("%w: %v", errUsage, err)
	}
	if a.sources = *metric == sourcesMetric; a.sources {
		a.metric = chart.Cycles
	} else if a.metric, err = chart.ParseMetric(*metric); err != nil {
		return fmt.Errorf("%w: %v (or %s)", errUsage, err, sourcesMetric)
	}
	if a.kind, err = chart.ParseKind(*kind); err != nil {
		return fmt.Errorf("%w: %v", errUsage, err)
	}
	ws, err := openDB(env, *dbPath, false)
	if err != nil {
		return err
	}
	defer ws.Close()
	d, err := drawChart(ctx, ws, *compare, a)
	if err != nil {
		return err
	}
	d, focused, err := a.focus.chart(d)
	if err != nil {
		return err
	}
	return writeDrawing(d, *out, format, *width, *height, *asJSON, a.focus.focusJSON(focused), env)
}

// drawChart draws what chart's flags ask: a comparison of the runs in compare, else a chart
// of the run --run names, by its kind.
func drawChart(ctx context.Context, ws *controller.Workspace, compare string, a chartArgs) (chart.Drawing, error) {
	if compare != "" {
		items, kind, err := compareList(ctx, ws, compare, chartCompares)
		if err != nil {
			return nil, err
		}
		return runKinds[kind].chartCompare(ctx, ws, items, a)
	}
	if a.rf.run == "" {
		return nil, fmt.Errorf("%w: chart takes --run NAME or --compare RUN,RUN,...", errUsage)
	}
	kind, err := ws.RunKind(ctx, a.rf.run)
	if err != nil {
		return nil, err
	}
	k, err := kindOf(a.rf.run, kind)
	if err != nil {
		return nil, err
	}
	return k.chart(ctx, ws, a)
}

// chartCompares is what chart --compare takes, and says what it does not.
var chartCompares = compareKinds{
	takes: func(kind model.RunKind) bool { return runKinds[kind].chartCompare != nil },
	what:  "chart --compare draws emulator runs or two method traces (report --compare puts two heap dumps side by side)",
}

// costChart is an emulator run's chart as the analysis window's tabs draw it: its report's
// rows (--by), its layers (--by layer, the Images tab) or its system calls (--by syscall).
func costChart(ctx context.Context, ws *controller.Workspace, a chartArgs) (chart.Drawing, error) {
	if a.rf.by == "syscall" {
		calls, err := ws.Costs.Syscalls(ctx, a.rf.run, a.rf.pid, false)
		if err != nil {
			return nil, err
		}
		return chart.FromSyscalls(a.rf.run, calls), nil
	}
	opts, err := a.rf.options(ctx, ws.Profiles, ws.Costs)
	if err != nil {
		return nil, err
	}
	if a.sources {
		return ws.Costs.SourcesChart(ctx, opts)
	}
	if opts.By == cost.ByLayer {
		return ws.Costs.LayerChart(ctx, opts, a.metric)
	}
	return ws.Costs.ReportChart(ctx, opts, a.metric, a.kind)
}

// costComparisonChart is the window's Compare tab's chart: emulator runs or processes side
// by side, or image by image (--by image).
func costComparisonChart(ctx context.Context, ws *controller.Workspace, items []cost.CompareItem, a chartArgs) (chart.Drawing, error) {
	forISA, err := compareProfiles(ctx, ws.Profiles, a.rf, true)
	if err != nil {
		return nil, err
	}
	if a.rf.by == string(cost.ByImage) {
		rows, err := ws.Costs.CompareImages(ctx, items, forISA, a.rf.freq)
		if err != nil {
			return nil, err
		}
		return chart.FromImageComparison(compareNames(items), rows, a.metric), nil
	}
	rows, err := ws.Costs.Compare(ctx, items, forISA, a.rf.freq)
	if err != nil {
		return nil, err
	}
	return chart.FromComparison(rows, a.metric, a.kind), nil
}

// writeDrawing writes a chart to path; a chart that cannot be drawn leaves path as it was.
func writeDrawing(d chart.Drawing, path string, format render.Format, width, height int, asJSON bool, focus []controller.FocusJSON, env Env) error {
	if err := writeOut(path, env, func(w io.Writer) error { return render.Render(w, d, format, width, height) }); err != nil {
		return err
	}
	if asJSON {
		j := map[string]any{"out": path, "empty": d.Empty()}
		if focus != nil {
			j["focus"] = focus
		}
		return writeJSON(env.Stdout, j)
	}
	fmt.Fprintln(env.Stdout, path)
	return nil
}
