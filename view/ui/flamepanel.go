package ui

import (
	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/driver/desktop"
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
// and a search box lights up the frames its regular expression matches and says their share.
type FlamePanel struct {
	Chart   *ChartPanel
	ShowAll *widget.Button
	Search  *widget.Entry
	Found   *widget.Label // what the search found, or why it cannot search
	Info    *widget.Label // the frame hovered or clicked, with its numbers

	// OnChange, when set, hears every graph shown (zoomed, searched) and the names of the frames
	// zoomed through from the top's child to the zoomed frame (nil: not zoomed), which a tab
	// keeps to zoom its next graph the same way (Show).
	OnChange func(f chart.Flame, zoom []string)
	// OnSelect, when set, hears a click on a frame, after the zoom.
	OnSelect func(n *flame.Node)

	flame    chart.Flame // as shown
	selected *flame.Node // the frame clicked last, nil for none
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
	search := container.NewBorder(nil, nil, widget.NewLabel("Search"), nil, p.Search)
	top := container.NewVBox(
		container.NewBorder(nil, nil, container.NewGridWrap(fyne.NewSize(380, p.Search.MinSize().Height), search), p.tools, p.Found),
		p.Info)
	hover := newFlameHover(p)
	graph := container.New(&overAreaLayout{p.Chart.Area}, p.Chart.Content(), hover)
	p.content = container.NewBorder(top, nil, nil, nil, graph)
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

// Show draws a new graph f (not zoomed), zoomed through the frames named zoom as far as they are
// in it (so a zoom outlives a change of thread or clock), searched as the search box says.
func (p *FlamePanel) Show(f chart.Flame, zoom []string) {
	at := f.Root
	for _, name := range zoom {
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

// flameHover lies over the chart's image and says the numbers of the frame under the pointer.
// It takes no taps, so clicks reach the chart below it.
type flameHover struct {
	widget.BaseWidget
	p *FlamePanel
}

var _ desktop.Hoverable = (*flameHover)(nil)

func newFlameHover(p *FlamePanel) *flameHover {
	h := &flameHover{p: p}
	h.ExtendBaseWidget(h)
	return h
}

// CreateRenderer is Fyne's hook: the overlay draws nothing.
func (h *flameHover) CreateRenderer() fyne.WidgetRenderer {
	return widget.NewSimpleRenderer(container.NewWithoutLayout())
}

// MouseIn is desktop.Hoverable's; it says the frame entered.
func (h *flameHover) MouseIn(ev *desktop.MouseEvent) { h.MouseMoved(ev) }

// MouseMoved says the frame under the pointer, or the frame clicked when there is none.
func (h *flameHover) MouseMoved(ev *desktop.MouseEvent) {
	p := h.p
	img, size := p.Chart.Image(), h.Size()
	if img == nil || size.Width <= 0 || size.Height <= 0 {
		return
	}
	b := img.Bounds()
	x := int(ev.Position.X / size.Width * float32(b.Dx()))
	y := int(ev.Position.Y / size.Height * float32(b.Dy()))
	n := p.flame.FrameAt(b.Dx(), b.Dy(), x, y)
	if n == nil {
		n = p.selected
	}
	p.say(n)
}

// MouseOut goes back to the frame clicked.
func (h *flameHover) MouseOut() { h.p.say(h.p.selected) }

// overAreaLayout lays the chart panel out in the whole space and the hover overlay exactly over
// the panel's image, not over its buttons.
type overAreaLayout struct{ area fyne.CanvasObject }

func (l *overAreaLayout) Layout(objs []fyne.CanvasObject, size fyne.Size) {
	objs[0].Move(fyne.NewPos(0, 0))
	objs[0].Resize(size)
	objs[1].Move(l.area.Position())
	objs[1].Resize(l.area.Size())
}

func (l *overAreaLayout) MinSize(objs []fyne.CanvasObject) fyne.Size { return objs[0].MinSize() }
