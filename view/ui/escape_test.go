package ui_test

import (
	"context"
	"errors"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/widget"

	"androprof/internal/viewtest"
	"androprof/view/ui"
)

// pressKey sends a key as the desktop driver does: to the focused widget, else to the canvas.
func pressKey(w fyne.Window, key fyne.KeyName) {
	ev := &fyne.KeyEvent{Name: key}
	if f := w.Canvas().Focused(); f != nil {
		f.TypedKey(ev)
	} else if h := w.Canvas().OnTypedKey(); h != nil {
		h(ev)
	}
}

// escapeWindow is a window with its shortcuts, as the analysis and editor windows have.
func escapeWindow(t *testing.T) fyne.Window {
	w := test.NewTempApp(t).NewWindow("t")
	w.Resize(fyne.NewSize(1000, 700))
	ui.AddShortcuts(w.Canvas(), []*ui.Command{{Label: "Import…", Key: fyne.KeyI, Mod: ui.Primary, Run: func() {}}})
	return w
}

// Escape closes every kind of dialog the windows open, as Cancel (or Close, No, OK) does: the
// dialog's own answer to a cancel runs. It used to close none.
func TestEscapeClosesEveryDialog(t *testing.T) {
	for _, c := range []struct {
		name string
		show func(w fyne.Window, cancelled func())
	}{
		{"a path dialog, its entry holding the keyboard", func(w fyne.Window, _ func()) {
			ui.AskPath(w, ui.PathRequest{Title: "Open", Action: "Open", Kind: ui.OpenFile, Folder: t.TempDir()},
				func(string) { t.Error("Escape accepted the path") })
		}},
		{"a form", func(w fyne.Window, cancelled func()) {
			name := ui.NewEntry()
			d := dialog.NewForm("New", "Create", "Cancel", []*widget.FormItem{widget.NewFormItem("Name", name)},
				func(ok bool) {
					if !ok {
						cancelled()
					}
				}, w)
			ui.ShowForm(w, d, &name.Entry)
		}},
		{"a problem", func(w fyne.Window, _ func()) { ui.ShowProblem(w, "import", "x", errors.New("x: bad")) }},
		{"the keyboard shortcuts", func(w fyne.Window, _ func()) { ui.ShowKeys(nil, "note", w) }},
		{"a confirmation", func(w fyne.Window, cancelled func()) {
			dialog.ShowConfirm("Delete run", "Delete?", func(yes bool) {
				if !yes {
					cancelled()
				}
			}, w)
		}},
		{"an information", func(w fyne.Window, _ func()) { dialog.ShowInformation("Nothing chosen", "Choose a file.", w) }},
	} {
		t.Run(c.name, func(t *testing.T) {
			w := escapeWindow(t)
			called := false
			c.show(w, func() { called = true })
			if w.Canvas().Overlays().Top() == nil {
				t.Fatal("no dialog shown")
			}
			pressKey(w, fyne.KeyEscape)
			if w.Canvas().Overlays().Top() != nil {
				t.Fatalf("Escape left %s open", c.name)
			}
			if c.name == "a form" || c.name == "a confirmation" {
				if !called {
					t.Errorf("Escape closed %s without its cancel answer", c.name)
				}
			}
		})
	}
}

// Escape in a progress dialog cancels the work, as its Cancel button does.
func TestEscapeCancelsProgress(t *testing.T) {
	for _, show := range []func(context.CancelFunc, fyne.Window){
		func(stop context.CancelFunc, w fyne.Window) {
			ui.NewProgressDialog(ui.NewQueuedBackground(), "Importing", "Reading…", stop, w)
		},
		func(stop context.CancelFunc, w fyne.Window) { ui.NewActivityDialog("Running", "Starting…", stop, w) },
	} {
		w := escapeWindow(t)
		stopped := 0
		show(func() { stopped++ }, w)
		pressKey(w, fyne.KeyEscape)
		pressKey(w, fyne.KeyEscape) // once cancelling, a second Escape does nothing more
		if stopped != 1 {
			t.Errorf("Escape in a progress dialog cancelled %d times, want once", stopped)
		}
	}
}

// Escape in Fyne's file dialog (Browse…) closes it and leaves the path dialog; a second Escape
// closes that too.
func TestEscapeClosesFileDialogThenPathDialog(t *testing.T) {
	w := escapeWindow(t)
	ui.AskPath(w, ui.PathRequest{Title: "Open", Action: "Open", Kind: ui.OpenFile, Folder: t.TempDir()}, func(string) {})
	tapButton(t, w, "Browse…")
	if n := len(w.Canvas().Overlays().List()); n != 2 {
		t.Fatalf("Browse… shows %d overlays, want 2", n)
	}
	pressKey(w, fyne.KeyEscape)
	if n := len(w.Canvas().Overlays().List()); n != 1 || dialogButton(w, "Browse…") == nil {
		t.Fatalf("after Escape in the file dialog %d overlays, want the path dialog alone", n)
	}
	pressKey(w, fyne.KeyEscape)
	if n := len(w.Canvas().Overlays().List()); n != 0 {
		t.Fatalf("after a second Escape %d overlays, want none", n)
	}
}

// Escape with no dialog open does nothing, and the windows' shortcuts still work.
func TestEscapeWithoutDialogKeepsShortcuts(t *testing.T) {
	w := test.NewTempApp(t).NewWindow("t")
	ran := 0
	ui.AddShortcuts(w.Canvas(), []*ui.Command{{Label: "Import…", Key: fyne.KeyI, Mod: ui.Primary, Run: func() { ran++ }}})
	pressKey(w, fyne.KeyEscape)
	viewtest.PressShortcut(t, w, fyne.KeyI, ui.Primary)
	if ran != 1 {
		t.Errorf("Ctrl+I ran %d times after Escape, want once", ran)
	}
}
