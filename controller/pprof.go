package controller

import (
	"context"
	"fmt"

	"github.com/google/pprof/profile"

	"androprof/model"
)

// Pprof turns a method run's aggregated call tree into a pprof profile that `go tool pprof`
// opens: one sample per call path and thread, valued in nanoseconds of thread-CPU and wall time
// (those the trace has), labelled with the thread.
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
	var values []func(model.CallNode) int64
	if clock.HasCPU() {
		p.SampleType = append(p.SampleType, &profile.ValueType{Type: "cpu", Unit: "nanoseconds"})
		values = append(values, func(n model.CallNode) int64 { return int64(n.ExclusiveCPU) * 1000 })
	}
	if clock.HasWall() {
		p.SampleType = append(p.SampleType, &profile.ValueType{Type: "wall", Unit: "nanoseconds"})
		values = append(values, func(n model.CallNode) int64 { return int64(n.ExclusiveWall) * 1000 })
	}
	if len(values) == 0 {
		return nil, fmt.Errorf("run %q has no clock to export", run)
	}
	threadName := map[int]string{}
	for _, th := range t.Profile.Threads {
		threadName[th.TID] = fmt.Sprintf("%d %s", th.TID, th.Name)
	}
	locations := map[uint64]*profile.Location{}
	location := func(id uint64) *profile.Location {
		if l, ok := locations[id]; ok {
			return l
		}
		m := t.Profile.Methods[id]
		fn := &profile.Function{ID: uint64(len(p.Function) + 1), Name: model.MethodName(m), SystemName: m.Class + "." + m.Name, Filename: m.File}
		p.Function = append(p.Function, fn)
		line := int64(m.Line)
		if line < 0 {
			line = 0
		}
		l := &profile.Location{ID: uint64(len(p.Location) + 1), Line: []profile.Line{{Function: fn, Line: line}}}
		p.Location = append(p.Location, l)
		locations[id] = l
		return l
	}
	for _, n := range nodes {
		s := &profile.Sample{Label: map[string][]string{"thread": {threadName[n.TID]}}}
		for i := len(n.Path) - 1; i >= 0; i-- { // pprof wants the leaf first
			s.Location = append(s.Location, location(n.Path[i]))
		}
		for _, v := range values {
			s.Value = append(s.Value, v(n))
		}
		p.Sample = append(p.Sample, s)
	}
	return p, p.CheckValid()
}
