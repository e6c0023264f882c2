package cli

import (
	"context"
	"encoding/csv"
	"flag"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"

	"androprof/chart"
	"androprof/controller"
	"androprof/internal/human"
	"androprof/internal/termtext"
	"androprof/model"
	layersmodel "androprof/model/layers"
	"androprof/model/samples"
)

// listFlag is a comma-separated list flag that knows whether it was given: --app ” (every
// class outside the Java libraries is the application's) is not the same as no --app.
type listFlag struct {
	given bool
	items []string
}

func (l *listFlag) String() string { return strings.Join(l.items, ",") }
func (l *listFlag) Set(s string) error {
	l.given = true
	for _, item := range strings.Split(s, ",") {
		if item = strings.TrimSpace(item); item != "" {
			l.items = append(l.items, item)
		}
	}
	return nil
}

// list is the flag's items, nil when it was not given (and non-nil empty when given empty).
func (l *listFlag) list() []string {
	if !l.given {
		return nil
	}
	return append([]string{}, l.items...)
}

// targetFlags are a sampled run's targets of interest (VARI's method-, application- and
// service-specific levels). At import and vertical they choose what a recording keeps; at
// report and chart what an analysis looks at.
type targetFlags struct {
	threads, tids, focus, app listFlag
	from, to                  float64 // seconds from the recording's first sample
}

// addRecording adds the flags that choose what a recording keeps (import, vertical).
func (t *targetFlags) addRecording(fs *flag.FlagSet) {
	t.addCommon(fs, "sampled recordings: ")
	fs.Var(&t.app, "app", "sampled recordings: the application's Java `PKG,...` (default: every class outside java., jdk., sun., android. …)")
}

// addAnalysis adds the flags that choose what an analysis of a sampled run looks at.
func (t *targetFlags) addAnalysis(fs *flag.FlagSet) {
	t.addCommon(fs, "sampled runs: ")
	fs.Var(&t.focus, "focus", "sampled runs: only samples with one of these Java `PKG_OR_METHOD,...` on their stack (chart of a method trace, --by flame: only the stacks through a frame matching one of them as a regular expression)")
	fs.Var(&t.app, "app", "sampled runs: re-classify with these application `PKG,...` (default: the run's own)")
}

func (t *targetFlags) addCommon(fs *flag.FlagSet, what string) {
	fs.Var(&t.threads, "threads", what+"only threads of these `NAME,...` (a trailing * matches a prefix)")
	fs.Var(&t.tids, "tid", what+"only these thread ids `N,...`")
	fs.Float64Var(&t.from, "from", 0, what+"only samples from `S` seconds after the first")
	fs.Float64Var(&t.to, "to", 0, what+"only samples before `S` seconds after the first (0: to the end)")
}

// selection is the target as the model takes it.
func (t *targetFlags) selection() (samples.SampleSelection, error) {
	sel := samples.SampleSelection{ThreadNames: t.threads.list(), Focus: t.focus.list()}
	for _, s := range t.tids.items {
		tid, err := strconv.Atoi(s)
		if err != nil || tid < 0 {
			return sel, fmt.Errorf("%w: --tid %q: want thread ids, e.g. --tid 4711,4712", errUsage, s)
		}
		sel.TIDs = append(sel.TIDs, tid)
	}
	var err error
	if sel.FromNS, sel.ToNS, err = controller.SampleTimeWindow(t.from, t.to); err != nil {
		return sel, fmt.Errorf("%w: --from %g --to %g: %v (--to 0 is the end)", errUsage, t.from, t.to, err)
	}
	return sel, nil
}

// recording is the import's options for sampled recordings.
func (t *targetFlags) recording() (controller.SampleOptions, error) {
	sel, err := t.selection()
	return controller.SampleOptions{Target: sel, AppPackages: t.app.list()}, err
}

// sampleFlags are report's and chart's further flags for sampled runs.
type sampleFlags struct {
	target           targetFlags
	callers, callees string
	image            string
	csv              bool
}

func (s *sampleFlags) add(fs *flag.FlagSet, report bool) {
	s.target.addAnalysis(fs)
	if !report {
		return
	}
	fs.StringVar(&s.callers, "callers", "", "sampled runs: who calls `SYMBOL`, with samples (seed 004 figure 13); method traces: METHOD's parents")
	fs.StringVar(&s.callees, "callees", "", "sampled runs: what `SYMBOL` calls, with samples; method traces: METHOD's children")
	fs.StringVar(&s.image, "image", "", "sampled runs: --callers/--callees's symbol is in this `IMAGE` (when its name is in several)")
	fs.BoolVar(&s.csv, "csv", false, "sampled runs, emulator runs' reports and report --compare of emulator runs: write CSV")
}

// sampleSet loads a sampled run and keeps what the targets select.
func sampleSet(ctx context.Context, ws *controller.Workspace, run string, t targetFlags) (*samples.SampleSet, error) {
	sel, err := t.selection()
	if err != nil {
		return nil, err
	}
	return ws.Samples.Select(ctx, run, sel, t.app.list())
}

// sampleReport prints a sampled run's samples by layer (the default), image, symbol (seed 004
// table V), component or thread, or a symbol's callers and callees (figure 13).
func sampleReport(ctx context.Context, ws *controller.Workspace, rf reportFlags, sf sampleFlags, find string, asJSON bool, env Env) error {
	if rf.pid != 0 {
		return fmt.Errorf("%w: --pid: a sampled run takes --tid N,... or --threads NAME,...", errUsage)
	}
	if asJSON && sf.csv {
		return fmt.Errorf("%w: --json or --csv, not both", errUsage)
	}
	set, err := sampleSet(ctx, ws, rf.run, sf.target)
	if err != nil {
		return err
	}
	if sf.callers != "" || sf.callees != "" {
		return neighbourReport(set, rf, sf, asJSON, env)
	}
	by := controller.SampleBy(rf.by)
	if by == "" || rf.by == "pid" {
		by = controller.SampleByLayer
	}
	h := sampleHeader(rf.run, string(by), set)
	if by == controller.SampleByThread {
		rows := set.ByThread()
		if rf.top > 0 && len(rows) > rf.top {
			rows = rows[:rf.top]
		}
		switch {
		case asJSON:
			h["rows"] = threadRowsJSON(rows)
			return writeJSON(env.Stdout, h)
		case sf.csv:
			return writeThreadCSV(env.Stdout, rows)
		}
		writeSampleTotals(env.Stdout, rf.run, set)
		return writeThreadTable(env.Stdout, rows)
	}
	rows, ok := controller.SampleRows(set, by)
	if !ok {
		return fmt.Errorf("%w: --by %q: a sampled run is reported by layer, image, symbol, component or thread", errUsage, by)
	}
	if find != "" {
		var kept []samples.SampleRow
		for _, r := range rows {
			if containsFold(r.Key, find) || symbolFound(r, find) || containsFold(r.Image, find) {
				kept = append(kept, r)
			}
		}
		rows = kept
	}
	if rf.top > 0 && len(rows) > rf.top {
		rows = rows[:rf.top]
	}
	switch {
	case asJSON:
		h["rows"] = sampleRowsJSON(rows)
		return writeJSON(env.Stdout, h)
	case sf.csv:
		return writeSampleCSV(env.Stdout, rows, "")
	}
	writeSampleTotals(env.Stdout, rf.run, set)
	return writeSampleTable(env.Stdout, string(by), readableSymbols(rows, rf.rawNames))
}

// neighbourReport prints a symbol's callers and callees.
func neighbourReport(set *samples.SampleSet, rf reportFlags, sf sampleFlags, asJSON bool, env Env) error {
	name := sf.callers
	if name == "" {
		name = sf.callees
	} else if sf.callees != "" && sf.callees != name {
		return fmt.Errorf("%w: --callers and --callees name one symbol", errUsage)
	}
	id, err := controller.FindSymbol(set, name, sf.image)
	if err != nil {
		return err
	}
	callers, callees := set.Neighbours(id)
	if sf.callers == "" {
		callers = nil
	}
	if sf.callees == "" {
		callees = nil
	}
	if rf.top > 0 {
		callers, callees = callers[:min(rf.top, len(callers))], callees[:min(rf.top, len(callees))]
	}
	sym := set.Profile.Symbols[id]
	if asJSON {
		h := sampleHeader(rf.run, "neighbours", set)
		h["symbol"] = map[string]any{"symbol": layersmodel.DisplaySymbol(sym), "image": sym.Image, "layer": set.Layer(id).String()}
		if sf.callers != "" {
			h["callers"] = sampleRowsJSON(callers)
		}
		if sf.callees != "" {
			h["callees"] = sampleRowsJSON(callees)
		}
		return writeJSON(env.Stdout, h)
	}
	if sf.csv {
		if err := writeSampleCSV(env.Stdout, callers, "caller"); err != nil {
			return err
		}
		return writeSampleCSV(env.Stdout, callees, "callee")
	}
	writeSampleTotals(env.Stdout, rf.run, set)
	fmt.Fprintf(env.Stdout, "%s in %s (%s)\n", readableSymbolText(layersmodel.DisplaySymbol(sym), set.Layer(id), rf.rawNames), printable(sym.Image, ""), set.Layer(id))
	for _, part := range []struct {
		title string
		rows  []samples.SampleRow
		asked bool
	}{{"CALLERS", callers, sf.callers != ""}, {"CALLEES", callees, sf.callees != ""}} {
		if !part.asked {
			continue
		}
		fmt.Fprintln(env.Stdout)
		tw := termtext.NewTable(env.Stdout)
		fmt.Fprintf(tw, "SAMPLES\t%%\tLAYER\tIMAGE\t%s\n", part.title)
		for _, r := range readableSymbols(part.rows, rf.rawNames) {
			fmt.Fprintf(tw, "%d\t%.2f\t%s\t%s\t%s\n", r.Total, r.TotalPct, r.Layer, printable(r.Image, ""), printable(r.Symbol, ""))
		}
		if err := tw.Flush(); err != nil {
			return err
		}
	}
	return nil
}

// sampleHeader is what every JSON report of a sampled run starts with: the recording, and what
// the targets left out.
func sampleHeader(run, by string, set *samples.SampleSet) map[string]any {
	p := set.Profile
	app := p.AppPackages
	if set.LayerClassifier.AppPackages != nil {
		app = set.LayerClassifier.AppPackages
	}
	if app == nil {
		app = []string{}
	}
	return map[string]any{"run": run, "kind": model.RunKindSamples, "by": by,
		"format": p.Header.Format, "command": p.Header.Command, "event": p.Header.Event, "rate_hz": p.Header.RateHz,
		"app_packages": app,
		"samples": map[string]any{"stored": set.Total, "kept": set.Kept, "left_out": set.LeftOut, "left_out_why": set.LeftOutWhy,
			"left_out_recording": p.LeftOut, "left_out_recording_why": p.LeftOutWhy},
	}
}

// writeSampleTotals says which run, and what the targets left out: "12 345 of 20 000 samples;
// 7 655 left out by focus com.example".
func writeSampleTotals(w io.Writer, run string, set *samples.SampleSet) {
	h := set.Profile.Header
	what := h.Format
	if h.Event != "" {
		what += ", " + h.Event
	}
	if h.RateHz > 0 {
		what += fmt.Sprintf(" at %d Hz", h.RateHz)
	}
	if h.Command != "" {
		what += ": " + h.Command
	}
	fmt.Fprintf(w, "run %q (%s)\n%s\n\n", run, printable(what, ""), sampleScope(set))
}

// sampleScope says how many samples a selection keeps, and what it and the recording left out.
func sampleScope(set *samples.SampleSet) string {
	s := human.Count(set.Total, "sample", "samples")
	if set.LeftOut > 0 {
		s = fmt.Sprintf("%s of %s; %s left out by %s", human.Grouped(set.Kept), s, human.Grouped(set.LeftOut), set.LeftOutWhy)
	}
	return s + controller.RecordingLeftOut(set.Profile)
}

type sampleRowJSON struct {
	Key       string  `json:"key"`
	Layer     string  `json:"layer"`
	Component string  `json:"component,omitempty"`
	Image     string  `json:"image,omitempty"`
	Symbol    string  `json:"symbol,omitempty"`
	Self      int     `json:"self"`
	SelfPct   float64 `json:"self_pct"`
	Total     int     `json:"total"`
	TotalPct  float64 `json:"total_pct"`
}

func sampleRowsJSON(rows []samples.SampleRow) []sampleRowJSON {
	out := make([]sampleRowJSON, len(rows))
	for i, r := range rows {
		out[i] = sampleRowJSON{Key: controller.SampleRowLabel(r), Layer: r.Layer.String(), Component: r.Component, Image: r.Image, Symbol: r.Symbol,
			Self: r.Self, SelfPct: r.SelfPct, Total: r.Total, TotalPct: r.TotalPct}
	}
	return out
}

type threadRowJSON struct {
	PID      int            `json:"pid"`
	TID      int            `json:"tid"`
	Comm     string         `json:"comm"`
	Samples  int            `json:"samples"`
	TopLayer string         `json:"top_layer"`
	Layers   map[string]int `json:"layers"`
}

func threadRowsJSON(rows []samples.ThreadRow) []threadRowJSON {
	out := make([]threadRowJSON, len(rows))
	for i, r := range rows {
		layers := map[string]int{}
		for j, l := range layersmodel.Layers {
			layers[strings.ReplaceAll(l.String(), " ", "_")] = r.Layers[j] // a key: java_library
		}
		out[i] = threadRowJSON{PID: r.PID, TID: r.TID, Comm: r.Comm, Samples: r.Samples, TopLayer: r.Top.String(), Layers: layers}
	}
	return out
}

// writeSampleTable prints rows as seed 004's table V does: samples and share first.
func writeSampleTable(w io.Writer, by string, rows []samples.SampleRow) error {
	tw := termtext.NewTable(w)
	last := map[string]string{"layer": "", "image": "\tIMAGE", "symbol": "\tIMAGE\tSYMBOL", "component": "\tCOMPONENT"}[by]
	fmt.Fprintf(tw, "SELF\tSELF %%\tTOTAL\tTOTAL %%\tLAYER%s\n", last)
	for _, r := range rows {
		fmt.Fprintf(tw, "%d\t%.2f\t%d\t%.2f\t%s", r.Self, r.SelfPct, r.Total, r.TotalPct, r.Layer)
		switch by {
		case "image":
			fmt.Fprintf(tw, "\t%s", printable(r.Image, ""))
		case "symbol":
			fmt.Fprintf(tw, "\t%s\t%s", printable(r.Image, ""), printable(r.Symbol, ""))
		case "component":
			fmt.Fprintf(tw, "\t%s", printable(r.Component, ""))
		}
		fmt.Fprintln(tw)
	}
	return tw.Flush()
}

func writeThreadTable(w io.Writer, rows []samples.ThreadRow) error {
	tw := termtext.NewTable(w)
	fmt.Fprint(tw, "PID\tTID\tTHREAD\tSAMPLES\tTOP LAYER")
	for _, l := range layersmodel.Layers {
		fmt.Fprintf(tw, "\t%s", strings.ToUpper(l.String()))
	}
	fmt.Fprintln(tw)
	for _, r := range rows {
		fmt.Fprintf(tw, "%d\t%d\t%s\t%d\t%s", r.PID, r.TID, printable(r.Comm, ""), r.Samples, r.Top)
		for _, n := range r.Layers {
			fmt.Fprintf(tw, "\t%d", n)
		}
		fmt.Fprintln(tw)
	}
	return tw.Flush()
}

// writeSampleCSV writes rows with the JSON's field names as the header; relation, when set,
// is a first column saying what the rows are to the symbol ("caller", "callee").
func writeSampleCSV(w io.Writer, rows []samples.SampleRow, relation string) error {
	cw := csv.NewWriter(w)
	head := []string{"key", "layer", "component", "image", "symbol", "self", "self_pct", "total", "total_pct"}
	if relation != "" {
		head = append([]string{"relation"}, head...)
	}
	cw.Write(head)
	for _, r := range rows {
		rec := []string{controller.SampleRowLabel(r), r.Layer.String(), r.Component, r.Image, r.Symbol, strconv.Itoa(r.Self),
			strconv.FormatFloat(r.SelfPct, 'f', 4, 64), strconv.Itoa(r.Total), strconv.FormatFloat(r.TotalPct, 'f', 4, 64)}
		if relation != "" {
			rec = append([]string{relation}, rec...)
		}
		cw.Write(rec)
	}
	cw.Flush()
	return cw.Error()
}

func writeThreadCSV(w io.Writer, rows []samples.ThreadRow) error {
	cw := csv.NewWriter(w)
	head := []string{"pid", "tid", "comm", "samples", "top_layer"}
	for _, l := range layersmodel.Layers {
		head = append(head, l.String())
	}
	cw.Write(head)
	for _, r := range rows {
		rec := []string{strconv.Itoa(r.PID), strconv.Itoa(r.TID), r.Comm, strconv.Itoa(r.Samples), r.Top.String()}
		for _, n := range r.Layers {
			rec = append(rec, strconv.Itoa(n))
		}
		cw.Write(rec)
	}
	cw.Flush()
	return cw.Error()
}

// sampleDrawing draws a chart of a sampled run: the layers over time (layer-time, the default),
// samples by layer, image, symbol, component or thread, or the flame graph.
func sampleDrawing(ctx context.Context, ws *controller.Workspace, run, by string, t targetFlags, buckets int, shares bool) (chart.Drawing, error) {
	spec := controller.SampleChartSpec{By: controller.SampleBy(by), Buckets: buckets, Counts: !shares}
	if by == "" || by == "pid" {
		spec.By = controller.SampleByLayerTime
	}
	if !slices.Contains(controller.SampleCharts, spec.By) {
		return nil, fmt.Errorf("%w: --by %q: a sampled run's charts are layer-time, layer, image, symbol, component, thread or flame", errUsage, by)
	}
	sel, err := t.selection()
	if err != nil {
		return nil, err
	}
	return ws.Samples.Chart(ctx, run, sel, t.app.list(), spec)
}

// printSampleRun says what an imported sampled run holds, in a line.
func printSampleRun(ctx context.Context, ws *controller.Workspace, r model.RunInfo, asJSON bool, env Env) error {
	p, err := ws.Samples.Profile(ctx, r.Name)
	if err != nil {
		return err
	}
	if asJSON {
		return writeJSON(env.Stdout, map[string]any{"run": r.Name, "kind": r.Kind, "format": p.Header.Format, "event": p.Header.Event,
			"samples": len(p.Samples), "threads": len(p.Threads), "symbols": len(p.Symbols),
			"left_out_recording": p.LeftOut, "left_out_recording_why": p.LeftOutWhy})
	}
	left := ""
	if p.LeftOut > 0 {
		left = fmt.Sprintf(" (%s left out: %s)", human.Grouped(p.LeftOut), printable(p.LeftOutWhy, ""))
	}
	fmt.Fprintf(env.Stdout, "run %q: a sampled profile, %s%s in %s, %s (%s)\n",
		r.Name, human.Count(len(p.Samples), "sample", "samples"), left, human.Count(len(p.Threads), "thread", "threads"),
		human.Count(len(p.Symbols), "symbol", "symbols"), reportHint(r.Name, "--by", "layer"))
	return nil
}
