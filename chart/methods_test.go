package chart

import (
	"bytes"
	"image/png"
	"testing"

	"androprof/chart/render"
	"androprof/model/calls"
)

func TestFromMethodReportLeavesOutTopLevel(t *testing.T) {
	rep := &calls.MethodReport{Run: "r", By: calls.ByMethod, Rows: []calls.MethodRow{
		{Key: "(toplevel).", Times: calls.MethodTimes{ExclusiveCPU: 900}},
		{Key: "a.b ()V", Times: calls.MethodTimes{ExclusiveCPU: 30, InclusiveCPU: 50, ExclusiveWall: 40, InclusiveWall: 70}},
	}}
	c := FromMethodReport(rep, true, true, Bars, "all threads")
	if len(c.Bars) != 1 || c.Bars[0] != (Bar{Label: "a.b ()V", Value: 30}) || c.Title != "Exclusive thread-CPU time by method — r, all threads" {
		t.Errorf("%+v", c)
	}
	if c := FromMethodReport(rep, false, false, Pie, "x"); c.Bars[0].Value != 70 || c.YLabel != "inclusive real time" || c.Unit != "µs" {
		t.Errorf("%+v", c)
	}
}

// A grouped chart draws a thin bar per series, keeps the rows BarAt finds and sums "other" per series.
func TestGroupedBars(t *testing.T) {
	rows := []calls.MethodCompareRow{
		{Key: "(toplevel).", A: calls.MethodTimes{InclusiveCPU: 1000}},
		{Key: "slow", A: calls.MethodTimes{InclusiveCPU: 100}, B: calls.MethodTimes{InclusiveCPU: 150}},
		{Key: "fast", A: calls.MethodTimes{InclusiveCPU: 80}, B: calls.MethodTimes{InclusiveCPU: 40}},
		{Key: "gone", A: calls.MethodTimes{InclusiveCPU: 20}},
	}
	c := FromMethodComparison(rows, "S3", "Xperia", calls.ByMethod, true)
	if len(c.Bars) != 3 || c.Values[0][1] != 150 || c.Bars[0].Value != 150 || c.Series[1] != "Xperia" {
		t.Fatalf("%+v", c)
	}
	var buf bytes.Buffer
	if err := c.Paint(&buf, render.PNG, 640, 360); err != nil {
		t.Fatal(err)
	}
	save(t, "grouped.png", buf.Bytes())
	img, err := png.Decode(&buf)
	if err != nil {
		t.Fatal(err)
	}
	l := barRows(c, 800, 360).fit(3)
	// Both series of the first row are drawn in their own colour just right of the axis.
	gap := max(1, l.rowH/8)
	thick := (l.rowH - 2*gap) / 2
	x := 100 // right of the short labels, inside every bar of the row
	for s := range 2 {
		y := l.top + gap + s*thick + thick/2
		r, g, b, _ := img.At(x, y).RGBA()
		want := palette[s]
		if uint8(r>>8) != want.R || uint8(g>>8) != want.G || uint8(b>>8) != want.B {
			t.Errorf("series %d at (%d,%d) is %d,%d,%d", s, x, y, r>>8, g>>8, b>>8)
		}
	}
	if got := c.BarAt(640, 360, 300, l.top+l.rowH+2); got != 1 {
		t.Errorf("BarAt row 1 = %d", got)
	}
	c.Top = 2
	if items, _ := c.items(0); len(items) != 2 || items[1].label != "fast" {
		t.Errorf("NoOther: %+v", items)
	}
	c.NoOther = false
	if items, _ := c.items(0); len(items) != 2 || items[1].values[0] != 100 || items[1].values[1] != 40 {
		t.Errorf("other per series: %+v", items)
	}
	if err := c.Paint(&buf, render.SVG, 640, 360); err != nil {
		t.Error(err)
	}
}

func TestTimelineDrawsAndHits(t *testing.T) {
	tl := Timeline{Title: "Thread 1 main", From: 1000, To: 2000, Note: "calls under 5 µs are not shown", Spans: []Span{
		{Label: "Main.run ()V", Depth: 0, Start: 1000, End: 1900, Colour: 4},
		{Label: "Main.work (I)I", Depth: 1, Start: 1100, End: 1500, Colour: 8},
		{Label: "tiny", Depth: 2, Start: 1200, End: 1200, Colour: 12},
		{Label: "outside", Depth: 0, Start: 2500, End: 2600},
	}}
	img, err := render.Image(tl, 800, 300)
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	png.Encode(&buf, img)
	save(t, "timeline.png", buf.Bytes())
	l := tl.layout(800, 300)
	for i, want := range []int{0, 1, 2} {
		s := tl.Spans[i]
		x := l.x(s.Start) + 1
		if s.End == s.Start {
			x = l.x(s.Start)
		}
		y := l.top + s.Depth*l.rowH + l.rowH/2
		if got := tl.SpanAt(800, 300, x, y); got != want {
			t.Errorf("SpanAt(%d,%d) = %d, want %d", x, y, got, want)
		}
		if r, g, b, _ := img.At(x+1, y).RGBA(); r == 0xffff && g == 0xffff && b == 0xffff && s.End > s.Start {
			t.Errorf("span %d not drawn at (%d,%d)", i, x+1, y)
		}
	}
	if got := tl.SpanAt(800, 300, 790, l.top+2); got != -1 {
		t.Errorf("empty place hit span %d", got)
	}
	if err := tl.Paint(&bytes.Buffer{}, render.PNG, 50, 50); err == nil {
		t.Error("a 50×50 timeline was drawn")
	}
}
