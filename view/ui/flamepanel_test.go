package ui

import (
	"image"
	"strings"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/driver/desktop"
	"fyne.io/fyne/v2/test"

	"androprof/chart"
	"androprof/model/flame"
)

// openFlame shows a small method run's graph, all → main → {paint → draw, tick}, in a panel.
func openFlame(t *testing.T) (p *FlamePanel, bg *Background, main, paint, draw *flame.Node) {
	w := test.NewTempApp(t).NewWindow("flame")
	bg = NewQueuedBackground()
	p = NewFlamePanel(w, bg)
	w.SetContent(p.Content())
	w.Resize(fyne.NewSize(900, 600))
	draw = &flame.Node{Name: "Canvas.draw()", Origin: "gfx", Self: 200, Total: 200}
	paint = &flame.Node{Name: "View.paint()", Origin: "ui", Self: 400, Total: 600, Children: []*flame.Node{draw}}
	tick := &flame.Node{Name: "Clock.tick()", Origin: "app", Self: 300, Total: 300}
	main = &flame.Node{Name: "thread 1 main", Self: 100, Total: 1000, Children: []*flame.Node{tick, paint}}
	p.Show(chart.FromMethodFlame(main, "r", "thread 1 main", false), nil)
	bg.Wait()
	if p.Chart.Image() == nil {
		t.Fatal("the graph is not drawn")
	}
	return p, bg, main, paint, draw
}

// centre is where frame n is drawn, in the overlay's (and the chart area's) coordinates.
func centre(t *testing.T, p *FlamePanel, n *flame.Node) fyne.Position {
	t.Helper()
	b := p.Chart.Image().Bounds()
	r, ok := p.Flame().FrameRect(b.Dx(), b.Dy(), n)
	if !ok {
		t.Fatalf("%s is not drawn", n.Name)
	}
	c := image.Pt((r.Min.X+r.Max.X)/2, (r.Min.Y+r.Max.Y)/2)
	size := p.Chart.Area.Size()
	return fyne.NewPos(float32(c.X)*size.Width/float32(b.Dx()), float32(c.Y)*size.Height/float32(b.Dy()))
}

// Hovering a frame says its numbers; leaving goes back to the frame clicked. A click zooms and
// selects; the search box lights up matches, says their share, and refuses a bad expression
// without losing the graph; Show all and the zoom kept by name.
func TestFlamePanelHoverClickSearch(t *testing.T) {
	p, bg, main, paint, draw := openFlame(t)
	hover := p.content.(*fyne.Container).Objects[0].(*fyne.Container).Objects[1].(*flameHover)
	if hover.Size() != p.Chart.Area.Size() || hover.Position() != p.Chart.Area.Position() {
		t.Errorf("the hover overlay is at %v %v, the chart at %v %v", hover.Position(), hover.Size(), p.Chart.Area.Position(), p.Chart.Area.Size())
	}
	hover.MouseMoved(&desktop.MouseEvent{PointEvent: fyne.PointEvent{Position: centre(t, p, paint)}})
	if want := p.Flame().FrameText(paint); p.Info.Text != want || !strings.Contains(want, "600 µs thread CPU, 60.0% of thread 1 main") {
		t.Errorf("hovering paint says %q, want %q", p.Info.Text, want)
	}
	hover.MouseOut()
	if p.Info.Text != FlameHint {
		t.Errorf("after the pointer left: %q", p.Info.Text)
	}

	var selected *flame.Node
	var zoom []string
	p.OnSelect = func(n *flame.Node) { selected = n }
	p.OnChange = func(_ chart.Flame, z []string) { zoom = z }
	test.TapAt(p.Chart.Area, centre(t, p, paint))
	bg.Wait()
	if p.Flame().Root != paint || selected != paint || p.Selected() != paint || p.ShowAll.Disabled() ||
		len(zoom) != 1 || zoom[0] != paint.Name || !strings.Contains(p.Info.Text, "View.paint()") {
		t.Fatalf("after a click on paint: root %s, selected %v, zoom %v, info %q", p.Flame().Root.Name, selected, zoom, p.Info.Text)
	}

	test.Type(p.Search, "draw|tick")
	if f := p.Flame(); f.Matched != 500 || !f.Hits[draw] || f.Root != paint || p.Found.Text != f.SearchText() ||
		!strings.Contains(p.Found.Text, "500 µs thread CPU, 50.0% of thread 1 main, in 2 frames") {
		t.Errorf("search draw|tick: %d µs, found %q, root %s", f.Matched, p.Found.Text, f.Root.Name)
	}
	test.Type(p.Search, "(")
	if f := p.Flame(); !strings.Contains(p.Found.Text, "not a regular expression") || f.Search != "" || f.Root != paint {
		t.Errorf("a bad expression: found %q, search %q", p.Found.Text, f.Search)
	}
	p.Search.SetText("")
	test.Tap(p.ShowAll)
	if f := p.Flame(); f.Root != main || len(f.Path) != 0 || !p.ShowAll.Disabled() || zoom != nil {
		t.Errorf("Show all: root %s, %d callers, zoom %v", f.Root.Name, len(f.Path), zoom)
	}
	// A new graph keeps the zoom by name, as far as its frames go.
	again := &flame.Node{Name: "thread 1 main", Total: 10, Children: []*flame.Node{{Name: "View.paint()", Origin: "ui", Self: 10, Total: 10}}}
	p.Show(chart.FromMethodFlame(again, "r", "s", true), []string{"View.paint()", "Canvas.draw()"})
	if f := p.Flame(); f.Root != again.Children[0] || p.Selected() != nil || p.Info.Text != FlameHint {
		t.Errorf("the new graph is zoomed to %s", f.Root.Name)
	}
	p.Mark(func(n *flame.Node) bool { return n.Name == "View.paint()" })
	if f, drawn := p.Flame(), p.Chart.Drawing().(chart.Flame); len(f.Marked) != 1 || len(drawn.Marked) != 1 {
		t.Errorf("marked %d frames, %d drawn", len(f.Marked), len(drawn.Marked))
	}
}
