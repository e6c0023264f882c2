package controller

import (
	"context"
	"fmt"
	"regexp"

	"androprof/chart"
	"androprof/model/calls"
	"androprof/model/flame"
)

// FlameOptions is what a method run's flame graph shows: the window's Flame tab and
// `androprof chart --by flame` ask with the same choices.
type FlameOptions struct {
	TID  int                           // one thread, 0 for every thread (each a frame under the root)
	Wall bool                          // real time, else thread-CPU time
	Name func(calls.MethodInfo) string // how frames name methods; nil: calls.MethodName
	// Package is how frames name their packages (Origin), e.g. dotted as Java reads them; nil:
	// as the trace does (calls.PackageOf).
	Package func(string) string
}

// Flame is a method run's call tree as a flame graph on one clock (see calls.Flame): widths are
// inclusive µs of each call path, as the stored call tree has them. A clock the trace did not
// record is an error that names the clocks it has.
func (a *MethodAnalysis) Flame(ctx context.Context, run string, opts FlameOptions) (*flame.Node, error) {
	t, err := a.Load(ctx, run)
	if err != nil {
		return nil, err
	}
	if cpu, real := ChartClocks(t.Profile.Clock); opts.Wall && !real || !opts.Wall && !cpu {
		return nil, fmt.Errorf("run %q has no %s clock: it has %s", run, FlameClockText(opts.Wall), clocksText(t.Profile.Clock))
	}
	tree, err := a.trees.get(run, func() ([]calls.CallNode, error) { return a.store.CallTree(ctx, run) })
	if err != nil {
		return nil, err
	}
	name := opts.Name
	if name == nil {
		name = calls.MethodName
	}
	root := calls.Flame(t.Profile, tree, opts.TID, opts.Wall, name)
	if opts.Package != nil {
		renameOrigins(root, opts.Package)
	}
	return root, nil
}

// renameOrigins names every frame's package with rename, once per package.
func renameOrigins(root *flame.Node, rename func(string) string) {
	named := map[string]string{}
	stack := []*flame.Node{root}
	for len(stack) > 0 {
		n := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if n.Origin != "" {
			r, ok := named[n.Origin]
			if !ok {
				r = rename(n.Origin)
				named[n.Origin] = r
			}
			n.Origin = r
		}
		stack = append(stack, n.Children...)
	}
}

// FlameClockText names a flame graph's clock as titles and errors say it.
func FlameClockText(wall bool) string {
	if wall {
		return "real-time"
	}
	return "thread-CPU"
}

// clocksText lists the clocks a trace recorded, for an error that asked for another.
func clocksText(c calls.Clock) string {
	switch {
	case c.HasCPU() && c.HasWall():
		return "thread-CPU and real time"
	case c.HasCPU() || !c.HasWall(): // a trace without a clock is charted on thread-CPU time
		return "thread-CPU time only"
	}
	return "real time only"
}

// FlameChart is a method run's flame graph as the window's Flame tab and `androprof chart --by
// flame` draw it: titled with the run, the threads and the clock's unit.
func (a *MethodAnalysis) FlameChart(ctx context.Context, run string, opts FlameOptions) (chart.Flame, error) {
	root, err := a.Flame(ctx, run, opts)
	if err != nil {
		return chart.Flame{}, err
	}
	t, err := a.Load(ctx, run)
	if err != nil {
		return chart.Flame{}, err
	}
	return chart.FromMethodFlame(root, run, ThreadScope(t.Profile, opts.TID), opts.Wall), nil
}

// FindFrames is f with the frames the regular expression expr matches lit up and their share
// said (chart.Flame.Find), for every flame graph's search box and `chart --find`; "" ends the
// search, and an expression that does not compile is an error that quotes it.
func FindFrames(f chart.Flame, expr string) (chart.Flame, error) {
	if expr == "" {
		return f.Find(nil), nil
	}
	re, err := regexp.Compile(expr)
	if err != nil {
		return f, fmt.Errorf("search %q is not a regular expression: %w", expr, err)
	}
	return f.Find(re), nil
}
