package ui

import (
	"fmt"
	"strings"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/widget"
)

// find is the first entry of a widget map of a type with a text.
func find(t *testing.T, ws []WidgetPos, typ, text string) (int, WidgetPos) {
	t.Helper()
	for i, w := range ws {
		if w.Type == typ && w.Text == text {
			return i, w
		}
	}
	t.Fatalf("no %s %q in the widget map", typ, text)
	return -1, WidgetPos{}
}

// A window with a text, a button, an entry, a list and a scroll container holding more buttons
// than it shows, then a dialog above it: the map finds each where it is drawn, with its text.
func TestWidgetMap(t *testing.T) {
	a := test.NewTempApp(t)
	w := a.NewWindow("map")
	var rows []fyne.CanvasObject
	for i := range 10 {
		rows = append(rows, widget.NewButton(fmt.Sprintf("row %d", i), nil))
	}
	scroll := container.NewVScroll(container.NewVBox(rows...))
	scroll.SetMinSize(fyne.NewSize(100, 80))
	entry := widget.NewEntry()
	entry.SetPlaceHolder("type here")
	list := widget.NewList(func() int { return 1 }, func() fyne.CanvasObject { return widget.NewLabel("") },
		func(_ widget.ListItemID, o fyne.CanvasObject) { o.(*widget.Label).SetText("first row") })
	list.Resize(fyne.NewSize(100, 50))
	w.SetContent(container.NewVBox(widget.NewLabel("Hello"), widget.NewButton("Go", nil), entry,
		container.NewGridWrap(fyne.NewSize(120, 45), list), scroll))
	w.Resize(fyne.NewSize(300, 500))

	ws := WidgetMap(w.Canvas())
	_, hello := find(t, ws, "*canvas.Text", "Hello")
	gi, goButton := find(t, ws, "*widget.Button", "Go")
	_, goText := find(t, ws, "*canvas.Text", "Go")
	if hello.Control || !goButton.Control || goButton.Parent != -1 || goText.Parent != gi || goButton.Layer != 0 {
		t.Errorf("text %+v, button %+v, its text %+v", hello, goButton, goText)
	}
	if goButton.Y <= hello.Y || goButton.W < 250 || !goButton.Rect.contains(goText.Rect) {
		t.Errorf("the button is not below the text and round its own: %v, %v", goButton, goText)
	}
	if _, e := find(t, ws, "*widget.Entry", "type here"); e.Y <= goButton.Y {
		t.Errorf("entry at %v", e)
	}
	if _, row := find(t, ws, "*widget.listItem", "first row"); !row.Control || row.Reach == nil {
		t.Errorf("list row %+v", row)
	}
	_, first := find(t, ws, "*widget.Button", "row 0")
	_, last := find(t, ws, "*widget.Button", "row 9")
	if first.Reach == nil || first.Clip.H > 81 || first.Visible().empty() || !last.Visible().empty() || !first.Reach.contains(last.Rect) {
		t.Errorf("in the scroll container: first %+v, last %+v", first, last)
	}
	if p := LayoutProblems(ws, 300, 500); len(p) > 0 {
		t.Errorf("problems in a plain window: %v", p)
	}

	dialog.ShowInformation("Note", "something", w)
	ws = WidgetMap(w.Canvas())
	if _, ok := find(t, ws, "*widget.Button", "OK"); ok.Layer != 1 || !ok.Control {
		t.Errorf("the dialog's OK: %+v", ok)
	}
}

// LayoutProblems finds a control off the window and one covered by a neighbour's text that is
// too wide for its cell.
func TestLayoutProblems(t *testing.T) {
	w := test.NewTempApp(t).NewWindow("problems")
	wide := widget.NewButton("a label far too long for fifty pixels", nil)
	w.SetContent(container.NewVBox(
		container.NewHBox(container.NewGridWrap(fyne.NewSize(50, 36), wide), widget.NewButton("Next", nil)),
		container.NewHBox(widget.NewButton("Left", nil), container.NewGridWrap(fyne.NewSize(600, 36), widget.NewButton("Off", nil)))))
	w.Resize(fyne.NewSize(400, 200))
	got := strings.Join(LayoutProblems(WidgetMap(w.Canvas()), 400, 200), "\n")
	for _, want := range []string{`*widget.Button "Next" at`, `overlaps *canvas.Text "a label far too long`, `*widget.Button "Off" at`, "outside the 400x200 window"} {
		if !strings.Contains(got, want) {
			t.Errorf("problems lack %q:\n%s", want, got)
		}
	}
	if strings.Contains(got, `"Left"`) {
		t.Errorf("a control that fits is a problem:\n%s", got)
	}
}
