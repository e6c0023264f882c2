package render_test

import (
	"bytes"
	"image"
	"image/png"
	"math"
	"strings"
	"testing"

	"androprof/chart"
	"androprof/chart/render"
)

func TestFormatFor(t *testing.T) {
	for path, want := range map[string]render.Format{"a.png": render.PNG, "b.SVG": render.SVG, "c.csv": render.CSV} {
		if got, err := render.FormatFor(path); err != nil || got != want {
			t.Errorf("FormatFor(%s) = %v, %v", path, got, err)
		}
	}
	if _, err := render.FormatFor("x.gif"); err == nil {
		t.Error("a .gif was accepted")
	}
}

// drawings are one chart of each kind.
func drawings() map[string]render.Drawing {
	return map[string]render.Drawing{
		"bars": chart.Chart{Title: "t", YLabel: "energy (J)", Unit: "J",
			Bars: []chart.Bar{{Label: "a", Value: 0.5}, {Label: "b", Unknown: true}}},
		"lines": chart.Lines{Title: "l", XLabel: "allocated", X: []float64{0, 1, 2},
			Series: []chart.LineSeries{{Label: "s", Values: []float64{1, math.NaN(), 3}}}},
		"columns": chart.StackedColumns{Labels: []string{"8", "16"}, Series: []chart.LineSeries{{Label: "c", Values: []float64{2, 4}}}},
		"timeline": chart.Timeline{Title: "calls", From: 0, To: 100,
			Spans: []chart.Span{{Label: "main", Start: 0, End: 100}, {Label: "f", Depth: 1, Start: 10, End: 40}}},
	}
}

// The window's image is the saved PNG, pixel for pixel: one door, one drawing.
func TestImageIsThePNG(t *testing.T) {
	for name, d := range drawings() {
		img, err := render.Image(d, 400, 240)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		var buf bytes.Buffer
		if err := render.Render(&buf, d, render.PNG, 400, 240); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		saved, err := png.Decode(&buf)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if !sameImage(img, saved) {
			t.Errorf("%s: the image shown differs from the PNG saved", name)
		}
	}
}

func sameImage(a *image.RGBA, b image.Image) bool {
	if a.Bounds() != b.Bounds() {
		return false
	}
	for y := a.Bounds().Min.Y; y < a.Bounds().Max.Y; y++ {
		for x := a.Bounds().Min.X; x < a.Bounds().Max.X; x++ {
			r1, g1, b1, a1 := a.At(x, y).RGBA()
			r2, g2, b2, a2 := b.At(x, y).RGBA()
			if r1 != r2 || g1 != g2 || b1 != b2 || a1 != a2 {
				return false
			}
		}
	}
	return true
}

// CSV carries the numbers raw: full precision, "unknown" for what is not known, nothing for a
// gap; never 0 for either. It has no size, so any size writes it.
func TestCSV(t *testing.T) {
	want := map[string]string{
		"bars":     "label,energy (J)\na,0.5\nb,unknown\n",
		"lines":    "allocated,s\n0,1\n1,\n2,3\n",
		"columns":  "column,c\n8,2\n16,4\n",
		"timeline": "call,depth,start (µs),end (µs)\nmain,0,0,100\nf,1,10,40\n",
	}
	for name, d := range drawings() {
		var buf bytes.Buffer
		if err := render.Render(&buf, d, render.CSV, 0, 0); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if buf.String() != want[name] {
			t.Errorf("%s: CSV\n%s\nwant\n%s", name, buf.String(), want[name])
		}
	}
}

func TestSizeAndFormatChecked(t *testing.T) {
	bars := drawings()["bars"]
	if err := render.Render(&bytes.Buffer{}, bars, render.PNG, 10, 10); err == nil || !strings.Contains(err.Error(), "outside") {
		t.Errorf("10×10: %v", err)
	}
	if err := render.Render(&bytes.Buffer{}, bars, render.Format(9), 400, 240); err == nil {
		t.Error("an unknown format was written")
	}
	if err := render.Render(&bytes.Buffer{}, drawings()["timeline"], render.SVG, 400, 240); err == nil {
		t.Error("a timeline was written as SVG")
	}
}
