package chart

import (
	"bytes"
	"fmt"
	"image"
	"image/png"
	"testing"

	"androprof/chart/render"
)

// threeLanes is a timeline of three threads on one axis: main with two levels, a worker with
// one call, and an idle thread.
func threeLanes() Timeline {
	return Timeline{Title: "Calls of 3 threads", From: 0, To: 1000,
		Lanes: []Lane{{Name: "1 main", Depth: 2}, {Name: "7 worker", Depth: 1, Note: "longest calls only"}, {Name: "9 idle"}},
		Spans: []Span{
			{Label: "Main.run ()V", Start: 0, End: 900, Colour: 1, Lane: 0, Key: 4, Ref: 0},
			{Label: "Main.work ()V", Depth: 1, Start: 100, End: 400, Colour: 2, Lane: 0, Key: 8, Ref: 1},
			{Label: "Worker.loop ()V", Start: 200, End: 800, Colour: 3, Lane: 1, Key: 12, Ref: 2},
		}}
}

// Each lane is stacked under the one before, on the same axis: a call hits where it is drawn,
// in its own lane, and a lane's name is drawn at its left.
func TestTimelineLanesStackAndHit(t *testing.T) {
	tl := threeLanes()
	img, err := render.Image(tl, 900, 400)
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	png.Encode(&buf, img)
	save(t, "timeline-lanes.png", buf.Bytes())
	l := tl.layout(900, 400)
	if len(l.lanes) != 3 || l.lanes[1].y <= l.lanes[0].y+l.lanes[0].h-1 || l.lanes[2].y <= l.lanes[1].y {
		t.Fatalf("lanes %+v", l.lanes)
	}
	if l.x0 <= pad {
		t.Errorf("no column for the names: plot from x %d", l.x0)
	}
	for i := range tl.Spans {
		r, ok := tl.SpanRect(900, 400, i)
		c := r.Min.Add(r.Max).Div(2)
		if got := tl.SpanAt(900, 400, c.X, c.Y); !ok || got != i {
			t.Errorf("span %d at %v hits %d", i, c, got)
		}
		if lane := tl.LaneAt(900, 400, c.Y); lane != tl.Spans[i].Lane {
			t.Errorf("span %d in lane %d, LaneAt says %d", i, tl.Spans[i].Lane, lane)
		}
	}
	// The names' column has ink in each lane's first rows; the plot right of an idle lane has none.
	for i, b := range l.lanes {
		if !inked(img, pad, b.y+2, l.x0-8, b.y+12) {
			t.Errorf("lane %d: no name drawn", i)
		}
	}
	if inked(img, l.x0+2, l.lanes[2].y+2, l.x1-2, l.lanes[2].y+l.lanes[2].h-2) && l.lanes[2].h > 6 {
		t.Error("the idle lane has bars")
	}
	if got := tl.TimeAt(900, 400, (l.x0+l.x1)/2); got < 499 || got > 501 {
		t.Errorf("time at the middle %d", got)
	}
	if !tl.OnAxis(900, 400, l.axisY+5) || tl.OnAxis(900, 400, l.lanes[0].y) {
		t.Error("OnAxis")
	}
}

// inked tells whether the rectangle holds a dark pixel: text or a bar's edge, not the
// background, the grid or the lane lines.
func inked(img *image.RGBA, x0, y0, x1, y1 int) bool {
	for y := y0; y < y1; y++ {
		for x := x0; x < x1; x++ {
			if c := img.RGBAAt(x, y); int(c.R)+int(c.G)+int(c.B) < 3*150 {
				return true
			}
		}
	}
	return false
}

// Lanes higher than the image scroll: the ones in sight are listed, and scrolling brings the
// last into sight.
func TestTimelineManyLanesScroll(t *testing.T) {
	var tl Timeline
	tl.From, tl.To = 0, 100
	for i := range 80 {
		tl.Lanes = append(tl.Lanes, Lane{Name: fmt.Sprintf("%d t", i), Depth: 12})
		tl.Spans = append(tl.Spans, Span{Label: "x", Start: 0, End: 50, Lane: i, Depth: 11})
	}
	content, visible := tl.Heights(800, 600)
	if content <= visible || visible <= 0 {
		t.Fatalf("80 lanes of 12 rows: %d px high, %d shown", content, visible)
	}
	shown := tl.LanesShown(800, 600)
	if len(shown) == 0 || shown[0] != 0 || len(shown) >= 80 {
		t.Fatalf("shown %v", shown)
	}
	tl.Scroll = content - visible
	if shown := tl.LanesShown(800, 600); shown[len(shown)-1] != 79 || shown[0] == 0 {
		t.Errorf("scrolled to the bottom: shown %v", shown)
	}
	if _, ok := tl.SpanRect(800, 600, 0); ok {
		t.Error("lane 0, scrolled off, still has its call drawn")
	}
	if _, ok := tl.SpanRect(800, 600, 79); !ok {
		t.Error("the last lane's deepest call is not drawn")
	}
	if _, err := render.Image(tl, 800, 600); err != nil {
		t.Error(err)
	}
}

// Calls narrower than a pixel merge into one grey box per run on a row, counting them; wide
// ones and the calls of the method outlined stay as they are.
func TestTimelineMergesNarrowCalls(t *testing.T) {
	tl := Timeline{From: 0, To: 1_000_000, Lanes: []Lane{{Name: "1 main", Depth: 2}}, Outline: []uint64{99}}
	tl.Spans = append(tl.Spans, Span{Label: "wide", Start: 0, End: 900_000, Key: 1})
	for i := range 1000 { // 1000 calls of 10 µs, back to back: 10 ms on a 1 s axis
		s := uint64(100_000 + i*10)
		tl.Spans = append(tl.Spans, Span{Label: "tiny", Depth: 1, Start: s, End: s + 10, Key: 2, Ref: i + 1})
	}
	tl.Spans = append(tl.Spans, Span{Label: "chosen", Depth: 1, Start: 500_000, End: 500_010, Key: 99})
	m := tl.MergeNarrow(800, 300)
	if len(m.Spans) != 3 {
		t.Fatalf("%d spans after merging: %+v", len(m.Spans), m.Spans)
	}
	g := m.Spans[1]
	if g.Merged != 1000 || g.Start != 100_000 || g.End != 110_000 || g.Label != "" || g.Ref != 1 {
		t.Errorf("grey box %+v", g)
	}
	if m.Spans[0].Merged != 0 || m.Spans[2].Key != 99 || m.Spans[2].Merged != 0 {
		t.Errorf("kept %+v and %+v", m.Spans[0], m.Spans[2])
	}
	if len(tl.Spans) != 1002 {
		t.Error("MergeNarrow changed its receiver's spans")
	}
	// Zoomed to the tiny calls, none merges.
	tl.From, tl.To = 100_000, 100_100
	if m := tl.MergeNarrow(800, 300); len(m.Spans) != len(tl.Spans) {
		t.Errorf("zoomed in: %d of %d spans left", len(m.Spans), len(tl.Spans))
	}
}

// BenchmarkTimelineDraw merges and draws what a full screen of lanes reads at most: 12 lanes of
// laneCallsPerPixel×1700 calls (view/methods), most of them narrower than a pixel.
func BenchmarkTimelineDraw(b *testing.B) {
	tl := Timeline{From: 0, To: 10_000_000}
	for lane := range 12 {
		tl.Lanes = append(tl.Lanes, Lane{Name: fmt.Sprintf("%d t", lane), Depth: 8})
		for i := range 20_000 {
			s := uint64(i * 500)
			tl.Spans = append(tl.Spans, Span{Label: "m", Depth: i % 8, Start: s, End: s + uint64(10+i%700), Lane: lane, Key: uint64(i % 50)})
		}
	}
	b.ResetTimer()
	for range b.N {
		if _, err := render.Image(tl.MergeNarrow(1900, 1000), 1900, 1000); err != nil {
			b.Fatal(err)
		}
	}
}
