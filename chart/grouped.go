package chart

import (
	"math"

	gochart "github.com/wcharczuk/go-chart/v2"
)

// legendH is the line under the title that names a grouped chart's series.
const legendH = 20

// grouped tells whether the bars carry one value per series (Chart.Series).
func (c Chart) grouped() bool { return len(c.Series) >= 2 }

// groupedBars draws each bar as one thin bar per series, in series colours, with the labels of
// a Bars chart on the left: two traces' times for the same method sit next to each other, as
// in DPA figure 7. The rows are laid out as in bars, so BarAt finds them.
func (d *drawer) groupedBars(r gochart.Renderer) error {
	l, items, err := d.rows(r)
	if err != nil || len(items) == 0 {
		return err
	}
	n := len(d.c.Series)
	_, group := l.bar(0)
	thick := max(1, group/n)
	size := min(labelSize, float64(l.rowH)*0.45)
	valueSize := min(labelSize, float64(thick)*0.85)
	labelW, valueW := 0, 0
	peak := 0.0
	for _, it := range items {
		labelW = max(labelW, d.measure(r, it.label, size))
		for _, v := range it.values {
			valueW = max(valueW, d.measure(r, d.c.tickText(v), valueSize))
			peak = max(peak, v)
		}
	}
	labelW, barX, barMax, err := d.span(labelW, valueW)
	if err != nil {
		return err
	}
	d.legend(r, l.top-legendH+4)
	for i, it := range items {
		y, _ := l.bar(i)
		base := y + thick*n/2 + int(size*gochart.DefaultDPI/72)/2 - 1
		d.text(r, d.fit(r, it.label, size, labelW), size, textColour, pad+labelW, base, right)
		for s, v := range it.values {
			y0 := y + s*thick
			w := 0
			if peak > 0 {
				w = int(math.Round(v / peak * float64(barMax)))
			}
			d.rect(r, barX, y0, barX+max(w, 1), y0+max(thick-1, 1), palette[s%len(palette)])
			if thick >= 7 {
				d.text(r, d.c.tickText(v), valueSize, textColour, barX+max(w, 1)+4, y0+thick/2+int(valueSize*gochart.DefaultDPI/72)/2-1, left)
			}
		}
	}
	d.axis(r, l, len(items), barX, barMax)
	return nil
}

// legend names the series on one line, centred, each after a swatch of its colour.
func (d *drawer) legend(r gochart.Renderer, y int) {
	const swatch, space = 10, 16
	names := make([]string, len(d.c.Series))
	total := 0
	for i, s := range d.c.Series {
		names[i] = d.fit(r, s, labelSize, max(40, (d.w-2*pad)/len(d.c.Series)-swatch-space-6))
		total += swatch + 6 + d.measure(r, names[i], labelSize) + space
	}
	x := max(pad, (d.w-total+space)/2)
	for i, s := range names {
		d.rect(r, x, y, x+swatch, y+swatch, palette[i%len(palette)])
		x += swatch + 6
		d.text(r, s, labelSize, textColour, x, y+swatch-1, left)
		x += d.measure(r, s, labelSize) + space
	}
}
