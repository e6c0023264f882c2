package ui

import (
	"image"
	"strings"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/driver/desktop"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/widget"

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
	hover := p.Chart.Area // the chart's own area hears the pointer: no overlay covers it
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

// Each focus operation through the panel as a person uses it: a click on the overlay selects
// and zooms, Hide this subtree hides it (the zoom goes back as far as its frames remain), Merge
// into callers and Focus on this act on the frame clicked, a right-click opens the same actions,
// Only frames matching previews and becomes a chip on Enter, a bad expression is said and
// ignored, each chip's ✕ removes its step, and Clear ends the focus. The line says what is
// hidden with numbers, and the graph's note (its saved PNG and SVG) says it too.
func TestFlamePanelFocus(t *testing.T) {
	p, bg, main, paint, _ := openFlame(t)
	h := p.Chart.Area // takes clicks and right-clicks
	if !p.Focus.FocusOn.Disabled() || !p.Focus.Clear.Disabled() || p.Focus.Hidden.Text != "nothing hidden" {
		t.Fatalf("before a click: focus on enabled %v, clear %v, %q", !p.Focus.FocusOn.Disabled(), !p.Focus.Clear.Disabled(), p.Focus.Hidden.Text)
	}
	test.TapAt(h, centre(t, p, paint))
	bg.Wait()
	if p.Selected() != paint || p.Flame().Root != paint || p.Focus.Hide.Disabled() {
		t.Fatalf("a click on the overlay: selected %v, root %s", p.Selected(), p.Flame().Root.Name)
	}
	test.Tap(p.Focus.Hide)
	bg.Wait()
	f := p.Flame()
	if f.Root.Name != main.Name || f.Root.Total != 400 || findName(f.Root, "View.paint()") || len(p.Focused()) != 1 {
		t.Fatalf("hide paint: root %s %d µs", f.Root.Name, f.Root.Total)
	}
	want := "600 µs of 1 ms thread CPU (60.0%) hidden"
	if p.Focus.Hidden.Text != want || f.Note != "Focus: hide View.paint(): "+want || len(p.Focus.chips.Objects) != 1 {
		t.Errorf("after hide: line %q, note %q, %d chips", p.Focus.Hidden.Text, f.Note, len(p.Focus.chips.Objects))
	}
	if drawn := p.Chart.Drawing().(chart.Flame); drawn.Note != f.Note {
		t.Errorf("the drawing saved says %q", drawn.Note)
	}
	// The chip's ✕ brings paint back; a right-click on it merges it into its caller.
	test.Tap(p.Focus.chips.Objects[0].(*widget.Button))
	bg.Wait()
	if f := p.Flame(); f.Top().Total != 1000 || !findName(f.Top(), "View.paint()") || p.Focus.Hidden.Text != "nothing hidden" {
		t.Fatalf("after removing the chip: %d µs, %q", f.Top().Total, p.Focus.Hidden.Text)
	}
	paint = findFrame(p.Flame().Top(), "View.paint()")
	test.TapSecondaryAt(h, centre(t, p, paint))
	if p.menu == nil || !p.menu.Visible() || len(p.menu.Items) != 3 {
		t.Fatal("a right-click on paint shows no menu of 3 items")
	}
	test.Tap(p.menu.Items[2].(fyne.Tappable)) // Merge into callers
	bg.Wait()
	f = p.Flame()
	if f.Root.Total != 1000 || findName(f.Root, "View.paint()") || !findName(f.Root, "Canvas.draw()") || f.Root.Self != 500 {
		t.Errorf("merge paint: total %d, self %d", f.Root.Total, f.Root.Self)
	}
	if p.Focus.Hidden.Text != "400 µs of 1 ms thread CPU (40.0%) moved to callers" {
		t.Errorf("merge says %q", p.Focus.Hidden.Text)
	}
	test.Tap(p.Focus.Clear)
	bg.Wait()

	// Focus on draw, zoomed to it: the zoom survives, the rest is hidden.
	test.TapAt(h, centre(t, p, findFrame(p.Flame().Top(), "View.paint()")))
	bg.Wait()
	test.TapAt(h, centre(t, p, findFrame(p.Flame().Top(), "Canvas.draw()")))
	bg.Wait()
	test.Tap(p.Focus.FocusOn)
	bg.Wait()
	if f := p.Flame(); f.Top().Total != 200 || f.Root.Name != "Canvas.draw()" || p.Focus.Hidden.Text != "800 µs of 1 ms thread CPU (80.0%) hidden" || !strings.Contains(f.Note, `focus ^Canvas\.draw\(\)$`) {
		t.Errorf("focus on draw: top %d µs, root %s, %q", f.Top().Total, f.Root.Name, p.Focus.Hidden.Text)
	}
	test.Tap(p.Focus.Clear)
	bg.Wait()

	// Only frames matching: a preview while typing, a chip on Enter; a bad expression is said.
	test.Type(p.Focus.Only, "(")
	if !strings.Contains(p.Focus.Hidden.Text, `only "(": not a regular expression`) || p.Flame().Top().Total != 1000 {
		t.Errorf("a bad Only: %q", p.Focus.Hidden.Text)
	}
	p.Focus.Only.SetText("Clock|Canvas")
	bg.Wait()
	if f := p.Flame(); findName(f.Top(), "View.paint()") || !findName(f.Top(), "Canvas.draw()") || f.Top().Total != 1000 {
		t.Errorf("only Clock|Canvas kept paint or lost time")
	}
	p.Focus.Only.OnSubmitted(p.Focus.Only.Text)
	bg.Wait()
	if p.Focus.Only.Text != "" || len(p.Focus.steps) != 1 || p.Focus.steps[0].Arg != "Clock|Canvas" || findName(p.Flame().Top(), "View.paint()") {
		t.Errorf("Enter in Only: field %q, steps %v", p.Focus.Only.Text, p.Focus.steps)
	}
	// A new graph from the tab (another thread) keeps the steps.
	again := &flame.Node{Name: "thread 2 x", Total: 10, Children: []*flame.Node{{Name: "A.a()", Total: 10, Self: 4,
		Children: []*flame.Node{{Name: "Canvas.draw()", Self: 6, Total: 6}}}}}
	p.Show(chart.FromMethodFlame(again, "r", "thread 2 x", false), nil)
	bg.Wait()
	if f := p.Flame(); findName(f.Top(), "A.a()") || f.Top().Self != 4 || p.Focus.Hidden.Text != "4 µs of 10 µs thread CPU (40.0%) moved to callers" {
		t.Errorf("the next graph is not focused: %q", p.Focus.Hidden.Text)
	}
}

// findName reports whether a frame named name is under n (n included).
func findName(n *flame.Node, name string) bool { return findFrame(n, name) != nil }

// findFrame is the first frame named name under n, depth first.
func findFrame(n *flame.Node, name string) *flame.Node {
	if n == nil || n.Name == name {
		return n
	}
	for _, c := range n.Children {
		if f := findFrame(c, name); f != nil {
			return f
		}
	}
	return nil
}
