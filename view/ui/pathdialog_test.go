package ui_test

import (
	"path/filepath"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/widget"

	"androprof/view/ui"
)

// focusedText is the text of the entry that has the keyboard in w.
func focusedText(t *testing.T, w fyne.Window) string {
	t.Helper()
	e := ui.TextEntry(w.Canvas().Focused())
	if e == nil {
		t.Fatalf("the keyboard is in %T, not in an entry", w.Canvas().Focused())
	}
	return e.Text
}

// A path dialog prefilled with a folder or a file takes what is typed as a desktop dialog does:
// a name typed into a folder goes after it (the folder ends with a separator, so the two make a
// path), and a name typed into a suggested file replaces its name and keeps its folder and
// extension. Typing used to go before what was there ("sieve-arm.log/tmp/…/").
func TestPathDialogTypingIntoPrefilledPath(t *testing.T) {
	dir := t.TempDir()
	sep := string(filepath.Separator)
	for _, c := range []struct {
		name  string
		req   ui.PathRequest
		typed string
		want  string
	}{
		{"a folder to open from", ui.PathRequest{Kind: ui.OpenFile, Folder: dir}, "sieve-arm.log", dir + sep + "sieve-arm.log"},
		{"a folder ending in a separator", ui.PathRequest{Kind: ui.OpenFile, Folder: dir + sep}, "sieve-arm.log", dir + sep + "sieve-arm.log"},
		{"the root folder", ui.PathRequest{Kind: ui.OpenFile, Folder: sep}, "tmp", sep + "tmp"},
		{"a folder to save into", ui.PathRequest{Kind: ui.SaveFile, Folder: dir, Exts: []string{".csv"}}, "rows", dir + sep + "rows"},
		{"a file name to save as", ui.PathRequest{Kind: ui.SaveFile, Folder: dir, Name: "processes.png", Exts: []string{".png"}}, "sieve", dir + sep + "sieve.png"},
		{"a file name with no extension", ui.PathRequest{Kind: ui.SaveFile, Folder: dir, Name: "notes"}, "log", dir + sep + "log"},
	} {
		t.Run(c.name, func(t *testing.T) {
			w := test.NewTempApp(t).NewWindow("t")
			w.Resize(fyne.NewSize(900, 600))
			c.req.Title, c.req.Action = "Choose", "OK"
			ui.AskPath(w, c.req, func(string) {})
			test.Type(w.Canvas().Focused(), c.typed)
			if got := focusedText(t, w); got != c.want {
				t.Errorf("typed %q into the dialog prefilled for %s: the path reads %q, want %q", c.typed, c.name, got, c.want)
			}
		})
	}
}

// Fyne's own Save dialog (Browse… of a Save path dialog) is prefilled with the file name; typing
// replaces the name and keeps the extension there too.
func TestBrowseForSaveSelectsTheName(t *testing.T) {
	dir := t.TempDir()
	w := test.NewTempApp(t).NewWindow("t")
	w.Resize(fyne.NewSize(1000, 700))
	ui.AskPath(w, ui.PathRequest{Title: "Save", Action: "Save", Kind: ui.SaveFile, Folder: dir, Name: "chart.png",
		Exts: []string{".png"}}, func(string) {})
	tapButton(t, w, "Browse…")
	name, ok := w.Canvas().Focused().(*widget.Entry)
	if !ok {
		t.Fatalf("the file dialog's keyboard is in %T", w.Canvas().Focused())
	}
	test.Type(name, "sieve")
	if name.Text != "sieve.png" {
		t.Errorf("typed sieve into Fyne's Save dialog prefilled with chart.png: %q, want sieve.png", name.Text)
	}
}

// tapButton taps the button labelled text in the window's top dialog.
func tapButton(t *testing.T, w fyne.Window, text string) {
	t.Helper()
	if b := dialogButton(w, text); b != nil {
		test.Tap(b)
		return
	}
	t.Fatalf("the dialog has no %q button", text)
}

func dialogButton(w fyne.Window, text string) *widget.Button {
	top := w.Canvas().Overlays().Top()
	if top == nil {
		return nil
	}
	for _, o := range test.LaidOutObjects(top) {
		if b, ok := o.(*widget.Button); ok && b.Text == text && b.Visible() {
			return b
		}
	}
	return nil
}
