package chart

import (
	"image"
	"image/color"
	"image/draw"
	"math"

	"androprof/internal/human"

	"github.com/golang/freetype/truetype"
	gochart "github.com/wcharczuk/go-chart/v2"
	"github.com/wcharczuk/go-chart/v2/drawing"
	"golang.org/x/image/font"
	"golang.org/x/image/math/fixed"
)

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
