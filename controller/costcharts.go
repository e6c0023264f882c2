package controller

import (
	"cmp"
	"context"
	"fmt"
	"slices"
	"strconv"

	"androprof/chart"
	"androprof/model"
	"androprof/model/cost"
)

// Layers is an emulator run's cost by image, process by process, with its system calls: what
// the layer chart draws (seed 004's question: program, libraries or loader?) and the Images
// tab lists. The window and `androprof chart --by layer` both take it from Analysis.Layers.
type Layers struct {
	Run, Profile string
	Rows         []cost.ReportRow  // by image, each process's rows (PID set) in pid order; Key is the image's name
	Calls        []cost.SyscallRow // per process, the most frequent first; nil when the trace counts none
	Names        map[string]string // pid → "pid name", the bars' labels
	Coverage     cost.Coverage     // what of the cost the profile really prices (the chart's caveat)
}

// Layers prices opts.Run's images per process (opts.PID's alone when set) under opts.Profile
// at opts.FrequencyGHz; opts.By and opts.Top are its own.
func (a *Analysis) Layers(ctx context.Context, opts cost.ReportOptions) (Layers, error) {
	d, err := a.Load(ctx, opts.Run)
	if err != nil {
		return Layers{}, err
	}
	opts.By, opts.Top = cost.ByImage, 0
	rep, err := a.Report(ctx, opts) // rows carry their process's pid
	if err != nil {
		return Layers{}, err
	}
	l := Layers{Run: opts.Run, Profile: opts.Profile.Name, Rows: rep.Rows, Names: ProcessLabels(d), Coverage: rep.Coverage}
	for i := range l.Rows {
		l.Rows[i].Key = cmp.Or(l.Rows[i].Image, cost.NoImage)
	}
	slices.SortStableFunc(l.Rows, func(a, b cost.ReportRow) int { return cmp.Compare(a.PID, b.PID) })
	if calls := cost.SummarizeSyscalls(d.Syscalls, opts.PID, false); len(calls) > 0 {
		l.Calls = calls // a trace without system calls: no "0 system calls" notes
	}
	return l, ctx.Err()
}

// Chart is the layer chart of metric m: a bar per process split by the kind of image its
// code ran in, its system calls beside it, and what of m is a guess under the profile.
func (l Layers) Chart(m chart.Metric) chart.Chart {
	c := chart.FromLayers(l.Run, l.Profile, l.Rows, l.Calls, l.Names, m)
	c.Caveat = m.Caveat(l.Coverage)
	return c
}

// LayerChart is the layer chart of opts's run (Layers, then Layers.Chart).
func (a *Analysis) LayerChart(ctx context.Context, opts cost.ReportOptions, m chart.Metric) (chart.Chart, error) {
	l, err := a.Layers(ctx, opts)
	if err != nil {
		return chart.Chart{}, err
	}
	return l.Chart(m), nil
}

// ReportChart is a cost report's chart as the analysis window's tabs draw it: a bar of metric
// m per row, a process labelled by its pid and name.
func (a *Analysis) ReportChart(ctx context.Context, opts cost.ReportOptions, m chart.Metric, kind chart.Kind) (chart.Chart, error) {
	rep, names, err := a.labelledReport(ctx, opts)
	if err != nil {
		return chart.Chart{}, err
	}
	return chart.FromReport(rep, m, kind, names), nil
}

// SourcesChart is the cycles-by-source chart of opts's run (chart.FromSources): per row of
// opts.By (function when unset), its category cycles, pipeline cycles and memory stall
// cycles. The window's Functions tab and `androprof chart --metric sources` both draw it.
// Groupings finer than a block have no misses of their own, so they are refused.
func (a *Analysis) SourcesChart(ctx context.Context, opts cost.ReportOptions) (chart.Chart, error) {
	if opts.By == "" {
		opts.By = cost.ByFunction
	}
	if opts.By == cost.ByInstruction || opts.By == cost.ByCategory {
		return chart.Chart{}, fmt.Errorf("cycles by source are drawn per process, block, function, image or layer, not by %s: misses belong to blocks", opts.By)
	}
	rep, names, err := a.labelledReport(ctx, opts)
	if err != nil {
		return chart.Chart{}, err
	}
	return chart.FromSources(rep, names), nil
}

// labelledReport is a report with its chart's bar labels: a process by its pid and name
// (other rows' keys are names already, so nil for them).
func (a *Analysis) labelledReport(ctx context.Context, opts cost.ReportOptions) (*cost.Report, map[string]string, error) {
	d, err := a.Load(ctx, opts.Run)
	if err != nil {
		return nil, nil, err
	}
	rep, err := a.Report(ctx, opts)
	if err != nil || opts.By != cost.ByPID {
		return rep, nil, err
	}
	return rep, ProcessLabels(d), nil
}

// ProcessLabels is ProcessLabel of each process of a run, by pid: a chart's bar labels.
func ProcessLabels(d *cost.RunData) map[string]string {
	names := map[string]string{}
	for _, p := range d.Processes {
		names[strconv.Itoa(p.PID)] = ProcessLabel(p.Process)
	}
	return names
}

// ProcessLabel names a process in charts, tables and messages by its pid and name
// ("27464 sieve"), or its pid alone when it has no name.
func ProcessLabel(p model.Process) string {
	if p.Name == "" {
		return strconv.Itoa(p.PID)
	}
	return strconv.Itoa(p.PID) + " " + p.Name
}
