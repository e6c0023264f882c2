// Package chart draws the workbench's charts. It is the project's own small chart API over
// go-chart (archived upstream), so the library can be replaced in one place; the window, the
// command line and the exports draw the same pictures through it. It imports no Fyne, so the
// cgo-free command line can use it.
package chart

import (
	"cmp"
	"errors"
	"fmt"
	"image"
	"io"
	"math"
	"path/filepath"
	"slices"
	"strings"

	"androprof/internal/termtext"

	gochart "github.com/wcharczuk/go-chart/v2"
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

// Kinds names the kinds for command lines and menus.
var Kinds = map[string]Kind{"bar": Bars, "column": Columns, "pie": Pie}

// ParseKind accepts the names in Kinds.
func ParseKind(s string) (Kind, error) {
	if k, ok := Kinds[s]; ok {
		return k, nil
	}
	return 0, fmt.Errorf("unknown chart kind %q (want bar, column or pie)", s)
}

// Format is an output format of Render.
type Format int

const (
	// PNG is for pasting into documents.
	PNG Format = iota
	// SVG scales, for papers.
	SVG
)

// FormatFor picks the format a file name asks for, so `--out x.svg` needs no second flag.
func FormatFor(path string) (Format, error) {
	switch strings.ToLower(filepath.Ext(path)) {
	case ".png":
		return PNG, nil
	case ".svg":
		return SVG, nil
	}
	return 0, fmt.Errorf("%s: a chart is written as .png or .svg", path)
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

// Size limits: below the minimum nothing readable fits, above the maximum an image would
// take hundreds of megabytes.
const (
	MinWidth, MinHeight = 120, 80
	MaxSide             = 8000
)

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

func checkSize(width, height int) error {
	if width < MinWidth || height < MinHeight || width > MaxSide || height > MaxSide {
		return fmt.Errorf("chart size %d×%d is outside %d×%d … %d×%d", width, height, MinWidth, MinHeight, MaxSide, MaxSide)
	}
	return nil
}

// Render writes the chart as PNG or SVG.
func (c Chart) Render(w io.Writer, format Format, width, height int) (err error) {
	if err := checkSize(width, height); err != nil {
		return err
	}
	provider, esc := gochart.PNG, label
	switch format {
	case PNG:
	case SVG:
		provider, esc = gochart.SVG, escapeXML // go-chart writes SVG text unescaped
	default:
		return fmt.Errorf("unknown chart format %d", format)
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

// Image draws the chart for a window, without a PNG encode and decode in between.
func (c Chart) Image(width, height int) (*image.RGBA, error) {
	return imageOf(c.Render, width, height)
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

// SIPrefix is a metric prefix and the factor it stands for.
type SIPrefix struct {
	Factor float64
	Symbol string
}

// SIPrefixes are the prefixes values are written with, largest first: costs span from
// picojoules to tera-cycles, and charts and tables must agree on how they read.
var SIPrefixes = []SIPrefix{{1e12, "T"}, {1e9, "G"}, {1e6, "M"}, {1e3, "k"}, {1, ""}, {1e-3, "m"}, {1e-6, "µ"}, {1e-9, "n"}, {1e-12, "p"}}

// Compact writes a value in three significant digits with an SI prefix (1.23G, 45.6m), the
// way bar labels and axes show costs that span many orders of magnitude.
func Compact(v float64) string {
	if v == 0 || math.IsNaN(v) || math.IsInf(v, 0) {
		return fmt.Sprint(v)
	}
	a := math.Abs(v)
	for _, p := range SIPrefixes {
		if a >= p.Factor*0.9995 {
			return trimZeros(fmt.Sprintf("%.3g", v/p.Factor)) + p.Symbol
		}
	}
	return fmt.Sprintf("%.3g", v)
}

// Quantity writes a value with its unit the way people read one: three significant digits and
// the SI prefix joined to the unit ("2.62 ms", "546 µs", "5.74 mJ", "6.45 M cycles"). Units that
// are counts, not SI units, take the prefix as a word of its own.
func Quantity(v float64, unit string) string {
	c := Compact(v)
	if unit == "" {
		return c
	}
	num := strings.TrimRight(c, "TGMkmµnp")
	prefix := c[len(num):]
	if prefix != "" && countUnit(unit) {
		return num + " " + prefix + " " + unit // 6.45 M cycles
	}
	return num + " " + prefix + unit
}

// countUnit tells a count ("cycles", "instructions") from an SI unit, which takes its prefix.
func countUnit(unit string) bool {
	return len([]rune(unit)) > 1 && unit != "Hz" && unit != "GHz"
}

// integer is what Count counts in.
type integer interface {
	~int | ~int8 | ~int16 | ~int32 | ~int64 | ~uint | ~uint8 | ~uint16 | ~uint32 | ~uint64
}

// Count writes a count with its noun in the right number ("1 process", "2 processes"), so no
// window or command says "1 processes". The window groups the digits (view.plural).
func Count[N integer](n N, one, many string) string {
	return fmt.Sprintf("%d %s", n, Noun(n, one, many))
}

// Noun is one for a count of 1, else many.
func Noun[N integer](n N, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

// valueText writes a bar's value with the chart's unit.
func (c Chart) valueText(v float64) string {
	switch c.Unit {
	case "B":
		return Bytes(v)
	case "µs":
		return Quantity(v/1e6, "s")
	}
	return Quantity(v, c.Unit)
}

// tickText writes a bar's value or an axis tick: with its unit, except counts, whose name the
// caption carries ("500k" over "cycles", not "500 k cycles" at every bar).
func (c Chart) tickText(v float64) string {
	if countUnit(c.Unit) && c.Unit != "µs" {
		return Compact(v)
	}
	return c.valueText(v)
}

func trimZeros(s string) string {
	if strings.ContainsAny(s, "e") || !strings.Contains(s, ".") {
		return s
	}
	return strings.TrimSuffix(strings.TrimRight(s, "0"), ".")
}
