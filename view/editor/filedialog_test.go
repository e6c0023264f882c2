package editor

import (
	"path/filepath"
	"slices"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/widget"

	"androprof/internal/viewtest"
	"androprof/model/cost"
	"androprof/view/ui"
)

// Every way into a file dialog asks for a path, and its Browse… opens Fyne's file dialog and leaves the program running. Before the fix each
// of these panicked in Fyne's FileDialog.MinSize (Resize before Show) and closed both windows,
// the unsaved-changes prompt's Save among them.
func TestEveryFileDialogOpens(t *testing.T) {
	cases := []struct {
		name string
		open func(t *testing.T, v *View)
	}{
		{"Open (Ctrl+O)", func(t *testing.T, v *View) { viewtest.PressShortcut(t, v.Window, fyne.KeyO, ui.Primary) }},
		{"Save As (Ctrl+Shift+S)", func(t *testing.T, v *View) { viewtest.PressShortcut(t, v.Window, fyne.KeyS, ui.PrimaryShift) }},
		{"Import QEMU log (Ctrl+I)", func(t *testing.T, v *View) { viewtest.PressShortcut(t, v.Window, fyne.KeyI, ui.Primary) }},
		{"Save of a new profile (Ctrl+S)", func(t *testing.T, v *View) {
			viewtest.Must(t, v.ed.NewProfile("Fresh", cost.ARM))
			v.Reload()
			viewtest.PressShortcut(t, v.Window, fyne.KeyS, ui.Primary)
		}},
		{"Save in the unsaved-changes prompt", func(t *testing.T, v *View) {
			viewtest.Must(t, v.ed.NewProfile("Fresh", cost.ARM))
			v.Reload()
			viewtest.Must(t, v.ed.AddCategory("Mine", 1, 1))
			viewtest.PressShortcut(t, v.Window, fyne.KeyO, ui.Primary) // asks first: unsaved changes
			viewtest.TapDialogButton(t, v.Window, "Save")              // no file yet: Save asks where
		}},
		{"Save PNG of a chart", func(t *testing.T, v *View) {
			ui.AskSavePath(v.Window, "chart", ".png", func(string) error { return nil })
		}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, v := newTestEditor(t)
			c.open(t, v)
			viewtest.TapDialogButton(t, v.Window, "Browse…") // the path dialog's second way in
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
	viewtest.Must(t, v.ed.NewProfile("Typed", cost.ARM))
	v.Reload()
	viewtest.Must(t, v.ed.AddCategory("Mine", 2, 0.5))
	dir := t.TempDir()

	viewtest.PressShortcut(t, v.Window, fyne.KeyS, ui.PrimaryShift)
	typePath(t, v.Window, filepath.Join(dir, "nosuchfolder", "p.xml"))
	if top := v.Window.Canvas().Overlays().Top(); top == nil || !hasButton(top, "Browse…") {
		t.Fatal("a path in a missing folder closed the dialog")
	}
	typePath(t, v.Window, filepath.Join(dir, "typed")) // no extension: .xml is added
	want := filepath.Join(dir, "typed.xml")
	if v.ed.Path() != want {
		t.Fatalf("saved to %q, want %q", v.ed.Path(), want)
	}

	viewtest.Must(t, v.ed.NewProfile("Other", cost.ARM))
	v.Reload()
	viewtest.PressShortcut(t, v.Window, fyne.KeyO, ui.Primary)
	viewtest.TapDialogButton(t, v.Window, "Discard") // the new profile was never saved
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
		if e := ui.TextEntry(o); e != nil && top != nil && hasButton(top, "Browse…") {
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
