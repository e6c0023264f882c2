package view

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/widget"

	"androprof/model"
)

// Every way into a file dialog asks for a path, and its Browse… opens Fyne's file dialog and leaves the program running. Before the fix each
// of these panicked in Fyne's FileDialog.MinSize (Resize before Show) and closed both windows,
// the unsaved-changes prompt's Save among them.
func TestEveryFileDialogOpens(t *testing.T) {
	cases := []struct {
		name string
		open func(t *testing.T, v *EditorView)
	}{
		{"Open (Ctrl+O)", func(t *testing.T, v *EditorView) { pressShortcut(t, v.Window, fyne.KeyO, primary) }},
		{"Save As (Ctrl+Shift+S)", func(t *testing.T, v *EditorView) { pressShortcut(t, v.Window, fyne.KeyS, primaryShift) }},
		{"Import QEMU log (Ctrl+I)", func(t *testing.T, v *EditorView) { pressShortcut(t, v.Window, fyne.KeyI, primary) }},
		{"Save of a new profile (Ctrl+S)", func(t *testing.T, v *EditorView) {
			must(t, v.ed.NewProfile("Fresh", model.ARM))
			v.Reload()
			pressShortcut(t, v.Window, fyne.KeyS, primary)
		}},
		{"Save in the unsaved-changes prompt", func(t *testing.T, v *EditorView) {
			must(t, v.ed.NewProfile("Fresh", model.ARM))
			v.Reload()
			must(t, v.ed.AddCategory("Mine", 1, 1))
			pressShortcut(t, v.Window, fyne.KeyO, primary) // asks first: unsaved changes
			tapDialogButton(t, v.Window, "Save")           // no file yet: Save asks where
		}},
		{"Save PNG of a chart", func(t *testing.T, v *EditorView) {
			askSavePath(v.Window, "chart", ".png", func(string) error { return nil })
		}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, v := newTestEditor(t)
			c.open(t, v)
			tapDialogButton(t, v.Window, "Browse…") // the path dialog's second way in
			if !showsFileDialog(v.Window) {
				t.Fatal("no file dialog is shown")
			}
		})
	}
}

// A path typed into the path dialog and accepted with Enter is used: Save As writes the profile
// there and Open reads it back. A path naming no file keeps the dialog open and saves nothing.
func TestPathDialogTakesTypedPath(t *testing.T) {
	_, v := newTestEditor(t)
	must(t, v.ed.NewProfile("Typed", model.ARM))
	v.Reload()
	must(t, v.ed.AddCategory("Mine", 2, 0.5))
	dir := t.TempDir()

	pressShortcut(t, v.Window, fyne.KeyS, primaryShift)
	typePath(t, v.Window, filepath.Join(dir, "nosuchfolder", "p.xml"))
	if top := v.Window.Canvas().Overlays().Top(); top == nil || !hasButton(top, "Browse…") {
		t.Fatal("a path in a missing folder closed the dialog")
	}
	typePath(t, v.Window, filepath.Join(dir, "typed")) // no extension: .xml is added
	want := filepath.Join(dir, "typed.xml")
	if v.ed.Path() != want {
		t.Fatalf("saved to %q, want %q", v.ed.Path(), want)
	}

	must(t, v.ed.NewProfile("Other", model.ARM))
	v.Reload()
	pressShortcut(t, v.Window, fyne.KeyO, primary)
	tapDialogButton(t, v.Window, "Discard") // the new profile was never saved
	typePath(t, v.Window, want)
	if p := v.ed.Profile(); p.Name != "Typed" || !slices.Contains(p.CategoryNames(), "Mine") {
		t.Fatalf("reopened %q with categories %v", p.Name, p.CategoryNames())
	}
}

// typePath replaces the path dialog's path with p and presses Enter, as a person does.
func typePath(t *testing.T, w fyne.Window, p string) {
	t.Helper()
	top := w.Canvas().Overlays().Top()
	for _, o := range test.LaidOutObjects(top) {
		if e, ok := o.(*widget.Entry); ok && top != nil && hasButton(top, "Browse…") {
			e.SetText(p)
			e.TypedKey(&fyne.KeyEvent{Name: fyne.KeyReturn})
			return
		}
	}
	t.Fatal("no path dialog is shown")
}

func hasButton(o fyne.CanvasObject, text string) bool {
	for _, o := range test.LaidOutObjects(o) {
		if b, ok := o.(*widget.Button); ok && b.Text == text {
			return true
		}
	}
	return false
}

// showsFileDialog tells whether the window's top overlay is a file dialog: it has the dialog's
// path entry for a file name or its folder list, and a Cancel button.
func showsFileDialog(w fyne.Window) bool {
	top := w.Canvas().Overlays().Top()
	if top == nil {
		return false
	}
	cancel, list := false, false
	for _, o := range test.LaidOutObjects(top) {
		switch o := o.(type) {
		case *widget.Button:
			cancel = cancel || o.Text == "Cancel"
		case *widget.List, *widget.GridWrap:
			list = true
		}
	}
	return cancel && list
}

// The Run program and Import forms, filled in as a person does and submitted with an empty run
// name, name the run after the program or file (as the command line does) instead of closing
// without a word; with nothing chosen they say so.
func TestFormsWithoutRunNameStillRun(t *testing.T) {
	v, _ := openAnalysis(t)
	v.Runs.askRunProgram()
	typeInto(t, v.Window, "a static ARM or MIPS Linux program", "/bin/prog")
	tapDialogButton(t, v.Window, "Run")
	v.Wait()
	if v.sel.run != "prog" || !slices.Contains(v.RunNames(), "prog") {
		t.Fatalf("Run with no name: selected %q, runs %v", v.sel.run, v.RunNames())
	}

	src := filepath.Join(t.TempDir(), "sieve.log")
	must(t, os.WriteFile(src, []byte("x"), 0o644))
	v.Runs.askImport()
	typeInto(t, v.Window, "a QEMU log or a folder of them", src)
	typeIntoEmptied(t, v.Window, "sieve")
	tapDialogButton(t, v.Window, "Import")
	v.Wait()
	if v.sel.run != "sieve" {
		t.Fatalf("Import with no name: selected %q, runs %v", v.sel.run, v.RunNames())
	}

	v.Runs.askRunProgram()
	tapDialogButton(t, v.Window, "Run")
	if top := v.Window.Canvas().Overlays().Top(); top == nil || !hasText(top, "Choose a program to run first.") {
		t.Fatal("Run with no program says nothing")
	}
}

// typeInto types text into the top dialog's entry whose placeholder starts with hint.
func typeInto(t *testing.T, w fyne.Window, hint, text string) {
	t.Helper()
	for _, o := range test.LaidOutObjects(w.Canvas().Overlays().Top()) {
		if e, ok := o.(*widget.Entry); ok && strings.HasPrefix(e.PlaceHolder, hint) {
			test.Type(e, text)
			return
		}
	}
	t.Fatalf("no entry %q in the dialog", hint)
}

// typeIntoEmptied empties the top dialog's entry that holds text, the way a user selects and
// deletes it.
func typeIntoEmptied(t *testing.T, w fyne.Window, text string) {
	t.Helper()
	for _, o := range test.LaidOutObjects(w.Canvas().Overlays().Top()) {
		if e, ok := o.(*widget.Entry); ok && e.Text == text {
			e.SetText("")
			return
		}
	}
	t.Fatalf("no entry holds %q", text)
}

func hasText(o fyne.CanvasObject, text string) bool {
	for _, o := range test.LaidOutObjects(o) {
		if l, ok := o.(*widget.Label); ok && l.Text == text {
			return true
		}
	}
	return false
}
