package controller

import (
	"context"
	"fmt"
	"math"
	"strings"

	"androprof/model"
	"androprof/model/calls"
	"androprof/model/cost"
	"androprof/model/flame"
	"androprof/model/samples"
)

// DiffOptions chooses what a diff of two runs compares.
type DiffOptions struct {
	By flame.DiffBy // the table's rows: function (default), path, or image (methods: package)
	// Clock is a method trace's clock: "cpu" (thread-CPU), "wall" (or "real"), or "" for
	// thread-CPU when both traces have it, else real time. Other kinds have one measure.
	Clock     string
	Threshold float64                       // a fraction of each run's total: rows that moved less are Unchanged
	Name      func(calls.MethodInfo) string // how method frames are named; nil: calls.MethodName
	Focus     FocusOptions                  // applied to both runs' graphs before they are compared
}

// DiffResult is two runs of one kind compared: the differential flame graph (widths from B,
// the newer run) and the table sorted by change.
type DiffResult struct {
	RunA, RunB string
	Kind       model.RunKind
	By         flame.DiffBy
	// Unit is what the numbers count ("µs", "samples", "instructions"); Measure which time or
	// count ("thread-CPU time", "real time", "samples", "instructions executed") and Why how it
	// was chosen, for the header that says which clock the numbers are on.
	Unit, Measure, Why string
	Threshold          float64
	TotalA, TotalB     int64
	Tree               *flame.DiffNode // nil for emulator runs: they have no stacks
	Rows               []flame.DiffRow
	FocusA, FocusB     []flame.Focused // what Focus hid or moved in each run's graph
}

// Diff compares two runs of one kind, B against A: method traces by their call trees (every
// thread, threads matched by name: ids differ from run to run), sampled runs by their stacks
// (every sample), emulator runs by function or image (instructions executed: a count no
// profile's guess enters; they have no stacks, so no graph). Runs of two kinds are an error.
func (w *Workspace) Diff(ctx context.Context, runA, runB string, opts DiffOptions) (*DiffResult, error) {
	if opts.By == "" {
		opts.By = flame.DiffByFunction
	}
	if _, err := flame.ParseDiffBy(string(opts.By)); err != nil {
		return nil, err
	}
	kind, err := w.RunKind(ctx, runA)
	if err != nil {
		return nil, err
	}
	kindB, err := w.RunKind(ctx, runB)
	if err != nil {
		return nil, err
	}
	if kind != kindB {
		return nil, fmt.Errorf("run %s is %s and run %s %s: a diff compares two runs of one kind",
			RunText(runA), model.RunKindText(kind), RunText(runB), model.RunKindText(kindB))
	}
	res := &DiffResult{RunA: runA, RunB: runB, Kind: kind, By: opts.By, Threshold: opts.Threshold}
	var a, b *flame.Node
	switch kind {
	case model.RunKindMethods:
		a, b, err = w.methodGraphs(ctx, res, opts)
	case model.RunKindSamples:
		a, b, err = w.sampleGraphs(ctx, res)
	case model.RunKindEmulator:
		a, b, err = w.emulatorTables(ctx, res)
	default:
		return nil, fmt.Errorf("run %s is %s: a diff compares method traces, sampled runs or emulator runs",
			RunText(runA), model.RunKindText(kind))
	}
	if err != nil {
		return nil, err
	}
	if a, res.FocusA, err = ApplyFocus(a, opts.Focus); err != nil {
		return nil, err
	}
	if b, res.FocusB, err = ApplyFocus(b, opts.Focus); err != nil {
		return nil, err
	}
	d := flame.Diff(a, b)
	res.TotalA, res.TotalB = d.TotalA, d.TotalB
	if kind != model.RunKindEmulator {
		res.Tree = d
	}
	res.Rows = flame.DiffRows(d, res.By, opts.Threshold)
	return res, nil
}

// methodGraphs are both traces' graphs of every thread (MethodAnalysis.Flame) on the clock
// opts chooses.
func (w *Workspace) methodGraphs(ctx context.Context, res *DiffResult, opts DiffOptions) (a, b *flame.Node, err error) {
	ta, err := w.Methods.Load(ctx, res.RunA)
	if err != nil {
		return nil, nil, err
	}
	tb, err := w.Methods.Load(ctx, res.RunB)
	if err != nil {
		return nil, nil, err
	}
	wall, err := diffClock(opts.Clock, res, ta.Profile.Clock, tb.Profile.Clock)
	if err != nil {
		return nil, nil, err
	}
	graph := func(run string) (*flame.Node, error) {
		g, err := w.Methods.Flame(ctx, run, FlameOptions{Wall: wall, Name: opts.Name})
		if err != nil {
			return nil, err
		}
		byName := *g // a copy of the root and the thread frames: the graph may be a cache's
		byName.Children = make([]*flame.Node, len(g.Children))
		for i, th := range g.Children {
			renamed := *th
			renamed.Name = threadByName(th.Name)
			byName.Children[i] = &renamed
		}
		return &byName, nil
	}
	if a, err = graph(res.RunA); err != nil {
		return nil, nil, err
	}
	b, err = graph(res.RunB)
	return a, b, err
}

// threadByName is a thread's frame ("thread 4242 main", as calls.Flame names it) without its
// id, so the same thread of two runs is one path; threads with no name share one.
func threadByName(frame string) string {
	rest, ok := strings.CutPrefix(frame, "thread ")
	if !ok {
		return frame
	}
	if _, name, ok := strings.Cut(rest, " "); ok && name != "" {
		return "thread " + name
	}
	return "thread (no name)"
}

// diffClock chooses the clock two traces are compared on, and says why in res.
func diffClock(clock string, res *DiffResult, ca, cb calls.Clock) (wall bool, err error) {
	cpuA, realA := ChartClocks(ca)
	cpuB, realB := ChartClocks(cb)
	res.Unit = "µs"
	switch clock {
	case "":
		switch {
		case cpuA && cpuB:
			res.Why = "both traces have it"
		case realA && realB:
			res.Why = "not both traces have thread-CPU time"
			wall = true
		default:
			return false, fmt.Errorf("runs %s (%s) and %s (%s) have no clock in common", RunText(res.RunA), ca, RunText(res.RunB), cb)
		}
	case "cpu", "wall", "real":
		wall = clock != "cpu"
		if wall && !(realA && realB) || !wall && !(cpuA && cpuB) {
			return false, fmt.Errorf("runs %s (%s) and %s (%s) do not both have %s", RunText(res.RunA), ca, RunText(res.RunB), cb, clockMeasure(wall))
		}
		res.Why = "as chosen"
	default:
		return false, fmt.Errorf("clock %q: want cpu or wall", clock)
	}
	res.Measure = clockMeasure(wall)
	return wall, nil
}

// clockMeasure names a trace's clock as the diff's header says it.
func clockMeasure(wall bool) string {
	if wall {
		return "real time"
	}
	return "thread-CPU time"
}

// sampleGraphs are both runs' graphs of every sample.
func (w *Workspace) sampleGraphs(ctx context.Context, res *DiffResult) (a, b *flame.Node, err error) {
	res.Unit, res.Measure, res.Why = "samples", "samples", "every sample of each run"
	graph := func(run string) (*flame.Node, error) {
		set, err := w.Samples.Select(ctx, run, samples.SampleSelection{}, nil)
		if err != nil {
			return nil, err
		}
		return set.Flame(), nil
	}
	if a, err = graph(res.RunA); err != nil {
		return nil, nil, err
	}
	b, err = graph(res.RunB)
	return a, b, err
}

// emulatorTables are both runs' instructions by function or image as flat graphs (each row a
// frame under the root), from the report comparisons (Analysis.compared, cost.CompareImages)
// under each instruction set's default profile; instructions do not depend on it.
func (w *Workspace) emulatorTables(ctx context.Context, res *DiffResult) (a, b *flame.Node, err error) {
	res.Unit, res.Measure, res.Why = "instructions", "instructions executed", "counted, not estimated: no profile enters"
	if res.By == flame.DiffByPath {
		return nil, nil, fmt.Errorf("emulator runs have no stacks: diff them by function or image")
	}
	infos, err := w.Profiles.List(ctx)
	if err != nil {
		return nil, nil, err
	}
	items := []cost.CompareItem{{Run: res.RunA}, {Run: res.RunB}}
	a, b = &flame.Node{Name: "all"}, &flame.Node{Name: "all"}
	if res.By == flame.DiffByOrigin {
		reps, _, err := w.Costs.compared(ctx, items, w.Profiles.Defaults(infos), 0, cost.ByImage)
		if err != nil {
			return nil, nil, err
		}
		for _, r := range cost.CompareImages(reps) {
			addFlat(a, r.Key, r.Key, r.Cells[0].Instructions) // the image is the frame and its origin
			addFlat(b, r.Key, r.Key, r.Cells[1].Instructions)
		}
		return a, b, nil
	}
	reps, _, err := w.Costs.compared(ctx, items, w.Profiles.Defaults(infos), 0, cost.ByFunction)
	if err != nil {
		return nil, nil, err
	}
	for i, g := range []*flame.Node{a, b} {
		d, err := w.Costs.Load(ctx, items[i].Run)
		if err != nil {
			return nil, nil, err
		}
		for _, r := range reps[i].Rows {
			name := r.Key
			if len(d.Processes) > 1 { // "pid:symbol": the pids of two runs differ
				_, name, _ = strings.Cut(name, ":")
			}
			addFlat(g, name, r.Image, r.Instructions)
		}
	}
	return a, b, nil
}

// addFlat adds a frame of n under root, and n to root's total.
func addFlat(root *flame.Node, name, origin string, n int64) {
	if n <= 0 {
		return
	}
	root.Children = append(root.Children, &flame.Node{Name: name, Origin: origin, Self: n, Total: n})
	root.Total += n
}

// DiffRowName is a row as the diff tables name it, on the command line and in the window: a
// path by its last two frames, anything else by its key.
func DiffRowName(r flame.DiffRow) string {
	if n := len(r.Path); n > 2 {
		return "…;" + r.Path[n-2] + ";" + r.Path[n-1]
	}
	return r.Key
}

// DiffPointsText is a change (a fraction of each run's total) in signed percentage points
// with two decimals, "unknown" when a run has no time (NaN).
func DiffPointsText(change float64) string {
	if math.IsNaN(change) {
		return "unknown"
	}
	return fmt.Sprintf("%+.2f", 100*change)
}
