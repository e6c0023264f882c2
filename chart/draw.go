package chart

import (
	"fmt"
	"io"
	"math"
	"slices"
	"strings"

	"androprof/chart/render"

	"github.com/golang/freetype/truetype"
	gochart "github.com/wcharczuk/go-chart/v2"
	"github.com/wcharczuk/go-chart/v2/drawing"
)

// Colours: a bar colour, a grey for "other", and a palette for slices (go-chart has only five).
var (
	background = drawing.Color{R: 255, G: 255, B: 255, A: 255}
	textColour = drawing.Color{R: 40, G: 40, B: 40, A: 255}
	mutedText  = drawing.Color{R: 120, G: 120, B: 120, A: 255}
	warnText   = drawing.Color{R: 150, G: 80, B: 0, A: 255} // a caveat: the numbers are partly a guess
	axisColour = drawing.Color{R: 180, G: 180, B: 180, A: 255}
	otherFill  = drawing.Color{R: 170, G: 170, B: 170, A: 255}
	palette    = []drawing.Color{
		{R: 31, G: 119, B: 180, A: 255}, {R: 255, G: 127, B: 14, A: 255}, {R: 44, G: 160, B: 44, A: 255},
		{R: 214, G: 39, B: 40, A: 255}, {R: 148, G: 103, B: 189, A: 255}, {R: 140, G: 86, B: 75, A: 255},
		{R: 227, G: 119, B: 194, A: 255}, {R: 188, G: 189, B: 34, A: 255}, {R: 23, G: 190, B: 207, A: 255},
	}
)

// providerFor is go-chart's renderer for an image format, and how text is escaped for it.
func providerFor(f render.Format) (gochart.RendererProvider, func(string) string, error) {
	switch f {
	case render.PNG:
		return gochart.PNG, label, nil
	case render.SVG:
		return gochart.SVG, escapeXML, nil // go-chart writes SVG text unescaped
	}
	return nil, nil, fmt.Errorf("unknown chart format %d", f)
}

func fill(it item, i int) drawing.Color {
	if it.index < 0 {
		return otherFill
	}
	return palette[i%len(palette)]
}

// Font sizes in points at go-chart's 92 DPI.
const (
	titleSize = 12.0
	labelSize = 9.0
	pad       = 10
)

// drawer draws one chart of one size; esc escapes text for the output format.
type drawer struct {
	c    Chart
	w, h int
	esc  func(string) string
	font *truetype.Font
}

// start paints the background and the title, or "No data" for an empty chart.
func (d *drawer) start(r gochart.Renderer) error {
	f, err := gochart.GetDefaultFont()
	if err != nil {
		return err
	}
	d.font = f
	r.SetDPI(gochart.DefaultDPI)
	gochart.Draw.Box(r, gochart.Box{Right: d.w, Bottom: d.h}, gochart.Style{FillColor: background, StrokeColor: background, StrokeWidth: 1})
	d.title(r)
	d.footnote(r)
	return nil
}

// footLineH is the height of a line of the footnote; footLines the most it takes.
const (
	footLineH = 14
	footLines = 3
)

// footnote is what is written under the chart: its caveat and, where no row names them, the
// bars whose value is unknown.
func (c Chart) footnote() string {
	note := c.Caveat
	if unknown := c.unknownLabels(); len(unknown) > 0 && (c.Kind != Bars || c.grouped()) {
		note = strings.TrimSpace(note + " " + c.YLabel + " unknown: " + strings.Join(unknown, ", ") + ".")
	}
	return note
}

// footLinesOf wraps the footnote into the lines a chart width px wide draws; by characters,
// not by measured text, so BarAt lays the rows out without a renderer, as they are drawn.
func (c Chart) footLinesOf(width int) []string {
	per := max(20, (width-2*pad)/6) // about 6 px a character at labelSize
	var lines []string
	line := ""
	for _, w := range strings.Fields(c.footnote()) {
		if line != "" && len([]rune(line))+1+len([]rune(w)) > per {
			lines, line = append(lines, line), ""
		}
		line = strings.TrimSpace(line + " " + w)
	}
	if line != "" {
		lines = append(lines, line)
	}
	if len(lines) > footLines {
		lines = append(lines[:footLines-1], strings.Join(lines[footLines-1:], " "))
	}
	return lines
}

// footH is the room the footnote takes at the bottom of a chart width px wide.
func (c Chart) footH(width int) int {
	if n := len(c.footLinesOf(width)); n > 0 {
		return n*footLineH + 4
	}
	return 0
}

// footnote draws the caveat under everything else, in the muted colour of captions.
func (d *drawer) footnote(r gochart.Renderer) {
	lines := d.c.footLinesOf(d.w)
	for i, l := range lines {
		y := d.h - pad/2 - (len(lines)-1-i)*footLineH
		d.text(r, d.fit(r, l, labelSize, d.w-2*pad), labelSize, warnText, pad, y, left)
	}
}

func (d *drawer) title(r gochart.Renderer) {
	if d.c.Title != "" {
		d.text(r, d.fit(r, d.c.Title, titleSize, d.w-2*pad), titleSize, textColour, d.w/2, pad+14, center)
	}
}

type align int

const (
	left align = iota
	center
	right
)

// text draws s (as label shows it) with its baseline at y, aligned to x.
func (d *drawer) text(r gochart.Renderer, s string, size float64, c drawing.Color, x, y int, a align) {
	s = label(s)
	r.SetFont(d.font)
	r.SetFontSize(size)
	r.SetFontColor(c)
	w := r.MeasureText(s).Width()
	switch a {
	case center:
		x -= w / 2
	case right:
		x -= w
	}
	r.Text(d.esc(s), x, y)
}

// measure is how wide text draws s, as label shows it.
func (d *drawer) measure(r gochart.Renderer, s string, size float64) int {
	r.SetFont(d.font)
	r.SetFontSize(size)
	return r.MeasureText(label(s)).Width()
}

func (d *drawer) rect(r gochart.Renderer, x0, y0, x1, y1 int, c drawing.Color) {
	gochart.Draw.Box(r, gochart.Box{Left: x0, Top: y0, Right: x1, Bottom: y1}, gochart.Style{FillColor: c, StrokeColor: c, StrokeWidth: 1})
}

// noData says so in the middle of the chart, so an empty selection reads as empty, not broken.
func (d *drawer) noData(r gochart.Renderer) {
	d.text(r, "No data", titleSize, mutedText, d.w/2, d.h/2, center)
}

// rowLayout places the rows of a Bars chart; BarAt uses it too, so clicks hit what is drawn.
// The rows share the plot's whole height, so a few bars do not leave most of it empty; a bar
// is at most maxBar px thick, so they do not become slabs either.
type rowLayout struct {
	top, rowH, maxRows, maxBar int
}

func barRows(c Chart, width, height int) rowLayout {
	top := pad
	if c.Title != "" {
		top += 26
	}
	perRow, maxBar := 14, 40
	switch {
	case c.stacked(): // a legend line
		top += legendH
	case c.grouped(): // a legend line, and room for every series' bar in a row
		top += legendH
		perRow, maxBar = 6*len(c.Series)+4, 22*len(c.Series)
	}
	avail := height - top - pad - 20 - c.footH(width) // 20: the caption under the bars
	return rowLayout{top: top, rowH: avail, maxRows: max(1, avail/perRow), maxBar: maxBar}
}

// fit shares the plot's height between n rows.
func (l rowLayout) fit(n int) rowLayout {
	l.rowH = l.rowH / max(n, 1)
	return l
}

// rows lays out a Bars chart's rows and picks the items they show; with none it draws "No data".
func (d *drawer) rows(r gochart.Renderer) (rowLayout, []item, error) {
	l := barRows(d.c, d.w, d.h)
	items, err := d.c.items(l.maxRows)
	if err != nil {
		return l, nil, err
	}
	if len(items) == 0 {
		d.noData(r)
		return l, nil, nil
	}
	return l.fit(len(items)), items, nil
}

// span places the bars between labels labelW wide (at most 2/5 of the chart, the width they
// get) and values valueW wide: where they start and how long the longest is.
func (d *drawer) span(labelW, valueW int) (labelWidth, barX, barMax int, err error) {
	labelW = min(labelW, d.w*2/5)
	barX = pad + labelW + 8
	barMax = d.w - pad - valueW - 6 - barX
	if barMax < 10 {
		return 0, 0, 0, fmt.Errorf("chart is %d px wide: too narrow for its labels", d.w)
	}
	return labelW, barX, barMax, nil
}

// axis draws the line the bars of n rows start from at barX, and the caption under them.
func (d *drawer) axis(r gochart.Renderer, l rowLayout, n, barX, barMax int) {
	bottom := l.top + n*l.rowH
	r.SetStrokeColor(axisColour)
	r.SetStrokeWidth(1)
	r.MoveTo(barX, l.top)
	r.LineTo(barX, bottom)
	r.Stroke()
	if d.c.YLabel != "" {
		d.text(r, d.c.YLabel, labelSize, mutedText, barX+barMax/2, bottom+16, center)
	}
}

// bar is where a row's bar goes: thick px from y, centred in the row.
func (l rowLayout) bar(row int) (y, thick int) {
	thick = min(l.maxBar, l.rowH-2*max(1, l.rowH/6))
	return l.top + row*l.rowH + (l.rowH-thick)/2, max(thick, 1)
}

// bars draws one bar per row, labels on the left, the value and the bar's note after it; a
// stacked chart draws each bar as its series end to end, in series colours, under a legend (a
// process's cost split into program, libraries and loader).
func (d *drawer) bars(r gochart.Renderer) error {
	if d.c.grouped() && !d.c.stacked() {
		return d.groupedBars(r)
	}
	l, items, err := d.rows(r)
	if err != nil || len(items) == 0 {
		return err
	}
	size := min(labelSize, float64(l.rowH)*0.55)
	labelW, valueW := 0, 0
	for _, it := range items {
		labelW = max(labelW, d.measure(r, it.label, size))
		w := d.measure(r, d.valueText(it), size)
		if n := d.note(it); n != "" {
			w += noteGap + d.measure(r, n, size)
		}
		valueW = max(valueW, w)
	}
	labelW, barX, barMax, err := d.span(labelW, valueW)
	if err != nil {
		return err
	}
	if d.c.stacked() {
		d.legend(r, l.top-legendH+4)
	}
	peak := peakOf(items) // "other" may outgrow the largest bar
	for i, it := range items {
		y, thick := l.bar(i)
		base := y + thick/2 + int(size*gochart.DefaultDPI/72)/2 - 1
		d.text(r, d.fit(r, it.label, size, labelW), size, textColour, pad+labelW, base, right)
		if it.unknown { // no bar: a value that cannot be known is not 0
			d.text(r, d.valueText(it), size, mutedText, barX+4, base, left)
			continue
		}
		end := d.barBody(r, it, peak, barX, barMax, y, thick)
		value := d.valueText(it)
		d.text(r, value, size, textColour, end+4, base, left)
		if n := d.note(it); n != "" {
			d.text(r, n, size, mutedText, end+4+d.measure(r, value, size)+noteGap, base, left)
		}
	}
	d.axis(r, l, len(items), barX, barMax)
	return nil
}

// valueText is what a row says after its bar: the value, or "unknown".
func (d *drawer) valueText(it item) string {
	if it.unknown {
		return "unknown"
	}
	return d.c.tickText(it.value)
}

// barBody fills a row's bar, one rectangle or its series end to end, and returns where it ends.
func (d *drawer) barBody(r gochart.Renderer, it item, peak float64, barX, barMax, y, thick int) int {
	if !d.c.stacked() {
		end := barX + max(int(math.Round(it.value/peak*float64(barMax))), 1)
		d.rect(r, barX, y, end, y+thick, fill(it, 0))
		return end
	}
	end, sum := barX, 0.0
	for s, v := range it.values {
		x0 := end
		sum += v
		end = barX + int(math.Round(sum/peak*float64(barMax)))
		if end > x0 {
			d.rect(r, x0, y, end, y+thick, palette[s%len(palette)])
		}
	}
	return max(end, barX+1)
}

// pie draws the slices on the left and a legend with each share on the right; labels inside
// slices (go-chart's way) overlap as soon as slices are thin.
func (d *drawer) pie(r gochart.Renderer) error {
	top := pad
	if d.c.Title != "" {
		top += 26
	}
	foot := d.c.footH(d.w)
	items, err := d.c.items(max(1, (d.h-top-pad-foot)/16))
	if err != nil {
		return err
	}
	items = known(items) // the footnote names the unknown ones
	if len(items) == 0 {
		d.noData(r)
		return nil
	}
	var total float64
	for _, it := range items {
		total += it.value
	}
	bottom := pad + foot
	if d.c.YLabel != "" {
		bottom += 12 // the caption under the pie
	}
	diameter := min(d.h-top-bottom, d.w/2-2*pad)
	if diameter < 20 {
		return fmt.Errorf("chart %d×%d is too small for a pie", d.w, d.h)
	}
	radius := float64(diameter) / 2
	cx, cy := pad+diameter/2, top+diameter/2
	start := -math.Pi / 2
	for i, it := range items {
		delta := it.value / total * 2 * math.Pi
		c := fill(it, i)
		r.SetFillColor(c)
		r.SetStrokeColor(c)
		r.SetStrokeWidth(1)
		// A whole circle as one arc degenerates in SVG (start = end), so draw at most halves.
		for part := delta; part > 1e-9; part -= math.Pi {
			r.MoveTo(cx, cy)
			r.ArcTo(cx, cy, radius, radius, start, min(part, math.Pi))
			r.LineTo(cx, cy)
			r.Close()
			r.FillStroke()
			start += min(part, math.Pi)
		}
	}
	legendX := pad + diameter + 2*pad
	rowH := min(22, (d.h-top-pad)/len(items))
	size := min(labelSize, float64(rowH)*0.6)
	for i, it := range items {
		y := top + i*rowH
		d.rect(r, legendX, y+rowH/4, legendX+rowH/2, y+rowH*3/4, fill(it, i))
		label := fmt.Sprintf("%s  %.1f%%  (%s)", it.label, it.value/total*100, d.c.valueText(it.value))
		d.text(r, d.fit(r, label, size, d.w-pad-legendX-rowH), size, textColour, legendX+rowH/2+6, y+rowH/2+4, left)
	}
	if d.c.YLabel != "" {
		d.text(r, "share of "+d.c.YLabel, labelSize, mutedText, cx, d.h-2-foot, center)
	}
	return nil
}

// columns uses go-chart's bar chart with the guards it lacks: a fixed zero-based range (it
// fails on equal values), bars sized to fill the width, and labels cut to their column.
func (d *drawer) columns(provider gochart.RendererProvider, w io.Writer) error {
	r, err := provider(d.w, d.h)
	if err != nil {
		return err
	}
	if err := d.start(r); err != nil {
		return err
	}
	// 70: the value axis; 56: a column narrower cannot show a label worth reading.
	items, err := d.c.items(max(1, (d.w-2*pad-70)/56))
	if err != nil {
		return err
	}
	items = known(items) // the footnote names the unknown ones
	if len(items) == 0 {
		d.noData(r)
		return r.Save(w)
	}
	slot := (d.w - 2*pad - 70) / len(items)
	ticks, top := d.valueTicks(peakOf(items)) // "other" may outgrow the largest bar
	values := make([]gochart.Value, len(items))
	for i, it := range items {
		values[i] = gochart.Value{Label: d.esc(d.fit(r, it.label, labelSize, slot*3/4)), Value: it.value,
			Style: gochart.Style{FillColor: fill(it, 0), StrokeColor: fill(it, 0), StrokeWidth: 1}}
	}
	bc := gochart.BarChart{
		Width: d.w, Height: d.h, Bars: values,
		// go-chart draws its title with the value axis's rotation still set in SVG: draw our own.
		Elements: []gochart.Renderable{func(r gochart.Renderer, _ gochart.Box, _ gochart.Style) {
			r.ClearTextRotation()
			d.title(r)
			d.footnote(r)
		}},
		Background: gochart.Style{Padding: gochart.Box{Top: 40, Left: pad, Right: pad, Bottom: 40 + d.c.footH(d.w)}},
		BarWidth:   max(1, slot*3/4), BarSpacing: max(1, slot/4),
		YAxis: gochart.YAxis{Name: d.esc(d.c.YLabel), Range: &gochart.ContinuousRange{Min: 0, Max: top}, Ticks: ticks},
	}
	return bc.Render(provider, w)
}

// valueTicks are about five ticks on round values (1, 2 or 5 times a power of ten) from 0 up
// to top, the axis's end, so an axis reads "0, 500 µs, 1 ms" rather than go-chart's
// "0, 690 µs, 1.38 ms".
func (d *drawer) valueTicks(peak float64) (ticks []gochart.Tick, top float64) {
	step := plainUnit.step(peak * 1.05 / 5)
	top = math.Ceil(peak*1.05/step) * step
	for i := 0.0; i*step <= top*(1+1e-9); i++ {
		ticks = append(ticks, gochart.Tick{Value: i * step, Label: d.esc(d.c.tickText(i * step))})
	}
	return ticks, top
}

// known drops the items whose value is unknown.
func known(items []item) []item {
	return slices.DeleteFunc(items, func(it item) bool { return it.unknown })
}

func peakOf(items []item) float64 {
	p := 0.0
	for _, it := range items {
		p = max(p, it.value)
	}
	return p
}
