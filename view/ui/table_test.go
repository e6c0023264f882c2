package ui

import (
	"strings"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/widget"
)

// walkShown calls f on every object shown under o.
func walkShown(o fyne.CanvasObject, f func(fyne.CanvasObject)) {
	if !o.Visible() {
		return
	}
	f(o)
	switch x := o.(type) {
	case *fyne.Container:
		for _, c := range x.Objects {
			walkShown(c, f)
		}
	case fyne.Widget:
		for _, c := range test.WidgetRenderer(x).Objects() {
			walkShown(c, f)
		}
	}
}

// cells are the table cells drawn for tb, header cells left out.
func cells[T any](tb *SortTable[T]) []*tableCell {
	var out []*tableCell
	walkShown(tb.Table, func(o fyne.CanvasObject) {
		if c, ok := o.(*tableCell); ok {
			out = append(out, c)
		}
	})
	return out
}

func absPos(o fyne.CanvasObject) fyne.Position {
	return fyne.CurrentApp().Driver().AbsolutePositionForObject(o)
}

// A name cut by its column (a method's, in a window too narrow for it) shows whole under the
// pointer, in a tip inside the table; a cell shown whole shows none.
func TestCutNameShowsWholeUnderPointer(t *testing.T) {
	type row struct {
		name        string
		calls, incl int64
	}
	w := test.NewTempApp(t).NewWindow("table")
	tb := NewSortTable(w, "t", []Column[row]{TextCol("Name", 320, func(r row) string { return r.name }),
		IntCol("Calls", 90, func(r row) int64 { return r.calls }), IntCol("Incl µs", 90, func(r row) int64 { return r.incl })}, nil)
	w.SetContent(container.NewBorder(widget.NewLabel("Methods"), nil, nil, nil, tb.Content())) // (1, 1) is off the table
	w.Resize(fyne.NewSize(420, 300))
	tb.Set([]row{{"com/jag/positron/GameScreen.paint (F)V", 1, 4494}, {"main", 1, 9000},
		{"android/graphics/Canvas.native_drawCircle (IFFFI)V", 100, 685}, {"com/jag/positron/Particle.draw ()V", 100, 1780}})
	c := w.Canvas()
	var cut, whole *tableCell
	for _, cell := range cells(tb) {
		switch {
		case cut == nil && strings.Contains(cell.Text, "/") && cell.cut():
			cut = cell
		case whole == nil && cell.Text != "" && !cell.cut() && cell.Position().Y > 0:
			whole = cell
		}
	}
	if cut == nil || whole == nil {
		t.Fatalf("no cut name (%v) or whole cell (%v) at %v", cut, whole, c.Size())
	}
	at := absPos(cut).Add(fyne.NewPos(20, cut.Size().Height/2))
	test.MoveMouse(c, at)
	if got := tb.tip.Text(); got != cut.Text {
		t.Fatalf("tip %q over %q", got, cut.Text)
	}
	layer, bg := tb.tip.layer, tb.tip.bg
	if bg.Position().X < 0 || bg.Position().Y < 0 || bg.Position().X+bg.Size().Width > layer.Size().Width+0.5 ||
		bg.Position().Y+bg.Size().Height > layer.Size().Height+0.5 || bg.Size().Width < cut.Size().Width {
		t.Errorf("tip at %v size %v in a table of %v", bg.Position(), bg.Size(), layer.Size())
	}
	test.MoveMouse(c, absPos(whole).Add(fyne.NewPos(5, whole.Size().Height/2)))
	if got := tb.tip.Text(); got != "" {
		t.Errorf("tip %q over a whole cell %q", got, whole.Text)
	}
	test.MoveMouse(c, at)
	test.MoveMouse(c, fyne.NewPos(1, 1)) // off the table
	if got := tb.tip.Text(); got != "" {
		t.Errorf("tip %q after the pointer left", got)
	}
}
