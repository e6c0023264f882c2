package chart

import (
	"androprof/model/flame"
	"bytes"
	"fmt"
	"strings"
	"testing"

	"androprof/chart/render"
)

// hostile are names as input files may hold them: escape sequences, a bidi override, NUL,
// line breaks, XML's own characters and bytes that are not UTF-8.
var hostile = []string{
	"evil\x1b[2J\x1b]0;title\x07name",
	"rtl\u202eoverride <b>&amp;",
	"nul\x00cr\rlf\nend",
	"bad\xff\xfeutf8\xc3",
	"nonchar\ufffe\uffff",
}

// namedDrawings draws one of every chart type with names as its labels, series and title.
func namedDrawings(names []string) map[string]func(*bytes.Buffer) error {
	title := "Run " + strings.Join(names, " ")
	bars := Chart{Title: title, YLabel: "cycles"}
	for i, n := range names {
		bars.Bars = append(bars.Bars, Bar{Label: n, Value: float64(100 * (i + 1))})
	}
	out := map[string]func(*bytes.Buffer) error{}
	for kindName, kind := range Kinds {
		c := bars
		c.Kind = kind
		out["chart-"+kindName] = func(b *bytes.Buffer) error { return c.Paint(b, render.SVG, 800, 400) }
	}
	grouped := bars
	grouped.Series = []string{names[0], names[len(names)-1]}
	out["grouped"] = func(b *bytes.Buffer) error { return grouped.Paint(b, render.SVG, 800, 400) }
	lines := Lines{Title: title, XLabel: names[0], YLabel: names[1], X: []float64{1, 2, 3}}
	cols := StackedColumns{Title: title, XLabel: names[0], YLabel: names[1]}
	for i, n := range names {
		lines.Series = append(lines.Series, LineSeries{Label: n, Values: []float64{1, float64(i), 2}})
		cols.Labels = append(cols.Labels, n)
	}
	for _, n := range names {
		s := LineSeries{Label: n}
		for range names {
			s.Values = append(s.Values, 1)
		}
		cols.Series = append(cols.Series, s)
	}
	out["lines"] = func(b *bytes.Buffer) error { return lines.Paint(b, render.SVG, 800, 400) }
	stacked := lines
	stacked.Stacked = true
	out["stacked-lines"] = func(b *bytes.Buffer) error { return stacked.Paint(b, render.SVG, 800, 400) }
	out["stacked-columns"] = func(b *bytes.Buffer) error { return cols.Paint(b, render.SVG, 800, 400) }
	root := &flame.Node{Name: "all", Total: 10}
	at := root
	for _, n := range names {
		child := &flame.Node{Name: n, Origin: n, Total: 10, Self: 1}
		at.Children = append(at.Children, child)
		at = child
	}
	flame := FromFlame(root, names[0], names[1])
	out["flame"] = func(b *bytes.Buffer) error { return flame.Paint(b, render.SVG, 800, 400) }
	shares := FromLayerTimeline(phases, names[0], names[1], true)
	out["layer-time"] = func(b *bytes.Buffer) error { return shares.Paint(b, render.SVG, 800, 400) }
	return out
}

// Names are data: every SVG chart with names from hostile files is well-formed XML, and
// none of their control characters or broken bytes reach it.
func TestSVGWithHostileNamesIsWellFormed(t *testing.T) {
	for name, draw := range namedDrawings(hostile) {
		var buf bytes.Buffer
		if err := draw(&buf); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		save(t, "hostile-"+name+".svg", buf.Bytes())
		t.Run(name, func(t *testing.T) { wellFormed(t, buf.Bytes()) })
	}
}

// A label near the 1 MiB line limit is cut: the chart is drawn, and its SVG is about as
// large as with a label of 4 KiB (before, a long bar label was shortened one letter at a
// time, each time measured whole: quadratic, a chart that never finished).
func TestLongLabelsAreCut(t *testing.T) {
	sizes := map[string]int{}
	for _, n := range []int{4 << 10, 256 << 10} {
		long := strings.Repeat("Ljava/lang/Object;", n/18)
		for name, draw := range namedDrawings([]string{long, "b" + long, "short"}) {
			var buf bytes.Buffer
			if err := draw(&buf); err != nil {
				t.Fatalf("%s: %v", name, err)
			}
			key := fmt.Sprintf("%s/%d", name, n)
			sizes[key] = buf.Len()
			if n > 4<<10 && buf.Len() > 2*sizes[fmt.Sprintf("%s/%d", name, 4<<10)]+4096 {
				t.Errorf("%s: a label of %d bytes makes an SVG of %d bytes; of 4 KiB, %d", name, n, buf.Len(), sizes[fmt.Sprintf("%s/%d", name, 4<<10)])
			}
		}
	}
}
