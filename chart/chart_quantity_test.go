package chart

import (
	"strings"
	"testing"

	"androprof/chart/render"
	"androprof/model/cost"
)

// Bar labels and axis ticks carry the unit the way Quantity writes it; counts leave the unit
// to the caption.
func TestChartValuesCarryTheirUnit(t *testing.T) {
	for _, c := range []struct {
		unit string
		v    float64
		want string
	}{
		{"s", 0.00262, "2.62 ms"},
		{"J", 0.000546, "546 µJ"},
		{"µs", 1070, "1.07 ms"},
		{"µs", 685, "685 µs"},
		{"cycles", 2.56e6, "2.56M"},
		{"B", 1536, "1.5 KB"},
		{"B", 828211, "808.8 KB"}, // as the tables beside the chart write it (human.Bytes)
		{"B", 1000, "1000 B"},
		{"", 62400, "62.4k"},
	} {
		if got := (Chart{Unit: c.unit}).tickText(c.v); got != c.want {
			t.Errorf("%g %s: %q, want %q", c.v, c.unit, got, c.want)
		}
	}
	if got := (Chart{Unit: "cycles"}).valueText(6.45e6); got != "6.45 M cycles" {
		t.Errorf("pie legend value %q", got)
	}
	d := &drawer{c: Chart{Unit: "s"}, esc: func(s string) string { return s }}
	ticks, top := d.valueTicks(0.00262)
	var labels []string
	for _, tk := range ticks {
		labels = append(labels, tk.Label)
	}
	if top != 0.003 || strings.Join(labels, ", ") != "0 s, 1 ms, 2 ms, 3 ms" {
		t.Errorf("ticks up to %g: %v", top, labels)
	}
	rep := &cost.Report{Rows: []cost.ReportRow{{Key: "1", TimeS: 1}}}
	if c := FromReport(rep, Time, Bars, nil); c.Unit != "s" || c.YLabel != "time (s)" {
		t.Errorf("report chart unit %q, label %q", c.Unit, c.YLabel)
	}
}

// A few bars share the plot's height: two bars of a 280 px chart reach into its lower half
// (they were 28 px rows at the top, the rest of the plot empty).
func TestFewBarsFillThePlot(t *testing.T) {
	for _, c := range []Chart{
		{Title: "two", YLabel: "cycles", Bars: []Bar{{Label: "3267 demo-forker-arm", Value: 2.56e6}, {Label: "3265 demo-forker-arm", Value: 62.4e3}}},
		{Title: "two grouped", Series: []string{"a", "b"}, Bars: []Bar{{Label: "x", Value: 2}, {Label: "y", Value: 1}}, Values: [][]float64{{2, 1}, {1, 0.5}}},
	} {
		img, err := render.Image(c, 950, 280)
		if err != nil {
			t.Fatal(err)
		}
		lowest := 0
		for y := range 280 {
			for x := range 950 {
				if p := img.RGBAAt(x, y); p.R == palette[0].R && p.G == palette[0].G && p.B == palette[0].B {
					lowest = y
				}
			}
		}
		if lowest < 160 {
			t.Errorf("%s: the bars end at y=%d of 280", c.Title, lowest)
		}
		l := barRows(c, 800, 280).fit(2)
		if _, thick := l.bar(0); thick > l.maxBar || c.BarAt(950, 280, 300, l.top+l.rowH+l.rowH/2) != 1 {
			t.Errorf("%s: bar %d px thick, or BarAt misses the second row", c.Title, thick)
		}
	}
}
