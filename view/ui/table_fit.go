package ui

import (
	"unicode/utf8"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/driver/desktop"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"
)

// How a SortTable fits its width: the columns keep their widths when they fit, the key column
// taking what is left over. When they do not, the key column gives down to a third of the
// width (its text cut with an ellipsis; a cut cell shows its whole text under the pointer),
// the number columns down to their header, and further down to their widest value (the header
// cut, whole under the pointer) only when the whole table then fits. Otherwise the table
// scrolls sideways, its key column kept in view.

// tableLayout lays the table and its tip layer over each other and refits the columns to a
// new width.
type tableLayout[T any] struct{ t *SortTable[T] }

func (l *tableLayout[T]) Layout(objs []fyne.CanvasObject, size fyne.Size) {
	for _, o := range objs {
		o.Move(fyne.NewPos(0, 0))
		o.Resize(size)
	}
	if size.Width != l.t.width {
		l.t.width = size.Width
		l.t.fitColumns()
	}
}

// MinSize is the table's height, and a width that does not grow with the layout: Fyne's table
// counts its sticky key column, which fitColumns widens to what a wide window leaves over, so
// after a 1920 px layout a table asked for 1,180 px and squeezed the runs list at 900 px. The
// table fits or scrolls sideways at any width down to its key column's least.
func (l *tableLayout[T]) MinSize(objs []fyne.CanvasObject) fyne.Size {
	m := objs[0].MinSize()
	return fyne.NewSize(min(m.Width, tableMinWidth), m.Height)
}

// tableMinWidth is the least width a table asks for: its key column's least and a number.
const tableMinWidth = keyMinWidth + 120

// keyMinWidth is the narrowest a key column gets.
const keyMinWidth = 110

// rowsMeasured bounds the rows whose text fitColumns measures: the widest of a few thousand
// is as good as the widest of all.
const rowsMeasured = 2000

// fitColumns sets the column widths for the table's width (see above).
func (t *SortTable[T]) fitColumns() {
	if t.width <= 0 || len(t.cols) == 0 {
		return
	}
	avail := t.width - theme.ScrollBarSize() - float32(len(t.cols))*theme.Padding()
	widths := make([]float32, len(t.cols))
	var total float32
	key := -1
	for i, c := range t.cols {
		widths[i] = c.Width
		if c.key() && key < 0 {
			key = i
		} else if !c.key() {
			widths[i] = max(c.Width, t.HeaderWidth(i)) // a header is not cut while there is room
		}
		total += widths[i]
	}
	if total <= avail {
		if key >= 0 {
			widths[key] += avail - total
		}
	} else {
		// The key column keeps a third of the width; the number columns give down to their
		// header (or their widest value, if wider).
		keyFloor := max(keyMinWidth, avail/3)
		heads := make([]float32, len(widths))
		for i, w := range widths {
			if i == key {
				heads[i] = min(w, keyFloor)
			} else {
				heads[i] = min(w, max(t.HeaderWidth(i), t.valueWidth(i)))
			}
		}
		// Never below a header: a column headed "P…" or "Ins…" says nothing, while a table
		// that scrolls sideways (its key column kept) still does.
		shrink(widths, heads, total-avail)
	}
	for i, w := range widths {
		t.Table.SetColumnWidth(i, w)
	}
	t.colW = widths
}

// ColumnWidths are the widths fitColumns gave the columns for the table's width.
func (t *SortTable[T]) ColumnWidths() []float32 { return t.colW }

// shrink takes over from widths, from each in proportion to what it has above its floor, and
// returns what it could not take.
func shrink(widths, floors []float32, over float32) float32 {
	var room float32
	for i, w := range widths {
		room += max(0, w-floors[i])
	}
	if room <= 0 || over <= 0 {
		return over
	}
	give := min(1, over/room)
	for i, w := range widths {
		widths[i] -= max(0, w-floors[i]) * give
	}
	return over - room*give
}

// HeaderWidth is what column i's header needs, with the sort arrow when it is sorted by.
func (t *SortTable[T]) HeaderWidth(i int) float32 {
	h := t.headers[i]
	if i == t.sortBy {
		h += " ▼"
	}
	return fyne.MeasureText(h, theme.TextSize(), fyne.TextStyle{Bold: true}).Width + 2*theme.InnerPadding() + 2
}

// valueWidth is what column i's widest value needs (by length, of the first rowsMeasured rows).
func (t *SortTable[T]) valueWidth(i int) float32 {
	c := t.cols[i]
	widest := ""
	for _, r := range t.rows[:min(len(t.rows), rowsMeasured)] {
		if s := c.Text(r); utf8.RuneCountInString(s) > utf8.RuneCountInString(widest) {
			widest = s
		}
	}
	return fyne.MeasureText(widest+"0", theme.TextSize(), fyne.TextStyle{}).Width + 2*theme.InnerPadding()
}

// headerCell is a column's header: its title in bold, cut with an ellipsis when the column is
// narrower (the whole title shows under the pointer), and a click sorts by it.
type headerCell struct {
	tableCell
	OnTapped func()
}

var (
	_ fyne.Tappable      = (*headerCell)(nil)
	_ desktop.Cursorable = (*headerCell)(nil)
)

func newHeaderCell(tip *hoverTip) *headerCell {
	h := &headerCell{tableCell: tableCell{tip: tip}}
	h.Truncation = fyne.TextTruncateEllipsis
	h.TextStyle.Bold = true
	h.Alignment = fyne.TextAlignCenter
	h.ExtendBaseWidget(h)
	return h
}

// Tapped sorts by the column.
func (h *headerCell) Tapped(*fyne.PointEvent) {
	if h.OnTapped != nil {
		h.OnTapped()
	}
}

// Cursor says the header can be clicked.
func (h *headerCell) Cursor() desktop.Cursor { return desktop.PointerCursor }

// tableCell is a table's text cell: a label cut with an ellipsis that shows its whole text in
// a tip while the pointer rests on it (Fyne has no tooltips).
type tableCell struct {
	widget.Label
	tip *hoverTip
}

var _ desktop.Hoverable = (*tableCell)(nil)

func newTableCell(tip *hoverTip) *tableCell {
	c := &tableCell{tip: tip}
	c.Truncation = fyne.TextTruncateEllipsis
	c.ExtendBaseWidget(c)
	return c
}

// cut tells whether the cell shows less than its whole text.
func (c *tableCell) cut() bool {
	w := fyne.MeasureText(c.Text, theme.TextSize(), c.TextStyle).Width
	return w+2*theme.InnerPadding() > c.Size().Width+0.5
}

// MouseIn shows a cut cell's whole text.
func (c *tableCell) MouseIn(ev *desktop.MouseEvent) { c.MouseMoved(ev) }

// MouseMoved keeps the tip next to the pointer.
func (c *tableCell) MouseMoved(ev *desktop.MouseEvent) {
	if c.cut() {
		c.tip.show(c.Text, ev.AbsolutePosition)
	} else {
		c.tip.hide()
	}
}

// MouseOut hides the tip.
func (c *tableCell) MouseOut() { c.tip.hide() }

// hoverTip is the text of a cut cell, drawn over the table in a layer of its own that takes
// no events, so the cells under it still get the pointer (a PopUp would take it away and
// close at once).
type hoverTip struct {
	layer *fyne.Container // laid over the table by tableLayout
	bg    *canvas.Rectangle
	text  *widget.Label
}

func newHoverTip() *hoverTip {
	h := &hoverTip{bg: canvas.NewRectangle(theme.Color(theme.ColorNameOverlayBackground)), text: widget.NewLabel("")}
	h.bg.StrokeColor = theme.Color(theme.ColorNameInputBorder)
	h.bg.StrokeWidth = 1
	h.bg.CornerRadius = theme.InputRadiusSize()
	h.text.Wrapping = fyne.TextWrapBreak
	return h
}

// Text is the tip shown, "" when none is.
func (h *hoverTip) Text() string {
	if h.layer == nil || len(h.layer.Objects) == 0 {
		return ""
	}
	return h.text.Text
}

// show puts text next to the pointer at abs (absolute), inside the table.
func (h *hoverTip) show(text string, abs fyne.Position) {
	if h.layer == nil {
		return
	}
	d := fyne.CurrentApp().Driver()
	at := abs.Subtract(d.AbsolutePositionForObject(h.layer))
	area := h.layer.Size()
	h.text.Wrapping = fyne.TextWrapOff
	h.text.SetText(text)
	size := h.text.MinSize()
	if size.Width > area.Width {
		h.text.Wrapping = fyne.TextWrapBreak
		size = fyne.NewSize(area.Width, h.text.MinSize().Height)
		h.text.Resize(size)
		size.Height = h.text.MinSize().Height
	}
	pos := fyne.NewPos(at.X+12, at.Y+18) // under and right of the pointer
	if pos.Y+size.Height > area.Height {
		pos.Y = at.Y - 6 - size.Height
	}
	pos.X = max(0, min(pos.X, area.Width-size.Width))
	pos.Y = max(0, pos.Y)
	h.bg.Move(pos)
	h.bg.Resize(size)
	h.text.Move(pos)
	h.text.Resize(size)
	if len(h.layer.Objects) == 0 {
		h.layer.Objects = []fyne.CanvasObject{h.bg, h.text}
	}
	h.layer.Refresh()
}

func (h *hoverTip) hide() {
	if h.layer == nil || len(h.layer.Objects) == 0 {
		return
	}
	h.layer.Objects = nil
	h.layer.Refresh()
}
