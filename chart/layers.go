package chart

import (
	"fmt"
	"slices"
	"strconv"

	"androprof/internal/human"
	"androprof/model/cost"
)

// stacked tells whether the bars are drawn as series end to end (Chart.Stacked).
func (c Chart) stacked() bool { return c.Stacked && len(c.Series) > 0 }

// noteGap is the room between a bar's value and its note, in pixels.
const noteGap = 12

// note is what Chart.Notes writes after a bar ("" for "other", whose bars each had theirs).
func (d *drawer) note(it item) string {
	if it.index < 0 || it.index >= len(d.c.Notes) {
		return ""
	}
	return d.c.Notes[it.index]
}

// layerNames are the legend's names of the image kinds.
var layerNames = map[cost.ImageKind]string{cost.ImageProgram: "program", cost.ImageLibrary: "libraries",
	cost.ImageLoader: "loader", cost.ImageNoFile: "no file", "": cost.NoImage}

// LayerName is what a layer chart's legend calls an image kind ("" is a trace that names no image).
func LayerName(k cost.ImageKind) string {
	if n, ok := layerNames[k]; ok {
		return n
	}
	return string(k)
}

// FromLayers is the layer chart (seed 004's question: is the cost in the program, in its
// libraries or in the loader?): per process one bar of a metric, split by the image kind of
// the code that ran, with its system calls written beside it (they are no instructions the
// emulator ran, so no part of the bar). rows are reports --by layer or --by image of single
// processes (PID set); calls, nil for traces that count none, give the notes; names, when not
// nil, relabels a pid ("27464" → "27464 sieve").
func FromLayers(run, profile string, rows []cost.ReportRow, calls []cost.SyscallRow, names map[string]string, m Metric) Chart {
	c := Chart{Stacked: true, Kind: Bars, YLabel: m.Label(), Unit: m.Unit(),
		Title: fmt.Sprintf("%s by layer — %s, %s", titleCase(m.Label()), run, profile)}
	kinds := map[cost.ImageKind]bool{}
	bar := map[int]int{} // pid → bar
	var pids []int
	for _, r := range rows {
		kinds[r.ImageKind] = true
		if _, ok := bar[r.PID]; !ok {
			bar[r.PID] = len(pids)
			pids = append(pids, r.PID)
		}
	}
	var order []cost.ImageKind
	for _, k := range append(cost.ImageKinds, "") {
		if kinds[k] {
			order = append(order, k)
			c.Series = append(c.Series, LayerName(k))
		}
	}
	for _, r := range rows { // a kind newer than this chart still shows
		if !slices.Contains(order, r.ImageKind) {
			order = append(order, r.ImageKind)
			c.Series = append(c.Series, LayerName(r.ImageKind))
		}
	}
	c.Bars = make([]Bar, len(pids))
	c.Values = make([][]float64, len(pids))
	for i, pid := range pids {
		label := strconv.Itoa(pid)
		if n, ok := names[label]; ok {
			label = n
		}
		c.Bars[i].Label = label
		c.Values[i] = make([]float64, len(order))
	}
	for _, r := range rows {
		i := bar[r.PID]
		v := m.Of(r)
		c.Bars[i].Value += v
		c.Values[i][slices.Index(order, r.ImageKind)] += v
	}
	if calls != nil {
		n := map[int]int64{}
		for _, s := range calls {
			n[s.PID] += s.Count
		}
		c.Notes = make([]string, len(pids))
		for i, pid := range pids {
			c.Notes[i] = human.Count(n[pid], "system call", "system calls")
		}
	}
	return c
}

// FromSyscalls charts how often each system call was made, summed over processes and threads.
func FromSyscalls(run string, rows []cost.SyscallRow) Chart {
	c := Chart{Kind: Bars, YLabel: "calls", Unit: "calls", Title: "System calls by name — " + run}
	bar := map[string]int{}
	for _, r := range rows {
		i, ok := bar[r.Name]
		if !ok {
			i = len(c.Bars)
			bar[r.Name] = i
			c.Bars = append(c.Bars, Bar{Label: r.Name})
		}
		c.Bars[i].Value += float64(r.Count)
	}
	return c
}

// FromImageComparison charts one metric per image across compared items, one series per item:
// the program, the libraries and the loader of an ARM and a MIPS build side by side.
func FromImageComparison(items []string, rows []cost.ImageCompareRow, m Metric) Chart {
	c := Chart{Kind: Bars, YLabel: m.Label(), Unit: m.Unit(), Title: titleCase(m.Label()) + " per image compared",
		Top: 30, Series: items}
	for _, r := range rows {
		b := Bar{Label: r.Key}
		vals := make([]float64, len(r.Cells))
		for i, cell := range r.Cells {
			vals[i] = m.Of(cell)
			b.Value += vals[i]
		}
		c.Bars = append(c.Bars, b)
		c.Values = append(c.Values, vals)
	}
	return c
}
