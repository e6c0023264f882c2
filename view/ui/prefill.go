package ui

import (
	"path/filepath"
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/driver/desktop"
	"fyne.io/fyne/v2/widget"
)

// A prefilled entry takes what is typed as a desktop dialog's does. widget.Entry.SetText leaves
// the caret before the text, so typing used to go in front of it ("sieve-arm.log/tmp/").

// prefillFolder puts folder into e, ending with a separator, with the caret after it: a name
// typed next names a file in that folder.
func prefillFolder(e *widget.Entry, folder string) {
	if !strings.HasSuffix(folder, string(filepath.Separator)) {
		folder += string(filepath.Separator)
	}
	e.SetText(folder)
	e.TypedKey(&fyne.KeyEvent{Name: fyne.KeyEnd})
}

// prefillFile puts a suggested file's path into e with its name, not its extension, selected,
// as GTK's Save dialog does: a name typed next replaces it and keeps the folder and the extension.
func prefillFile(e *widget.Entry, path string) {
	e.SetText(path)
	name := []rune(filepath.Base(path))
	stem := len([]rune(strings.TrimSuffix(string(name), filepath.Ext(string(name)))))
	if stem == 0 { // ".bashrc": the whole name
		stem = len(name)
	}
	start := len([]rune(path)) - len(name)
	selectRunes(e, start, start+stem)
}

// selectRunes selects runes [from, to) of a one-line entry the way Shift and the arrow keys do,
// Fyne 2.8 having no call for it.
func selectRunes(e *widget.Entry, from, to int) {
	e.TypedKey(&fyne.KeyEvent{Name: fyne.KeyHome})
	for range from {
		e.TypedKey(&fyne.KeyEvent{Name: fyne.KeyRight})
	}
	shift := &fyne.KeyEvent{Name: desktop.KeyShiftLeft}
	e.KeyDown(shift)
	for range to - from {
		e.TypedKey(&fyne.KeyEvent{Name: fyne.KeyRight})
	}
	e.KeyUp(shift)
}
