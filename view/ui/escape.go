package ui

import (
	"sync"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/driver/desktop"
	"fyne.io/fyne/v2/lang"
	"fyne.io/fyne/v2/widget"
)

// Escape closes the dialog on top of a window, as on any desktop. Fyne 2.8's dialogs take no
// keys: the driver hands a key to the widget that has the keyboard, else to the canvas's
// OnTypedKey, and widget.Entry ignores Escape. So the canvas answers Escape when no widget has
// the keyboard (a message, a confirmation, a progress bar, Fyne's file dialog), and Entry, the
// entry for dialogs, answers it when it has.

// dismissLabels are the buttons Escape presses, the first of them a dialog has: the way out
// that does nothing, so the dialog's own answer to a cancel runs (a form's callback gets false,
// a progress dialog cancels its work).
var dismissLabels = []string{"Cancel", "Close", "No", "OK"}

// DismissDialog presses the Cancel (else Close, No, OK) button of the canvas's top dialog and
// says whether it found one. A disabled one is left alone; a progress dialog already cancelling
// shows "Cancelling…", so a second Escape finds nothing to press.
func DismissDialog(c fyne.Canvas) bool {
	top := c.Overlays().Top()
	if top == nil {
		return false
	}
	var buttons []*widget.Button
	walkVisible(top, func(o fyne.CanvasObject) bool {
		if b, ok := o.(*widget.Button); ok {
			buttons = append(buttons, b)
		}
		return true
	})
	for _, label := range dismissLabels {
		for _, b := range buttons {
			if b.Text == label || b.Text == lang.L(label) {
				if !b.Disabled() && b.OnTapped != nil {
					b.OnTapped()
				}
				return true
			}
		}
	}
	return false
}

// walkVisible calls visit on o and everything visible inside it, walking containers and widgets'
// renderers as the driver does when it paints, until visit returns false.
func walkVisible(o fyne.CanvasObject, visit func(fyne.CanvasObject) bool) bool {
	if o == nil || !o.Visible() {
		return true
	}
	if !visit(o) {
		return false
	}
	children, _ := childrenOf(o)
	for _, ch := range children {
		if !walkVisible(ch, visit) {
			return false
		}
	}
	return true
}

// escapeCanvases are the canvases whose OnTypedKey already answers Escape.
var escapeCanvases = struct {
	sync.Mutex
	done map[fyne.Canvas]bool
}{done: map[fyne.Canvas]bool{}}

// closeDialogsOnEscape makes Escape close the canvas's top dialog when no widget has the
// keyboard, then passes other keys to the handler that was there. Calling it again does nothing.
func closeDialogsOnEscape(c fyne.Canvas) {
	escapeCanvases.Lock()
	defer escapeCanvases.Unlock()
	if escapeCanvases.done[c] {
		return
	}
	escapeCanvases.done[c] = true
	next := c.OnTypedKey()
	c.SetOnTypedKey(func(k *fyne.KeyEvent) {
		if k.Name == fyne.KeyEscape && DismissDialog(c) {
			return
		}
		if next != nil {
			next(k)
		}
	})
}

// Entry is a one-line entry for dialogs: Escape in it closes the dialog, which a widget.Entry,
// taking every key while it has the keyboard, never lets happen.
type Entry struct {
	widget.Entry
	// TabNext, when set, is where Tab takes the keyboard, past what stands between (a path's
	// Browse… button, so Tab from the path reaches the arguments typed next).
	TabNext fyne.Focusable
	shift   bool // a Shift key is down: Tab goes back as usual
}

// NewEntry makes an Entry, as widget.NewEntry makes a widget.Entry.
func NewEntry() *Entry {
	e := &Entry{}
	e.Wrapping = fyne.TextWrap(fyne.TextTruncateClip)
	e.ExtendBaseWidget(e)
	return e
}

// AcceptsTab takes Tab from the window's focus order while TabNext is set.
func (e *Entry) AcceptsTab() bool { return e.TabNext != nil || e.Entry.AcceptsTab() }

// KeyDown notes Shift for Tab, and leaves the key to the entry.
func (e *Entry) KeyDown(k *fyne.KeyEvent) {
	if k.Name == desktop.KeyShiftLeft || k.Name == desktop.KeyShiftRight {
		e.shift = true
	}
	e.Entry.KeyDown(k)
}

// KeyUp notes Shift's release, and leaves the key to the entry.
func (e *Entry) KeyUp(k *fyne.KeyEvent) {
	if k.Name == desktop.KeyShiftLeft || k.Name == desktop.KeyShiftRight {
		e.shift = false
	}
	e.Entry.KeyUp(k)
}

// TypedKey closes the dialog on Escape, moves to TabNext on Tab, and leaves every other key
// to the entry.
func (e *Entry) TypedKey(k *fyne.KeyEvent) {
	if k.Name == fyne.KeyTab && e.TabNext != nil {
		if c := fyne.CurrentApp().Driver().CanvasForObject(e); c != nil {
			if e.shift {
				c.FocusPrevious()
			} else {
				c.Focus(e.TabNext)
			}
		}
		return
	}
	if k.Name == fyne.KeyEscape {
		if c := fyne.CurrentApp().Driver().CanvasForObject(e); c != nil {
			DismissDialog(c)
		}
		return
	}
	e.Entry.TypedKey(k)
}

// textEntry gives the widget.Entry of an Entry, or of a type that embeds one.
func (e *Entry) textEntry() *widget.Entry { return &e.Entry }

// TextEntry is the widget.Entry of o (a widget.Entry, an Entry, or a type embedding an Entry),
// else nil: what ShowForm, tests and the widget map read an entry's text from, whichever it is.
func TextEntry(o any) *widget.Entry {
	switch e := o.(type) {
	case *widget.Entry:
		return e
	case interface{ textEntry() *widget.Entry }:
		return e.textEntry()
	}
	return nil
}

// childrenOf is what o shows inside it, a container's objects or a widget's renderer's, and
// whether it clips them (container.Clip).
func childrenOf(o fyne.CanvasObject) (children []fyne.CanvasObject, clips bool) {
	switch x := o.(type) {
	case *fyne.Container:
		return x.Objects, false
	case fyne.Widget:
		if rd := widgetRenderer(x); rd != nil {
			_, clips = rd.(interface{ IsClip() })
			return rd.Objects(), clips
		}
	}
	return nil, false
}
