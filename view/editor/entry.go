package editor

import (
	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/widget"

	"androprof/view/ui"
)

// prefill puts text into e selected, as a desktop dialog's field is: what is typed next replaces
// it. widget.Entry.SetText leaves the caret before the text, so typing 3 into a Cycles field
// holding 1 gave "31". The selection shows only while e has the focus and lasts until the
// caret moves, so Tab into the field and typing replaces it, and a click places the caret.
func prefill(e *widget.Entry, text string) {
	e.SetText(text)
	e.TypedShortcut(&fyne.ShortcutSelectAll{})
}

// dialogEntry is an entry for a custom dialog: the widget.Entry the code reads and writes, and
// the ui.Entry around it that the dialog shows, in which Escape closes the dialog.
func dialogEntry() (*widget.Entry, *ui.Entry) {
	e := ui.NewEntry()
	return &e.Entry, e
}
