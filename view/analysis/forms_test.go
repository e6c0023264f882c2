package analysis

import (
	"os"
	"path/filepath"
	"slices"
	"testing"

	"androprof/internal/viewtest"
	"androprof/view/ui"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/widget"
)

// The Run program and Import forms, filled in as a person does and submitted with an empty run
// name, name the run after the program or file (as the command line does) instead of closing
// without a word; with nothing chosen they say so.
func TestFormsWithoutRunNameStillRun(t *testing.T) {
	v, _ := openAnalysis(t)
	v.Runs.askRunProgram()
	viewtest.TypeInto(t, v.Window, programPlaceHolder, "/bin/prog")
	viewtest.TapDialogButton(t, v.Window, "Run")
	v.Wait()
	if v.sel.run != "prog" || !slices.Contains(v.RunNames(), "prog") {
		t.Fatalf("Run with no name: selected %q, runs %v", v.sel.run, v.RunNames())
	}

	src := filepath.Join(t.TempDir(), "sieve.log")
	viewtest.Must(t, os.WriteFile(src, []byte("x"), 0o644))
	v.Runs.askImport()
	viewtest.TypeInto(t, v.Window, "a QEMU log or a folder of them", src)
	typeIntoEmptied(t, v.Window, "sieve")
	viewtest.TapDialogButton(t, v.Window, "Import")
	v.Wait()
	if v.sel.run != "sieve" {
		t.Fatalf("Import with no name: selected %q, runs %v", v.sel.run, v.RunNames())
	}

	v.Runs.askRunProgram()
	viewtest.TapDialogButton(t, v.Window, "Run")
	if top := v.Window.Canvas().Overlays().Top(); top == nil || !hasText(top, "Choose a program to run first.") {
		t.Fatal("Run with no program says nothing")
	}
}

// typeIntoEmptied empties the top dialog's entry that holds text, the way a user selects and
// deletes it.
func typeIntoEmptied(t *testing.T, w fyne.Window, text string) {
	t.Helper()
	for _, o := range test.LaidOutObjects(w.Canvas().Overlays().Top()) {
		if e := ui.TextEntry(o); e != nil && e.Text == text {
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
