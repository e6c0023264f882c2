package controller

import (
	"context"
	"fmt"

	"androprof/chart"
	"androprof/export/htmlreport"
	"androprof/model/calls"
	"androprof/model/cost"
	heapmodel "androprof/model/heap"
	layersmodel "androprof/model/layers"
	"androprof/model/samples"
)

// The pages of each kind of run (HTMLReport): what report --json and the window's tabs show.

// costHTML is an emulator run's page: report's totals under the window's default profile,
// the processes and functions, and the charts of the window's tabs.
func costHTML(ctx context.Context, w *Workspace, run string, doc *htmlreport.Document) error {
	d, err := w.Costs.Load(ctx, run)
	if err != nil {
		return err
	}
	infos, err := w.Profiles.List(ctx)
	if err != nil {
		return err
	}
	p, err := w.Profiles.Default(ctx, infos, d.MainISA(0))
	if err != nil {
		return err
	}
	opts := cost.ReportOptions{Run: run, Profile: p, By: cost.ByPID}
	rep, err := w.Costs.Report(ctx, opts)
	if err != nil {
		return err
	}
	doc.Summary = costSummary(rep)
	if note := rep.ClockNote(); note != "" {
		doc.Notes = append(doc.Notes, note)
	}
	doc.Notes = append(doc.Notes, rep.Coverage.Warnings()...)
	fnOpts := opts
	fnOpts.By = cost.ByFunction
	fns, err := w.Costs.Report(ctx, fnOpts)
	if err != nil {
		return err
	}
	priced := fmt.Sprintf("Priced with %s at %g GHz.", rep.Profile, rep.FrequencyGHz)
	doc.Tables = append(doc.Tables, htmlreport.NewTable("Processes", priced, rep.Rows, costColumns("Process")),
		htmlreport.NewTable("Functions", priced, fns.Rows, costColumns("Function")))
	by := func(g cost.Grouping, title string) func() (string, chart.Drawing, error) {
		return func() (string, chart.Drawing, error) {
			o := opts
			o.By = g
			c, err := w.Costs.ReportChart(ctx, o, chart.Cycles, chart.Bars)
			return title, c, err
		}
	}
	return addCharts(doc, by(cost.ByPID, "Cycles by process"), by(cost.ByFunction, "Cycles by function"),
		by(cost.ByImage, "Cycles by image"), by(cost.ByCategory, "Cycles by category"),
		func() (string, chart.Drawing, error) {
			c, err := w.Costs.LayerChart(ctx, opts, chart.Cycles)
			return "Cycles by layer", c, err
		},
		func() (string, chart.Drawing, error) {
			c, err := w.Costs.SourcesChart(ctx, opts)
			return "Cycles by source", c, err
		},
		func() (string, chart.Drawing, error) {
			rows, err := w.Costs.Syscalls(ctx, run, 0, false)
			return "System calls", chart.FromSyscalls(run, rows), err
		})
}

// costSummary is report --json's totals, coverage and estimate of an emulator run.
func costSummary(rep *cost.Report) []htmlreport.Field {
	t, cov, wf := rep.Total, rep.Coverage, rep.Waterfall
	out := []htmlreport.Field{
		field("profile", "Profile", rep.Profile, ""),
		field("frequency_ghz", "Clock", rep.FrequencyGHz, "GHz"),
		field("frequency_assumed", "Clock assumed", rep.FrequencyAssumed, ""),
		field("totals.instructions", "Instructions", t.Instructions, ""),
		field("totals.blocks_executed", "Blocks executed", t.Blocks, ""),
		field("totals.cycles", "Cycles (categories)", t.Cycles, "cycles"),
		field("totals.time_s", "Time", t.TimeS, "s"),
		field("totals.energy_j", "Energy", knownValue(t.EnergyJ, t.EnergyKnown()), "J"),
	}
	for _, c := range rep.Columns() {
		v, ok := c.Value(t, rep)
		out = append(out, field("totals."+c.Key, c.Label, knownValue(v, ok), c.Unit))
	}
	return append(out,
		field("undefined_instructions", "Instructions in Undefined", cov.Undefined, ""),
		field("undefined_share", "Share in Undefined", cov.UndefinedShare(), "of instructions"),
		field("energy_known", "Energy known", !cov.PowerUnknown(), ""),
		field("waterfall.total_cycles", "Estimated cycles (step by step)", wf.TotalCycles, "cycles"),
		field("waterfall.time_s", "Estimated time", wf.TimeS, "s"),
		field("waterfall.energy_j", "Estimated energy", knownValue(wf.EnergyJ, wf.CoreEnergyKnown || wf.MemoryEnergyKnown), "J"))
}

// costColumns are the columns of a cost report's rows; key heads the rows' names.
func costColumns(key string) []htmlreport.Col[cost.ReportRow] {
	return []htmlreport.Col[cost.ReportRow]{
		htmlreport.TextCol(key, func(r cost.ReportRow) string { return r.Key }),
		htmlreport.NumCol("Instructions", func(r cost.ReportRow) htmlreport.Cell { return htmlreport.Count(r.Instructions) }),
		htmlreport.NumCol("Blocks executed", func(r cost.ReportRow) htmlreport.Cell { return htmlreport.Count(r.Blocks) }),
		htmlreport.NumCol("Cycles", func(r cost.ReportRow) htmlreport.Cell { return htmlreport.Float(r.Cycles) }),
		htmlreport.NumCol("Time (s)", func(r cost.ReportRow) htmlreport.Cell { return htmlreport.Float(r.TimeS) }),
		htmlreport.NumCol("Energy (J)", func(r cost.ReportRow) htmlreport.Cell {
			if !r.EnergyKnown() {
				return htmlreport.Unknown()
			}
			return htmlreport.Float(r.EnergyJ)
		}),
		htmlreport.TextCol("Image", func(r cost.ReportRow) string { return r.Image }),
	}
}

// methodHTML is a method trace's page: report's totals by method, the methods and threads, the
// window's charts and the flame graph of every thread, on thread-CPU time when the trace has
// it (as the window opens).
func methodHTML(ctx context.Context, w *Workspace, run string, doc *htmlreport.Document) error {
	ma := w.Methods
	rep, err := ma.Report(ctx, calls.MethodReportOptions{Run: run, By: calls.ByMethod})
	if err != nil {
		return err
	}
	cpu, real := ChartClocks(rep.Clock)
	us := func(v uint64, has bool) any {
		if !has {
			return nil
		}
		return v
	}
	doc.Summary = []htmlreport.Field{
		field("clock", "Clock", string(rep.Clock), ""),
		field("totals.cpu_us", "Thread-CPU time", us(rep.TotalCPU, rep.Clock.HasCPU()), "µs"),
		field("totals.real_us", "Real time", us(rep.TotalWall, rep.Clock.HasWall()), "µs"),
		field("totals.process_cpu_us", "Process thread-CPU time (Σ level 1)", us(rep.ProcessCPU, rep.Clock.HasCPU()), "µs"),
		field("totals.process_real_us", "Process real time (Σ level 1)", us(rep.ProcessWall, rep.Clock.HasWall()), "µs"),
	}
	threads, err := ma.Report(ctx, calls.MethodReportOptions{Run: run, By: calls.ByThread})
	if err != nil {
		return err
	}
	cols := methodColumns(rep.Clock)
	doc.Tables = append(doc.Tables, htmlreport.NewTable("Methods", "Times in µs; percentages of the selected threads' total.", rep.Rows, cols),
		htmlreport.NewTable("Threads", "Times in µs.", threads.Rows, cols))
	if !cpu && !real {
		return nil
	}
	root, err := ma.Flame(ctx, run, FlameOptions{Wall: !cpu, Name: calls.ShortName})
	if err != nil {
		return err
	}
	clock := FlameClockText(!cpu)
	doc.Flame = &htmlreport.Flame{Title: "Flame graph — every thread, " + clock + " time", Unit: "µs of " + clock + " time", Root: root}
	var charts []func() (string, chart.Drawing, error)
	for _, g := range []calls.MethodGrouping{calls.ByMethod, calls.ByClass, calls.ByPackage, calls.ByThread} {
		charts = append(charts, func() (string, chart.Drawing, error) {
			c, err := ma.Chart(ctx, MethodChartOptions{Run: run, By: g, CPU: cpu, Kind: chart.Bars})
			// Readable Java names, as the window and `androprof chart` draw them by default.
			return fmt.Sprintf("Exclusive %s time by %s", clock, g), chart.ReadableMethodLabels(c, g), err
		})
	}
	return addCharts(doc, charts...)
}

// methodColumns are the columns of a method report's rows, as Traceview's profile table has
// them, names as Java reads them and raw; a clock the trace does not have is unknown.
func methodColumns(clock calls.Clock) []htmlreport.Col[calls.MethodRow] {
	us := func(has bool, v func(calls.MethodRow) uint64) func(calls.MethodRow) htmlreport.Cell {
		return func(r calls.MethodRow) htmlreport.Cell {
			if !has {
				return htmlreport.Unknown()
			}
			return htmlreport.Count(v(r))
		}
	}
	pct := func(has bool, v func(calls.MethodRow) float64) func(calls.MethodRow) htmlreport.Cell {
		return func(r calls.MethodRow) htmlreport.Cell {
			if !has {
				return htmlreport.Unknown()
			}
			return htmlreport.Number(v(r), fmt.Sprintf("%.1f", v(r)))
		}
	}
	cpu, wall := clock.HasCPU(), clock.HasWall()
	return []htmlreport.Col[calls.MethodRow]{
		htmlreport.TextCol("Name", func(r calls.MethodRow) string { return r.Readable.Short }),
		htmlreport.TextCol("Package", func(r calls.MethodRow) string { return r.Readable.Package }),
		htmlreport.NumCol("Incl CPU µs", us(cpu, func(r calls.MethodRow) uint64 { return r.Times.InclusiveCPU })),
		htmlreport.NumCol("Incl CPU %", pct(cpu, func(r calls.MethodRow) float64 { return r.InclCPU })),
		htmlreport.NumCol("Excl CPU µs", us(cpu, func(r calls.MethodRow) uint64 { return r.Times.ExclusiveCPU })),
		htmlreport.NumCol("Excl CPU %", pct(cpu, func(r calls.MethodRow) float64 { return r.ExclCPU })),
		htmlreport.NumCol("Incl real µs", us(wall, func(r calls.MethodRow) uint64 { return r.Times.InclusiveWall })),
		htmlreport.NumCol("Excl real µs", us(wall, func(r calls.MethodRow) uint64 { return r.Times.ExclusiveWall })),
		htmlreport.NumCol("Calls", func(r calls.MethodRow) htmlreport.Cell { return htmlreport.Count(r.Times.Calls) }),
		htmlreport.NumCol("Recursive calls", func(r calls.MethodRow) htmlreport.Cell { return htmlreport.Count(r.Times.RecursiveCalls) }),
		htmlreport.TextCol("Raw name", func(r calls.MethodRow) string { return r.Key }), // as dmtracedump prints it
	}
}

// heapLogHTML is a heap log's page at its imported cohort size: the seed's characteristics,
// the classes and threads, and every figure of chapter 5.
func heapLogHTML(ctx context.Context, w *Workspace, run string, doc *htmlreport.Document) error {
	p, err := w.HeapLogs.Profile(ctx, run, 1)
	if err != nil {
		return err
	}
	ch := p.Characteristics()
	doc.Summary = []htmlreport.Field{
		field("vm", "Virtual machine", p.Header.VM, ""),
		field("cohort_bytes", "Cohort", p.Cohort, "bytes"),
		field("total_allocation_bytes", "Total allocation", ch.TotalAllocation, "bytes"),
		field("total_objects", "Objects allocated", ch.TotalObjects, ""),
		field("max_live_bytes", "Maximum live", ch.MaxLive, "bytes"),
		field("max_live_objects", "Objects at maximum live", ch.MaxLiveObjects, ""),
		field("max_live_at", "Maximum live at", ch.MaxLiveAt, "bytes allocated"),
		field("live_objects", "Live objects at the end", ch.LiveObjects, ""),
		field("live_bytes", "Live at the end", ch.LiveBytes, "bytes"),
		field("freed_objects", "Objects freed", ch.FreedObjects, ""),
		field("loaded_classes", "Loaded classes", ch.LoadedClasses, ""),
		field("array_classes", "Array classes", ch.ArrayClasses, ""),
		field("threads", "Threads", ch.Threads, ""),
		field("gcs", "Garbage collections", ch.GCs, ""),
		field("pointer_mutations", "Pointer mutations", ch.Mutations, ""),
		field("unknown_frees", "Deaths of objects never allocated", ch.UnknownFrees, ""),
	}
	cols := heapColumns()
	doc.Tables = append(doc.Tables, htmlreport.NewTable("Classes", "Live: at the end of the log.", p.Table(heapmodel.ScopeClass), cols),
		htmlreport.NewTable("Threads", "Live: at the end of the log.", p.Table(heapmodel.ScopeThread), cols))
	var charts []func() (string, chart.Drawing, error)
	for _, f := range chart.HeapFigures {
		charts = append(charts, func() (string, chart.Drawing, error) {
			d, err := w.HeapLogs.Figure(ctx, run, 1, f)
			return fmt.Sprintf("Figure %s: %s", f.Seed, f.Title), d, err
		})
	}
	return addCharts(doc, charts...)
}

// heapColumns are the columns of a heap log's table, as report --by class prints them.
func heapColumns() []htmlreport.Col[heapmodel.HeapRow] {
	return []htmlreport.Col[heapmodel.HeapRow]{
		htmlreport.TextCol("Name", func(r heapmodel.HeapRow) string { return r.Name }),
		htmlreport.NumCol("Live objects", func(r heapmodel.HeapRow) htmlreport.Cell { return htmlreport.Count(r.Live.Objects) }),
		htmlreport.NumCol("Live %", func(r heapmodel.HeapRow) htmlreport.Cell {
			return htmlreport.Number(r.LivePercent, fmt.Sprintf("%.2f", r.LivePercent))
		}),
		htmlreport.NumCol("Live bytes", func(r heapmodel.HeapRow) htmlreport.Cell { return htmlreport.Count(r.Live.Bytes) }),
		htmlreport.NumCol("Objects allocated", func(r heapmodel.HeapRow) htmlreport.Cell { return htmlreport.Count(r.Total.Objects) }),
		htmlreport.NumCol("Bytes allocated", func(r heapmodel.HeapRow) htmlreport.Cell { return htmlreport.Count(r.Total.Bytes) }),
		htmlreport.NumCol("Arrays", func(r heapmodel.HeapRow) htmlreport.Cell { return htmlreport.Count(r.Total.ArrayObjects) }),
		htmlreport.NumCol("Average lifetime (bytes)", func(r heapmodel.HeapRow) htmlreport.Cell {
			if r.Died.Objects == 0 {
				return htmlreport.Unknown() // none died: no lifetime to average
			}
			return htmlreport.Float(r.AvgLifetime)
		}),
	}
}

// dumpHTML is a heap dump's page: report's summary, the classes and packages of every heap,
// and the dump's figures.
func dumpHTML(ctx context.Context, w *Workspace, run string, doc *htmlreport.Document) error {
	d, err := w.HeapDumps.Dump(ctx, run)
	if err != nil {
		return err
	}
	ch := d.Characteristics()
	doc.Summary = []htmlreport.Field{
		field("version", "Format", d.Version, ""),
		field("id_size", "Identifier size", d.IDSize, "bytes"),
		field("objects", "Objects", ch.Objects, ""),
		field("bytes", "Bytes", ch.Bytes, "bytes"),
		field("instances", "Instances", ch.Instances.Objects, ""),
		field("instance_bytes", "Instance bytes", ch.Instances.Bytes, "bytes"),
		field("arrays", "Arrays", ch.Arrays.Objects, ""),
		field("array_bytes", "Array bytes", ch.Arrays.Bytes, "bytes"),
		field("loaded_classes", "Loaded classes", ch.LoadedClasses, ""),
		field("array_classes", "Array classes", ch.ArrayClasses, ""),
		field("roots", "GC roots", d.Roots, ""),
	}
	doc.Notes = append(doc.Notes, "Class objects are not counted.")
	cols := []htmlreport.Col[heapmodel.DumpRow]{
		htmlreport.TextCol("Name", func(r heapmodel.DumpRow) string { return r.Name }),
		htmlreport.NumCol("Objects", func(r heapmodel.DumpRow) htmlreport.Cell { return htmlreport.Count(r.Objects()) }),
		htmlreport.NumCol("Objects %", func(r heapmodel.DumpRow) htmlreport.Cell {
			return htmlreport.Number(r.Percent, fmt.Sprintf("%.2f", r.Percent))
		}),
		htmlreport.NumCol("Bytes", func(r heapmodel.DumpRow) htmlreport.Cell { return htmlreport.Count(r.Bytes()) }),
		htmlreport.NumCol("Bytes %", func(r heapmodel.DumpRow) htmlreport.Cell {
			return htmlreport.Number(r.BytesShare, fmt.Sprintf("%.2f", r.BytesShare))
		}),
		htmlreport.NumCol("Instances", func(r heapmodel.DumpRow) htmlreport.Cell { return htmlreport.Count(r.Instances.Objects) }),
		htmlreport.NumCol("Arrays", func(r heapmodel.DumpRow) htmlreport.Cell { return htmlreport.Count(r.Arrays.Objects) }),
	}
	doc.Tables = append(doc.Tables, htmlreport.NewTable("Classes", "Every heap.", d.DumpRows("", false), cols),
		htmlreport.NewTable("Packages", "Every heap.", d.DumpRows("", true), cols))
	var charts []func() (string, chart.Drawing, error)
	for _, f := range chart.DumpFigures {
		charts = append(charts, func() (string, chart.Drawing, error) {
			fig, err := w.HeapDumps.Figure(ctx, run, "", f)
			return f.Title, fig, err
		})
	}
	return addCharts(doc, charts...)
}

// sampleHTML is a sampled run's page: every sample (report's default selection), its layers,
// symbols and threads, the window's charts and the mixed-mode flame graph.
func sampleHTML(ctx context.Context, w *Workspace, run string, doc *htmlreport.Document) error {
	from, to, err := SampleTimeWindow(0, 0)
	if err != nil {
		return err
	}
	set, err := w.Samples.Select(ctx, run, samples.SampleSelection{FromNS: from, ToNS: to}, nil)
	if err != nil {
		return err
	}
	h := set.Profile.Header
	doc.Summary = []htmlreport.Field{
		field("format", "Format", h.Format, ""),
		field("event", "Event", h.Event, ""),
		field("rate_hz", "Rate", h.RateHz, "Hz"),
		field("command", "Command", h.Command, ""),
		field("samples.stored", "Samples", set.Total, "samples"),
		field("samples.kept", "Samples kept", set.Kept, "samples"),
		field("samples.left_out", "Samples left out", set.LeftOut, "samples"),
		field("samples.left_out_recording", "Left out when recorded", set.Profile.LeftOut, "samples"),
	}
	if left := RecordingLeftOut(set.Profile); left != "" {
		doc.Notes = append(doc.Notes, left)
	}
	layerRows, _ := SampleRows(set, SampleByLayer)
	symbolRows, _ := SampleRows(set, SampleBySymbol)
	doc.Tables = append(doc.Tables, htmlreport.NewTable("Layers", "Self: samples whose leaf frame is the row's; total: samples with it on the stack.", layerRows, sampleColumns()),
		htmlreport.NewTable("Symbols", "Seed 004's table V.", symbolRows, sampleColumns()),
		htmlreport.NewTable("Threads", "", set.ByThread(), threadColumns()))
	doc.Flame = &htmlreport.Flame{Title: "Flame graph — " + SampleScope(set), Unit: "samples", Root: set.Flame()}
	var charts []func() (string, chart.Drawing, error)
	for _, by := range SampleCharts {
		if by == SampleByFlame { // drawn above, interactive
			continue
		}
		charts = append(charts, func() (string, chart.Drawing, error) {
			d, err := SampleDrawing(set, run, SampleChartSpec{By: by})
			return "Samples by " + string(by), d, err
		})
	}
	return addCharts(doc, charts...)
}

// sampleColumns are the columns of a table of samples, as report prints them.
func sampleColumns() []htmlreport.Col[samples.SampleRow] {
	pct := func(v float64) htmlreport.Cell { return htmlreport.Number(v, fmt.Sprintf("%.2f", v)) }
	return []htmlreport.Col[samples.SampleRow]{
		htmlreport.TextCol("Name", SampleRowLabel),
		htmlreport.TextCol("Layer", func(r samples.SampleRow) string { return r.Layer.String() }),
		htmlreport.NumCol("Self", func(r samples.SampleRow) htmlreport.Cell { return htmlreport.Count(r.Self) }),
		htmlreport.NumCol("Self %", func(r samples.SampleRow) htmlreport.Cell { return pct(r.SelfPct) }),
		htmlreport.NumCol("Total", func(r samples.SampleRow) htmlreport.Cell { return htmlreport.Count(r.Total) }),
		htmlreport.NumCol("Total %", func(r samples.SampleRow) htmlreport.Cell { return pct(r.TotalPct) }),
		htmlreport.TextCol("Image", func(r samples.SampleRow) string { return r.Image }),
	}
}

// threadColumns are the columns of a sampled run's threads: their samples in each layer.
func threadColumns() []htmlreport.Col[samples.ThreadRow] {
	cols := []htmlreport.Col[samples.ThreadRow]{
		htmlreport.NumCol("TID", func(r samples.ThreadRow) htmlreport.Cell { return htmlreport.Count(r.TID) }),
		htmlreport.TextCol("Thread", func(r samples.ThreadRow) string { return r.Comm }),
		htmlreport.NumCol("Samples", func(r samples.ThreadRow) htmlreport.Cell { return htmlreport.Count(r.Samples) }),
		htmlreport.TextCol("Top layer", func(r samples.ThreadRow) string { return r.Top.String() }),
	}
	for i, l := range layersmodel.Layers {
		cols = append(cols, htmlreport.NumCol(l.String(), func(r samples.ThreadRow) htmlreport.Cell { return htmlreport.Count(r.Layers[i]) }))
	}
	return cols
}
