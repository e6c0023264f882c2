package chart

import (
	"errors"
	"fmt"
	"image"
	"image/color"
	"image/draw"
	"image/png"
	"io"
	"math"
	"unicode/utf8"

	"androprof/chart/render"
	"androprof/internal/human"

	gochart "github.com/wcharczuk/go-chart/v2"
	"golang.org/x/image/font"
)

// Timeline is calls as nested bars on a time axis, Traceview's timeline panel: each thread a
// lane of its own (Lanes, stacked top to bottom, the name at the left), level-1 calls on top of
// a lane, each call under its caller, every lane on the same axis. go-chart has no such chart,
// so it is drawn here straight into an image, with the charts' font and colours.
type Timeline struct {
	Title    string
	From, To uint64 // the µs range shown
	Lanes    []Lane // none: one lane without a name
	Spans    []Span
	Outline  []uint64 // spans with one of these keys are outlined: the calls of the method selected
	Scroll   int      // pixels of the lanes scrolled off the top, when they are higher than the image
	Note     string   // a line under the axis, e.g. which calls are not shown
}

// Lane is one thread's track.
type Lane struct {
	Name  string
	Depth int    // levels of calls, so the lane's height does not change with the calls shown
	Note  string // drawn under the name, e.g. "longest calls only"
}

// Span is one call drawn as a bar.
type Span struct {
	Label      string
	Depth      int // 0: a level-1 call
	Start, End uint64
	Colour     uint64 // spans with the same number share a colour: calls of one method look alike
	Lane       int    // index in Lanes
	Key        uint64 // what Outline matches: the call's method
	Ref        int    // the caller's index of the call; a merged box has the first one's
	Merged     int    // more than 0: a grey box standing for this many calls narrower than a pixel
}

// MaxLaneRows bounds a lane's height in rows: deeper calls are left out, with a note.
const MaxLaneRows = 64

// The heights of rows: readable labels at most, a visible bar at least; lanes higher than the
// image scroll (Timeline.Scroll).
const (
	maxRowH     = 20
	minRowH     = 3
	minLaneH    = 14 // room for the lane's name
	laneGap     = 3
	laneNameMax = 170
)

// timelineLayout places a Timeline's lanes and rows; SpanAt uses it too, so hovering hits what
// is drawn. top and rowH are the first lane's top and every lane's row height.
type timelineLayout struct {
	x0, x1     int // the plot's left and right edge
	top, rowH  int
	axisY      int
	lanes      []laneBox
	content    int // the lanes' height unscrolled
	from, span float64
}

// laneBox is where a lane is drawn: y is its top after scrolling.
type laneBox struct{ y, rows, h int }

func (t Timeline) layout(w, h int) timelineLayout {
	top := pad
	if t.Title != "" {
		top += 26
	}
	axisY := h - pad - 26
	if t.Note != "" {
		axisY -= 16
	}
	avail := max(axisY-top-4, 0)
	lanes := t.laneRows()
	to := max(t.To, t.From+1)
	l := timelineLayout{x0: pad, x1: w - pad, top: top, axisY: axisY, from: float64(t.From), span: float64(to - t.From)}
	if len(t.Lanes) == 0 { // one unnamed lane: as deep as the image allows
		l.rowH = maxRowH
		if lanes[0] > 0 {
			l.rowH = max(minRowH, min(maxRowH, avail/lanes[0]))
		}
		l.lanes = []laneBox{{y: top, rows: avail / l.rowH, h: avail}}
		l.content = avail
		return l
	}
	l.x0 += min(laneNameMax, w/7)
	total := 0
	for _, r := range lanes {
		total += r
	}
	l.rowH = max(minRowH, min(maxRowH, (avail-laneGap*len(lanes))/max(total, 1)))
	y := 0
	for _, r := range lanes {
		lh := max(r*l.rowH, minLaneH)
		l.lanes = append(l.lanes, laneBox{y: top + y - t.Scroll, rows: r, h: lh})
		y += lh + laneGap
	}
	l.content = y
	return l
}

// laneRows is each lane's rows: its depth, or the deepest span's, at most MaxLaneRows.
func (t Timeline) laneRows() []int {
	rows := make([]int, max(len(t.Lanes), 1))
	for i, ln := range t.Lanes {
		rows[i] = ln.Depth
	}
	for _, s := range t.Spans {
		if s.Lane >= 0 && s.Lane < len(rows) {
			rows[s.Lane] = max(rows[s.Lane], s.Depth+1)
		}
	}
	for i := range rows {
		rows[i] = max(1, min(rows[i], MaxLaneRows))
	}
	return rows
}

// Heights tells how high the lanes are in all (content) and how much of them a width×height
// image shows (visible), so a scroll bar can be sized.
func (t Timeline) Heights(width, height int) (content, visible int) {
	if checkSize(width, height) != nil {
		return 0, 0
	}
	l := t.layout(width, height)
	return l.content, max(l.axisY-l.top, 0)
}

// LaneAt is the lane drawn at height y of a width×height image, -1 for none.
func (t Timeline) LaneAt(width, height, y int) int {
	if checkSize(width, height) != nil || len(t.Lanes) == 0 {
		return -1
	}
	l := t.layout(width, height)
	for i, b := range l.lanes {
		if y >= b.y && y < b.y+b.h && y >= l.top && y < l.axisY {
			return i
		}
	}
	return -1
}

// LanesShown lists the lanes a width×height image shows at least a row of: the ones whose calls
// are worth reading.
func (t Timeline) LanesShown(width, height int) []int {
	if checkSize(width, height) != nil {
		return nil
	}
	l := t.layout(width, height)
	var shown []int
	for i, b := range l.lanes {
		if b.y+b.h > l.top && b.y < l.axisY {
			shown = append(shown, i)
		}
	}
	return shown
}

// TimeAt is the time at pixel column x of a width×height image, clamped to the range shown, so
// a pointer can zoom around where it is.
func (t Timeline) TimeAt(width, height, x int) uint64 {
	if checkSize(width, height) != nil {
		return t.From
	}
	l := t.layout(width, height)
	f := math.Max(0, math.Min(1, float64(x-l.x0)/float64(max(l.x1-l.x0, 1))))
	return t.From + uint64(f*l.span)
}

// OnAxis tells whether height y of a width×height image is on the time axis, below the lanes:
// where dragging picks a range to zoom to.
func (t Timeline) OnAxis(width, height, y int) bool {
	return checkSize(width, height) == nil && y >= t.layout(width, height).axisY
}

// PlotWidth is how many pixel columns a width×height image gives the time axis.
func (t Timeline) PlotWidth(width, height int) int {
	if checkSize(width, height) != nil {
		return 0
	}
	l := t.layout(width, height)
	return l.x1 - l.x0
}

// x is the pixel of time us, clamped to the plot.
func (l timelineLayout) x(us uint64) int {
	f := (float64(us) - l.from) / l.span * float64(l.x1-l.x0)
	return l.x0 + int(math.Round(math.Max(0, math.Min(f, float64(l.x1-l.x0)))))
}

// bar is the pixel extent of a span, at least one pixel wide; ok is false when it is outside
// the range, deeper than its lane's rows or scrolled out of sight.
func (l timelineLayout) bar(s Span) (r image.Rectangle, ok bool) {
	if s.Lane < 0 || s.Lane >= len(l.lanes) || float64(s.End) < l.from || float64(s.Start) > l.from+l.span {
		return r, false
	}
	b := l.lanes[s.Lane]
	if s.Depth < 0 || s.Depth >= b.rows {
		return r, false
	}
	y := b.y + s.Depth*l.rowH
	if y < l.top || y+l.rowH > l.axisY {
		return r, false
	}
	x0, x1 := l.x(s.Start), l.x(s.End)
	if x1 <= x0 {
		x1 = x0 + 1
	}
	return image.Rect(x0, y, x1, y+l.rowH-1), true
}

// Empty reports whether the timeline has no call to draw.
func (t Timeline) Empty() bool { return len(t.Spans) == 0 }

// pixels draws the timeline at width×height pixels.
func (t Timeline) pixels(width, height int) (*image.RGBA, error) {
	if err := checkSize(width, height); err != nil {
		return nil, err
	}
	f, err := gochart.GetDefaultFont()
	if err != nil {
		return nil, err
	}
	img := image.NewRGBA(image.Rect(0, 0, width, height))
	draw.Draw(img, img.Bounds(), image.NewUniform(background), image.Point{}, draw.Src)
	p := &painter{img: img, font: f, faces: map[float64]font.Face{}}
	l := t.layout(width, height)
	if t.Title != "" {
		title := p.fit(t.Title, titleSize, width-2*pad)
		p.text(title, titleSize, textColour, (width-p.measure(title, titleSize))/2, pad+14)
	}
	p.axis(l, t.From, t.To)
	p.lanes(t, l)
	outline := map[uint64]bool{}
	for _, k := range t.Outline {
		outline[k] = true
	}
	hidden := 0
	for _, s := range t.Spans {
		r, ok := l.bar(s)
		if !ok {
			if s.Lane >= 0 && s.Lane < len(l.lanes) && s.Depth >= l.lanes[s.Lane].rows {
				hidden++
			}
			continue
		}
		p.span(s, r, l.rowH, outline[s.Key] && s.Merged == 0)
	}
	note := t.Note
	if hidden > 0 {
		note = joinNote(note, fmt.Sprintf("%s calls deeper than the rows are not drawn", human.Grouped(hidden)))
	}
	if note != "" {
		p.text(p.fit(note, labelSize, width-2*pad), labelSize, mutedText, pad, height-pad)
	}
	return img, nil
}

// merged is the grey of boxes standing for calls narrower than a pixel.
var merged = color.RGBA{190, 190, 190, 255}

// outlined is the frame around the calls of the method selected.
var outlined = color.RGBA{20, 20, 20, 255}

// span draws one bar with its label when it fits.
func (p *painter) span(s Span, r image.Rectangle, rowH int, outline bool) {
	img := p.img
	if s.Merged > 0 {
		draw.Draw(img, r, image.NewUniform(merged), image.Point{}, draw.Src)
		return
	}
	c := palette[s.Colour%uint64(len(palette))]
	draw.Draw(img, r, image.NewUniform(tint(c)), image.Point{}, draw.Src)
	if r.Dx() >= 3 {
		draw.Draw(img, image.Rect(r.Min.X, r.Min.Y, r.Min.X+1, r.Max.Y), image.NewUniform(c), image.Point{}, draw.Src)
	}
	if outline {
		outlineRect(img, r.Inset(-1), outlined)
	}
	size := min(labelSize, float64(rowH)*0.6)
	if r.Dx() > 30 && rowH >= 11 {
		// A label cut to a few letters ("and…") says nothing: such bars stay bare.
		if label := p.fit(s.Label, size, r.Dx()-6); label == s.Label || utf8.RuneCountInString(label) > 8 {
			p.text(label, size, textColour, r.Min.X+4, r.Min.Y+rowH/2+int(size*gochart.DefaultDPI/72)/2-1)
		}
	}
}

// outlineRect draws a one-pixel rectangle's outline.
func outlineRect(img *image.RGBA, r image.Rectangle, c color.Color) {
	u := image.NewUniform(c)
	for _, e := range []image.Rectangle{
		{r.Min, image.Pt(r.Max.X, r.Min.Y+1)}, {image.Pt(r.Min.X, r.Max.Y-1), r.Max},
		{r.Min, image.Pt(r.Min.X+1, r.Max.Y)}, {image.Pt(r.Max.X-1, r.Min.Y), r.Max},
	} {
		draw.Draw(img, e.Intersect(img.Bounds()), u, image.Point{}, draw.Src)
	}
}

// lanes draws each lane's name at the left and a line above it.
func (p *painter) lanes(t Timeline, l timelineLayout) {
	line := image.NewUniform(color.RGBA{215, 215, 215, 255})
	for i, ln := range t.Lanes {
		b := l.lanes[i]
		if b.y+b.h <= l.top || b.y >= l.axisY {
			continue
		}
		if y := b.y - 2; y >= l.top {
			draw.Draw(p.img, image.Rect(pad, y, l.x1, y+1), line, image.Point{}, draw.Src)
		}
		nameW := l.x0 - pad - 6
		if y := b.y + 11; y >= l.top+9 && y < l.axisY {
			p.text(p.fit(ln.Name, labelSize, nameW), labelSize, textColour, pad, y)
		}
		if y := b.y + 23; ln.Note != "" && b.h >= 24 && y >= l.top+9 && y < l.axisY {
			p.text(p.fit(ln.Note, labelSize, nameW), labelSize, mutedText, pad, y)
		}
	}
}

// MergeNarrow replaces the spans narrower than a pixel of a width×height image by grey boxes,
// one per run of such calls on a row, so a wide range draws as many boxes as it has pixels, not
// calls. Spans with an Outline key stay: the calls of the method selected are always drawn.
func (t Timeline) MergeNarrow(width, height int) Timeline {
	if checkSize(width, height) != nil {
		return t
	}
	l := t.layout(width, height)
	perUs := float64(l.x1-l.x0) / l.span
	keep := map[uint64]bool{}
	for _, k := range t.Outline {
		keep[k] = true
	}
	type row struct{ lane, depth int }
	open := map[row]int{} // the merged box still growing on each row: its index in out
	out := make([]Span, 0, len(t.Spans))
	for _, s := range t.Spans {
		if float64(s.End-min(s.Start, s.End))*perUs >= 1 || keep[s.Key] {
			out = append(out, s)
			continue
		}
		k := row{s.Lane, s.Depth}
		if i, ok := open[k]; ok && float64(s.Start) <= float64(out[i].End)+1/perUs {
			out[i].End = max(out[i].End, s.End)
			out[i].Merged++
			continue
		}
		g := s
		g.Label, g.Merged = "", 1
		open[k] = len(out)
		out = append(out, g)
	}
	t.Spans = out
	return t
}

func joinNote(a, b string) string {
	if a == "" || b == "" {
		return a + b
	}
	return a + " · " + b
}

// Paint writes the timeline as PNG (render.Drawing; draw it with render.Render). It has no
// SVG: it is painted straight into pixels, thousands of calls in milliseconds.
func (t Timeline) Paint(w io.Writer, format render.Format, width, height int) error {
	if format != render.PNG {
		return errors.New("a timeline is drawn as PNG only")
	}
	img, err := t.pixels(width, height)
	if err != nil {
		return err
	}
	if c, ok := w.(gochart.RGBACollector); ok { // render.Image: no encode and decode
		c.SetRGBA(img)
		return nil
	}
	return png.Encode(w, img)
}

// SpanAt tells which of Spans is drawn at pixel (x, y) of a width×height image, -1 for none,
// so hovering or tapping a bar can name its call.
func (t Timeline) SpanAt(width, height, x, y int) int {
	if checkSize(width, height) != nil {
		return -1
	}
	l := t.layout(width, height)
	pt := image.Pt(x, y)
	for i := len(t.Spans) - 1; i >= 0; i-- { // the last drawn is on top
		if r, ok := l.bar(t.Spans[i]); ok && pt.In(r.Inset(-1)) && y >= r.Min.Y && y < r.Max.Y {
			return i
		}
	}
	return -1
}

// SpanRect is where span i is drawn in a width×height image; ok is false when it is not drawn
// (outside the range, or deeper than the rows), so a caller can point at a call.
func (t Timeline) SpanRect(width, height, i int) (r image.Rectangle, ok bool) {
	if checkSize(width, height) != nil || i < 0 || i >= len(t.Spans) {
		return r, false
	}
	return t.layout(width, height).bar(t.Spans[i])
}
