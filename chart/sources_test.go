package chart

import (
	"bytes"
	"slices"
	"strings"
	"testing"

	"androprof/chart/render"
	"androprof/model/cost"
)

// sourcesReport is a report by function of two rows, with a machine model and miss costs when
// the waterfall says so.
func sourcesReport(pipelineKnown, memoryKnown bool) *cost.Report {
	return &cost.Report{Run: "r", Profile: "p", By: cost.ByFunction,
		Rows: []cost.ReportRow{
			{Key: "main", Cycles: 1000, PipelineCycles: 700, StallCycles: 50},
			{Key: "sieve", Cycles: 600, PipelineCycles: 400, StallCycles: 900},
		},
		Waterfall: cost.Waterfall{PipelineKnown: pipelineKnown, MemoryKnown: memoryKnown,
			PipelineNote: "llvm-mca-16 is not installed (Debian package llvm-16): the category costs stand",
			MemoryNote:   "not simulated: run with --cache"}}
}

// Each function's category, pipeline and stall cycles side by side, the bars ordered by what
// the model says they cost in all (core and stalls), not by their category cycles.
func TestFromSources(t *testing.T) {
	c := FromSources(sourcesReport(true, true), nil)
	if !slices.Equal(c.Series, []string{SourceCategory, SourcePipeline, SourceMemory}) {
		t.Fatalf("series %v", c.Series)
	}
	if c.Bars[0].Label != "main" || c.Bars[0].Value != 750 || c.Bars[1].Value != 1300 ||
		!slices.Equal(c.Values[1], []float64{600, 400, 900}) || c.Caveat != "" {
		t.Errorf("bars %+v, values %v, caveat %q", c.Bars, c.Values, c.Caveat)
	}
	items, err := c.items(0)
	if err != nil || items[0].label != "sieve" {
		t.Errorf("drawn first: %+v, %v (want sieve: 400 + 900 cycles)", items, err)
	}
	var csv bytes.Buffer
	if err := render.Render(&csv, c, render.CSV, 900, 600); err != nil || !strings.Contains(csv.String(), SourceMemory) {
		t.Errorf("CSV %q, %v", csv.String(), err)
	}
}

// A step that cannot be known is not drawn as 0: its series is left out and the caveat says
// why; with the category cycles alone the chart is plain bars.
func TestFromSourcesUnknownSteps(t *testing.T) {
	c := FromSources(sourcesReport(false, true), nil)
	if !slices.Equal(c.Series, []string{SourceCategory, SourceMemory}) || !strings.Contains(c.Caveat, "llvm-mca-16 is not installed") ||
		c.Bars[0].Value != 1050 {
		t.Errorf("no model: series %v, caveat %q, bars %+v", c.Series, c.Caveat, c.Bars)
	}
	c = FromSources(sourcesReport(false, false), map[string]string{"main": "main()"})
	if c.Series != nil || c.Values != nil || c.Bars[0].Label != "main()" || c.Bars[0].Value != 1000 ||
		!strings.Contains(c.Caveat, "No memory stalls: not simulated: run with --cache.") {
		t.Errorf("neither: series %v, bars %+v, caveat %q", c.Series, c.Bars, c.Caveat)
	}
}
