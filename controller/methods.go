package controller

import (
	"context"
	"fmt"

	"androprof/chart"
	"androprof/model/calls"
)

// MethodStore is what method-trace analysis needs from the database.
type MethodStore interface {
	ImportMethodRun(ctx context.Context, name, source string, t *calls.MethodTrace) error
	MethodTrace(ctx context.Context, run string) (*calls.MethodTrace, error)
	Timeline(ctx context.Context, run string, tid int, from, to uint64, limit int) (calls.TimelineWindow, error)
	EachCall(ctx context.Context, run string, tid int, from, to uint64, fn func(calls.Call) error) error
	CallTree(ctx context.Context, run string) ([]calls.CallNode, error)
	CallEdges(ctx context.Context, run string) (map[calls.CallEdge]calls.EdgeTimes, error)
}

// MethodAnalysis answers the method views' questions, keeping the traces it loaded.
type MethodAnalysis struct {
	store MethodStore

	traces    runCache[*calls.MethodTrace]
	edges     runCache[map[calls.CallEdge]calls.EdgeTimes]
	recursive runCache[map[calls.CallEdge]calls.RecursiveEdge]
	trees     runCache[[]calls.CallNode] // for flame graphs (flame.go)
}

// Load reads a method run, or returns the cached copy.
func (a *MethodAnalysis) Load(ctx context.Context, run string) (*calls.MethodTrace, error) {
	return a.traces.get(run, func() (*calls.MethodTrace, error) { return a.store.MethodTrace(ctx, run) })
}

// forget drops a cached trace after its run changed or was deleted.
func (a *MethodAnalysis) forget(run string) {
	a.traces.forget(run)
	a.edges.forget(run)
	a.recursive.forget(run)
	a.trees.forget(run)
}

// callEdges loads a run's edges once: only expanding a method needs them.
func (a *MethodAnalysis) callEdges(ctx context.Context, run string) (map[calls.CallEdge]calls.EdgeTimes, error) {
	return a.edges.get(run, func() (map[calls.CallEdge]calls.EdgeTimes, error) { return a.store.CallEdges(ctx, run) })
}

// recursiveEdges finds once which calls of a run's edges were recursive, from its call tree:
// the stored edges do not say (see model.RecursiveEdges).
func (a *MethodAnalysis) recursiveEdges(ctx context.Context, run string) (map[calls.CallEdge]calls.RecursiveEdge, error) {
	return a.recursive.get(run, func() (map[calls.CallEdge]calls.RecursiveEdge, error) {
		tree, err := a.store.CallTree(ctx, run)
		if err != nil {
			return nil, err
		}
		return calls.RecursiveEdges(tree), nil
	})
}

// Report makes a run's profile table; see model.MethodTrace.Report.
func (a *MethodAnalysis) Report(ctx context.Context, opts calls.MethodReportOptions) (*calls.MethodReport, error) {
	t, err := a.Load(ctx, opts.Run)
	if err != nil {
		return nil, err
	}
	return t.Report(opts)
}

// Relatives lists who called a method and whom it called (on one thread, or all), with the
// recursive calls apart as dmtracedump lists them; see model.CallProfile.Relatives.
func (a *MethodAnalysis) Relatives(ctx context.Context, run string, method uint64, tid int) (parents, children []calls.Relative, err error) {
	t, err := a.Load(ctx, run)
	if err != nil {
		return nil, nil, err
	}
	edges, err := a.callEdges(ctx, run)
	if err != nil {
		return nil, nil, err
	}
	rec, err := a.recursiveEdges(ctx, run)
	if err != nil {
		return nil, nil, err
	}
	parents, children = t.Profile.Relatives(edges, rec, method, tid)
	return parents, children, nil
}

// Timeline reads what the timeline draws of [from, to) on the wall clock (thread-CPU for traces
// without one; to = 0: no bound) for one thread, or every thread by id (tid 0): every call when
// the window holds at most limit (limit ≤ 0: no limit), else the limit's longest, and it says
// which (TimelineWindow.Every, MinMicros). Only the chunks of calls overlapping the window are
// decoded, so a narrow window costs the same deep in a long trace as at its start. A run
// imported before every call was kept answers from its longest calls (OnlySpans).
func (a *MethodAnalysis) Timeline(ctx context.Context, run string, tid int, from, to uint64, limit int) (calls.TimelineWindow, error) {
	return a.store.Timeline(ctx, run, tid, from, to, limit)
}

// EachCall hands fn every call of one thread (tid 0: every thread, by id) that overlaps
// [from, to) on the wall clock (thread-CPU for traces without one; to = 0: no bound), each
// thread's in the order the calls ended (a callee before its caller), for the exports that draw
// every call as a slice. An error from fn stops the walk and is returned. A run imported before
// every call was kept hands its longest calls, then returns an error wrapping
// calls.ErrOnlySpans (its text asks to re-import the run); a damaged chunk is a
// *calls.ChunkError naming the run, thread and chunk.
func (a *MethodAnalysis) EachCall(ctx context.Context, run string, tid int, from, to uint64, fn func(calls.Call) error) error {
	return a.store.EachCall(ctx, run, tid, from, to, fn)
}

// CompareMethods puts two method runs side by side, by method, class, package or thread, most
// time in either first.
func (a *MethodAnalysis) CompareMethods(ctx context.Context, runA, runB string, by calls.MethodGrouping) ([]calls.MethodCompareRow, error) {
	ra, err := a.Report(ctx, calls.MethodReportOptions{Run: runA, By: by})
	if err != nil {
		return nil, err
	}
	rb, err := a.Report(ctx, calls.MethodReportOptions{Run: runB, By: by})
	if err != nil {
		return nil, err
	}
	return calls.CompareMethodReports(ra, rb), nil
}

// MethodChartOptions is what a method chart shows: the choices of the window's method tabs
// (thread, grouping, clock, chart kind), which `androprof chart` takes as flags.
type MethodChartOptions struct {
	Run  string
	By   calls.MethodGrouping
	TID  int        // one thread, 0 for all
	CPU  bool       // thread-CPU time, else real time; ChartClocks says which a trace has
	Kind chart.Kind // bars, columns or a pie
}

// Chart draws a run's exclusive time by method, class, package or thread: the window's
// Hotspots tab (DPA figure 6) and Packages tab (RMP figure 8) and `androprof chart` all draw
// this one chart, so the two front ends cannot disagree. Exclusive times add up to the whole,
// so a pie of them is right; every row is charted and the chart keeps the largest.
func (a *MethodAnalysis) Chart(ctx context.Context, opts MethodChartOptions) (chart.Chart, error) {
	t, err := a.Load(ctx, opts.Run)
	if err != nil {
		return chart.Chart{}, err
	}
	rep, err := t.Report(calls.MethodReportOptions{Run: opts.Run, By: opts.By, TID: opts.TID})
	if err != nil {
		return chart.Chart{}, err
	}
	return chart.FromMethodReport(rep, opts.CPU, true, opts.Kind, ThreadScope(t.Profile, opts.TID)), nil
}

// ChartClocks says which clocks a trace's charts can measure. A trace with neither clock is
// charted on thread-CPU time, the clock Traceview assumes.
func ChartClocks(c calls.Clock) (cpu, real bool) {
	return c.HasCPU() || !c.HasWall(), c.HasWall()
}

// ThreadLabel names a thread as the window lists it and chart titles quote it: its id, then
// its name when the trace has one.
func ThreadLabel(th calls.ThreadTimes) string {
	if th.Name == "" {
		return fmt.Sprint(th.TID)
	}
	return fmt.Sprintf("%d %s", th.TID, th.Name)
}

// ThreadScope names the threads a chart covers, for its title: all of them (tid 0) or one.
func ThreadScope(p *calls.CallProfile, tid int) string {
	if tid == 0 {
		return "all threads"
	}
	for _, th := range p.Threads {
		if th.TID == tid {
			return "thread " + ThreadLabel(th)
		}
	}
	return fmt.Sprintf("thread %d", tid)
}
