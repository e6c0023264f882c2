// Package chart specifies the workbench's charts: builders (From…) turn model types into
// Chart, Lines, StackedColumns, LayerShares, Flame or Timeline values, and each knows how to
// paint itself on go-chart (archived upstream, wrapped here so it can be replaced in one
// place). Front ends draw them only through package chart/render, so the window, the command
// line and the exports draw the same pictures. It imports no Fyne, so the cgo-free command
// line can use it.
package chart

import (
	"cmp"
	"errors"
	"fmt"
	"io"
	"math"
	"slices"
	"strings"

	"androprof/chart/render"
	"androprof/internal/human"
	"androprof/internal/termtext"
)

// Kind is the shape of a chart.
type Kind int

const (
	// Bars are horizontal bars with their labels on the left: long names (functions, blocks)
	// stay readable, which is why it is the default.
	Bars Kind = iota
	// Columns are vertical bars over a value axis, for a few short labels.
	Columns
	// Pie shows each bar's share of the total.
	Pie
)

// Drawing is any chart the window shows and saves: bars, lines, stacked columns, layers over
// time, flame graphs, timelines. Draw one with render.Render or render.Image.
type Drawing = render.Drawing

// Kinds names the kinds for command lines and menus.
var Kinds = map[string]Kind{"bar": Bars, "column": Columns, "pie": Pie}

// ParseKind accepts the names in Kinds.
func ParseKind(s string) (Kind, error) {
	if k, ok := Kinds[s]; ok {
		return k, nil
	}
	return 0, fmt.Errorf("unknown chart kind %q (want bar, column or pie)", s)
}

// Bar is one labelled value: a bar, a column or a slice.
type Bar struct {
	Label string
	Value float64
	// Unknown marks a value that cannot be known (energy under a profile with no power): the
	// bar is drawn as "unknown" after the others, never as 0 and never left out.
	Unknown bool
}

// DefaultTop is how many bars a chart draws when Chart.Top is 0: more are unreadable.
const DefaultTop = 15

// OtherLabel names the bar that sums the bars beyond Top.
const OtherLabel = "other"

// Chart is what to draw. Bars are drawn largest first; values must be finite and ≥ 0
// (costs, counts, shares). A chart with no bar above zero draws as "No data".
type Chart struct {
	Title  string
	YLabel string // what the values measure, e.g. "cycles" or "energy (J)"
	// Unit writes each value with its unit ("2.62 ms", "6.45 M cycles", "1.5 MB"): "s", "J",
	// "cycles", "B" for bytes in binary units, "µs" for values in µs; "" writes plain numbers.
	Unit string
	Bars []Bar
	Kind Kind
	Top  int // most bars drawn; the rest are summed into one "other" bar (0: DefaultTop)
	// Series name the values of a grouped Bars chart (two traces side by side, DPA figure 7);
	// with two or more, bar i is drawn as one thin bar per series, of the values in Values[i],
	// with a legend. Bar.Value still orders the bars, and is what Columns and Pie draw.
	Series []string
	Values [][]float64
	// NoOther drops the bars beyond Top instead of summing them into "other": inclusive times
	// nest, so their sum means nothing.
	NoOther bool
	// Stacked draws the series end to end in one bar (a process's program, libraries and
	// loader: parts of one whole) instead of side by side; such a chart is always drawn as Bars.
	Stacked bool
	// Notes, when set, are written after bar i's value, for what is not a part of it (a
	// process's system calls, which the emulator does not run as instructions).
	Notes []string
	// Caveat says what of the values is a guess (a profile that does not fit the run): it is
	// drawn under the chart, so a saved image carries it as the window does.
	Caveat string
}

// ErrBadValue reports a bar whose value cannot be drawn.
var ErrBadValue = errors.New("chart values must be finite and ≥ 0")

// item is a bar as drawn: Index points back into Chart.Bars, -1 for "other".
type item struct {
	label   string
	value   float64
	values  []float64 // a grouped chart's, one per series
	index   int
	unknown bool // drawn as "unknown" (Bar.Unknown)
}

// items validates the bars and keeps the largest limit of them, the rest summed as "other".
func (c Chart) items(limit int) ([]item, error) {
	var out, unknown []item
	for i, b := range c.Bars {
		if b.Unknown {
			unknown = append(unknown, item{label: b.Label, index: i, unknown: true})
			continue
		}
		for _, v := range append([]float64{b.Value}, c.seriesValues(i)...) {
			if math.IsNaN(v) || math.IsInf(v, 0) || v < 0 {
				return nil, fmt.Errorf("bar %q is %v: %w", b.Label, v, ErrBadValue)
			}
		}
		if b.Value > 0 {
			out = append(out, item{label: b.Label, value: b.Value, values: c.seriesValues(i), index: i})
		}
	}
	slices.SortStableFunc(out, func(a, b item) int { return cmp.Compare(b.value, a.value) })
	top := c.Top
	if top <= 0 {
		top = DefaultTop
	}
	if limit > 0 {
		top = min(top, limit)
	}
	top = max(top, 1)
	if len(out) > top && c.NoOther {
		out = out[:top]
	}
	if len(out) > top {
		rest := item{index: -1}
		rest.values = make([]float64, len(c.Series))
		for _, it := range out[top-1:] {
			rest.value += it.value
			for s, v := range it.values {
				rest.values[s] += v
			}
		}
		rest.label = fmt.Sprintf("%s (%d)", OtherLabel, len(out)-top+1)
		out = append(out[:top-1], rest)
	}
	return append(out, unknown...), nil
}

// unknownLabels lists the bars whose value is unknown, for the footnote of a chart that
// draws no row for them (columns, pie).
func (c Chart) unknownLabels() []string {
	var out []string
	for _, b := range c.Bars {
		if b.Unknown {
			out = append(out, b.Label)
		}
	}
	return out
}

// seriesValues are bar i's values, one per series (missing ones are 0).
func (c Chart) seriesValues(i int) []float64 {
	if len(c.Series) == 0 {
		return nil
	}
	v := make([]float64, len(c.Series))
	if i < len(c.Values) {
		copy(v, c.Values[i])
	}
	return v
}

// Empty reports whether the chart would draw as "No data".
func (c Chart) Empty() bool {
	items, err := c.items(0)
	return err == nil && len(items) == 0
}

// checkSize is render.CheckSize: the charts' hit tests answer nothing off the sizes drawn.
func checkSize(width, height int) error { return render.CheckSize(width, height) }

// Paint writes the chart as PNG or SVG (render.Drawing; draw it with render.Render).
func (c Chart) Paint(w io.Writer, format render.Format, width, height int) (err error) {
	if err := checkSize(width, height); err != nil {
		return err
	}
	provider, esc, err := providerFor(format)
	if err != nil {
		return err
	}
	// go-chart panics on some inputs it does not expect; a chart must never take the window down.
	defer func() {
		if p := recover(); p != nil {
			err = fmt.Errorf("drawing chart %q: %v", c.Title, p)
		}
	}()
	if c.Stacked {
		c.Kind = Bars
	}
	d := &drawer{c: c, w: width, h: height, esc: esc}
	if c.Kind == Columns {
		return d.columns(provider, w)
	}
	r, err := provider(width, height)
	if err != nil {
		return err
	}
	if err := d.start(r); err != nil {
		return err
	}
	switch c.Kind {
	case Bars:
		err = d.bars(r)
	case Pie:
		err = d.pie(r)
	default:
		err = fmt.Errorf("unknown chart kind %d", c.Kind)
	}
	if err != nil {
		return err
	}
	return r.Save(w)
}

// BarAt tells which bar of Chart.Bars is drawn at pixel (x, y) of a width×height Bars chart,
// so a click on a bar can drill down. It is -1 off the bars, on "other", and for other kinds.
func (c Chart) BarAt(width, height, x, y int) int {
	if c.Stacked {
		c.Kind = Bars
	}
	if c.Kind != Bars || checkSize(width, height) != nil || x < 0 || x >= width {
		return -1
	}
	l := barRows(c, width, height)
	items, err := c.items(l.maxRows)
	if err != nil || len(items) == 0 {
		return -1
	}
	l = l.fit(len(items))
	if y < l.top || y >= l.top+l.rowH*len(items) {
		return -1
	}
	return items[(y-l.top)/l.rowH].index
}

// escapeXML writes a label as SVG text: what label makes of it, with XML's own characters
// as entities. Characters XML 1.0 forbids (ESC, NUL, U+FFFE) and bytes that are not UTF-8
// are escaped by label, so a chart of any names is well-formed.
func escapeXML(s string) string {
	return xmlEscaper.Replace(label(s))
}

var xmlEscaper = strings.NewReplacer("&", "&amp;", "<", "&lt;", ">", "&gt;", `"`, "&quot;", "'", "&apos;")

// maxLabel is the most display columns of a label a chart measures and draws. Names come
// from files: one near the 1 MiB line limit is cut here before any measuring, so a chart costs
// what it shows, and every label is shortened further to its room.
const maxLabel = 300

// label is a name as charts show it: escaped (internal/termtext: a name's control characters
// and broken bytes would draw as boxes, or make an SVG that is not XML) and cut to maxLabel.
func label(s string) string { return termtext.Cut(termtext.Escape(s), maxLabel) }

// valueText writes a bar's value with the chart's unit.
func (c Chart) valueText(v float64) string {
	switch c.Unit {
	case "B":
		return bytesText(v)
	case "µs":
		return human.Micros(v)
	}
	return human.Quantity(v, c.Unit)
}

// bytesText writes a value of bytes as human.Bytes does: charts and tables agree.
func bytesText(v float64) string {
	if v >= math.MaxUint64 {
		return human.Bytes(math.MaxUint64)
	}
	return human.Bytes(uint64(math.Round(v)))
}

// tickText writes a bar's value or an axis tick: with its unit, except counts, whose name the
// caption carries ("500k" over "cycles", not "500 k cycles" at every bar).
func (c Chart) tickText(v float64) string {
	if human.CountUnit(c.Unit) && c.Unit != "µs" {
		return human.Compact(v)
	}
	return c.valueText(v)
}
