package chart

import (
	"fmt"
	"strings"

	"androprof/model/calls"
)

// clockName names a clock for titles and axes.
func clockName(cpu bool) string {
	if cpu {
		return "thread-CPU"
	}
	return "real"
}

// outsideCalls tells the "(toplevel)" rows apart: the time outside every traced call is not a
// method and would dwarf the rest of a chart, so charts leave it out (the table keeps it).
func outsideCalls(key string) bool { return strings.HasPrefix(key, "(toplevel)") }

// FromMethodReport charts a method report on one clock, exclusive or inclusive time: the top
// methods as bars are DPA figure 6's hotspots, packages as a pie RMP figure 8's time by module.
// scope names the threads the report covers, for the title.
func FromMethodReport(rep *calls.MethodReport, cpu, exclusive bool, kind Kind, scope string) Chart {
	which := "Inclusive"
	if exclusive {
		which = "Exclusive"
	}
	c := Chart{Kind: kind, YLabel: fmt.Sprintf("%s %s time", strings.ToLower(which), clockName(cpu)), Unit: "µs",
		Title: fmt.Sprintf("%s %s time by %s — %s, %s", which, clockName(cpu), rep.By, rep.Run, scope)}
	for _, r := range rep.Rows {
		if outsideCalls(r.Key) {
			continue
		}
		t := r.Times
		v := t.InclusiveWall
		switch {
		case cpu && exclusive:
			v = t.ExclusiveCPU
		case cpu:
			v = t.InclusiveCPU
		case exclusive:
			v = t.ExclusiveWall
		}
		c.Bars = append(c.Bars, Bar{Label: r.Key, Value: float64(v)})
	}
	return c
}

// FromMethodComparison charts two method runs side by side, one pair of bars per method (or
// class, package) on one clock's inclusive time: DPA figure 7. The rows beyond the top are
// left out rather than summed into "other": inclusive times nest.
func FromMethodComparison(rows []calls.MethodCompareRow, runA, runB string, by calls.MethodGrouping, cpu bool) Chart {
	c := Chart{Kind: Bars, Series: []string{runA, runB}, NoOther: true, YLabel: fmt.Sprintf("inclusive %s time", clockName(cpu)), Unit: "µs",
		Title: fmt.Sprintf("Inclusive %s time by %s — %s vs %s", clockName(cpu), by, runA, runB)}
	for _, r := range rows {
		if outsideCalls(r.Key) {
			continue
		}
		a, b := r.A.InclusiveWall, r.B.InclusiveWall
		if cpu {
			a, b = r.A.InclusiveCPU, r.B.InclusiveCPU
		}
		c.Bars = append(c.Bars, Bar{Label: r.Key, Value: float64(max(a, b))})
		c.Values = append(c.Values, []float64{float64(a), float64(b)})
	}
	return c
}
