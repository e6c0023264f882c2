package methods

import (
	"image"
	"image/color"
	"math"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/driver/desktop"
	"fyne.io/fyne/v2/widget"
)

// The keys' steps: a fifth of the range for a pan, this many pixels of lanes for a scroll.
const (
	keyPan    = 0.2
	keyScroll = 60
)

// timelineArea shows the timeline image, reports its size and takes the pointer and the keys:
// hover names a call, a click selects its method, a double click opens it; the wheel zooms
// around the pointer; a drag pans (time and lanes), a drag on the axis, with Shift or with the
// secondary button picks a range to zoom to; arrows pan and scroll, + and - zoom, 0 fits.
type timelineArea struct {
	widget.BaseWidget
	t     *timelineTab
	img   *canvas.Image
	band  *canvas.Rectangle // the range being picked
	hover fyne.Position     // where the pointer was last, for wheels that do not say
	drag  timelineDrag
}

// timelineDrag is a drag under way.
type timelineDrag struct {
	on, pick    bool // dragging; picking a range rather than panning
	wantPick    bool // the button or Shift pressed says pick
	anchor, cur fyne.Position
}

var (
	_ desktop.Hoverable   = (*timelineArea)(nil)
	_ desktop.Mouseable   = (*timelineArea)(nil)
	_ fyne.Tappable       = (*timelineArea)(nil)
	_ fyne.DoubleTappable = (*timelineArea)(nil)
	_ fyne.Scrollable     = (*timelineArea)(nil)
	_ fyne.Draggable      = (*timelineArea)(nil)
	_ fyne.Focusable      = (*timelineArea)(nil)
)

func newTimelineArea(t *timelineTab) *timelineArea {
	a := &timelineArea{t: t, img: canvas.NewImageFromImage(nil)}
	a.img.FillMode = canvas.ImageFillStretch // drawn at the area's size; stretched only while resizing
	a.img.ScaleMode = canvas.ImageScaleFastest
	a.band = canvas.NewRectangle(color.NRGBA{R: 40, G: 90, B: 200, A: 60})
	a.band.StrokeColor = color.NRGBA{R: 40, G: 90, B: 200, A: 200}
	a.band.StrokeWidth = 1
	a.band.Hide()
	a.ExtendBaseWidget(a)
	return a
}

func (a *timelineArea) show(img image.Image) {
	a.img.Image = img
	a.img.Refresh()
}

// MouseIn names the call under the pointer.
func (a *timelineArea) MouseIn(ev *desktop.MouseEvent) { a.MouseMoved(ev) }

// MouseMoved names the call under the pointer.
func (a *timelineArea) MouseMoved(ev *desktop.MouseEvent) {
	a.hover = ev.Position
	a.t.describe(ev.Position)
}

// MouseOut is Fyne's hook; the last call named stays in the Info line.
func (a *timelineArea) MouseOut() {}

// MouseDown notes whether a drag from here picks a range (Shift, the secondary button).
func (a *timelineArea) MouseDown(ev *desktop.MouseEvent) {
	a.drag.wantPick = ev.Modifier&fyne.KeyModifierShift != 0 || ev.Button == desktop.MouseButtonSecondary
}

// MouseUp is Fyne's hook; DragEnd ends a drag.
func (a *timelineArea) MouseUp(*desktop.MouseEvent) {}

// Tapped selects the method of the call tapped and names it, and takes the keys.
func (a *timelineArea) Tapped(ev *fyne.PointEvent) {
	if c := fyne.CurrentApp().Driver().CanvasForObject(a); c != nil {
		c.Focus(a)
	}
	a.t.pick(ev.Position)
}

// DoubleTapped opens the call in the Profile tab.
func (a *timelineArea) DoubleTapped(ev *fyne.PointEvent) { a.t.open(ev.Position) }

// Scrolled zooms around the pointer with the wheel (forward: in), and pans sideways.
func (a *timelineArea) Scrolled(ev *fyne.ScrollEvent) {
	t := a.t
	if ev.Scrolled.DY != 0 {
		at := ev.Position
		if at.IsZero() {
			at = a.hover // the test driver's events and some drivers' carry none
		}
		t.zoomAt(math.Pow(0.8, float64(ev.Scrolled.DY)/10), t.timeAt(at))
	} else if ev.Scrolled.DX != 0 && a.Size().Width > 0 {
		t.panBy(-float64(ev.Scrolled.DX / a.Size().Width))
	}
}

// Dragged pans the range and the lanes with the pointer, or stretches the range being picked.
func (a *timelineArea) Dragged(ev *fyne.DragEvent) {
	t := a.t
	d := &a.drag
	if !d.on {
		d.on, d.anchor = true, ev.Position.Subtract(ev.Dragged)
		d.cur = d.anchor
		_, y, ok := t.pixel(d.anchor)
		d.pick = d.wantPick || ok && t.spec.OnAxis(t.px[0], t.px[1], y)
	}
	d.cur = d.cur.Add(ev.Dragged)
	if d.pick {
		x0, x1 := min(d.anchor.X, d.cur.X), max(d.anchor.X, d.cur.X)
		a.band.Move(fyne.NewPos(x0, 0))
		a.band.Resize(fyne.NewSize(x1-x0, a.Size().Height))
		a.band.Show()
		return
	}
	if plot := t.spec.PlotWidth(t.px[0], t.px[1]); plot > 0 && a.Size().Width > 0 {
		px := float64(ev.Dragged.DX) * float64(t.px[0]) / float64(a.Size().Width)
		t.panBy(-px / float64(plot))
	}
	if ev.Dragged.DY != 0 && a.Size().Height > 0 {
		t.scrollTo(t.scroll - int(float64(ev.Dragged.DY)*float64(t.px[1])/float64(a.Size().Height)))
	}
}

// DragEnd zooms to the range picked, when one was.
func (a *timelineArea) DragEnd() {
	d := a.drag
	a.drag = timelineDrag{}
	a.band.Hide()
	if d.pick && math.Abs(float64(d.cur.X-d.anchor.X)) >= 3 {
		from, to := a.t.timeAt(d.anchor), a.t.timeAt(d.cur)
		a.t.setRange(min(from, to), max(from, to))
	}
}

// FocusGained is Fyne's hook; the area takes keys once tapped.
func (a *timelineArea) FocusGained() {}

// FocusLost is Fyne's hook.
func (a *timelineArea) FocusLost() {}

// TypedRune zooms with + and -, and fits the whole range with 0.
func (a *timelineArea) TypedRune(r rune) {
	switch r {
	case '+', '=':
		a.t.zoom(0.5)
	case '-':
		a.t.zoom(2)
	case '0':
		a.t.setRange(a.t.lo, a.t.hi)
	}
}

// TypedKey pans with the left and right arrows and scrolls the lanes with up and down.
func (a *timelineArea) TypedKey(ev *fyne.KeyEvent) {
	t := a.t
	switch ev.Name {
	case fyne.KeyLeft:
		t.panBy(-keyPan)
	case fyne.KeyRight:
		t.panBy(keyPan)
	case fyne.KeyUp:
		t.scrollTo(t.scroll - keyScroll)
	case fyne.KeyDown:
		t.scrollTo(t.scroll + keyScroll)
	case fyne.KeyHome:
		t.setRange(t.lo, t.hi)
	}
}

// CreateRenderer is Fyne's hook; the renderer's Layout is where a new size is noticed.
func (a *timelineArea) CreateRenderer() fyne.WidgetRenderer { return &timelineRenderer{a} }

// timelineRenderer draws the image with the range being picked over it.
type timelineRenderer struct{ a *timelineArea }

func (r *timelineRenderer) Layout(s fyne.Size) {
	r.a.img.Resize(s)
	r.a.t.resized(s)
}

func (r *timelineRenderer) MinSize() fyne.Size { return fyne.NewSize(300, 160) }
func (r *timelineRenderer) Refresh()           { r.a.img.Refresh(); r.a.band.Refresh() }
func (r *timelineRenderer) Objects() []fyne.CanvasObject {
	return []fyne.CanvasObject{r.a.img, r.a.band}
}
func (r *timelineRenderer) Destroy() {}
