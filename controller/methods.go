package controller

import (
	"context"

	"androprof/model"
)

// MethodStore is what method-trace analysis needs from the database.
type MethodStore interface {
	ImportMethodRun(ctx context.Context, name, source string, t *model.MethodTrace) error
	MethodTrace(ctx context.Context, run string) (*model.MethodTrace, error)
	CallSpans(ctx context.Context, run string, tid int, from, to uint64, limit int) ([]model.Call, error)
	CallTree(ctx context.Context, run string) ([]model.CallNode, error)
	CallEdges(ctx context.Context, run string) (map[model.CallEdge]model.EdgeTimes, error)
}

// MethodAnalysis answers the method views' questions, keeping the traces it loaded.
type MethodAnalysis struct {
	store MethodStore

	traces    runCache[*model.MethodTrace]
	edges     runCache[map[model.CallEdge]model.EdgeTimes]
	recursive runCache[map[model.CallEdge]model.RecursiveEdge]
}

// Load reads a method run, or returns the cached copy.
func (a *MethodAnalysis) Load(ctx context.Context, run string) (*model.MethodTrace, error) {
	return a.traces.get(run, func() (*model.MethodTrace, error) { return a.store.MethodTrace(ctx, run) })
}

// forget drops a cached trace after its run changed or was deleted.
func (a *MethodAnalysis) forget(run string) {
	a.traces.forget(run)
	a.edges.forget(run)
	a.recursive.forget(run)
}

// callEdges loads a run's edges once: only expanding a method needs them.
func (a *MethodAnalysis) callEdges(ctx context.Context, run string) (map[model.CallEdge]model.EdgeTimes, error) {
	return a.edges.get(run, func() (map[model.CallEdge]model.EdgeTimes, error) { return a.store.CallEdges(ctx, run) })
}

// recursiveEdges finds once which calls of a run's edges were recursive, from its call tree:
// the stored edges do not say (see model.RecursiveEdges).
func (a *MethodAnalysis) recursiveEdges(ctx context.Context, run string) (map[model.CallEdge]model.RecursiveEdge, error) {
	return a.recursive.get(run, func() (map[model.CallEdge]model.RecursiveEdge, error) {
		tree, err := a.store.CallTree(ctx, run)
		if err != nil {
			return nil, err
		}
		return model.RecursiveEdges(tree), nil
	})
}

// Report makes a run's profile table; see model.MethodTrace.Report.
func (a *MethodAnalysis) Report(ctx context.Context, opts model.MethodReportOptions) (*model.MethodReport, error) {
	t, err := a.Load(ctx, opts.Run)
	if err != nil {
		return nil, err
	}
	return t.Report(opts)
}

// Relatives lists who called a method and whom it called (on one thread, or all), with the
// recursive calls apart as dmtracedump lists them; see model.CallProfile.Relatives.
func (a *MethodAnalysis) Relatives(ctx context.Context, run string, method uint64, tid int) (parents, children []model.Relative, err error) {
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

// Timeline lists the calls of one thread that overlap [from, to) on the wall clock (thread-CPU
// for traces without one), as stored
// (calls shorter than the trace's span threshold are not kept; MethodTrace.SpanMinMicros says
// how short).
func (a *MethodAnalysis) Timeline(ctx context.Context, run string, tid int, from, to uint64, limit int) ([]model.Call, error) {
	return a.store.CallSpans(ctx, run, tid, from, to, limit)
}

// CompareMethods puts two method runs side by side, by method, class, package or thread, most
// time in either first.
func (a *MethodAnalysis) CompareMethods(ctx context.Context, runA, runB string, by model.MethodGrouping) ([]model.MethodCompareRow, error) {
	ra, err := a.Report(ctx, model.MethodReportOptions{Run: runA, By: by})
	if err != nil {
		return nil, err
	}
	rb, err := a.Report(ctx, model.MethodReportOptions{Run: runB, By: by})
	if err != nil {
		return nil, err
	}
	return model.CompareMethodReports(ra, rb), nil
}
