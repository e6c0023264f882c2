package methods

import (
	"fmt"
	"image"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/driver/desktop"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"androprof/chart"
	"androprof/chart/render"
	"androprof/controller"
	"androprof/internal/human"
	callsmodel "androprof/model/calls"
	"androprof/view/ui"
)

// timelineLimit is the most calls one view of the timeline reads: enough to fill a screen's
// width many times over, few enough to draw at once.
const timelineLimit = 20_000

// minTimelineSpan is the narrowest range zooming goes to, in µs.
const minTimelineSpan = 10

// timelineTab is Traceview's timeline panel for one thread: the stored calls as nested bars on
// a time axis (wall clock, thread-CPU for traces without one), with zoom and pan; hovering or
// clicking a bar names the call, a double click opens it in the Profile tab. The image is drawn
// in the background like the charts (style.md 14).
type timelineTab struct {
	Note    *widget.Label // which thread, and which calls are not shown
	Info    *widget.Label // the call under the pointer
	ZoomIn  *widget.Button
	ZoomOut *widget.Button
	ZoomFit *widget.Button
	Pan     *widget.Slider // where the range shown starts, when zoomed in
	SavePNG *widget.Button
	Problem *widget.Label

	m        *View
	area     *timelineArea
	run      string
	trace    *callsmodel.MethodTrace
	thread   callsmodel.ThreadTimes
	lo, hi   uint64 // the thread's range
	from, to uint64 // the range shown
	spec     chart.Timeline
	calls    []callsmodel.Call // spec.Spans' calls
	size     fyne.Size
	px       [2]int
	gen      int
	drawing  bool
	stale    bool // a newer image is wanted when the one being drawn is done
	requery  bool // …and it needs the calls read again
	quiet    bool
	content  fyne.CanvasObject
}

func newTimelineTab(m *View) *timelineTab {
	t := &timelineTab{m: m}
	t.area = newTimelineArea(t)
	t.Note = widget.NewLabel("")
	t.Note.Wrapping = fyne.TextWrapWord
	t.Info = widget.NewLabel("Point at a call to see it; double-click to open it in the profile.")
	t.Info.Truncation = fyne.TextTruncateEllipsis
	t.ZoomIn = widget.NewButtonWithIcon("", theme.ZoomInIcon(), func() { t.zoom(0.5) })
	t.ZoomOut = widget.NewButtonWithIcon("", theme.ZoomOutIcon(), func() { t.zoom(2) })
	t.ZoomFit = widget.NewButtonWithIcon("", theme.ZoomFitIcon(), func() { t.setRange(t.lo, t.hi) })
	t.Pan = widget.NewSlider(0, 1)
	t.Pan.Step = 0.001
	t.Pan.OnChanged = func(f float64) {
		if !t.quiet {
			w := t.to - t.from
			start := t.lo + uint64(f*float64(t.hi-t.lo-min(w, t.hi-t.lo)))
			t.setRange(start, start+w)
		}
	}
	t.SavePNG = widget.NewButtonWithIcon("Save PNG…", theme.DocumentSaveIcon(), t.askSave)
	t.Problem = widget.NewLabel("")
	t.Problem.Importance = widget.DangerImportance
	t.Problem.Hide()
	controls := container.NewBorder(nil, nil, container.NewHBox(t.ZoomOut, t.ZoomIn, t.ZoomFit), t.SavePNG, t.Pan)
	top := container.NewVBox(t.Note, t.Problem)
	t.content = container.NewBorder(top, container.NewVBox(t.Info, controls), nil, nil, t.area)
	t.enableZoom()
	return t
}

// show opens the timeline on the thread chosen (the busiest for all threads), keeping the
// range when only another tab's choice changed.
func (t *timelineTab) show() {
	m := t.m
	tr := m.trace
	th, ok := busiest(tr.Profile)
	for _, x := range tr.Profile.Threads {
		if x.TID == m.sel.tid {
			th, ok = x, true
		}
	}
	if !ok {
		t.Note.SetText("This trace has no thread with calls.")
		return
	}
	if t.run == m.sel.run && t.trace == tr && t.thread.TID == th.TID {
		t.Note.SetText(t.note(len(t.calls))) // "the busiest" may no longer apply
		return
	}
	t.run, t.trace, t.thread = m.sel.run, tr, th
	t.lo, t.hi = th.FirstWall, th.LastWall
	if !tr.Profile.Clock.HasWall() {
		t.lo, t.hi = th.FirstCPU, th.LastCPU
	}
	t.hi = max(t.hi, t.lo+1)
	t.calls, t.spec = nil, chart.Timeline{}
	t.Note.SetText(t.note(0))
	t.setRange(t.lo, t.hi)
}

// note says which thread is drawn and what is left out.
func (t *timelineTab) note(n int) string {
	s := "Thread " + controller.ThreadLabel(t.thread)
	if t.m.sel.tid == 0 {
		s += " (the busiest; choose another thread above)"
	}
	s += ", " + t.clockName() + " time."
	if note := t.imageNote(); note != "" {
		s += " " + note
	}
	if n >= timelineLimit {
		s += fmt.Sprintf(" Showing the first %s calls of this range: zoom in to see the rest.", human.Grouped(timelineLimit))
	}
	return s
}

func (t *timelineTab) clockName() string {
	if t.trace.Profile.Clock.HasWall() {
		return "real"
	}
	return "thread-CPU"
}

// imageNote is drawn under the axis, so a saved PNG says it too.
func (t *timelineTab) imageNote() string {
	if t.trace.SpanMinMicros > 0 {
		m := t.trace.SpanMinMicros
		return fmt.Sprintf("Calls shorter than %d µs are not stored, so not shown (of calls of exactly %d µs, the first 20,000 to end).", m, m)
	}
	return ""
}

func (t *timelineTab) zoom(factor float64) {
	w := max(float64(minTimelineSpan), float64(t.to-t.from)*factor)
	mid := float64(t.from+t.to) / 2
	t.setRange(uint64(max(0, mid-w/2)), uint64(mid+w/2))
}

// setRange shows [from, to), moved and cut into the thread's range, and reads its calls.
func (t *timelineTab) setRange(from, to uint64) {
	w := min(max(to-from, minTimelineSpan), t.hi-t.lo)
	from = min(max(from, t.lo), t.hi-w)
	t.from, t.to = from, from+w
	t.quiet = true
	if t.hi-t.lo > w {
		t.Pan.SetValue(float64(t.from-t.lo) / float64(t.hi-t.lo-w))
	} else {
		t.Pan.SetValue(0)
	}
	t.quiet = false
	t.enableZoom()
	t.render(true)
}

func (t *timelineTab) enableZoom() {
	full := t.from <= t.lo && t.to >= t.hi
	ui.Enable(t.ZoomOut, !full)
	ui.Enable(t.ZoomFit, !full)
	ui.Enable(t.Pan, !full)
	ui.Enable(t.ZoomIn, t.trace != nil && t.to-t.from > minTimelineSpan)
	ui.Enable(t.SavePNG, t.trace != nil)
}

// resized redraws at the area's new size, with the calls already read.
func (t *timelineTab) resized(s fyne.Size) {
	if s == t.size {
		return
	}
	t.size = s
	t.render(false)
}

// render reads the range's calls (when query is set) and draws them in the background. While
// one image is being drawn, further calls only ask for one more, as the chart panel does.
func (t *timelineTab) render(query bool) {
	if t.trace == nil {
		return
	}
	t.requery = t.requery || query
	if t.drawing {
		t.stale = true
		return
	}
	scale := t.m.host.Window().Canvas().Scale()
	w, h := int(t.size.Width*scale), int(t.size.Height*scale)
	if w < render.MinWidth || h < render.MinHeight {
		return // drawn when laid out
	}
	w, h = min(w, render.MaxSide), min(h, render.MaxSide)
	requery := t.requery
	t.requery, t.drawing = false, true
	t.gen++
	gen, a, run, tid, from, to, ctx := t.gen, t.m.a, t.run, t.thread.TID, t.from, t.to, t.m.host.Context()
	spec, calls, tr, th := t.spec, t.calls, t.trace, t.thread
	spec.Note = t.imageNote()
	t.m.host.Background().Run(func() func() {
		var err error
		if requery {
			calls, err = a.Timeline(ctx, run, tid, from, to+1, timelineLimit)
			spec = timelineSpec(tr, th, calls, from, to, spec.Note)
		}
		var img *image.RGBA
		if err == nil {
			img, err = render.Image(spec, w, h)
		}
		return func() {
			t.drawing = false
			if gen == t.gen && err == nil {
				t.spec, t.calls, t.px = spec, calls, [2]int{w, h}
				t.area.show(img)
				t.Note.SetText(t.note(len(calls)))
			}
			ui.SetNote(t.Problem, ui.ProblemText("read the calls of", run, err)) // "" without err
			if t.stale {
				t.stale = false
				t.render(false)
			}
		}
	})
}

// timelineSpec turns calls into bars on the trace's timeline clock, coloured by method.
func timelineSpec(tr *callsmodel.MethodTrace, th callsmodel.ThreadTimes, calls []callsmodel.Call, from, to uint64, note string) chart.Timeline {
	wall := tr.Profile.Clock.HasWall()
	spec := chart.Timeline{Title: "Calls of thread " + controller.ThreadLabel(th), From: from, To: to, Note: note,
		Spans: make([]chart.Span, len(calls))}
	for i, c := range calls {
		start, end := c.StartWall, c.EndWall
		if !wall {
			start, end = c.StartCPU, c.EndCPU
		}
		spec.Spans[i] = chart.Span{Label: callsmodel.MethodName(tr.Profile.Methods[c.Method]), Depth: c.Depth,
			Start: start, End: end, Colour: c.Method / 4} // Traceview ids are multiples of 4
	}
	return spec
}

// callAt is the index of the call drawn under a point of the area, or -1.
func (t *timelineTab) callAt(pos fyne.Position) int {
	if t.size.Width <= 0 || t.size.Height <= 0 || t.px[0] == 0 {
		return -1
	}
	x := int(pos.X / t.size.Width * float32(t.px[0]))
	y := int(pos.Y / t.size.Height * float32(t.px[1]))
	return t.spec.SpanAt(t.px[0], t.px[1], x, y)
}

// describe names the call at pos in the Info line.
func (t *timelineTab) describe(pos fyne.Position) {
	i := t.callAt(pos)
	if i < 0 {
		t.Info.SetText("")
		return
	}
	s, c := t.spec.Spans[i], t.calls[i]
	at := func(us uint64) string { return human.MicrosStep(float64(us), max(1, float64(s.End-s.Start)/10)) }
	text := fmt.Sprintf("%s — %s, depth %d, from %s to %s", s.Label, micros(s.End-s.Start), s.Depth, at(s.Start), at(s.End))
	if t.trace.Profile.Clock.HasCPU() && t.trace.Profile.Clock.HasWall() {
		text += fmt.Sprintf(" (CPU %s)", micros(c.EndCPU-c.StartCPU))
	}
	t.Info.SetText(text)
}

// open shows the call at pos in the Profile tab.
func (t *timelineTab) open(pos fyne.Position) {
	if i := t.callAt(pos); i >= 0 {
		t.m.jumpMethod(t.spec.Spans[i].Label)
	}
}

func (t *timelineTab) askSave() {
	spec := t.spec
	ui.AskSavePath(t.m.host.Window(), ui.Slug(spec.Title, "timeline")+".png", ".png", func(path string) error {
		return ui.SaveChart(spec, render.PNG, path)
	})
}

// timelineArea shows the timeline image, reports its size and takes the pointer.
type timelineArea struct {
	widget.BaseWidget
	t   *timelineTab
	img *canvas.Image
}

var (
	_ desktop.Hoverable = (*timelineArea)(nil)
	_ fyne.Tappable     = (*timelineArea)(nil)
)

func newTimelineArea(t *timelineTab) *timelineArea {
	a := &timelineArea{t: t, img: canvas.NewImageFromImage(nil)}
	a.img.FillMode = canvas.ImageFillStretch // drawn at the area's size; stretched only while resizing
	a.img.ScaleMode = canvas.ImageScaleFastest
	a.ExtendBaseWidget(a)
	return a
}

func (a *timelineArea) show(img image.Image) {
	a.img.Image = img
	a.img.Refresh()
}

// MouseIn names the call under the pointer.
func (a *timelineArea) MouseIn(ev *desktop.MouseEvent) { a.t.describe(ev.Position) }

// MouseMoved names the call under the pointer.
func (a *timelineArea) MouseMoved(ev *desktop.MouseEvent) { a.t.describe(ev.Position) }

// MouseOut is Fyne's hook; the last call named stays in the Info line.
func (a *timelineArea) MouseOut() {}

// Tapped names the call tapped, for touch screens that cannot hover.
func (a *timelineArea) Tapped(ev *fyne.PointEvent) { a.t.describe(ev.Position) }

// DoubleTapped opens the call in the Profile tab.
func (a *timelineArea) DoubleTapped(ev *fyne.PointEvent) { a.t.open(ev.Position) }

// CreateRenderer is Fyne's hook; the renderer's Layout is where a new size is noticed.
func (a *timelineArea) CreateRenderer() fyne.WidgetRenderer {
	return ui.NewImageRenderer(a.img, fyne.NewSize(300, 160), a.t.resized)
}
