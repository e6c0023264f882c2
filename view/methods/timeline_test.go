package methods

import (
	"context"
	"io"
	"slices"
	"strings"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"

	"androprof/chart"
	"androprof/chart/render"
	"androprof/controller"
	"androprof/internal/viewtest"
	"androprof/model/calls"
	"androprof/view/ui"
)

// posOf is where span i of the timeline is drawn, in the area's coordinates.
func (t *timelineTab) posOf(i int) fyne.Position {
	r, _ := t.spec.SpanRect(t.px[0], t.px[1], i)
	c := r.Min.Add(r.Max).Div(2)
	return t.areaPos(c.X, c.Y)
}

// areaPos is pixel (x, y) of the image in the area's coordinates.
func (t *timelineTab) areaPos(x, y int) fyne.Position {
	return fyne.NewPos(float32(x)*t.size.Width/float32(t.px[0]), float32(y)*t.size.Height/float32(t.px[1]))
}

// onCanvas is a point of the area on the window's canvas, where a person's pointer is.
func (t *timelineTab) onCanvas(p fyne.Position) fyne.Position {
	return fyne.CurrentApp().Driver().AbsolutePositionForObject(t.area).Add(p)
}

// dragArea drags the pointer across the timeline from a to b (area coordinates), as a person
// does: the driver reports where the pointer is and how far it moved.
func dragArea(v *methodsWindow, tl *timelineTab, a, b fyne.Position) {
	test.Drag(v.Window().Canvas(), tl.onCanvas(b), b.X-a.X, b.Y-a.Y)
	v.Wait()
}

// spanOf is the index of the span drawn for call c, or -1.
func (t *timelineTab) spanOf(c calls.Call) int {
	return slices.IndexFunc(t.spec.Spans, func(s chart.Span) bool { return s.Merged == 0 && t.calls[s.Ref] == c })
}

// The art trace has 66 threads: each is a lane with its name, the busiest on top, and the
// lanes out of sight are read when scrolled to.
func TestTimelineShowsEveryThread(t *testing.T) {
	v, methods := openMethods(t)
	tl := v.Methods.Timeline
	v.SelectRun("art")
	v.Wait()
	showTab(v, 1)
	tr, _ := methods.Load(context.Background(), "art")
	var want []string
	for _, th := range tr.Profile.Threads {
		if th.Events > 0 {
			want = append(want, controller.ThreadLabel(th))
		}
	}
	var got []string
	for _, ln := range tl.spec.Lanes {
		got = append(got, ln.Name)
	}
	slices.Sort(got)
	slices.Sort(want)
	if len(want) < 20 || !slices.Equal(got, want) {
		t.Fatalf("lanes %v, want every thread with events %v", got, want)
	}
	for _, th := range tr.Profile.Threads { // art has a wall clock: busy is time in level-1 calls
		if th.Level1Wall > tl.threads[0].Level1Wall {
			t.Errorf("top lane %v, thread %v busier", tl.threads[0], th)
		}
	}
	if !strings.Contains(tl.Note.Text, "threads, one lane each") || viewtest.CountColours(tl.area.img.Image) < 8 {
		t.Errorf("note %q, %d colours", tl.Note.Text, viewtest.CountColours(tl.area.img.Image))
	}
	shown := tl.spec.LanesShown(tl.px[0], tl.px[1])
	if len(shown) == 0 || len(shown) == len(tl.threads) || len(tl.windows) != len(shown) || !tl.Scroll.Visible() {
		t.Fatalf("%d lanes shown of %d, %d read, scroll bar shown %v", len(shown), len(tl.threads), len(tl.windows), tl.Scroll.Visible())
	}
	// Scrolling to the bottom (keys, as a person does once the area has the focus) reads the
	// last lane.
	test.TapAt(tl.area, fyne.NewPos(2, 2)) // the name column: no call there
	last := tl.threads[len(tl.threads)-1].TID
	for range 100 {
		if _, ok := tl.windows[last]; ok {
			break
		}
		v.Window().Canvas().Focused().TypedKey(&fyne.KeyEvent{Name: fyne.KeyDown})
		v.Wait()
	}
	if _, ok := tl.windows[last]; !ok || tl.scroll == 0 {
		t.Errorf("scrolled %d px, lanes read %d, the last lane not read", tl.scroll, len(tl.windows))
	}
	// Every span drawn in colour is at least a pixel wide; narrower calls are grey boxes.
	perPx := float64(tl.spec.PlotWidth(tl.px[0], tl.px[1])) / float64(tl.to-tl.from)
	mergedCalls := 0
	for _, s := range tl.spec.Spans {
		if s.Merged == 0 && float64(s.End-s.Start)*perPx < 1 {
			t.Fatalf("span %+v narrower than a pixel drawn in colour", s)
		}
		mergedCalls += s.Merged
	}
	if mergedCalls == 0 {
		t.Error("no call of the whole art trace merged into a grey box")
	}
}

// Dragging a range on the axis zooms to it; the wheel zooms around the pointer; zooming in
// goes down to single calls, each read even where the whole range was too wide to hold them.
func TestTimelineZoomsToOneCall(t *testing.T) {
	v, _ := openMethods(t)
	tl := v.Methods.Timeline
	showTab(v, 1)
	if len(tl.threads) != 1 || tl.threads[0].TID != 12 || !strings.HasPrefix(tl.Note.Text, "Thread 12 Thread-106, real time.") {
		t.Fatalf("jag's lanes %v, note %q", tl.threads, tl.Note.Text)
	}
	// The shortest call of a level-3 row drawn in colour: far from filling the axis.
	i := -1
	for j, s := range tl.spec.Spans {
		if s.Merged == 0 && s.Depth == 3 && s.End > s.Start && (i < 0 || s.End-s.Start < tl.spec.Spans[i].End-tl.spec.Spans[i].Start) {
			i = j
		}
	}
	if i < 0 {
		t.Fatal("no call at depth 3 drawn")
	}
	call := tl.calls[tl.spec.Spans[i].Ref]
	r, _ := tl.spec.SpanRect(tl.px[0], tl.px[1], i)
	if r.Dx() > tl.spec.PlotWidth(tl.px[0], tl.px[1])/4 {
		t.Fatalf("call %+v already %d px wide", call, r.Dx())
	}
	axisY := tl.px[1] - 20
	if !tl.spec.OnAxis(tl.px[0], tl.px[1], axisY) {
		t.Fatal("no axis 20 px above the bottom")
	}
	dragArea(v, tl, tl.areaPos(r.Min.X-1, axisY), tl.areaPos(r.Max.X+1, axisY))
	if tl.from > call.StartWall || tl.to < call.EndWall || tl.to-tl.from > 2*(call.EndWall-call.StartWall)+minTimelineSpan*4 {
		t.Fatalf("range %d..%d after picking call %d..%d", tl.from, tl.to, call.StartWall, call.EndWall)
	}
	j := tl.spanOf(call)
	if j < 0 {
		t.Fatalf("call %+v not drawn at %d..%d", call, tl.from, tl.to)
	}
	if r, _ := tl.spec.SpanRect(tl.px[0], tl.px[1], j); r.Dx() < tl.spec.PlotWidth(tl.px[0], tl.px[1])/3 {
		t.Errorf("the call picked is %d px wide", r.Dx())
	}
	if !strings.Contains(tl.Note.Text, "Every call in this range is shown") {
		t.Errorf("zoomed in to one call, the note says %q", tl.Note.Text)
	}
	// Hovering names it: method, thread, start and length on both clocks.
	test.MoveMouse(v.Window().Canvas(), tl.onCanvas(tl.posOf(j)))
	for _, want := range []string{tl.spec.Spans[j].Label + " — thread 12 Thread-106", "real: starts", "thread CPU: starts", "lasts"} {
		if !strings.Contains(tl.Info.Text, want) {
			t.Errorf("hover: %q lacks %q", tl.Info.Text, want)
		}
	}
	// The wheel zooms in around the pointer: the call stays under it.
	before, at := tl.to-tl.from, tl.timeAt(tl.posOf(j))
	test.Scroll(v.Window().Canvas(), tl.onCanvas(tl.posOf(j)), 0, 10)
	v.Wait()
	if w := tl.to - tl.from; w >= before || at < tl.from || at > tl.to {
		t.Errorf("wheel: %d µs of %d, %d..%d, pointer at %d", w, before, tl.from, tl.to, at)
	}
	for range 40 {
		test.Tap(tl.ZoomIn)
		v.Wait()
	}
	if tl.to-tl.from != minTimelineSpan || !tl.ZoomIn.Disabled() {
		t.Errorf("zoomed in as far as it goes: %d µs", tl.to-tl.from)
	}
	test.Tap(tl.ZoomFit)
	v.Wait()
	if tl.from != tl.lo || tl.to != tl.hi {
		t.Errorf("fit: %d..%d of %d..%d", tl.from, tl.to, tl.lo, tl.hi)
	}
	if err := render.Render(io.Discard, tl.spec, render.PNG, ui.ExportWidth, ui.ExportHeight); err != nil { // Save PNG…
		t.Error(err)
	}
}

// Keys and a drag pan; the range keeps its width.
func TestTimelinePans(t *testing.T) {
	v, _ := openMethods(t)
	tl := v.Methods.Timeline
	showTab(v, 1)
	test.Tap(tl.ZoomIn)
	v.Wait()
	test.Tap(tl.ZoomIn)
	v.Wait()
	w, from := tl.to-tl.from, tl.from
	test.TapAt(tl.area, fyne.NewPos(2, 2))
	keys := v.Window().Canvas().Focused()
	if keys == nil {
		t.Fatal("tapping the timeline did not give it the keys")
	}
	keys.TypedKey(&fyne.KeyEvent{Name: fyne.KeyRight})
	v.Wait()
	if tl.from <= from || tl.to-tl.from != w || tl.from-from > w/4 {
		t.Errorf("right arrow: from %d to %d, width %d of %d", from, tl.from, tl.to-tl.from, w)
	}
	keys.TypedKey(&fyne.KeyEvent{Name: fyne.KeyLeft})
	v.Wait()
	if d := int64(tl.from) - int64(from); d < -1 || d > 1 {
		t.Errorf("left arrow back: from %d, was %d", tl.from, from)
	}
	// Dragging the calls leftwards shows later ones, as a map moves with the hand.
	mid := tl.areaPos(tl.px[0]/2, tl.px[1]/3)
	dragArea(v, tl, mid, mid.SubtractXY(tl.size.Width/4, 0))
	if tl.from <= from || tl.to-tl.from != w {
		t.Errorf("drag left: from %d to %d, width %d of %d", from, tl.from, tl.to-tl.from, w)
	}
	// A burst of moves, faster than the calls are read: the reads for ranges passed by are
	// dropped, and the image shows the last range.
	for range 5 {
		keys.TypedKey(&fyne.KeyEvent{Name: fyne.KeyRight})
	}
	keys.TypedRune('+')
	v.Wait()
	if tl.spec.From != tl.from || tl.spec.To != tl.to || tl.to-tl.from != w/2 {
		t.Errorf("after a burst: drawn %d..%d, range %d..%d of width %d", tl.spec.From, tl.spec.To, tl.from, tl.to, w/2)
	}
	for tid, win := range tl.windows {
		if win.from != tl.from || win.to != tl.to {
			t.Errorf("thread %d: calls read for %d..%d, range %d..%d", tid, win.from, win.to, tl.from, tl.to)
		}
	}
	keys.TypedRune('0')
	v.Wait()
	if tl.from != tl.lo || tl.to != tl.hi {
		t.Errorf("0: %d..%d of %d..%d", tl.from, tl.to, tl.lo, tl.hi)
	}
}

// Choosing a method in the profile table, on the timeline or in the flame graph selects it in
// the other two.
func TestMethodsSelectTogether(t *testing.T) {
	v, _ := openMethods(t)
	m := v.Methods
	tl := m.Timeline
	var flame []uint64
	m.followSelection(fromFlame, func(id uint64) { flame = append(flame, id) })
	showTab(v, 1)
	// A click on the longest level-1 call selects its method in the table and the flame graph.
	i := -1
	for j, s := range tl.spec.Spans {
		if s.Merged == 0 && s.Depth == 0 && (i < 0 || s.End-s.Start > tl.spec.Spans[i].End-tl.spec.Spans[i].Start) {
			i = j
		}
	}
	if i < 0 {
		t.Fatal("no level-1 call drawn")
	}
	id := tl.spec.Spans[i].Key
	key := calls.MethodName(m.trace.Profile.Methods[id])
	test.TapAt(tl.area, tl.posOf(i))
	v.Wait()
	if got, ok := m.selectedMethod(); !ok || got != id || m.Profile.selected != key || !slices.Equal(flame, []uint64{id}) {
		t.Fatalf("timeline click: selected %d %v, profile %q, flame %v; want %d %q", got, ok, m.Profile.selected, flame, id, key)
	}
	if !slices.Equal(tl.spec.Outline, []uint64{id}) || m.Tabs.SelectedIndex() != 1 {
		t.Errorf("outline %v, tab %d", tl.spec.Outline, m.Tabs.SelectedIndex())
	}
	// Selecting a row in the table outlines that method's calls on the timeline.
	row := methodRowIndex(m.Profile.Table, drawCirc)
	m.Profile.Table.Select(row)
	v.Wait()
	other := m.Profile.Table.Rows()[row].Method
	if !slices.Equal(tl.spec.Outline, []uint64{other}) || !slices.Equal(flame, []uint64{id, other}) {
		t.Errorf("table selects %d: timeline outlines %v, flame told %v", other, tl.spec.Outline, flame)
	}
	outlined := 0
	for _, s := range tl.spec.Spans {
		if s.Key == other && s.Merged == 0 {
			outlined++
		}
	}
	if outlined == 0 {
		t.Error("no call of the method selected drawn to outline")
	}
	// A frame chosen in the flame graph selects its method in the table and the timeline.
	m.selectMethod(id, fromFlame)
	v.Wait()
	if m.Profile.selected != key || !slices.Equal(tl.spec.Outline, []uint64{id}) || len(flame) != 2 {
		t.Errorf("flame selects %d: profile %q, outline %v, flame told %v", id, m.Profile.selected, tl.spec.Outline, flame)
	}
	// A double click opens the call in the profile.
	tl.open(tl.posOf(i))
	v.Wait()
	if m.Tabs.SelectedIndex() != 0 || m.Profile.selected != key {
		t.Errorf("double click: tab %d, selected %q", m.Tabs.SelectedIndex(), m.Profile.selected)
	}
}
