package chart

import (
	"fmt"
	"strings"

	"androprof/model/cost"
)

// Metric is the cost a chart of a report shows.
type Metric string

// The metrics of the analysis window's selector and of `androprof chart --metric`.
const (
	Cycles       Metric = "cycles"
	Time         Metric = "time"
	Energy       Metric = "energy"
	Instructions Metric = "instructions"
)

// Metrics lists the cost metrics in the order the window offers them.
var Metrics = []Metric{Cycles, Time, Energy}

// ParseMetric accepts the names of the metrics, instructions included.
func ParseMetric(s string) (Metric, error) {
	switch m := Metric(s); m {
	case Cycles, Time, Energy, Instructions:
		return m, nil
	}
	return "", fmt.Errorf("unknown metric %q (want cycles, time, energy or instructions)", s)
}

// Label is the metric with its unit, for axes and column titles.
func (m Metric) Label() string {
	switch m {
	case Time:
		return "time (s)"
	case Energy:
		return "energy (J)"
	}
	return string(m)
}

// Unit is what the metric's values are counted in, for Chart.Unit.
func (m Metric) Unit() string {
	switch m {
	case Time:
		return "s"
	case Energy:
		return "J"
	}
	return string(m)
}

// Of reads the metric from a report row.
func (m Metric) Of(r cost.ReportRow) float64 {
	switch m {
	case Time:
		return r.TimeS
	case Energy:
		return r.EnergyJ
	case Instructions:
		return float64(r.Instructions)
	}
	return r.Cycles
}

var groupNames = map[cost.Grouping]string{cost.ByPID: "process", cost.ByBlock: "basic block",
	cost.ByInstruction: "instruction", cost.ByCategory: "category", cost.ByFunction: "function",
	cost.ByImage: "image", cost.ByLayer: "layer"}

// FromReport charts one metric of a report, one bar per row, so the window and
// `androprof chart` draw the same picture. names, when not nil, relabels rows by key (e.g. a
// pid with its process name).
func FromReport(rep *cost.Report, m Metric, kind Kind, names map[string]string) Chart {
	c := Chart{Kind: kind, YLabel: m.Label(), Unit: m.Unit(), Caveat: m.Caveat(rep.Coverage),
		Title: fmt.Sprintf("%s by %s — %s, %s", titleCase(m.Label()), groupNames[rep.By], rep.Run, rep.Profile)}
	for _, r := range rep.Rows {
		label := r.Key
		if n, ok := names[r.Key]; ok {
			label = n
		}
		c.Bars = append(c.Bars, Bar{Label: label, Value: m.Of(r), Unknown: m == Energy && !r.EnergyKnown()})
	}
	return c
}

// Caveat is what of the metric a profile that does not fit the run leaves a guess, for
// Chart.Caveat: none for instruction counts, power only for energy.
func (m Metric) Caveat(cov cost.Coverage) string {
	if m == Instructions {
		return ""
	}
	if m != Energy {
		cov.UnknownPower = 0
	}
	return cov.Warning()
}

// FromComparison charts one metric of runs or processes side by side (seed figure 5.1).
func FromComparison(rows []cost.CompareRow, m Metric, kind Kind) Chart {
	c := Chart{Kind: kind, YLabel: m.Label(), Unit: m.Unit(), Title: titleCase(m.Label()) + " compared", Top: 30,
		Caveat: ComparisonCaveat(rows, m)}
	for _, r := range rows {
		row := cost.ReportRow{Instructions: r.Instructions, Cycles: r.Cycles, TimeS: r.TimeS, EnergyJ: r.EnergyJ}
		c.Bars = append(c.Bars, Bar{Label: r.Item, Value: m.Of(row), Unknown: m == Energy && r.Coverage.PowerUnknown()})
	}
	return c
}

// ComparisonCaveat is Metric.Caveat for items side by side, each named ("sieve-mips: Power
// unknown: …"), for any chart of them (per item or per image).
func ComparisonCaveat(rows []cost.CompareRow, m Metric) string {
	var caveats []string
	for _, r := range rows {
		if w := m.Caveat(r.Coverage); w != "" {
			caveats = append(caveats, r.Item+": "+w)
		}
	}
	return strings.Join(caveats, " ")
}

func titleCase(s string) string {
	if s == "" {
		return s
	}
	b := []byte(s)
	if b[0] >= 'a' && b[0] <= 'z' {
		b[0] -= 'a' - 'A'
	}
	return string(b)
}
