package ui

import (
	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"
)

// barLayout lays a top bar's groups (a label and its chooser) out left to right and wraps them
// onto another row when the window is narrower than one row needs, so no control ends up past
// the window's edge or under the Editor button: one row on a wide screen, two at 900 px.
// The analysis window asks BarHeight how tall its bar is at the window's width.
type barLayout struct{}

// NewBar makes a top bar of groups; see barLayout.
func NewBar(groups ...fyne.CanvasObject) *fyne.Container {
	return container.New(barLayout{}, groups...)
}

// Group keeps a label beside its control when a bar wraps.
func Group(objs ...fyne.CanvasObject) fyne.CanvasObject { return container.NewHBox(objs...) }

// place flows the objects into rows of width (and moves them when move is set); it returns the height.
func (barLayout) place(objects []fyne.CanvasObject, width float32, move bool) float32 {
	pad := theme.Padding()
	rowH := barLayout{}.MinSize(objects).Height
	var x, y float32
	for _, o := range objects {
		if !o.Visible() {
			continue
		}
		s := o.MinSize()
		if x > 0 && x+s.Width > width {
			x, y = 0, y+rowH+pad
		}
		if move {
			o.Move(fyne.NewPos(x, y))
			o.Resize(fyne.NewSize(s.Width, rowH))
		}
		x += s.Width + pad
	}
	return y + rowH
}

func (l barLayout) Layout(objects []fyne.CanvasObject, size fyne.Size) {
	l.place(objects, size.Width, true)
}

// MinSize is the widest group on one row; the bar's real height depends on the width it gets.
func (barLayout) MinSize(objects []fyne.CanvasObject) fyne.Size {
	var m fyne.Size
	for _, o := range objects {
		if o.Visible() {
			m = m.Max(o.MinSize())
		}
	}
	return m
}

// BarHeight is how tall a bar made by NewBar is at width: the window's top bar leaves that
// much room above the tabs.
func BarHeight(bar *fyne.Container, width float32) float32 {
	return barLayout{}.place(bar.Objects, width, false)
}

// WeightedColumns lays cells out side by side with widths proportional to weights, so a header
// and the rows below it line up without a table widget.
type WeightedColumns struct{ Weights []float32 }

// Layout is fyne.Layout's.
func (c *WeightedColumns) Layout(objs []fyne.CanvasObject, size fyne.Size) {
	var sum float32
	for _, w := range c.Weights {
		sum += w
	}
	x := float32(0)
	for i, o := range objs {
		w := size.Width * c.Weights[i] / sum
		o.Move(fyne.NewPos(x, 0))
		o.Resize(fyne.NewSize(w, size.Height))
		x += w
	}
}

// MinSize is fyne.Layout's: the tallest cell, and a little width for each.
func (c *WeightedColumns) MinSize(objs []fyne.CanvasObject) fyne.Size {
	var h float32
	for _, o := range objs {
		h = max(h, o.MinSize().Height)
	}
	return fyne.NewSize(float32(len(objs))*20, h)
}

// Heading is the bold title over a panel (Runs, a list of instructions).
func Heading(text string) *widget.Label {
	return widget.NewLabelWithStyle(text, fyne.TextAlignLeading, fyne.TextStyle{Bold: true})
}

// Enable enables or disables w, which may be nil, as on says.
func Enable(w fyne.Disableable, on bool) {
	if w == nil {
		return
	}
	if on {
		w.Enable()
	} else {
		w.Disable()
	}
}

// SetNote shows text in l, or hides l when text is "", so a note takes no room while there is
// nothing to say.
func SetNote(l *widget.Label, text string) {
	l.SetText(text)
	if text == "" {
		l.Hide()
	} else {
		l.Show()
	}
}
