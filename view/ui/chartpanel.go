package ui

import (
	"image"
	"io"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/driver/desktop"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"androprof/chart"
	"androprof/chart/render"
)

// Export size of saved charts: the window's size would make every export different.
const ExportWidth, ExportHeight = 1200, 700

// chartKinds are the kinds a chart panel offers, in menu order.
var chartKinds = []struct {
	name string
	kind chart.Kind
}{{"Bars", chart.Bars}, {"Columns", chart.Columns}, {"Pie", chart.Pie}}

// ChartPanel is every chart of the analysis window: the image drawn at the size shown (in a
// goroutine, style.md 14), a choice of kind, "Save PNG…"/"Save SVG…", and clicks on bars. It
// also shows any other chart.Drawing (the heap figures' lines and stacked columns), with no
// kind to choose and nothing to click.
type ChartPanel struct {
	Kind    *widget.Select
	SavePNG *widget.Button
	SaveSVG *widget.Button
	Problem *widget.Label // why the chart could not be drawn
	Area    *ChartArea    // the chart itself: a tap on a bar drills down

	win     fyne.Window
	bg      *Background
	spec    chart.Chart
	fig     chart.Drawing // shown instead of spec when not nil (SetDrawing)
	title   string        // fig's title, for the file name it is saved as
	subject string        // what the chart is of, when not the window's run (SetSubject)
	hidKind bool          // SetDrawing hid the Kind chooser; Set shows it again
	has     bool
	size    fyne.Size // of the area, when last laid out
	px      [2]int    // pixel size of the image shown
	drawing bool      // an image is being drawn…
	stale   bool      // …and a newer one is wanted when it is done (resizing draws at most two)
	onBar   func(index int)
	bar     *fyne.Container // Kind and the save buttons, under the chart
	content fyne.CanvasObject

	// OnPoint, when set, gets taps on a drawing shown with SetDrawing, in the pixels of the
	// image shown (width×height): a flame graph zooms to the frame tapped.
	OnPoint func(d chart.Drawing, width, height, x, y int)
	// OnHover, when set, hears the pointer over the image (position and size in the area's
	// units; nil pos when it left), and OnSecondary a right-click there: the flame graph says
	// the frame under the pointer and opens its focus menu.
	OnHover     func(pos *fyne.Position, size fyne.Size)
	OnSecondary func(ev *fyne.PointEvent, size fyne.Size)
}

// NewChartPanel shows charts of kind (until the user picks another) in win, drawn on bg;
// onBar, when not nil, gets the index of a bar tapped.
func NewChartPanel(win fyne.Window, bg *Background, kind chart.Kind, onBar func(index int)) *ChartPanel {
	p := &ChartPanel{win: win, bg: bg, onBar: onBar}
	p.Area = newChartArea(p)
	names := make([]string, len(chartKinds))
	for i, k := range chartKinds {
		names[i] = k.name
	}
	p.Kind = widget.NewSelect(names, func(name string) {
		for _, k := range chartKinds {
			if k.name == name && p.spec.Kind != k.kind && p.fig == nil {
				p.spec.Kind = k.kind
				p.render()
			}
		}
	})
	for _, k := range chartKinds {
		if k.kind == kind {
			p.Kind.SetSelected(k.name)
		}
	}
	p.SavePNG = widget.NewButtonWithIcon("Save PNG…", theme.DocumentSaveIcon(), func() { p.askSave(render.PNG, ".png") })
	p.SaveSVG = widget.NewButtonWithIcon("Save SVG…", theme.DocumentSaveIcon(), func() { p.askSave(render.SVG, ".svg") })
	p.Problem = widget.NewLabel("")
	p.Problem.Wrapping = fyne.TextWrapWord
	p.Problem.Importance = widget.DangerImportance
	p.bar = container.NewHBox(p.Kind, p.SavePNG, p.SaveSVG)
	p.content = container.NewBorder(nil, container.NewBorder(nil, nil, nil, p.bar, p.Problem), nil, nil, p.Area)
	p.Set(chart.Chart{Kind: kind})
	return p
}

// AddChoice puts a caller's control (a choice of what to chart) before the panel's own under
// the chart.
func (p *ChartPanel) AddChoice(o fyne.CanvasObject) {
	p.bar.Objects = append([]fyne.CanvasObject{o}, p.bar.Objects...)
	p.bar.Refresh()
}

// Content is the chart with its controls.
func (p *ChartPanel) Content() fyne.CanvasObject { return p.content }

// Set shows a chart, keeping the kind the user picked for this panel.
func (p *ChartPanel) Set(c chart.Chart) {
	for _, k := range chartKinds {
		if k.name == p.Kind.Selected {
			c.Kind = k.kind
		}
	}
	p.spec, p.fig, p.has = c, nil, true
	if p.hidKind {
		p.Kind.Show()
		p.hidKind = false
	}
	p.render()
}

// SetDrawing shows any chart. Lines and stacked columns hide the Kind chooser, take no taps,
// and Save PNG/SVG write them under title; a bar chart goes to Set, chooser and taps included.
func (p *ChartPanel) SetDrawing(d chart.Drawing, title string) {
	if c, ok := d.(chart.Chart); ok {
		p.Set(c)
		return
	}
	if p.Kind.Visible() {
		p.Kind.Hide()
		p.hidKind = true
	}
	p.fig, p.title, p.has = d, title, true
	p.render()
}

// Image is the image drawn for the chart at the size shown, nil until one is drawn.
func (p *ChartPanel) Image() image.Image { return p.Area.img.Image }

// Chart is the bar chart shown (the last Set).
func (p *ChartPanel) Chart() chart.Chart { return p.spec }

// Drawing is what the panel shows: the last SetDrawing, or the bar chart of the last Set.
func (p *ChartPanel) Drawing() chart.Drawing {
	if p.fig != nil {
		return p.fig
	}
	return p.spec
}

// resized is called by the area's layout; the chart is redrawn for the new size.
func (p *ChartPanel) resized(s fyne.Size) {
	if s == p.size {
		return
	}
	p.size = s
	p.render()
}

// render draws the chart at the area's size in pixels, in the background. While one image is
// being drawn, further calls only ask for one more, so dragging the window edge does not
// queue an image per pixel.
func (p *ChartPanel) render() {
	if p.drawing {
		p.stale = true
		return
	}
	spec := p.Drawing()
	scale := p.win.Canvas().Scale()
	w, h := int(p.size.Width*scale), int(p.size.Height*scale)
	if !p.has || w < render.MinWidth || h < render.MinHeight {
		return
	}
	w, h = min(w, render.MaxSide), min(h, render.MaxSide)
	p.drawing = true
	p.bg.Run(func() func() {
		img, err := render.Image(spec, w, h)
		return func() {
			p.drawing = false
			if p.stale { // the chart or the size changed meanwhile

				p.stale = false
				p.render()
				return
			}
			if err != nil {
				p.Problem.SetText(err.Error())
				img = nil
			} else {
				p.Problem.SetText("")
			}
			p.px = [2]int{w, h}
			p.Area.show(img)
		}
	})
}

// tapped turns a tap into the bar under it, or hands it to OnPoint for other drawings.
func (p *ChartPanel) tapped(pos fyne.Position) {
	if p.size.Width <= 0 || p.size.Height <= 0 || p.px[0] == 0 {
		return
	}
	x := int(pos.X / p.size.Width * float32(p.px[0]))
	y := int(pos.Y / p.size.Height * float32(p.px[1]))
	switch {
	case p.fig != nil:
		if p.OnPoint != nil {
			p.OnPoint(p.fig, p.px[0], p.px[1], x, y)
		}
	case p.onBar != nil:
		if i := p.spec.BarAt(p.px[0], p.px[1], x, y); i >= 0 {
			p.onBar(i)
		}
	}
}

func (p *ChartPanel) askSave(f render.Format, ext string) {
	d := p.Drawing()
	AskSavePath(p.win, p.FileName(ext), ext, func(path string) error { return SaveChart(d, f, path) })
}

// FileName is the name Save PNG…/SVG… suggest: the chart's title, after the run shown when
// the title does not name it.
func (p *ChartPanel) FileName(ext string) string {
	title := p.spec.Title
	if p.fig != nil {
		title = p.title
	}
	if title == "" {
		title = "chart"
	}
	return FileName(p.win, p.subject, title, ext)
}

// SetSubject names what the chart is of when it is not the run the window shows (runs side by
// side), for the file it is saved as.
func (p *ChartPanel) SetSubject(subject string) { p.subject = subject }

// SaveChart writes a chart at the export size, through the door `androprof chart` uses.
func SaveChart(c chart.Drawing, f render.Format, path string) error {
	return WriteFile(path, func(w io.Writer) error { return render.Render(w, c, f, ExportWidth, ExportHeight) })
}

// ChartArea shows the chart image, reports its size to the panel and takes taps.
type ChartArea struct {
	widget.BaseWidget
	p   *ChartPanel
	img *canvas.Image
}

func newChartArea(p *ChartPanel) *ChartArea {
	a := &ChartArea{p: p, img: canvas.NewImageFromImage(nil)}
	a.img.FillMode = canvas.ImageFillStretch // drawn at the area's size; stretched only while resizing
	a.img.ScaleMode = canvas.ImageScaleSmooth
	a.ExtendBaseWidget(a)
	return a
}

func (a *ChartArea) show(img image.Image) {
	a.img.Image = img
	a.img.Refresh()
}

// Tapped drills down from the bar under the pointer.
func (a *ChartArea) Tapped(ev *fyne.PointEvent) { a.p.tapped(ev.Position) }

// TappedSecondary hands a right-click to OnSecondary.
func (a *ChartArea) TappedSecondary(ev *fyne.PointEvent) {
	if a.p.OnSecondary != nil {
		a.p.OnSecondary(ev, a.Size())
	}
}

// MouseIn is desktop.Hoverable's: the pointer entered the image.
func (a *ChartArea) MouseIn(ev *desktop.MouseEvent) { a.MouseMoved(ev) }

// MouseMoved hands the pointer's place to OnHover.
func (a *ChartArea) MouseMoved(ev *desktop.MouseEvent) {
	if a.p.OnHover != nil {
		pos := ev.Position
		a.p.OnHover(&pos, a.Size())
	}
}

// MouseOut tells OnHover the pointer left.
func (a *ChartArea) MouseOut() {
	if a.p.OnHover != nil {
		a.p.OnHover(nil, a.Size())
	}
}

// CreateRenderer is Fyne's hook; the renderer's Layout is where a new size is noticed.
func (a *ChartArea) CreateRenderer() fyne.WidgetRenderer {
	return NewImageRenderer(a.img, fyne.NewSize(240, 160), a.p.resized)
}

// NewImageRenderer renders a widget that is one image filling it, at least min, and tells
// resized each new size (a chart or timeline is drawn again for it).
func NewImageRenderer(img *canvas.Image, min fyne.Size, resized func(fyne.Size)) fyne.WidgetRenderer {
	return &imageRenderer{img, min, resized}
}

type imageRenderer struct {
	img     *canvas.Image
	min     fyne.Size
	resized func(fyne.Size)
}

func (r *imageRenderer) Layout(s fyne.Size) {
	r.img.Resize(s)
	r.resized(s)
}

func (r *imageRenderer) MinSize() fyne.Size           { return r.min }
func (r *imageRenderer) Refresh()                     { r.img.Refresh() }
func (r *imageRenderer) Objects() []fyne.CanvasObject { return []fyne.CanvasObject{r.img} }
func (r *imageRenderer) Destroy()                     {}
