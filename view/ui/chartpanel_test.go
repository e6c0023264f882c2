package ui

import (
	"os"
	"path/filepath"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"

	"androprof/chart"
	"androprof/chart/render"
)

// A chart panel shows any drawing: lines hide the kind chooser and take no taps, bars bring
// it back; Save writes either.
func TestChartPanelShowsDrawings(t *testing.T) {
	w := test.NewTempApp(t).NewWindow("chart")
	bg := NewQueuedBackground()
	p := NewChartPanel(w, bg, chart.Bars, nil)
	w.SetContent(p.Content())
	w.Resize(fyne.NewSize(600, 400))
	lines := chart.Lines{Title: "lines", X: []float64{0, 1}, Series: []chart.LineSeries{{Label: "x", Values: []float64{1, 2}}}}
	p.SetDrawing(lines, "lines")
	bg.Wait()
	if p.Kind.Visible() || p.Image() == nil {
		t.Fatalf("lines: kind chooser shown %v, image drawn %v", p.Kind.Visible(), p.Image() != nil)
	}
	tapped := false
	p.onBar = func(int) { tapped = true }
	p.tapped(fyne.NewPos(10, 10))
	p.Set(chart.Chart{Title: "bars", Bars: []chart.Bar{{Label: "a", Value: 1}}})
	if !p.Kind.Visible() || tapped || p.Drawing().(chart.Chart).Title != "bars" {
		t.Errorf("after Set: kind %v, tapped %v", p.Kind.Visible(), tapped)
	}
	p.SetDrawing(lines, "lines")
	bg.Wait()
	dir := t.TempDir()
	for _, f := range []struct {
		f   render.Format
		ext string
	}{{render.PNG, ".png"}, {render.SVG, ".svg"}} {
		out := filepath.Join(dir, "l"+f.ext)
		if err := SaveChart(p.Drawing(), f.f, out); err != nil {
			t.Fatal(err)
		}
		if st, err := os.Stat(out); err != nil || st.Size() < 500 {
			t.Errorf("%s: %v", out, err)
		}
	}
}

// A tap on a drawing that is not a bar chart reaches OnPoint in the image's pixels.
func TestChartPanelPointsIntoDrawings(t *testing.T) {
	w := test.NewTempApp(t).NewWindow("chart")
	bg := NewQueuedBackground()
	p := NewChartPanel(w, bg, chart.Bars, nil)
	w.SetContent(p.Content())
	w.Resize(fyne.NewSize(600, 400))
	p.SetDrawing(chart.Lines{Title: "lines", X: []float64{0, 1}, Series: []chart.LineSeries{{Values: []float64{1, 2}}}}, "lines")
	bg.Wait()
	var got [4]int
	p.OnPoint = func(d chart.Drawing, width, height, x, y int) { got = [4]int{width, height, x, y} }
	size := p.Area.Size()
	test.TapAt(p.Area, fyne.NewPos(size.Width/2, size.Height/4))
	if got[0] != p.px[0] || got[1] != p.px[1] || got[2] != p.px[0]/2 || got[3] != p.px[1]/4 {
		t.Errorf("OnPoint got %v for a tap in the middle, a quarter down, of a %v image", got, p.px)
	}
}
