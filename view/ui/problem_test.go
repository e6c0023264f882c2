package ui_test

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/widget"

	"androprof/internal/viewtest"
	"androprof/store"
	"androprof/view/ui"
)

// TestProblemDialogHidesSQL: a real SQLite failure is shown as what failed and what to do;
// the driver's words are only under Details, with a button to copy them.
func TestProblemDialogHidesSQL(t *testing.T) {
	path := filepath.Join(t.TempDir(), "w.db")
	if err := os.WriteFile(path, []byte(strings.Repeat("garbage ", 200)), 0o644); err != nil {
		t.Fatal(err)
	}
	_, err := store.Open(path)
	if err == nil {
		t.Fatal("a file of garbage opened as a workspace")
	}
	w := test.NewTempApp(t).NewWindow("t")
	ui.ShowProblem(w, "open the workspace", path, err)
	top := w.Canvas().Overlays().Top()
	if top == nil {
		t.Fatal("no dialog")
	}
	var headline []string
	kept := false
	for _, o := range test.LaidOutObjects(top) {
		if l, ok := o.(*widget.Label); ok {
			if l.Text == err.Error() {
				kept = true // the Details label
			} else {
				headline = append(headline, l.Text)
			}
		}
	}
	text := strings.Join(headline, "\n")
	if !strings.Contains(text, `Could not open the workspace "`+path+`"`) || !strings.Contains(text, "workspace database failed") ||
		strings.Contains(text, err.Error()) {
		t.Errorf("dialog says %q; want words, not the driver's %q", text, err.Error())
	}
	if !kept {
		t.Errorf("the SQL error %q is not kept under Details", err.Error())
	}
	viewtest.TapDialogButton(t, w, "OK")
}

// An error already in words (a reader's "file:line: msg") is not repeated under Details.
func TestProblemDialogNoRepeatedDetails(t *testing.T) {
	w := test.NewTempApp(t).NewWindow("t")
	ui.ShowProblem(w, "import", "x", errors.New("x.trace:3: bad record"))
	for _, o := range test.LaidOutObjects(w.Canvas().Overlays().Top()) {
		if a, ok := o.(*widget.Accordion); ok {
			t.Errorf("Details shown for an error already in words: %v", a.Items[0].Title)
		}
	}
}
