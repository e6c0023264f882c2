package ui

import (
	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/widget"
)

// ChosenPath adapts a file dialog's callback to fn(path): errors are shown, a cancel does
// nothing, and the reader or writer is closed at once because the editor and the importers
// open files by path themselves.
func ChosenPath[F interface {
	URI() fyne.URI
	Close() error
}](parent fyne.Window, fn func(path string)) func(F, error) {
	return func(f F, err error) {
		if err != nil {
			ShowProblem(parent, "open the file", "", err)
			return
		}
		if any(f) == nil {
			return // cancelled
		}
		path := f.URI().Path()
		f.Close()
		fn(path)
	}
}

// ShowForm shows a form dialog wide enough for paths, with the keyboard in its first entry and
// Enter in any entry submitting it, as in any desktop dialog, but only when every entry is valid
// (Fyne 2.8 reports no error of the entry holding the focus, so its Create may still be enabled):
// otherwise the first bad entry shows its error and keeps the cursor. Escape cancels it; inside
// an entry only if the entry is an Entry (pass its widget.Entry), as a widget.Entry keeps Escape.
func ShowForm(win fyne.Window, d *dialog.FormDialog, entries ...*widget.Entry) {
	submit := func(string) {
		for _, e := range entries {
			if e.Validator != nil && e.Validator(e.Text) != nil {
				win.Canvas().Unfocus() // the entry reports its error as it loses the focus
				win.Canvas().Focus(shownEntry(win, e))
				return
			}
		}
		d.Submit()
	}
	for _, e := range entries {
		e.OnSubmitted = submit
	}
	d.Resize(fyne.NewSize(620, d.MinSize().Height))
	d.Show()
	closeDialogsOnEscape(win.Canvas())
	win.Canvas().Focus(shownEntry(win, entries[0]))
}

// shownEntry is the object the top dialog shows for e: e itself, or the Entry around it, which
// is what must get the keyboard (focusing the inner widget.Entry focuses nothing shown).
func shownEntry(win fyne.Window, e *widget.Entry) fyne.Focusable {
	var shown fyne.Focusable = e
	walkVisible(win.Canvas().Overlays().Top(), func(o fyne.CanvasObject) bool {
		if f, ok := o.(fyne.Focusable); ok && TextEntry(o) == e {
			shown = f
			return false
		}
		return true
	})
	return shown
}
