package controller

import (
	"context"
	"fmt"
	"io"
	"strings"

	"github.com/google/pprof/profile"

	"androprof/model/calls"
	"androprof/model/layers"
)

// pprofMaxFrames bounds the stack of a pprof sample, as Go's own profiler bounds its stacks: a
// sample lists its whole stack, so without a bound a call tree N deep would take N²/2 frames (a
// 20,000-deep trace took 5 GB and 100 s). A deeper path keeps its innermost frames under one
// "(outer calls cut…)" frame; its values stay whole.
const pprofMaxFrames = 128

// Pprof turns a method run's aggregated call tree into a pprof profile that `go tool pprof`
// opens: one sample per call path and thread, valued in nanoseconds of thread-CPU and wall time
// (those the trace has), labelled with the thread. Stacks deeper than pprofMaxFrames are cut.
func (a *MethodAnalysis) Pprof(ctx context.Context, run string) (*profile.Profile, error) {
	t, err := a.Load(ctx, run)
	if err != nil {
		return nil, err
	}
	nodes, err := a.store.CallTree(ctx, run)
	if err != nil {
		return nil, err
	}
	clock := t.Profile.Clock
	p := &profile.Profile{PeriodType: &profile.ValueType{Type: "time", Unit: "nanoseconds"}, Period: 1000}
	var values []func(calls.CallNode) int64
	if clock.HasCPU() {
		p.SampleType = append(p.SampleType, &profile.ValueType{Type: "cpu", Unit: "nanoseconds"})
		values = append(values, func(n calls.CallNode) int64 { return int64(n.ExclusiveCPU) * 1000 })
	}
	if clock.HasWall() {
		p.SampleType = append(p.SampleType, &profile.ValueType{Type: "wall", Unit: "nanoseconds"})
		values = append(values, func(n calls.CallNode) int64 { return int64(n.ExclusiveWall) * 1000 })
	}
	if len(values) == 0 {
		return nil, fmt.Errorf("run %q has no clock to export", run)
	}
	threadName := map[int]string{}
	for _, th := range t.Profile.Threads {
		threadName[th.TID] = fmt.Sprintf("%d %s", th.TID, th.Name)
	}
	b := &pprofBuilder{p: p}
	locations := map[uint64]*profile.Location{}
	location := func(id uint64) *profile.Location {
		if l, ok := locations[id]; ok {
			return l
		}
		m := t.Profile.Methods[id]
		l := b.location(&profile.Function{Name: calls.MethodName(m), SystemName: m.Class + "." + m.Name, Filename: m.File}, int64(m.Line))
		locations[id] = l
		return l
	}
	for i, n := range nodes {
		s := &profile.Sample{Label: map[string][]string{"thread": {threadName[n.TID]}}}
		// pprof wants the leaf first: the node, then its callers.
		for j := i; j != calls.NoParent; j = nodes[j].Parent {
			if len(s.Location) == pprofMaxFrames-1 && nodes[j].Parent != calls.NoParent {
				s.Location = append(s.Location, b.cut())
				break
			}
			s.Location = append(s.Location, location(nodes[j].Method))
		}
		for _, v := range values {
			s.Value = append(s.Value, v(n))
		}
		p.Sample = append(p.Sample, s)
	}
	return p, p.CheckValid()
}

// pprofBuilder adds functions and locations to a profile, one location per function.
type pprofBuilder struct {
	p      *profile.Profile
	cutLoc *profile.Location // the root of every stack cut at pprofMaxFrames
}

func (b *pprofBuilder) location(fn *profile.Function, line int64) *profile.Location {
	p := b.p
	fn.ID = uint64(len(p.Function) + 1)
	p.Function = append(p.Function, fn)
	l := &profile.Location{ID: uint64(len(p.Location) + 1), Line: []profile.Line{{Function: fn, Line: max(line, 0)}}}
	p.Location = append(p.Location, l)
	return l
}

// cut is the frame that stands for the outer frames of a stack deeper than pprofMaxFrames.
func (b *pprofBuilder) cut() *profile.Location {
	if b.cutLoc == nil {
		b.cutLoc = b.location(&profile.Function{Name: fmt.Sprintf("(outer calls cut: deeper than %d)", pprofMaxFrames)}, 0)
	}
	return b.cutLoc
}

// pprofThread keeps the samples of one thread (labelled "tid name" by Pprof and SamplePprof).
func pprofThread(p *profile.Profile, tid int) *profile.Profile {
	prefix := fmt.Sprintf("%d ", tid)
	kept := p.Sample[:0]
	for _, s := range p.Sample {
		if th := s.Label["thread"]; len(th) > 0 && strings.HasPrefix(th[0], prefix) {
			kept = append(kept, s)
		}
	}
	p.Sample = kept
	return p
}

// Pprof turns a sampled run into a pprof profile that `go tool pprof` opens: one sample per
// stack and thread, valued in samples, labelled with the thread ("tid name"). Stacks deeper
// than pprofMaxFrames keep their innermost frames.
func (a *SampleAnalysis) Pprof(ctx context.Context, run string) (*profile.Profile, error) {
	sp, err := a.Profile(ctx, run)
	if err != nil {
		return nil, err
	}
	p := &profile.Profile{SampleType: []*profile.ValueType{{Type: "samples", Unit: "count"}},
		PeriodType: &profile.ValueType{Type: "samples", Unit: "count"}, Period: 1}
	b := &pprofBuilder{p: p}
	locations := make([]*profile.Location, len(sp.Symbols))
	type key struct{ node, thread int32 }
	index := map[key]*profile.Sample{}
	for _, r := range sp.Samples {
		if s := index[key{r.Node, r.Thread}]; s != nil {
			s.Value[0]++
			continue
		}
		th := sp.Threads[r.Thread]
		s := &profile.Sample{Value: []int64{1}, Label: map[string][]string{"thread": {fmt.Sprintf("%d %s", th.TID, th.Comm)}}}
		for n := r.Node; n >= 0; n = sp.Nodes[n].Parent {
			if len(s.Location) == pprofMaxFrames-1 && sp.Nodes[n].Parent >= 0 {
				s.Location = append(s.Location, b.cut())
				break
			}
			sym := sp.Nodes[n].Symbol
			if locations[sym] == nil {
				ss := sp.Symbols[sym]
				locations[sym] = b.location(&profile.Function{Name: layers.DisplaySymbol(ss), SystemName: ss.Symbol, Filename: ss.Image}, 0)
			}
			s.Location = append(s.Location, locations[sym])
		}
		index[key{r.Node, r.Thread}] = s
		p.Sample = append(p.Sample, s)
	}
	return p, p.CheckValid()
}

// exportPprof writes a run's pprof profile (made with err), of one thread when tid is not 0.
func exportPprof(p *profile.Profile, err error, tid int, out io.Writer) (ExportSummary, error) {
	if err != nil {
		return ExportSummary{}, err
	}
	if tid != 0 {
		p = pprofThread(p, tid)
	}
	return ExportSummary{Events: len(p.Sample)}, p.Write(out)
}
