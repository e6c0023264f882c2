package methods

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"image"
	"slices"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"androprof/chart"
	"androprof/chart/render"
	"androprof/controller"
	"androprof/internal/human"
	callsmodel "androprof/model/calls"
	"androprof/view/ui"
)

// The most calls one lane reads per pixel column of the axis, and in all: a lane draws at most
// a few boxes per column and row, and narrower calls merge into grey boxes anyway.
const (
	laneCallsPerPixel = 12
	laneCallLimit     = 40_000
)

// minTimelineSpan is the narrowest range zooming goes to, in µs.
const minTimelineSpan = 10

// timelineTab is Traceview's timeline panel for every thread: each thread a lane (the busiest
// on top), its calls as nested bars on one time axis (wall clock, thread-CPU for traces
// without one), with zoom (buttons, wheel, a dragged range) and pan (slider, drag, keys) down to
// single calls. At each range it reads only the lanes in sight, and only as many calls of each
// as its pixels can show (the controller hands every call of a narrow window, the longest of a
// wide one); reading and drawing happen off the UI goroutine, and a newer range cancels an
// older read. Hovering names a call, a click selects its method in every tab (selection.go), a
// double click opens it in the Profile tab.
type timelineTab struct {
	Note    *widget.Label // which threads, and which calls are not shown
	Info    *widget.Label // the call under the pointer
	ZoomIn  *widget.Button
	ZoomOut *widget.Button
	ZoomFit *widget.Button
	Pan     *widget.Slider // where the range shown starts, when zoomed in
	Scroll  *widget.Slider // which lanes are shown, when they are higher than the area
	SavePNG *widget.Button
	Problem *widget.Label

	m        *View
	raw      bool // the Raw names box when the calls were drawn
	area     *timelineArea
	run      string
	trace    *callsmodel.MethodTrace
	threads  []callsmodel.ThreadTimes // the lanes, top to bottom
	lo, hi   uint64                   // every lane's range
	from, to uint64                   // the range shown
	scroll   int                      // pixels of lanes scrolled off the top
	windows  map[int]laneWindow       // by tid: the calls read last
	outline  []uint64                 // the method selected, whose calls are outlined
	spec     chart.Timeline           // as drawn
	calls    []callsmodel.Call        // spec.Spans' Ref index these
	size     fyne.Size
	px       [2]int
	gen      int
	drawing  bool
	stale    bool // a newer image is wanted when the one being drawn is done
	requery  bool // …and it needs calls read again
	cancel   context.CancelFunc
	quiet    bool
	content  fyne.CanvasObject
}

// laneWindow is the calls read for one lane, and the question they answer.
type laneWindow struct {
	callsmodel.TimelineWindow
	from, to uint64
	limit    int
}

func newTimelineTab(m *View) *timelineTab {
	t := &timelineTab{m: m, windows: map[int]laneWindow{}}
	t.area = newTimelineArea(t)
	t.Note = widget.NewLabel("")
	t.Note.Wrapping = fyne.TextWrapWord
	t.Info = widget.NewLabel("Point at a call to see it; click selects its method, double-click opens it in the profile. Wheel or drag on the axis zooms, drag pans.")
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
	t.Scroll = widget.NewSlider(0, 1)
	t.Scroll.Orientation = widget.Vertical
	t.Scroll.Hide()
	t.Scroll.OnChanged = func(f float64) {
		if !t.quiet {
			t.scrollTo(int(t.Scroll.Max - f))
		}
	}
	t.SavePNG = widget.NewButtonWithIcon("Save PNG…", theme.DocumentSaveIcon(), t.askSave)
	t.Problem = widget.NewLabel("")
	t.Problem.Importance = widget.DangerImportance
	t.Problem.Hide()
	controls := container.NewBorder(nil, nil, container.NewHBox(t.ZoomOut, t.ZoomIn, t.ZoomFit), t.SavePNG, t.Pan)
	top := container.NewVBox(t.Note, t.Problem)
	t.content = container.NewBorder(top, container.NewVBox(t.Info, controls), nil, t.Scroll, t.area)
	t.enableZoom()
	return t
}

// show opens the timeline on every thread with calls (or the one chosen), keeping the range
// when only another tab's choice changed.
func (t *timelineTab) show() {
	m := t.m
	tr := m.trace
	threads := laneThreads(tr.Profile, m.sel.tid)
	if len(threads) == 0 {
		t.Note.SetText("This trace has no thread with calls.")
		return
	}
	if t.run == m.sel.run && t.trace == tr && slices.Equal(threads, t.threads) {
		if t.raw != m.raw { // only the labels change: draw the calls read again
			t.raw = m.raw
			t.render(false)
		}
		return
	}
	t.run, t.trace, t.threads, t.raw = m.sel.run, tr, threads, m.raw
	t.lo, t.hi = threads[0].FirstWall, threads[0].LastWall
	for _, th := range threads {
		first, last := th.FirstWall, th.LastWall
		if !tr.Profile.Clock.HasWall() {
			first, last = th.FirstCPU, th.LastCPU
		}
		t.lo, t.hi = min(t.lo, first), max(t.hi, last)
	}
	t.hi = max(t.hi, t.lo+1)
	t.windows, t.calls, t.spec, t.scroll = map[int]laneWindow{}, nil, chart.Timeline{}, 0
	t.Note.SetText(t.note())
	t.setRange(t.lo, t.hi)
}

// laneThreads are the threads with events, the busiest first, or only the thread tid.
func laneThreads(p *callsmodel.CallProfile, tid int) []callsmodel.ThreadTimes {
	var out []callsmodel.ThreadTimes
	for _, th := range p.Threads {
		if th.Events > 0 && (tid == 0 || th.TID == tid) {
			out = append(out, th)
		}
	}
	busy := func(th callsmodel.ThreadTimes) uint64 {
		if p.Clock.HasWall() {
			return th.Level1Wall
		}
		return th.Level1CPU
	}
	slices.SortStableFunc(out, func(a, b callsmodel.ThreadTimes) int {
		return cmp.Or(cmp.Compare(busy(b), busy(a)), cmp.Compare(b.Events, a.Events))
	})
	return out
}

// note says which threads are drawn, on which clock, and what is left out.
func (t *timelineTab) note() string {
	s := "Thread " + controller.ThreadLabel(t.threads[0])
	if len(t.threads) > 1 {
		s = fmt.Sprintf("%s, one lane each, the busiest on top", human.Count(len(t.threads), "thread", "threads"))
	}
	s += ", " + t.clockName() + " time."
	if note := t.imageNote(); note != "" {
		s += " " + note
	}
	return s
}

func (t *timelineTab) clockName() string {
	if t.trace.Profile.Clock.HasWall() {
		return "real"
	}
	return "thread-CPU (each thread's own clock)"
}

// imageNote is drawn under the axis, so a saved PNG says it too: what the lanes read leave out.
func (t *timelineTab) imageNote() string {
	var short uint64
	spans := false
	for _, w := range t.windows {
		if !w.Every {
			short = max(short, w.MinMicros)
		}
		spans = spans || w.OnlySpans
	}
	switch {
	case spans:
		return "This run was imported before every call was kept: import it again to see the short calls."
	case short > 0:
		return fmt.Sprintf("Calls shorter than %s are not read at this zoom: zoom in to see them.", micros(short))
	case len(t.windows) > 0:
		return "Every call in this range is shown."
	}
	return ""
}

func (t *timelineTab) zoom(factor float64) { t.zoomAt(factor, t.from/2+t.to/2) }

// zoomAt scales the range shown by factor, keeping the time at keeps its place on the axis.
func (t *timelineTab) zoomAt(factor float64, at uint64) {
	w := max(float64(minTimelineSpan), float64(t.to-t.from)*factor)
	f := 0.5
	if t.to > t.from {
		f = float64(at-min(at, t.from)) / float64(t.to-t.from)
	}
	start := max(0, float64(at)-f*w)
	t.setRange(uint64(start), uint64(start+w))
}

// setRange shows [from, to), moved and cut into the lanes' range, and reads its calls.
func (t *timelineTab) setRange(from, to uint64) {
	w := min(max(to-min(from, to), minTimelineSpan), t.hi-t.lo)
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

// panBy moves the range shown by a fraction of its width (negative: earlier).
func (t *timelineTab) panBy(f float64) {
	d := int64(f * float64(t.to-t.from))
	from := int64(t.from) + d
	if from < int64(t.lo) {
		from = int64(t.lo)
	}
	t.setRange(uint64(from), uint64(from)+t.to-t.from)
}

// scrollTo shows the lanes from pixel y down, reading the lanes that come into sight.
func (t *timelineTab) scrollTo(y int) {
	content, visible := t.spec.Heights(t.px[0], t.px[1])
	y = max(0, min(y, content-visible))
	if y == t.scroll {
		return
	}
	t.scroll = y
	t.render(true) // only lanes not read for this range are read
}

func (t *timelineTab) enableZoom() {
	full := t.from <= t.lo && t.to >= t.hi
	ui.Enable(t.ZoomOut, !full)
	ui.Enable(t.ZoomFit, !full)
	ui.Enable(t.Pan, !full)
	ui.Enable(t.ZoomIn, t.trace != nil && t.to-t.from > minTimelineSpan)
	ui.Enable(t.SavePNG, t.trace != nil)
}

// resized redraws at the area's new size, reading the lanes that come into sight.
func (t *timelineTab) resized(s fyne.Size) {
	if s == t.size {
		return
	}
	t.size = s
	t.render(true)
}

// outlineMethod outlines the calls of a method (selection.go), redrawing with the calls read.
func (t *timelineTab) outlineMethod(id uint64) {
	t.outline = []uint64{id}
	t.render(false)
}

// timelineJob is what one read and draw works on, copied from the tab.
type timelineJob struct {
	a        *controller.MethodAnalysis
	run      string
	trace    *callsmodel.MethodTrace
	threads  []callsmodel.ThreadTimes
	windows  map[int]laneWindow
	from, to uint64
	scroll   int
	outline  []uint64
	label    func(callsmodel.MethodInfo) string // a span's method as the Raw names box says
	w, h     int
}

// render reads the calls of the lanes in sight that were not read for the range (when query is
// set) and draws them in the background. While one image is being drawn, further calls only ask
// for one more, as the chart panel does, and cancel the read under way.
func (t *timelineTab) render(query bool) {
	if t.trace == nil {
		return
	}
	t.requery = t.requery || query
	if t.drawing {
		t.stale = true
		if query && t.cancel != nil {
			t.cancel() // its calls are for a range no longer shown
		}
		return
	}
	scale := t.m.host.Window().Canvas().Scale()
	w, h := int(t.size.Width*scale), int(t.size.Height*scale)
	if w < render.MinWidth || h < render.MinHeight {
		return // drawn when laid out
	}
	job := timelineJob{a: t.m.a, run: t.run, trace: t.trace, threads: t.threads, windows: t.windows,
		from: t.from, to: t.to, scroll: t.scroll, outline: t.outline, label: t.m.labeler(), w: min(w, render.MaxSide), h: min(h, render.MaxSide)}
	if !t.requery {
		job.windows = nil // draw what was read
	}
	t.requery, t.drawing = false, true
	t.gen++
	gen := t.gen
	ctx, cancel := context.WithCancel(t.m.host.Context())
	t.cancel = cancel
	t.m.host.Background().Run(func() func() {
		defer cancel()
		windows, err := job.read(ctx, t.windows)
		spec, calls := job.spec(windows)
		var img *image.RGBA
		if err == nil {
			img, err = render.Image(spec, job.w, job.h)
		}
		return func() {
			t.drawing = false
			if gen == t.gen && err == nil {
				t.windows, t.spec, t.calls, t.px = windows, spec, calls, [2]int{job.w, job.h}
				t.area.show(img)
				t.Note.SetText(t.note())
				t.setScrollBar()
			}
			if !errors.Is(err, context.Canceled) {
				ui.SetNote(t.Problem, ui.ProblemText("read the calls of", job.run, err)) // "" without err
			}
			if t.stale || errors.Is(err, context.Canceled) && t.m.host.Context().Err() == nil {
				t.stale = false
				t.requery = t.requery || err != nil
				t.render(false)
			}
		}
	})
}

// setScrollBar sizes the lanes' scroll bar to what the image leaves out.
func (t *timelineTab) setScrollBar() {
	content, visible := t.spec.Heights(t.px[0], t.px[1])
	t.quiet = true
	t.Scroll.Max = float64(max(content-visible, 1))
	t.Scroll.SetValue(t.Scroll.Max - float64(t.scroll))
	t.quiet = false
	if show := content > visible; show != t.Scroll.Visible() {
		if show {
			t.Scroll.Show()
		} else {
			t.Scroll.Hide() // one thread, or few: no room lost
		}
		t.content.Refresh() // lays the area out again beside the bar or without it
	}
}

// read asks the controller for the calls of each lane in sight whose last read (in old) was for
// another range or size; windows is old with them. Without windows to read, it returns old.
func (j timelineJob) read(ctx context.Context, old map[int]laneWindow) (map[int]laneWindow, error) {
	if j.windows == nil {
		return old, nil
	}
	shape, _ := j.spec(nil)
	limit := min(laneCallLimit, max(500, shape.PlotWidth(j.w, j.h)*laneCallsPerPixel))
	out := make(map[int]laneWindow, len(old))
	for _, i := range shape.LanesShown(j.w, j.h) {
		tid := j.threads[i].TID
		if w, ok := old[tid]; ok && w.from == j.from && w.to == j.to && w.limit == limit {
			out[tid] = w
			continue
		}
		win, err := readLane(ctx, j.a, j.run, tid, j.from, j.to+1, limit)
		if err != nil {
			return old, err
		}
		out[tid] = laneWindow{TimelineWindow: win, from: j.from, to: j.to, limit: limit}
	}
	return out, nil
}

// readLane is the one place the timeline asks the controller for calls: those of one thread
// overlapping [from, to), at most limit.
func readLane(ctx context.Context, a *controller.MethodAnalysis, run string, tid int, from, to uint64, limit int) (callsmodel.TimelineWindow, error) {
	return a.Timeline(ctx, run, tid, from, to, limit)
}

// spec turns the lanes' calls into bars on the trace's timeline clock, coloured by method, the
// calls narrower than a pixel merged; calls is what the spans' Ref index.
func (j timelineJob) spec(windows map[int]laneWindow) (spec chart.Timeline, calls []callsmodel.Call) {
	tr := j.trace
	wall := tr.Profile.Clock.HasWall()
	spec = chart.Timeline{From: j.from, To: j.to, Scroll: j.scroll, Outline: j.outline, Lanes: make([]chart.Lane, len(j.threads))}
	for i, th := range j.threads {
		spec.Lanes[i] = chart.Lane{Name: controller.ThreadLabel(th), Depth: th.MaxDepth}
		win := windows[th.TID]
		if !win.Every && len(win.Calls) > 0 {
			spec.Lanes[i].Note = "longest calls only"
		}
		for _, c := range win.Calls {
			start, end := c.StartWall, c.EndWall
			if !wall {
				start, end = c.StartCPU, c.EndCPU
			}
			spec.Spans = append(spec.Spans, chart.Span{
				Label: j.label(tr.Profile.Methods[c.Method]),
				Depth: c.Depth, Start: start, End: end, Colour: c.Method / 4, // Traceview ids are multiples of 4
				Lane: i, Key: c.Method, Ref: len(calls)})
			calls = append(calls, c)
		}
	}
	if len(j.threads) == 1 {
		spec.Title = "Calls of thread " + spec.Lanes[0].Name
	} else {
		spec.Title = fmt.Sprintf("Calls of %s", human.Count(len(j.threads), "thread", "threads"))
	}
	return spec.MergeNarrow(j.w, j.h), calls
}

// callAt is the index in spec.Spans of the bar drawn under a point of the area, or -1.
func (t *timelineTab) callAt(pos fyne.Position) int {
	x, y, ok := t.pixel(pos)
	if !ok {
		return -1
	}
	return t.spec.SpanAt(t.px[0], t.px[1], x, y)
}

// pixel is the image's pixel under a point of the area.
func (t *timelineTab) pixel(pos fyne.Position) (x, y int, ok bool) {
	if t.size.Width <= 0 || t.size.Height <= 0 || t.px[0] == 0 {
		return 0, 0, false
	}
	return int(pos.X / t.size.Width * float32(t.px[0])), int(pos.Y / t.size.Height * float32(t.px[1])), true
}

// timeAt is the time under a point of the area.
func (t *timelineTab) timeAt(pos fyne.Position) uint64 {
	x, _, ok := t.pixel(pos)
	if !ok {
		return t.from/2 + t.to/2
	}
	return t.spec.TimeAt(t.px[0], t.px[1], x)
}

// describe names the call at pos in the Info line: its method, thread, start and duration on
// both clocks the trace has.
func (t *timelineTab) describe(pos fyne.Position) {
	i := t.callAt(pos)
	if i < 0 {
		t.Info.SetText("")
		return
	}
	s := t.spec.Spans[i]
	if s.Merged > 0 {
		t.Info.SetText(fmt.Sprintf("%s narrower than a pixel on thread %s, %s to %s: zoom in to see them.",
			human.Count(s.Merged, "call", "calls"), t.spec.Lanes[s.Lane].Name, t.at(s.Start, s.End-s.Start), t.at(s.End, s.End-s.Start)))
		return
	}
	c := t.calls[s.Ref]
	clock := t.trace.Profile.Clock
	text := fmt.Sprintf("%s — thread %s, depth %d", s.Label, t.spec.Lanes[s.Lane].Name, s.Depth)
	if clock.HasWall() {
		text += fmt.Sprintf(" · real: starts %s, lasts %s", t.at(c.StartWall, c.EndWall-c.StartWall), micros(c.EndWall-c.StartWall))
	}
	if clock.HasCPU() {
		text += fmt.Sprintf(" · thread CPU: starts %s, lasts %s", t.at(c.StartCPU, c.EndCPU-c.StartCPU), micros(c.EndCPU-c.StartCPU))
	}
	t.Info.SetText(text)
}

// at writes a time as precisely as a duration of d µs needs.
func (t *timelineTab) at(us, d uint64) string {
	return human.MicrosStep(float64(us), max(1, float64(d)/10))
}

// pick selects the method of the call at pos in every tab, and names the call.
func (t *timelineTab) pick(pos fyne.Position) {
	t.describe(pos)
	if i := t.callAt(pos); i >= 0 && t.spec.Spans[i].Merged == 0 {
		t.m.selectMethod(t.spec.Spans[i].Key, fromTimeline)
		t.outlineMethod(t.spec.Spans[i].Key)
	}
}

// open shows the call at pos in the Profile tab.
func (t *timelineTab) open(pos fyne.Position) {
	if i := t.callAt(pos); i >= 0 && t.spec.Spans[i].Merged == 0 {
		t.m.openMethod(t.spec.Spans[i].Key)
	}
}

func (t *timelineTab) askSave() {
	spec := t.spec
	ui.AskSavePath(t.m.host.Window(), ui.Slug(spec.Title, "timeline")+".png", ".png", func(path string) error {
		return ui.SaveChart(spec, render.PNG, path)
	})
}
