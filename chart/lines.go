package chart

import (
	"errors"
	"fmt"
	"image"
	"image/color"
	"io"
	"math"
	"slices"
	"strconv"
	"unicode/utf8"

	"androprof/chart/render"
	"androprof/internal/human"

	gochart "github.com/wcharczuk/go-chart/v2"
	"github.com/wcharczuk/go-chart/v2/drawing"
)

// Lines is a chart of values over an ordered x axis: the heap composition charts of the heap
// analysis (the seed's figures 5.1–5.23), where x is the total of bytes allocated so far and a
// series is a cohort, a thread, a class or an object size. It is drawn with go-chart's renderer
// but not its Chart, which can neither stack absolute areas nor keep a legend of a hundred
// cohorts readable. Long series are thinned to the lowest and highest point of each pixel
// column (see decimate), so a chart of 100 000 values draws in milliseconds.
type Lines struct {
	Title, XLabel, YLabel string
	// X are the ascending x values (equal neighbours are allowed: a step).
	X []float64
	// Series are drawn bottom first, the way a stack grows: the oldest cohort at the bottom.
	Series []LineSeries
	// Stacked draws each series as a filled band on top of the ones below it, so the top line
	// is the total (figures 5.1–5.4, 5.9–5.14, 5.17, 5.18); otherwise each series is a plain line
	// (averages, figures 5.5, 5.6, 5.15, 5.16, 5.19; shares over time, figures 5.22 and 5.23).
	Stacked bool
	// XBytes and YBytes write the axis as byte sizes ("256 KB", "1.5 MB"), binary units on
	// power-of-two ticks; otherwise ticks are Compact numbers.
	XBytes, YBytes bool
	// YPercent writes the y axis as "40%": values are percentages (0–100), not fractions.
	YPercent bool
}

// LineSeries is one line or band of a Lines chart, or one stack level of StackedColumns.
type LineSeries struct {
	Label string
	// Values[i] belongs to X[i] (to column i of StackedColumns). NaN is no value: a gap in a
	// line, nothing in a stack (a cohort not yet allocated). Missing values at the end are NaN.
	Values []float64
}

// MaxLegend is the most series a legend names: beyond it, the legend names the first and the
// last few and says how many it leaves out, as a hundred cohorts would not fit.
const MaxLegend = 12

// seriesPalette colours the series of Lines and StackedColumns: the bar palette first, so the
// first series look as they do in the other charts, then five more hues, so a dozen cohorts
// have a dozen colours before they repeat. The five are far from the nine and from each other
// (CIELAB ΔE ≥ 30; gold beside olive, teal beside cyan made figure 5.22's buckets look alike).
var seriesPalette = append(slices.Clip(palette),
	drawing.Color{R: 255, G: 200, B: 120, A: 255}, drawing.Color{R: 90, G: 0, B: 165, A: 255},
	drawing.Color{R: 110, G: 0, B: 40, A: 255}, drawing.Color{R: 20, G: 20, B: 110, A: 255},
	drawing.Color{R: 0, G: 90, B: 50, A: 255})

func seriesColour(i int) drawing.Color { return seriesPalette[i%len(seriesPalette)] }

// bandColour lightens a series colour for the area under its line, so the line stays visible.
func bandColour(c drawing.Color) drawing.Color {
	mix := func(v uint8) uint8 { return uint8(int(v) + (255-int(v))*30/100) }
	return drawing.Color{R: mix(c.R), G: mix(c.G), B: mix(c.B), A: 255}
}

// valueAt is vs[i], NaN past the end.
func valueAt(vs []float64, i int) float64 {
	if i < len(vs) {
		return vs[i]
	}
	return math.NaN()
}

// check validates the data and returns the largest value drawn: the largest total when
// stacked, the largest single value otherwise.
func (l Lines) check() (peak float64, err error) {
	for i, x := range l.X {
		if math.IsNaN(x) || math.IsInf(x, 0) {
			return 0, fmt.Errorf("x[%d] is %v: %w", i, x, ErrBadValue)
		}
		if i > 0 && x < l.X[i-1] {
			return 0, fmt.Errorf("x[%d] = %v is below x[%d] = %v: x values must ascend", i, x, i-1, l.X[i-1])
		}
	}
	for _, s := range l.Series {
		if len(s.Values) > len(l.X) {
			return 0, fmt.Errorf("series %q has %d values for %d x values", s.Label, len(s.Values), len(l.X))
		}
		for i, v := range s.Values {
			if math.IsInf(v, 0) || v < 0 {
				return 0, fmt.Errorf("series %q at x=%v is %v: %w", s.Label, l.X[i], v, ErrBadValue)
			}
			if !l.Stacked && v > peak {
				peak = v
			}
		}
	}
	if l.Stacked {
		for i := range l.X {
			t := stackTotal(l.Series, i)
			if math.IsInf(t, 0) {
				return 0, fmt.Errorf("the total at x=%v overflows: %w", l.X[i], ErrBadValue)
			}
			peak = max(peak, t)
		}
	}
	return peak, nil
}

// stackTotal is the height of a stack of series at index i: its positive values summed.
func stackTotal(series []LineSeries, i int) float64 {
	t := 0.0
	for _, s := range series {
		if v := valueAt(s.Values, i); v > 0 {
			t += v
		}
	}
	return t
}

// Empty reports whether the chart would draw as "No data": no x, or no value above zero.
func (l Lines) Empty() bool {
	peak, err := l.check()
	return err == nil && (len(l.X) == 0 || peak <= 0)
}

// Paint writes the chart as PNG or SVG (render.Drawing; draw it with render.Render).
func (l Lines) Paint(w io.Writer, format render.Format, width, height int) error {
	_, err := l.render(w, format, width, height)
	return err
}

// render draws the chart and returns its frame, so tests can find where values are drawn.
func (l Lines) render(w io.Writer, format render.Format, width, height int) (f frame, err error) {
	defer func() {
		if p := recover(); p != nil { // see Chart.Paint: a chart must never take the window down
			err = fmt.Errorf("drawing chart %q: %v", l.Title, p)
		}
	}()
	r, d, err := begin(l.Title, format, width, height)
	if err != nil {
		return f, err
	}
	peak, err := l.check()
	if err != nil {
		return f, err
	}
	if len(l.X) == 0 || peak <= 0 {
		d.noData(r)
		return f, r.Save(w)
	}
	var labels []string // a legend, unless of one nameless line
	if len(l.Series) > 1 || len(l.Series) == 1 && l.Series[0].Label != "" {
		for _, s := range l.Series {
			labels = append(labels, s.Label)
		}
	}
	xmin, xmax := l.X[0], l.X[len(l.X)-1]
	if xmin == xmax { // one x: give it some room in the middle
		half := max(math.Abs(xmin)*0.05, 1)
		xmin, xmax = xmin-half, xmax+half
	}
	a := axes{
		xName: l.XLabel, yName: l.YLabel, peak: peak, legend: labels, legendTopFirst: l.Stacked, bands: l.Stacked,
		xUnit: unitOf(l.XBytes, false), yUnit: unitOf(l.YBytes, l.YPercent),
		xmin: xmin, xmax: xmax, xLabelsH: 18,
	}
	f, err = d.layout(r, &a)
	if err != nil {
		return f, err
	}
	d.grid(r, f, a)
	var img *image.RGBA
	if format == render.PNG {
		var g grab
		if err := r.Save(&g); err != nil {
			return f, err
		}
		img = g.img
	}
	if l.Stacked {
		l.drawStacked(r, d, f, img)
	} else {
		l.drawLines(r, d, f, img)
	}
	d.frameAxes(r, f, a)
	d.xTicks(r, f, a)
	d.seriesLegend(r, f, a)
	return f, r.Save(w)
}

// decimate picks the points worth drawing: all of them when there are at most two per pixel
// column, otherwise, per pixel column, the ones where y is lowest and highest, in x order. A
// line through these looks like the line through all points (the sawtooth of allocation and
// collection keeps its peaks and troughs) at a cost bounded by the width. A column with no
// value keeps one NaN point, a gap; gaps narrower than a pixel vanish.
func decimate(x []float64, y func(int) float64, f frame) []int {
	n, cols := len(x), max(f.right-f.left, 1)
	keep := make([]int, 0, min(n, 2*cols+2))
	if n <= 2*cols {
		for i := range n {
			keep = append(keep, i)
		}
		return keep
	}
	col := func(i int) int {
		return min(max(int((x[i]-f.xmin)/(f.xmax-f.xmin)*float64(cols)), 0), cols-1)
	}
	for a := 0; a < n; {
		c, b := col(a), a+1
		for b < n && col(b) == c {
			b++
		}
		lo, hi := -1, -1
		for i := a; i < b; i++ {
			v := y(i)
			if math.IsNaN(v) {
				continue
			}
			if lo < 0 || v < y(lo) {
				lo = i
			}
			if hi < 0 || v > y(hi) {
				hi = i
			}
		}
		switch {
		case lo < 0:
			keep = append(keep, a)
		case lo == hi:
			keep = append(keep, lo)
		default:
			keep = append(keep, min(lo, hi), max(lo, hi))
		}
		a = b
	}
	return keep
}

// drawStacked draws each series as the band between the running total below it and the
// running total with it, bottom first, then the line on top of each band. Bands are polygons
// between two lines rather than areas filled down to the axis (go-chart's way, which needs the
// totals drawn top-down over each other), so each pixel is painted once and an SVG has no
// hidden layers. Points are decimated on the total, so all bands keep the same x. img, when
// not nil, is the PNG renderer's image: the bands and lines are painted into it directly, as
// go-chart's rasteriser takes over 100 ms for 50 bands of 2000 points.
func (l Lines) drawStacked(r gochart.Renderer, d *drawer, f frame, img *image.RGBA) {
	totals := make([]float64, len(l.X))
	for i := range totals {
		totals[i] = stackTotal(l.Series, i)
	}
	keep := decimate(l.X, func(i int) float64 { return totals[i] }, f)
	xs := make([]float64, len(keep))
	for j, i := range keep {
		xs[j] = f.pxf(l.X[i])
	}
	if len(keep) == 1 { // one point: a narrow column, so it shows
		keep, xs = []int{keep[0], keep[0]}, []float64{xs[0] - 3, xs[0] + 3}
	}
	m := len(keep)
	// A band's line is drawn where the band has a value and some height at one end of a
	// segment: a line along a band of nothing would hide the line below it.
	drawn := func(s LineSeries, j int) bool {
		a, b := valueAt(s.Values, keep[j]), valueAt(s.Values, keep[j+1])
		return !math.IsNaN(a) && !math.IsNaN(b) && (a > 0 || b > 0)
	}
	below := make([]float64, m) // the running total up to the current band
	if img != nil {
		cols := f.right - f.left
		prev := newSpans(cols)
		for c := range cols {
			prev.hi[c] = 0
		}
		lines := make([]spans, len(l.Series))
		for s, ser := range l.Series {
			band, line := newSpans(cols), newSpans(cols)
			for j, i := range keep {
				if v := valueAt(ser.Values, i); v > 0 {
					below[j] += v
				}
				if j > 0 {
					band.add(xs[j-1], below[j-1], xs[j], below[j])
					if drawn(ser, j-1) {
						line.add(xs[j-1], below[j-1], xs[j], below[j])
					}
				}
			}
			colour := bandColour(seriesColour(s))
			for c := range cols {
				if !math.IsNaN(band.hi[c]) && !math.IsNaN(prev.hi[c]) {
					paintColumn(img, f.left+c, f.py(band.hi[c]), f.py(prev.hi[c]), colour)
				}
			}
			prev, lines[s] = band, line
		}
		for s, line := range lines {
			colour := seriesColour(s)
			for c := range cols {
				if !math.IsNaN(line.hi[c]) {
					paintColumn(img, f.left+c, f.py(line.hi[c]), f.py(line.lo[c])+1, colour)
				}
			}
		}
		return
	}
	ix := make([]int, m)
	for j, x := range xs {
		ix[j] = f.left + int(math.Round(x))
	}
	lower := make([]int, m)
	for j := range lower {
		lower[j] = f.bottom
	}
	tops := make([][]int, len(l.Series))
	for s, ser := range l.Series {
		upper := make([]int, m)
		some := false
		for j, i := range keep {
			if v := valueAt(ser.Values, i); v > 0 {
				below[j] += v
				some = true
			}
			upper[j] = f.py(below[j])
		}
		tops[s] = upper
		if some {
			r.SetFillColor(bandColour(seriesColour(s)))
			r.SetStrokeColor(drawing.Color{})
			r.SetStrokeWidth(0)
			r.MoveTo(ix[0], upper[0])
			for j := 1; j < m; j++ {
				r.LineTo(ix[j], upper[j])
			}
			for j := m - 1; j >= 0; j-- {
				r.LineTo(ix[j], lower[j])
			}
			r.Close()
			r.Fill()
		}
		lower = upper
	}
	for s, ser := range l.Series {
		d.polyline(r, ix, tops[s], func(j int) bool { return drawn(ser, j) }, seriesColour(s), 1)
	}
}

// drawLines draws each series as a line of its own, decimated on its own values; into img
// directly when it is not nil, as drawStacked does.
func (l Lines) drawLines(r gochart.Renderer, d *drawer, f frame, img *image.RGBA) {
	for s, ser := range l.Series {
		y := func(i int) float64 { return valueAt(ser.Values, i) }
		keep := decimate(l.X, y, f)
		has := func(j int) bool { return j >= 0 && j < len(keep) && !math.IsNaN(y(keep[j])) }
		c := seriesColour(s)
		if img != nil {
			line := newSpans(f.right - f.left)
			for j, i := range keep {
				switch {
				case has(j) && has(j+1):
					line.add(f.pxf(l.X[i]), y(i), f.pxf(l.X[keep[j+1]]), y(keep[j+1]))
				case has(j) && !has(j-1): // a point with no neighbour is a dot, not nothing
					x := f.pxf(l.X[i])
					line.add(x-2, y(i), x+2, y(i))
				}
			}
			for col := range line.hi {
				if !math.IsNaN(line.hi[col]) { // two pixels thick: each span also in the next column
					y0, y1 := f.py(line.hi[col]), f.py(line.lo[col])+2
					paintColumn(img, f.left+col, y0, y1, c)
					paintColumn(img, f.left+min(col+1, len(line.hi)-1), y0, y1, c)
				}
			}
			continue
		}
		xs, ys := make([]int, len(keep)), make([]int, len(keep))
		for j, i := range keep {
			xs[j] = f.px(l.X[i])
			if v := y(i); !math.IsNaN(v) {
				ys[j] = f.py(v)
			}
		}
		d.polyline(r, xs, ys, func(j int) bool { return has(j) && has(j+1) }, c, 1.5)
		for j := range keep {
			if has(j) && !has(j-1) && !has(j+1) {
				d.fillRect(r, xs[j]-1, ys[j]-1, xs[j]+2, ys[j]+2, c)
			}
		}
	}
}

// spans are, per pixel column of a plot, the lowest and highest value a piecewise linear
// line takes in that column (NaN: the line does not pass it). A line painted column by
// column from them is continuous, and a band between two of them leaves no pixel out or
// twice: the cheap way to draw thousands of points.
type spans struct{ lo, hi []float64 }

func newSpans(cols int) spans {
	s := spans{make([]float64, cols), make([]float64, cols)}
	for c := range cols {
		s.lo[c], s.hi[c] = math.NaN(), math.NaN()
	}
	return s
}

// add adds the segment from (xa, va) to (xb, vb), x in pixels from the plot's left edge;
// column c covers [c, c+1].
func (s spans) add(xa, va, xb, vb float64) {
	if xb < xa {
		xa, va, xb, vb = xb, vb, xa, va
	}
	n := len(s.lo)
	first, last := max(int(math.Floor(xa)), 0), min(int(math.Floor(xb)), n-1)
	for c := first; c <= last; c++ {
		v0, v1 := va, vb
		if xb > xa {
			x0, x1 := math.Max(xa, float64(c)), math.Min(xb, float64(c+1))
			v0, v1 = va+(vb-va)*(x0-xa)/(xb-xa), va+(vb-va)*(x1-xa)/(xb-xa)
		}
		lo, hi := math.Min(v0, v1), math.Max(v0, v1)
		if math.IsNaN(s.lo[c]) || lo < s.lo[c] {
			s.lo[c] = lo
		}
		if math.IsNaN(s.hi[c]) || hi > s.hi[c] {
			s.hi[c] = hi
		}
	}
}

// paintColumn paints rows y0 ≤ y < y1 of pixel column x.
func paintColumn(img *image.RGBA, x, y0, y1 int, c drawing.Color) {
	rgba := color.RGBA{R: c.R, G: c.G, B: c.B, A: 255}
	for y := y0; y < y1; y++ {
		img.SetRGBA(x, y, rgba)
	}
}

// polyline strokes the segments j→j+1 for which seg(j) holds, joined where they touch.
func (d *drawer) polyline(r gochart.Renderer, xs, ys []int, seg func(int) bool, c drawing.Color, width float64) {
	r.SetFillColor(drawing.Color{}) // an SVG path is filled with the fill colour even when stroked
	r.SetStrokeColor(c)
	r.SetStrokeWidth(width)
	open := false
	for j := range len(xs) - 1 {
		if !seg(j) {
			if open {
				r.Stroke()
				open = false
			}
			continue
		}
		if !open {
			r.MoveTo(xs[j], ys[j])
			open = true
		}
		r.LineTo(xs[j+1], ys[j+1])
	}
	if open {
		r.Stroke()
	}
}

// fillRect paints the pixels x0 ≤ x < x1, y0 ≤ y < y1 with no stroke, so stacked parts meet
// without overlapping.
func (d *drawer) fillRect(r gochart.Renderer, x0, y0, x1, y1 int, c drawing.Color) {
	r.SetFillColor(c)
	r.SetStrokeColor(drawing.Color{})
	r.SetStrokeWidth(0)
	r.MoveTo(x0, y0)
	r.LineTo(x1, y0)
	r.LineTo(x1, y1)
	r.LineTo(x0, y1)
	r.Close()
	r.Fill()
}

// StackedColumns is a histogram whose columns are stacks: the object size demographics of the
// seed's figures 5.7 and 5.8 (the share of objects of each size, each column split by the
// cohort that allocated them). A single series is a plain histogram (figure 5.23's share per
// power-of-two distance). go-chart's StackedBarChart cannot draw it: it scales every bar to
// 100%.
type StackedColumns struct {
	Title, XLabel, YLabel string
	// Labels name the columns, left to right ("8", "16", "24", or "-2^10", "2^4").
	Labels []string
	// Series are the stack levels, bottom first; Values[i] is column i's part, ≥ 0.
	Series   []LineSeries
	YPercent bool
}

// check validates the parts and returns the tallest column.
func (c StackedColumns) check() (peak float64, err error) {
	for _, s := range c.Series {
		if len(s.Values) > len(c.Labels) {
			return 0, fmt.Errorf("series %q has %d values for %d columns", s.Label, len(s.Values), len(c.Labels))
		}
		for i, v := range s.Values {
			if math.IsInf(v, 0) || v < 0 {
				return 0, fmt.Errorf("series %q in column %q is %v: %w", s.Label, c.Labels[i], v, ErrBadValue)
			}
		}
	}
	for i := range c.Labels {
		t := stackTotal(c.Series, i)
		if math.IsInf(t, 0) {
			return 0, fmt.Errorf("column %q overflows: %w", c.Labels[i], ErrBadValue)
		}
		peak = max(peak, t)
	}
	return peak, nil
}

// Empty reports whether the chart would draw as "No data": no column above zero.
func (c StackedColumns) Empty() bool {
	peak, err := c.check()
	return err == nil && peak <= 0
}

// Paint writes the chart as PNG or SVG (render.Drawing; draw it with render.Render).
func (c StackedColumns) Paint(w io.Writer, format render.Format, width, height int) error {
	_, err := c.render(w, format, width, height)
	return err
}

// columnLabels decides how column labels fit under columns slot pixels wide: across when
// they fit, else turned upright, every step-th one when even that is too tight. height is the
// room they take under the axis.
func (c StackedColumns) columnLabels(r gochart.Renderer, d *drawer, slot float64) (upright bool, step, height int) {
	// Measuring costs (the SVG renderer makes a font face each time): measure only the
	// longest few labels, which are the widest give or take a letter.
	longest := 0
	for _, s := range c.Labels {
		longest = max(longest, utf8.RuneCountInString(s))
	}
	widest, measured := 0, map[string]bool{}
	for _, s := range c.Labels {
		if utf8.RuneCountInString(s) >= longest-1 && !measured[s] && len(measured) < 20 {
			measured[s] = true
			widest = max(widest, d.measure(r, s, labelSize))
		}
	}
	if float64(widest+4) <= slot {
		return false, 1, 18
	}
	const lineH = 13 // an upright label's thickness, with a gap
	step = max(1, int(math.Ceil(lineH/slot)))
	return true, step, min(widest, d.h/4) + 10
}

func (c StackedColumns) render(w io.Writer, format render.Format, width, height int) (f frame, err error) {
	defer func() {
		if p := recover(); p != nil {
			err = fmt.Errorf("drawing chart %q: %v", c.Title, p)
		}
	}()
	r, d, err := begin(c.Title, format, width, height)
	if err != nil {
		return f, err
	}
	peak, err := c.check()
	if err != nil {
		return f, err
	}
	if peak <= 0 {
		d.noData(r)
		return f, r.Save(w)
	}
	var labels []string
	if len(c.Series) > 1 {
		for _, s := range c.Series {
			labels = append(labels, s.Label)
		}
	}
	n := len(c.Labels)
	a := axes{xName: c.XLabel, yName: c.YLabel, peak: peak, legend: labels, legendTopFirst: true,
		yUnit: unitOf(false, c.YPercent), xmin: 0, xmax: float64(n), noXTicks: true}
	// The labels' room depends on the column width, which depends on the labels' room only
	// through the legend and the value axis: lay out twice.
	a.xLabelsH = 18
	if f, err = d.layout(r, &a); err != nil {
		return f, err
	}
	upright, step, labelsH := c.columnLabels(r, d, float64(f.right-f.left)/float64(n))
	if labelsH != a.xLabelsH {
		a.xLabelsH = labelsH
		if f, err = d.layout(r, &a); err != nil {
			return f, err
		}
	}
	d.grid(r, f, a)
	slot := float64(f.right-f.left) / float64(n)
	gap := 0.0
	if slot >= 4 {
		gap = math.Min(slot*0.2, 12)
	}
	for i := range n {
		x0 := int(math.Round(float64(f.left) + float64(i)*slot + gap/2))
		x1 := max(int(math.Round(float64(f.left)+float64(i+1)*slot-gap/2)), x0+1)
		below, y0 := 0.0, f.bottom
		for s, ser := range c.Series {
			v := valueAt(ser.Values, i)
			if !(v > 0) {
				continue
			}
			below += v
			y1 := f.py(below)
			if y1 < y0 {
				d.fillRect(r, x0, y1, x1, y0, seriesColour(s))
			}
			y0 = y1
		}
	}
	d.frameAxes(r, f, a)
	// Column labels: centred under their column, or upright and ending just under the axis.
	for i, s := range c.Labels {
		if i%step != 0 {
			continue
		}
		cx := int(math.Round(float64(f.left) + (float64(i)+0.5)*slot))
		if !upright {
			d.text(r, s, labelSize, mutedText, cx, f.bottom+15, center)
			continue
		}
		s = d.fit(r, s, labelSize, labelsH-10)
		tw := d.measure(r, s, labelSize)
		r.SetFont(d.font)
		r.SetFontSize(labelSize)
		r.SetFontColor(mutedText)
		r.SetTextRotation(-math.Pi / 2)
		r.Text(d.esc(s), cx+4, f.bottom+6+tw)
		r.ClearTextRotation()
	}
	d.seriesLegend(r, f, a)
	return f, r.Save(w)
}

// begin opens a renderer of the format and paints the background and the title.
// (drawer.start does too, but shortens a long title one letter at a time.)
func begin(title string, format render.Format, width, height int) (gochart.Renderer, *drawer, error) {
	if err := checkSize(width, height); err != nil {
		return nil, nil, err
	}
	provider, esc, err := providerFor(format)
	if err != nil {
		return nil, nil, err
	}
	r, err := provider(width, height)
	if err != nil {
		return nil, nil, err
	}
	font, err := gochart.GetDefaultFont()
	if err != nil {
		return nil, nil, err
	}
	d := &drawer{c: Chart{Title: title}, w: width, h: height, esc: esc, font: font}
	r.SetDPI(gochart.DefaultDPI)
	d.fillRect(r, 0, 0, width, height, background)
	if title != "" {
		d.text(r, d.fit(r, title, titleSize, width-2*pad), titleSize, textColour, width/2, pad+14, center)
	}
	return r, d, nil
}

// fit shortens s (as label shows it) with an ellipsis until it fits width pixels, by
// bisection (painter.fit's way): a label of a few hundred letters costs a few measurements,
// not hundreds.
func (d *drawer) fit(r gochart.Renderer, s string, size float64, width int) string {
	s = label(s)
	if d.measure(r, s, size) <= width {
		return s
	}
	runes := []rune(s)
	lo, hi := 0, len(runes)
	for lo < hi {
		mid := (lo + hi + 1) / 2
		if d.measure(r, string(runes[:mid])+"…", size) <= width {
			lo = mid
		} else {
			hi = mid - 1
		}
	}
	return string(runes[:lo]) + "…"
}

// grab takes the PNG renderer's image when it is saved, so data can be painted into it
// directly between the renderer's own drawing.
type grab struct{ img *image.RGBA }

func (g *grab) SetRGBA(img *image.RGBA) { g.img = img }

func (g *grab) Write([]byte) (int, error) { return 0, errors.New("chart: not a PNG renderer") }

// unit is how an axis writes its values.
type unit int

const (
	plainUnit   unit = iota // Compact numbers
	bytesUnit               // binary byte sizes on power-of-two steps
	percentUnit             // "40%"
	decimalUnit             // plain decimals, "0.5" (seconds on a time axis; Compact would write "500m")
)

func unitOf(bytes, percent bool) unit {
	switch {
	case bytes:
		return bytesUnit
	case percent:
		return percentUnit
	}
	return plainUnit
}

// step rounds a tick step up to a value the unit writes shortly: a power of two for bytes
// (256 KB, 512 KB, 1 MB), 1, 2 or 5 times a power of ten otherwise.
func (u unit) step(raw float64) float64 {
	if !(raw > 0) || math.IsInf(raw, 0) {
		return 1
	}
	if u == bytesUnit && raw >= 1 {
		return math.Exp2(math.Ceil(math.Log2(raw) - 1e-9))
	}
	mag := math.Pow(10, math.Floor(math.Log10(raw)))
	for _, m := range []float64{1, 2, 5} {
		if m*mag >= raw*(1-1e-9) {
			return m * mag
		}
	}
	return 10 * mag
}

// label writes a tick value; step says how many decimals the ticks need.
func (u unit) label(v, step float64) string {
	switch u {
	case bytesUnit:
		return bytesTick(v, step)
	case percentUnit:
		return strconv.FormatFloat(v, 'f', decimals(step), 64) + "%"
	case decimalUnit:
		return strconv.FormatFloat(v, 'f', decimals(step), 64)
	}
	if a := math.Abs(v); a >= 999.5e12 && a < 999.5e18 { // Compact stops at T
		if a >= 999.5e15 {
			return human.TrimZeros(fmt.Sprintf("%.3g", v/1e18)) + "E"
		}
		return human.TrimZeros(fmt.Sprintf("%.3g", v/1e15)) + "P"
	}
	return human.Compact(v)
}

// decimals is how many a multiple of step needs (step is 1, 2 or 5 times a power of ten).
func decimals(step float64) int {
	if step >= 1 {
		return 0
	}
	return min(int(math.Ceil(-math.Log10(step)-1e-9)), 9)
}

// byteUnits are human.Bytes's units, for byte axes.
var byteUnits = human.ByteUnits()

// bytesTick writes a byte-axis tick in the largest unit that keeps the step at least an
// eighth of it, so 1.5 MB reads "1.5 MB" but ticks 16 KB apart read "1040 KB", not "1.02 MB".
func bytesTick(v, step float64) string {
	k := 0
	for k < len(byteUnits)-1 && math.Abs(v) >= math.Pow(1024, float64(k+1)) && step*8 >= math.Pow(1024, float64(k+1)) {
		k++
	}
	u := math.Pow(1024, float64(k))
	dec := 0
	if step < u {
		dec = min(int(math.Ceil(math.Log2(u/step)-1e-9)), 3)
	}
	if step < 1 && k == 0 {
		dec = decimals(step)
	}
	return human.TrimZeros(strconv.FormatFloat(v/u, 'f', dec, 64)) + " " + byteUnits[k]
}

// ticks are the multiples of step in [lo, hi].
func ticks(lo, hi, step float64) []float64 {
	var out []float64
	first := math.Ceil(lo/step - 1e-9)
	for i := 0; i < 1000; i++ {
		v := (first + float64(i)) * step
		if v > hi+step*1e-9 {
			break
		}
		out = append(out, v)
	}
	return out
}

// frame is the plot area of an axes chart in pixels, and the values at its edges.
type frame struct {
	left, top, right, bottom int
	xmin, xmax, ytop         float64
}

// px is the pixel column of x.
func (f frame) px(x float64) int {
	return f.left + int(math.Round(f.pxf(x)))
}

// pxf is where x is, in pixels from the plot's left edge.
func (f frame) pxf(x float64) float64 {
	return (x - f.xmin) / (f.xmax - f.xmin) * float64(f.right-f.left)
}

// py is the pixel row of y, clamped to the plot.
func (f frame) py(y float64) int {
	v := float64(f.bottom) - y/f.ytop*float64(f.bottom-f.top)
	return int(math.Round(math.Max(float64(f.top), math.Min(v, float64(f.bottom)))))
}

// axes is what the axes, grid and legend of a Lines or StackedColumns chart show.
type axes struct {
	xName, yName   string
	xUnit, yUnit   unit
	xmin, xmax     float64
	peak           float64 // the largest value; the y axis runs from 0 to a tick at or above it
	xLabelsH       int     // the room the x tick labels take under the axis
	noXTicks       bool    // columns label themselves
	legend         []string
	legendTopFirst bool // a stack's legend lists its top first, the order the bands are seen
	bands          bool // the series are drawn as bands, in the lighter colour
	// set by layout
	yTicks, xTicks []float64
	yStep, xStep   float64
	legendRows     []legendRow
	legendX        int
}

// legendRow is one line of a legend: series index ≥ 0, or -n for "… n more".
type legendRow struct {
	series int
	label  string
}

const (
	nameH   = 18 // an axis name's line
	legendR = 16 // a legend row
	swatch  = 10
)

// layout places the plot: a title on top, the y ticks and name on the left, the x ticks and
// name below and the legend on the right. It picks the ticks and the legend rows on the way.
func (d *drawer) layout(r gochart.Renderer, a *axes) (frame, error) {
	f := frame{top: pad + 8, bottom: d.h - pad - a.xLabelsH, xmin: a.xmin, xmax: a.xmax}
	if d.c.Title != "" {
		f.top += 26
	}
	if a.xName != "" {
		f.bottom -= nameH
	}
	plotH := f.bottom - f.top
	if plotH < 20 {
		return f, fmt.Errorf("chart %d×%d is too small for its axes", d.w, d.h)
	}
	a.yStep = a.yUnit.step(a.peak / float64(max(2, plotH/45)))
	f.ytop = math.Ceil(a.peak/a.yStep-1e-9) * a.yStep
	a.yTicks = ticks(0, f.ytop, a.yStep)
	labelW := 0
	for _, v := range a.yTicks {
		labelW = max(labelW, d.measure(r, a.yUnit.label(v, a.yStep), labelSize))
	}
	f.left = pad + labelW + 8
	if a.yName != "" {
		f.left += nameH
	}
	f.right = d.w - pad
	a.legendRows, a.legendX = nil, 0
	if len(a.legend) > 0 {
		rows := legendRows(a.legend, a.legendTopFirst, min(MaxLegend, plotH/legendR))
		widest := 0
		for _, row := range rows {
			widest = max(widest, d.measure(r, row.label, labelSize))
		}
		legendW := swatch + 6 + min(widest, d.w/5) + pad
		if f.right-legendW-f.left >= 150 { // a legend that squeezes the plot to nothing is left out
			f.right -= legendW
			a.legendRows, a.legendX = rows, f.right+pad
		}
	}
	if f.right-f.left < 20 {
		return f, fmt.Errorf("chart %d×%d is too small for its axes", d.w, d.h)
	}
	if !a.noXTicks {
		// As many ticks as fit with their labels apart.
		for n := max(2, (f.right-f.left)/80); ; n-- {
			a.xStep = a.xUnit.step((a.xmax - a.xmin) / float64(n))
			a.xTicks = ticks(a.xmin, a.xmax, a.xStep)
			widest := 0
			for _, v := range a.xTicks {
				widest = max(widest, d.measure(r, a.xUnit.label(v, a.xStep), labelSize))
			}
			if n <= 2 || len(a.xTicks) < 2 || (widest+16)*len(a.xTicks) <= f.right-f.left {
				break
			}
		}
	}
	return f, nil
}

// legendRows names the series, at most n rows: beyond that, the first and the last few
// around a "… k more" row.
func legendRows(labels []string, topFirst bool, n int) []legendRow {
	order := make([]int, len(labels))
	for i := range order {
		order[i] = i
		if topFirst {
			order[i] = len(labels) - 1 - i
		}
	}
	row := func(s int) legendRow { return legendRow{s, labels[s]} }
	var rows []legendRow
	if len(order) <= n {
		for _, s := range order {
			rows = append(rows, row(s))
		}
		return rows
	}
	if n < 3 {
		return nil
	}
	head := (n - 1) / 2
	tail := n - 1 - head
	for _, s := range order[:head] {
		rows = append(rows, row(s))
	}
	more := len(order) - head - tail
	rows = append(rows, legendRow{-more, fmt.Sprintf("… %d more", more)})
	for _, s := range order[len(order)-tail:] {
		rows = append(rows, row(s))
	}
	return rows
}

// grid draws the horizontal gridlines at the y ticks, under the data.
func (d *drawer) grid(r gochart.Renderer, f frame, a axes) {
	gridColour := drawing.Color{R: 232, G: 232, B: 232, A: 255}
	for _, v := range a.yTicks {
		if y := f.py(v); y < f.bottom {
			d.fillRect(r, f.left, y, f.right, y+1, gridColour)
		}
	}
	for _, v := range a.xTicks {
		if x := f.px(v); x > f.left {
			d.fillRect(r, x, f.top, x+1, f.bottom, gridColour)
		}
	}
}

// frameAxes draws the axis lines over the data, the y ticks with their labels and both names.
func (d *drawer) frameAxes(r gochart.Renderer, f frame, a axes) {
	d.fillRect(r, f.left-1, f.top, f.left, f.bottom+1, axisColour)
	d.fillRect(r, f.left-1, f.bottom, f.right, f.bottom+1, axisColour)
	for _, v := range a.yTicks {
		y := f.py(v)
		d.fillRect(r, f.left-5, y, f.left-1, y+1, axisColour)
		d.text(r, a.yUnit.label(v, a.yStep), labelSize, mutedText, f.left-8, y+4, right)
	}
	if a.xName != "" {
		d.text(r, d.fit(r, a.xName, labelSize, f.right-f.left), labelSize, textColour, (f.left+f.right)/2, d.h-pad-2, center)
	}
	if a.yName != "" {
		name := d.fit(r, a.yName, labelSize, f.bottom-f.top)
		w := d.measure(r, name, labelSize)
		r.SetFont(d.font)
		r.SetFontSize(labelSize)
		r.SetFontColor(textColour)
		r.SetTextRotation(-math.Pi / 2) // reads upwards
		r.Text(d.esc(name), pad+12, (f.top+f.bottom)/2+w/2)
		r.ClearTextRotation()
	}
}

// xTicks draws the x ticks and their labels, kept inside the chart at its edges.
func (d *drawer) xTicks(r gochart.Renderer, f frame, a axes) {
	for _, v := range a.xTicks {
		x := f.px(v)
		d.fillRect(r, x, f.bottom+1, x+1, f.bottom+5, axisColour)
		s := a.xUnit.label(v, a.xStep)
		w := d.measure(r, s, labelSize)
		d.text(r, s, labelSize, mutedText, min(max(x-w/2, pad), d.w-pad-w), f.bottom+17, left)
	}
}

// seriesLegend lists the series right of the plot, each after a swatch of its colour.
func (d *drawer) seriesLegend(r gochart.Renderer, f frame, a axes) {
	width := d.w - pad - a.legendX - swatch - 6
	for i, row := range a.legendRows {
		y := f.top + i*legendR
		if row.series < 0 {
			d.text(r, row.label, labelSize, mutedText, a.legendX+swatch+6, y+swatch, left)
			continue
		}
		c := seriesColour(row.series)
		if a.bands {
			c = bandColour(c)
		}
		d.fillRect(r, a.legendX, y+1, a.legendX+swatch, y+1+swatch, c)
		d.text(r, d.fit(r, row.label, labelSize, width), labelSize, textColour, a.legendX+swatch+6, y+swatch, left)
	}
}
