package chart

// The numbers behind each chart, as render writes them to CSV: raw values in the chart's base
// unit at full precision, one row per bar, x value, column, bucket, frame or call. A value not
// known is "unknown", a missing one (a gap in a line) is empty: neither is ever 0.

import (
	"androprof/model/flame"
	"cmp"
	"math"
	"slices"
	"strconv"
	"strings"

	"androprof/model/layers"
)

// num writes a value for a spreadsheet and a person: a whole number in full ("1131442", never
// "1.131442e+06"), any other to 12 significant digits (a cost of 2557105.84 cycles, not the
// 2557105.8399999943 that float sums leave), "" for NaN (no value).
func num(v float64) string {
	switch {
	case v != v:
		return ""
	case v == math.Trunc(v) && math.Abs(v) < 1e18:
		return strconv.FormatFloat(v, 'f', 0, 64)
	}
	return strconv.FormatFloat(v, 'g', 12, 64)
}

// valueHead names the value column with its unit when the label does not say it already:
// "exclusive thread-CPU time (µs)".
func valueHead(label, unit string) string {
	label = orName(label, "value")
	if unit == "" || strings.Contains(label, unit) {
		return label
	}
	return label + " (" + unit + ")"
}

// orName is name, or fallback when it is empty.
func orName(name, fallback string) string {
	if name == "" {
		return fallback
	}
	return name
}

// Table is every bar, not only those drawn, in the order the chart draws them (largest first,
// then those of no value or an unknown one): label, value, each series' value and the bar's note
// when the chart has them.
func (c Chart) Table() [][]string {
	head := []string{"label", valueHead(c.YLabel, c.Unit)}
	head = append(head, c.Series...)
	if len(c.Notes) > 0 {
		head = append(head, "note")
	}
	rows := [][]string{head}
	order := make([]int, len(c.Bars))
	for i := range order {
		order[i] = i
	}
	drawn := func(b Bar) bool { return !b.Unknown && b.Value > 0 }
	slices.SortStableFunc(order, func(i, j int) int {
		a, b := c.Bars[i], c.Bars[j]
		if drawn(a) != drawn(b) {
			if drawn(a) {
				return -1
			}
			return 1
		}
		return cmp.Compare(b.Value, a.Value)
	})
	for _, i := range order {
		b := c.Bars[i]
		row := []string{b.Label, num(b.Value)}
		if b.Unknown {
			row[1] = "unknown"
		}
		for _, v := range c.seriesValues(i) {
			row = append(row, num(v))
		}
		if len(c.Notes) > 0 {
			row = append(row, "")
			if i < len(c.Notes) {
				row[len(row)-1] = c.Notes[i]
			}
		}
		rows = append(rows, row)
	}
	return rows
}

// seriesHead names a chart's series for a header, after the name of what the rows are.
func seriesHead(first, only string, series []LineSeries) []string {
	head := []string{first}
	for _, s := range series {
		head = append(head, orName(s.Label, only))
	}
	return head
}

// Table is one row per x value: x, then each series' value there.
func (l Lines) Table() [][]string {
	rows := [][]string{seriesHead(orName(l.XLabel, "x"), orName(l.YLabel, "y"), l.Series)}
	for i, x := range l.X {
		row := []string{num(x)}
		for _, s := range l.Series {
			row = append(row, num(valueAt(s.Values, i)))
		}
		rows = append(rows, row)
	}
	return rows
}

// Table is one row per column: its label, then each stack level's part.
func (c StackedColumns) Table() [][]string {
	rows := [][]string{seriesHead(orName(c.XLabel, "column"), orName(c.YLabel, "value"), c.Series)}
	for i, label := range c.Labels {
		row := []string{label}
		for _, s := range c.Series {
			row = append(row, num(valueAt(s.Values, i)))
		}
		rows = append(rows, row)
	}
	return rows
}

// Table is one row per slice of time: when it starts (s), then each layer's part as drawn
// (samples, or percent of the slice's with Shares).
func (c LayerShares) Table() [][]string {
	rows := [][]string{append([]string{"time (s)"}, sampleLayerNames()...)}
	tl := c.Timeline
	for i := range tl.Counts {
		row := []string{num(float64(tl.StartNS+int64(i)*tl.BucketNS) / 1e9)}
		for j := range layers.Layers {
			row = append(row, num(c.height(i, j)))
		}
		rows = append(rows, row)
	}
	return rows
}

// Table is one row per frame of the whole graph, callers first: its stack (frames joined by
// ";", as folded stacks write them), layer, samples as leaf and samples on the stack.
func (f Flame) Table() [][]string {
	if f.diff != nil {
		return f.diff.table() // a diff's rows, as `androprof diff --json` has them
	}
	rows := [][]string{{"stack", "layer", "self", "total"}}
	var walk func(n *flame.Node, path []string)
	walk = func(n *flame.Node, path []string) {
		path = append(path, n.Name)
		rows = append(rows, []string{strings.Join(path, ";"), n.Layer.String(), strconv.FormatInt(n.Self, 10), strconv.FormatInt(n.Total, 10)})
		for _, c := range n.Children {
			walk(c, path)
		}
	}
	if top := f.Top(); top != nil {
		walk(top, nil)
	}
	return rows
}

// Table is one row per call: its label, depth (0: a level-1 call), start and end in µs.
func (t Timeline) Table() [][]string {
	rows := [][]string{{"call", "depth", "start (µs)", "end (µs)"}}
	for _, s := range t.Spans {
		rows = append(rows, []string{s.Label, strconv.Itoa(s.Depth), strconv.FormatUint(s.Start, 10), strconv.FormatUint(s.End, 10)})
	}
	return rows
}
