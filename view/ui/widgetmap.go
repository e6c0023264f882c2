package ui

import (
	"fmt"
	"strings"
	_ "unsafe" // go:linkname, see widgetRenderer

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/driver/desktop"
	"fyne.io/fyne/v2/widget"
)

// Rect is an area of a canvas in canvas units (pixels are units × the canvas scale).
type Rect struct {
	X float32 `json:"x"`
	Y float32 `json:"y"`
	W float32 `json:"w"`
	H float32 `json:"h"`
}

// WidgetPos is one thing a person sees in a window and maybe clicks: a control (tappable or
// focusable) or a text. The end-to-end tests find a control by its text and click its middle;
// the layout tests check that every control can be reached and covers no other.
type WidgetPos struct {
	Type    string `json:"type"`    // Go type, e.g. *widget.Button
	Text    string `json:"text"`    // a button's, label's or text's text; an entry's text, else its placeholder; else the first text inside
	Control bool   `json:"control"` // tappable, secondary-tappable, mouseable or focusable; false for a canvas.Text
	Rect           // where it is, in canvas coordinates; a text's width is what it draws
	// Clip is the part of the canvas it can show through: the canvas, cut by every clipping
	// ancestor (scroll containers, lists, tables).
	Clip Rect `json:"clip"`
	// Reach is, inside a scroll container, the area its scrolling can bring into view (the
	// innermost scroller's content); nil outside of one.
	Reach    *Rect `json:"reach,omitempty"`
	Layer    int   `json:"layer"`    // 0: the window's content; 1…: its overlays (dialogs, pop-ups), topmost last
	Parent   int   `json:"parent"`   // index of the innermost control it lies in, -1 for none
	Disabled bool  `json:"disabled"` // a control that does not answer now
}

// Visible is the part of the rectangle not clipped away.
func (w WidgetPos) Visible() Rect { return w.Rect.intersect(w.Clip) }

// Centre is where a click lands on it: the middle of its visible part.
func (w WidgetPos) Centre() fyne.Position {
	v := w.Visible()
	return fyne.NewPos(v.X+v.W/2, v.Y+v.H/2)
}

func (r Rect) intersect(o Rect) Rect {
	x0, y0 := max(r.X, o.X), max(r.Y, o.Y)
	x1, y1 := min(r.X+r.W, o.X+o.W), min(r.Y+r.H, o.Y+o.H)
	return Rect{x0, y0, max(0, x1-x0), max(0, y1-y0)}
}

// contains says whether o lies inside r, give or take a pixel of rounding.
func (r Rect) contains(o Rect) bool {
	const slack = 1
	return o.X >= r.X-slack && o.Y >= r.Y-slack && o.X+o.W <= r.X+r.W+slack && o.Y+o.H <= r.Y+r.H+slack
}

func (r Rect) empty() bool { return r.W < 1 || r.H < 1 }

// WidgetMap lists every visible control and text of a canvas, its content first, then its
// overlays, in drawing order. Call it on the UI goroutine (inside fyne.DoAndWait from elsewhere).
// ANDROPROF_WIDGETS makes the developer command cmd/tour write it for each window
// (cmd/tour/widgetmap.go).
//
// Fyne 2.8 has no public tree walk (driver.WalkVisibleObjectTree is internal), so this walks
// containers' objects and widgets' renderers itself, the way the driver does when it paints.
func WidgetMap(c fyne.Canvas) []WidgetPos {
	m := &widgetMapper{}
	whole := Rect{0, 0, c.Size().Width, c.Size().Height}
	if content := c.Content(); content != nil {
		m.walk(content, fyne.Position{}, whole, nil, -1)
	}
	for _, o := range c.Overlays().List() {
		m.layer++
		m.walk(o, fyne.Position{}, whole, nil, -1)
	}
	return m.out
}

type widgetMapper struct {
	out   []WidgetPos
	layer int
}

// walk records o and its visible descendants; offset is the absolute position of o's parent,
// parent the index of the innermost control around o.
func (m *widgetMapper) walk(o fyne.CanvasObject, offset fyne.Position, clip Rect, reach *Rect, parent int) {
	if o == nil || !o.Visible() {
		return
	}
	pos := o.Position().Add(offset)
	r := Rect{pos.X, pos.Y, o.Size().Width, o.Size().Height}

	if t, ok := o.(*canvas.Text); ok {
		if t.Text != "" {
			m.out = append(m.out, WidgetPos{Type: fmt.Sprintf("%T", o), Text: t.Text, Rect: textRect(t, r), Clip: clip,
				Reach: reach, Layer: m.layer, Parent: parent})
			m.nameControls(parent, t.Text)
		}
		return
	}
	if l, ok := o.(*widget.Label); ok && l.Text != "" {
		m.nameControls(parent, l.Text) // its whole text: the text it draws may be cut ("demo-heap-gar…")
	}
	if c, ok := o.(*tableCell); ok && c.Text != "" { // its whole text; the text inside may be cut
		m.out = append(m.out, WidgetPos{Type: fmt.Sprintf("%T", o), Text: c.Text, Rect: r, Clip: clip, Reach: reach,
			Layer: m.layer, Parent: parent})
	}
	if isControl(o) {
		w := WidgetPos{Type: fmt.Sprintf("%T", o), Text: ownText(o), Control: true, Rect: r, Clip: clip, Reach: reach,
			Layer: m.layer, Parent: parent}
		if d, ok := o.(fyne.Disableable); ok {
			w.Disabled = d.Disabled()
		}
		m.out = append(m.out, w)
		parent = len(m.out) - 1
	}

	children, clips := childrenOf(o)
	if clips {
		clip = clip.intersect(r)
	}
	if _, ok := o.(fyne.Scrollable); ok {
		clip = clip.intersect(r)
		// A scroller's content comes first among its objects (a table's header row too,
		// which scrolls along with the table).
		content := fyne.CanvasObject(nil)
		if s, ok := o.(*container.Scroll); ok {
			content = s.Content
		} else if len(children) > 0 {
			content = children[0]
		}
		if content != nil {
			e := extent(content, pos)
			reach = &e
		}
	}
	for _, ch := range children {
		m.walk(ch, pos, clip, reach, parent)
	}
}

// extent is the area o and, for a container, its objects take (a table's header row is a
// container of no size with its cells placed by hand); offset is the absolute position of o's parent.
func extent(o fyne.CanvasObject, offset fyne.Position) Rect {
	pos := o.Position().Add(offset)
	x0, y0, x1, y1 := pos.X, pos.Y, pos.X+o.Size().Width, pos.Y+o.Size().Height
	if c, ok := o.(*fyne.Container); ok {
		for _, ch := range c.Objects {
			p := ch.Position().Add(pos)
			x0, y0 = min(x0, p.X), min(y0, p.Y)
			x1, y1 = max(x1, p.X+ch.Size().Width), max(y1, p.Y+ch.Size().Height)
		}
	}
	return Rect{x0, y0, x1 - x0, y1 - y0}
}

// nameControls gives a text to the controls around it that have none of their own (an icon
// button in a table header, a tab, a list row), innermost first.
func (m *widgetMapper) nameControls(i int, text string) {
	for ; i >= 0; i = m.out[i].Parent {
		if m.out[i].Text == "" {
			m.out[i].Text = text
		}
	}
}

// textRect is where a text draws: its own width, aligned in its box, because a text wider
// than its box is drawn past it (and may cover a neighbour) and one narrower leaves the rest free.
func textRect(t *canvas.Text, r Rect) Rect {
	w := t.MinSize().Width
	switch t.Alignment {
	case fyne.TextAlignCenter:
		r.X += (r.W - w) / 2
	case fyne.TextAlignTrailing:
		r.X += r.W - w
	}
	r.W = w
	return r
}

// isControl: what a person clicks or tabs to. A selectable label counts as one, not the
// selection layer inside it, which lies over the label's own text.
func isControl(o fyne.CanvasObject) bool {
	switch x := o.(type) {
	case *widget.Label:
		return x.Selectable
	case fyne.Tappable, fyne.SecondaryTappable, fyne.Focusable, desktop.Mouseable:
		return fmt.Sprintf("%T", o) != "*widget.focusSelectable"
	}
	return false
}

// ownText is the text a control shows of its own, "" to take the first text inside it. A cut
// table header gives its whole text, not the ellipsis it draws.
func ownText(o fyne.CanvasObject) string {
	if e := TextEntry(o); e != nil { // a widget.Entry, or an Entry of a dialog
		if e.Text != "" {
			return e.Text
		}
		return e.PlaceHolder
	}
	switch w := o.(type) {
	case *headerCell:
		return w.Text
	case *widget.Button:
		return w.Text
	case *widget.Check:
		return w.Text
	case *widget.Hyperlink:
		return w.Text
	case *widget.Label:
		return w.Text
	case *widget.Select:
		if w.Selected != "" {
			return w.Selected
		}
		return w.PlaceHolder
	}
	return ""
}

// widgetRenderer is the renderer Fyne keeps for a widget, created if need be, as the driver
// does when it paints. Fyne exports it only from its test package, whose init installs a test
// app, so a program links to the same internal function; TestWidgetMap fails if a Fyne upgrade
// moves it.
//
//go:linkname widgetRenderer fyne.io/fyne/v2/internal/cache.Renderer
func widgetRenderer(fyne.Widget) fyne.WidgetRenderer

// LayoutProblems says, one line each, what in a canvas's widget map (of width×height) a person
// cannot reach or cannot see: a control outside the canvas, or cut by the container it is in
// (inside a scroll container: outside what scrolling brings into view); a control that covers
// another control or a text not its own. Layout tests check the windows with it, and the
// end-to-end tests check the real window at 900×600 and 1920×1080.
func LayoutProblems(ws []WidgetPos, width, height float32) []string {
	var out []string
	whole := Rect{0, 0, width, height}
	for _, w := range ws {
		if !w.Control {
			continue
		}
		switch {
		case w.Rect.empty():
			out = append(out, w.String()+": no room at all")
		case w.Reach != nil:
			if !w.Reach.contains(w.Rect) || w.Clip.empty() {
				out = append(out, fmt.Sprintf("%s: outside what its scroll container can show (%+v through %+v)", w, *w.Reach, w.Clip))
			}
		case !whole.contains(w.Rect):
			out = append(out, fmt.Sprintf("%s: outside the %gx%g window", w, width, height))
		case !w.Clip.contains(w.Rect):
			out = append(out, fmt.Sprintf("%s: cut by its container (%+v)", w, w.Clip))
		}
	}
	for i, a := range ws {
		if !a.Control || a.isScrollBar() {
			continue
		}
		for j, b := range ws {
			if i == j || (b.Control && j < i) || b.isScrollBar() || a.Layer != b.Layer || inside(ws, i, j) || inside(ws, j, i) {
				continue
			}
			if !a.Visible().intersect(b.Visible()).empty() {
				out = append(out, fmt.Sprintf("%s overlaps %s", a, b))
			}
		}
	}
	return out
}

// inside says whether ws[i] lies in control ws[j].
func inside(ws []WidgetPos, i, j int) bool {
	for p := ws[i].Parent; p >= 0; p = ws[p].Parent {
		if p == j {
			return true
		}
	}
	return false
}

// isScrollBar: scroll bars are drawn over the content they scroll, on purpose.
func (w WidgetPos) isScrollBar() bool { return strings.Contains(w.Type, "scrollBar") }

func (w WidgetPos) String() string {
	return fmt.Sprintf("%s %q at %g,%g %gx%g", w.Type, w.Text, w.X, w.Y, w.W, w.H)
}

// WidgetMapFile names the file a window's widget map is written to: "AndroProf — Analysis" →
// androprof-analysis.json.
func WidgetMapFile(title string) string { return Slug(title, "window") + ".json" }
