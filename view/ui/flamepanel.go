package ui

import (
	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"androprof/chart"
	"androprof/controller"
	"androprof/model/flame"
)

// FlameHint is what the info line says before a frame is clicked or hovered.
const FlameHint = "Click a frame to zoom to it; click a grey caller above it, or Show all, to zoom out. Hover a frame for its numbers."

// FlamePanel is every flame graph of the window (method runs, sampled runs): the graph in a
// chart panel (Save PNG/SVG), a click on a frame zooms to it and a click on a grey caller or Show
// all zooms out, the frame under the pointer or last clicked has its numbers on the info line,
// a search box lights up the frames its regular expression matches and says their share, and
// focus steps (Focus) hide, keep or merge frames, saying what they hid.
type FlamePanel struct {
	Chart   *ChartPanel
	ShowAll *widget.Button
	Search  *widget.Entry
	Found   *widget.Label // what the search found, or why it cannot search
	Info    *widget.Label // the frame hovered or clicked, with its numbers
	Focus   *FlameFocus   // focus on, hide or merge the frame clicked; only frames matching

	// OnChange, when set, hears every graph shown (zoomed, searched) and the names of the frames
	// zoomed through from the top's child to the zoomed frame (nil: not zoomed), which a tab
	// keeps to zoom its next graph the same way (Show).
	OnChange func(f chart.Flame, zoom []string)
	// OnSelect, when set, hears a click on a frame, after the zoom.
	OnSelect func(n *flame.Node)
	// Refocus, when set, focuses the graph itself: the panel hands it the steps whenever they
	// change and draws what the owner gives ShowFocused. The diff panel does, because a diff
	// graph focused after the fact would lose its colours: it diffs the two focused runs again.
	Refocus func(opts controller.FocusOptions)

	flame    chart.Flame       // as shown
	whole    chart.Flame       // as the tab gave it, before focus
	focused  []flame.Focused   // what the focus steps did to whole
	menu     *widget.PopUpMenu // the last right-click's
	selected *flame.Node       // the frame clicked last, nil for none
	mark     func(*flame.Node) bool
	tools    *fyne.Container
	content  fyne.CanvasObject
}

// NewFlamePanel makes an empty flame graph panel in win, drawn on bg.
func NewFlamePanel(win fyne.Window, bg *Background) *FlamePanel {
	p := &FlamePanel{}
	p.Chart = NewChartPanel(win, bg, chart.Bars, nil)
	p.Chart.OnPoint = func(d chart.Drawing, w, h, x, y int) {
		if f, ok := d.(chart.Flame); ok {
			if n := f.FrameAt(w, h, x, y); n != nil {
				p.clicked(n)
			}
		}
	}
	p.ShowAll = widget.NewButtonWithIcon("Show all", theme.ZoomFitIcon(), func() { p.set(p.flame.Zoom(p.flame.Top())) })
	p.ShowAll.Disable()
	p.Search = widget.NewEntry()
	p.Search.SetPlaceHolder("regular expression, e.g. paint|draw")
	p.Search.OnChanged = func(string) { p.set(p.flame) }
	p.Found = widget.NewLabel("")
	p.Found.Truncation = fyne.TextTruncateEllipsis
	p.Info = widget.NewLabel(FlameHint)
	p.Info.Truncation = fyne.TextTruncateEllipsis
	p.tools = container.NewHBox(p.ShowAll)
	p.Focus = newFlameFocus(p)
	search := container.NewBorder(nil, nil, widget.NewLabel("Search"), nil, p.Search)
	fields := container.NewHBox(container.NewGridWrap(fyne.NewSize(210, p.Search.MinSize().Height), search), p.Focus.only)
	top := container.NewVBox(
		container.NewBorder(nil, nil, fields, p.tools, p.Found),
		p.Focus.row,
		p.Info)
	p.Chart.OnHover = p.hovered
	p.Chart.OnSecondary = p.rightClicked
	p.content = container.NewBorder(top, nil, nil, nil, p.Chart.Content())
	return p
}

// Content is the graph with its controls.
func (p *FlamePanel) Content() fyne.CanvasObject { return p.content }

// AddTool puts a tab's button (e.g. Show in profile) before Show all.
func (p *FlamePanel) AddTool(o fyne.CanvasObject) {
	p.tools.Objects = append([]fyne.CanvasObject{o}, p.tools.Objects...)
	p.tools.Refresh()
}

// Flame is the graph shown, zoomed and searched as it is drawn.
func (p *FlamePanel) Flame() chart.Flame { return p.flame }

// Selected is the frame clicked last in the graph shown, nil for none.
func (p *FlamePanel) Selected() *flame.Node { return p.selected }

// Mark outlines the frames match accepts in this graph and the next ones shown (a method
// selected in another tab); nil outlines none.
func (p *FlamePanel) Mark(match func(*flame.Node) bool) {
	p.mark = match
	p.set(p.flame)
}

// Show draws a new graph f (not zoomed) after the panel's focus steps, zoomed through the frames
// named zoom as far as they are in it (so a zoom outlives a change of thread, clock or focus),
// searched as the search box says.
func (p *FlamePanel) Show(f chart.Flame, zoom []string) {
	p.whole = f
	p.showFocused(zoom)
}

// Focused is what the focus steps hid or moved in the graph shown (nil: no step).
func (p *FlamePanel) Focused() []flame.Focused { return p.focused }

// refocus draws the graph again after a change of the focus steps, keeping the zoom by name.
func (p *FlamePanel) refocus() {
	if p.Refocus == nil {
		p.showFocused(zoomNames(p.flame))
		return
	}
	opts, refused := p.Focus.options()
	if refused != nil {
		p.Focus.Hidden.SetText(refused.Error())
		return
	}
	p.Refocus(opts)
}

// showFocused draws the tab's graph after the focus steps, zoomed through the frames named zoom.
func (p *FlamePanel) showFocused(zoom []string) {
	opts, refused := p.Focus.options()
	f, done, err := controller.FocusFlame(p.whole, opts)
	if err != nil {
		refused, f, done = err, p.whole, nil
	}
	p.drawFocused(f, done, refused, zoom)
}

// ShowFocused draws a graph its owner focused (Refocus) with what the steps did to it, zoomed
// through the frames named zoom as far as they are in it.
func (p *FlamePanel) ShowFocused(f chart.Flame, done []flame.Focused, zoom []string) {
	p.whole = f
	p.drawFocused(f, done, nil, zoom)
}

// drawFocused shows a focused graph and says what its steps hid, or why they were refused.
func (p *FlamePanel) drawFocused(f chart.Flame, done []flame.Focused, refused error, zoom []string) {
	p.focused = done
	p.Focus.showSteps(p)
	switch {
	case refused != nil:
		p.Focus.Hidden.SetText(refused.Error())
	case len(done) == 0:
		p.Focus.Hidden.SetText("nothing hidden")
	default:
		p.Focus.Hidden.SetText(controller.FlameAmounts(f, done))
	}
	p.zoomTo(f, zoom)
}

// zoomTo shows f zoomed through the frames named zoom, as far as they are in it.
func (p *FlamePanel) zoomTo(f chart.Flame, zoom []string) {
	at := f.Root
	for _, name := range zoom {
		if at == nil {
			break
		}
		next := (*flame.Node)(nil)
		for _, c := range at.Children {
			if c.Name == name {
				next = c
				break
			}
		}
		if next == nil {
			break
		}
		at = next
	}
	p.selected = nil
	p.set(f.Zoom(at))
}

// clicked zooms to the frame clicked and says its numbers.
func (p *FlamePanel) clicked(n *flame.Node) {
	p.selected = n
	p.set(p.flame.Zoom(n))
	if p.OnSelect != nil {
		p.OnSelect(n)
	}
}

// set shows f searched as the search box says, and tells OnChange.
func (p *FlamePanel) set(f chart.Flame) {
	found, err := controller.FindFrames(f, p.Search.Text)
	if err != nil {
		p.Found.SetText(err.Error())
		found = f.Find(nil)
	} else {
		p.Found.SetText(found.SearchText())
	}
	p.flame = found.Mark(p.mark)
	Enable(p.ShowAll, len(found.Path) > 0)
	p.Focus.enable(p.selected, p.flame.Top())
	p.say(p.selected)
	p.Chart.SetDrawing(p.flame, p.flame.Title)
	if p.OnChange != nil {
		p.OnChange(p.flame, zoomNames(p.flame))
	}
}

// say puts frame n's numbers on the info line, or the hint when n is nil.
func (p *FlamePanel) say(n *flame.Node) {
	if n == nil || p.flame.Root == nil {
		p.Info.SetText(FlameHint)
		return
	}
	p.Info.SetText(p.flame.FrameText(n))
}

// zoomNames are the names of the frames a zoomed graph went through, from Top's child to Root.
func zoomNames(f chart.Flame) []string {
	if len(f.Path) == 0 {
		return nil
	}
	var out []string
	for _, n := range f.Path[1:] {
		out = append(out, n.Name)
	}
	return append(out, f.Root.Name)
}

// hovered says the numbers of the frame under the pointer, or of the frame clicked when there
// is none (pos nil: the pointer left).
func (p *FlamePanel) hovered(pos *fyne.Position, size fyne.Size) {
	if p.Chart.Image() == nil {
		return
	}
	var n *flame.Node
	if pos != nil {
		n = p.frameAt(*pos, size)
	}
	if n == nil {
		n = p.selected
	}
	p.say(n)
}

// frameAt is the frame under a point of the chart's area of size, nil for none.
func (p *FlamePanel) frameAt(pos fyne.Position, size fyne.Size) *flame.Node {
	img := p.Chart.Image()
	if img == nil || size.Width <= 0 || size.Height <= 0 {
		return nil
	}
	b := img.Bounds()
	x := int(pos.X / size.Width * float32(b.Dx()))
	y := int(pos.Y / size.Height * float32(b.Dy()))
	return p.flame.FrameAt(b.Dx(), b.Dy(), x, y)
}

// rightClicked opens the focus menu of the frame right-clicked.
func (p *FlamePanel) rightClicked(ev *fyne.PointEvent, size fyne.Size) {
	n := p.frameAt(ev.Position, size)
	c := fyne.CurrentApp().Driver().CanvasForObject(p.Chart.Area)
	if n == nil || n == p.flame.Top() || c == nil {
		return
	}
	p.menu = widget.NewPopUpMenu(p.frameMenu(n), c)
	p.menu.ShowAtPosition(ev.AbsolutePosition)
}
