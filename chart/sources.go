package chart

import (
	"fmt"
	"strings"

	"androprof/model/cost"
)

// The series of a cycles-by-source chart, in the order they are drawn.
const (
	SourceCategory = "category cycles"
	SourcePipeline = "pipeline cycles"
	SourceMemory   = "memory stall cycles"
)

// FromSources charts where each row's cycles come from (issue 27's lecture chart): its
// category cycles, its pipeline cycles (the machine model's, where it priced the row's blocks)
// and its memory stall cycles (misses × the profile's miss cycles), side by side per row, the
// rows of the most cycles in all (core and stalls) first. A step the report cannot know (no
// machine model, no simulation, no miss costs) is left out and the caveat says why, so a bar
// is never a confident 0. names relabels rows by key, as in FromReport.
func FromSources(rep *cost.Report, names map[string]string) Chart {
	wf := rep.Waterfall
	c := Chart{Kind: Bars, YLabel: "cycles", Unit: "cycles",
		Title: fmt.Sprintf("Cycles by source by %s — %s, %s", groupNames[rep.By], rep.Run, rep.Profile)}
	parts := []struct {
		name  string
		known bool
		of    func(r cost.ReportRow) float64
	}{
		{SourceCategory, true, func(r cost.ReportRow) float64 { return r.Cycles }},
		{SourcePipeline, wf.PipelineKnown, func(r cost.ReportRow) float64 { return r.PipelineCycles }},
		{SourceMemory, wf.MemoryKnown, func(r cost.ReportRow) float64 { return r.StallCycles }},
	}
	var caveats []string
	if w := Cycles.Caveat(rep.Coverage); w != "" {
		caveats = append(caveats, w)
	}
	var shown []func(r cost.ReportRow) float64
	for _, p := range parts {
		if p.known {
			c.Series, shown = append(c.Series, p.name), append(shown, p.of)
		}
	}
	if !wf.PipelineKnown {
		caveats = append(caveats, "No pipeline cycles: "+orDefault(wf.PipelineNote, "the profile names no machine model")+".")
	}
	if !wf.MemoryKnown {
		caveats = append(caveats, "No memory stalls: "+orDefault(wf.MemoryNote, "not simulated: run with --cache")+".")
	}
	for _, r := range rep.Rows {
		label := r.Key
		if n, ok := names[r.Key]; ok {
			label = n
		}
		values := make([]float64, len(shown))
		for i, of := range shown {
			values[i] = of(r)
		}
		c.Bars = append(c.Bars, Bar{Label: label, Value: sourceTotal(r, wf)})
		c.Values = append(c.Values, values)
	}
	if len(c.Series) < 2 { // category cycles alone: plain bars
		c.Series, c.Values = nil, nil
	}
	c.Caveat = strings.Join(caveats, " ")
	return c
}

// sourceTotal is what orders the bars: the row's core cycles (the model's where known) and its
// stalls where known.
func sourceTotal(r cost.ReportRow, wf cost.Waterfall) float64 {
	total := r.Cycles
	if wf.PipelineKnown {
		total = r.PipelineCycles
	}
	if wf.MemoryKnown {
		total += r.StallCycles
	}
	return total
}

func orDefault(s, def string) string {
	if s == "" {
		return def
	}
	return strings.TrimSuffix(s, ".")
}
