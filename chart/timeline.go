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

	"github.com/golang/freetype/truetype"
	gochart "github.com/wcharczuk/go-chart/v2"
	"github.com/wcharczuk/go-chart/v2/drawing"
	"golang.org/x/image/font"
	"golang.org/x/image/math/fixed"
)

// Timeline is one thread's calls as nested bars on a time axis, Traceview's timeline panel:
// level-1 calls on top, each call under its caller. go-chart has no such chart, so it is drawn
// here straight into an image, with the charts' font and colours.
type Timeline struct {
	Title    string
	From, To uint64 // the µs range shown
	Spans    []Span
	Note     string // a line under the axis, e.g. which calls are not shown
}

// Span is one call drawn as a bar.
type Span struct {
	Label      string
	Depth      int // 0: a level-1 call
	Start, End uint64
	Colour     uint64 // spans with the same number share a colour: calls of one method look alike
}

// timelineLayout places a Timeline's rows: one per depth, each at most 20 px high and at
// least 3, so deep stacks stay visible; depths beyond the last row are left out. SpanAt uses it
// too, so hovering hits what is drawn.
type timelineLayout struct {
	x0, x1     int // the plot's left and right edge
	top, rowH  int
	rows       int
	axisY      int
	from, span float64
}

func (t Timeline) layout(w, h int) timelineLayout {
	top := pad
	if t.Title != "" {
		top += 26
	}
	axisY := h - pad - 26
	if t.Note != "" {
		axisY -= 16
	}
	depth := 0
	for _, s := range t.Spans {
		depth = max(depth, s.Depth+1)
	}
	avail := max(axisY-top-4, 0)
	rowH := 20
	if depth > 0 {
		rowH = max(3, min(20, avail/depth))
	}
	to := max(t.To, t.From+1)
	return timelineLayout{x0: pad, x1: w - pad, top: top, rowH: rowH, rows: avail / rowH, axisY: axisY,
		from: float64(t.From), span: float64(to - t.From)}
}

// x is the pixel of time us, clamped to the plot.
func (l timelineLayout) x(us uint64) int {
	f := (float64(us) - l.from) / l.span * float64(l.x1-l.x0)
	return l.x0 + int(math.Round(math.Max(0, math.Min(f, float64(l.x1-l.x0)))))
}

// bar is the pixel extent of a span, at least one pixel wide; ok is false when it is outside
// the range or deeper than the rows.
func (l timelineLayout) bar(s Span) (r image.Rectangle, ok bool) {
	if s.Depth < 0 || s.Depth >= l.rows || float64(s.End) < l.from || float64(s.Start) > l.from+l.span {
		return r, false
	}
	x0, x1 := l.x(s.Start), l.x(s.End)
	if x1 <= x0 {
		x1 = x0 + 1
	}
	y := l.top + s.Depth*l.rowH
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
	hidden := 0
	for _, s := range t.Spans {
		r, ok := l.bar(s)
		if !ok {
			if s.Depth >= l.rows {
				hidden++
			}
			continue
		}
		c := palette[s.Colour%uint64(len(palette))]
		draw.Draw(img, r, image.NewUniform(tint(c)), image.Point{}, draw.Src)
		if r.Dx() >= 3 {
			draw.Draw(img, image.Rect(r.Min.X, r.Min.Y, r.Min.X+1, r.Max.Y), image.NewUniform(c), image.Point{}, draw.Src)
		}
		size := min(labelSize, float64(l.rowH)*0.6)
		if r.Dx() > 30 && l.rowH >= 11 {
			// A label cut to a few letters ("and…") says nothing: such bars stay bare.
			if label := p.fit(s.Label, size, r.Dx()-6); label == s.Label || utf8.RuneCountInString(label) > 8 {
				p.text(label, size, textColour, r.Min.X+4, r.Min.Y+l.rowH/2+int(size*gochart.DefaultDPI/72)/2-1)
			}
		}
	}
	note := t.Note
	if hidden > 0 {
		note = joinNote(note, fmt.Sprintf("%d calls deeper than %d levels are not drawn", hidden, l.rows))
	}
	if note != "" {
		p.text(p.fit(note, labelSize, width-2*pad), labelSize, mutedText, pad, height-pad)
	}
	return img, nil
}

func joinNote(a, b string) string {
	if a == "" {
		return b
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

// tint lightens a palette colour so dark labels stay readable on it.
func tint(c drawing.Color) color.RGBA {
	mix := func(v uint8) uint8 { return uint8(int(v) + (255-int(v))*45/100) }
	return color.RGBA{mix(c.R), mix(c.G), mix(c.B), 255}
}

// painter draws text with the charts' font straight into an image.
type painter struct {
	img   *image.RGBA
	font  *truetype.Font
	faces map[float64]font.Face
}

func (p *painter) face(size float64) font.Face {
	f, ok := p.faces[size]
	if !ok {
		f = truetype.NewFace(p.font, &truetype.Options{Size: size, DPI: gochart.DefaultDPI, Hinting: font.HintingFull})
		p.faces[size] = f
	}
	return f
}

// measure is how wide s draws, as label shows it.
func (p *painter) measure(s string, size float64) int {
	return font.MeasureString(p.face(size), label(s)).Ceil()
}

// text draws s (as label shows it) with its baseline at y, starting at x.
func (p *painter) text(s string, size float64, c color.Color, x, y int) {
	d := font.Drawer{Dst: p.img, Src: image.NewUniform(c), Face: p.face(size), Dot: fixed.P(x, y)}
	d.DrawString(label(s))
}

// fit shortens s with an ellipsis until it fits width pixels ("" when not even that fits).
func (p *painter) fit(s string, size float64, width int) string {
	s = label(s)
	if p.measure(s, size) <= width {
		return s
	}
	runes := []rune(s)
	lo, hi := 0, len(runes) // the longest prefix that fits, by bisection: labels are many
	for lo < hi {
		mid := (lo + hi + 1) / 2
		if p.measure(string(runes[:mid])+"…", size) <= width {
			lo = mid
		} else {
			hi = mid - 1
		}
	}
	if lo == 0 {
		return ""
	}
	return string(runes[:lo]) + "…"
}

// axis draws the time axis under the rows with gridlines up through them.
func (p *painter) axis(l timelineLayout, from, to uint64) {
	grid := image.NewUniform(color.RGBA{235, 235, 235, 255})
	axis := image.NewUniform(axisColour)
	draw.Draw(p.img, image.Rect(l.x0, l.axisY, l.x1, l.axisY+1), axis, image.Point{}, draw.Src)
	step := niceStep(l.span / math.Max(1, float64(l.x1-l.x0)/110))
	for v := math.Ceil(l.from/step) * step; v <= l.from+l.span; v += step {
		x := l.x(uint64(v))
		draw.Draw(p.img, image.Rect(x, l.top, x+1, l.axisY), grid, image.Point{}, draw.Src)
		draw.Draw(p.img, image.Rect(x, l.axisY, x+1, l.axisY+5), axis, image.Point{}, draw.Src)
		label := human.MicrosStep(v, step)
		w := p.measure(label, labelSize)
		p.text(label, labelSize, mutedText, min(max(x-w/2, l.x0), l.x1-w), l.axisY+18)
	}
}

// niceStep rounds a step up to 1, 2 or 5 times a power of ten.
func niceStep(raw float64) float64 {
	if raw <= 1 {
		return 1
	}
	mag := math.Pow(10, math.Floor(math.Log10(raw)))
	for _, m := range []float64{1, 2, 5, 10} {
		if m*mag >= raw {
			return m * mag
		}
	}
	return 10 * mag
}
