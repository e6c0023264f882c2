package analysis

import (
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"

	"androprof/internal/viewtest"
	"androprof/view/ui"
)

// Escape closes the analysis window's Import dialog (Ctrl+I) while its Source entry has the
// keyboard, and a Delete run confirmation, which has no entry; before, it closed neither.
func TestEscapeClosesAnalysisDialogs(t *testing.T) {
	v, _ := openAnalysis(t)
	c := v.Window.Canvas()
	escape := func() {
		ev := &fyne.KeyEvent{Name: fyne.KeyEscape}
		if f := c.Focused(); f != nil { // as the desktop driver routes a key
			f.TypedKey(ev)
		} else if h := c.OnTypedKey(); h != nil {
			h(ev)
		}
	}

	viewtest.PressShortcut(t, v.Window, fyne.KeyI, ui.Primary)
	test.Type(c.Focused(), "/tmp/x.trace")
	if e := ui.TextEntry(c.Focused()); e == nil || e.Text != "/tmp/x.trace" {
		t.Fatalf("Ctrl+I: the keyboard is in %T, not in the Source entry", c.Focused())
	}
	escape()
	if c.Overlays().Top() != nil {
		t.Fatalf("Escape in the Import dialog left it open:\n%s", dialogTexts(v.Window))
	}

	v.Runs.List.Select(0)
	v.commands[acDelete].Run()
	if c.Overlays().Top() == nil {
		t.Fatal("Delete run… showed no confirmation")
	}
	escape()
	if c.Overlays().Top() != nil || len(v.RunNames()) == 0 {
		t.Fatalf("Escape in Delete run: dialog %q, runs %v", dialogTexts(v.Window), v.RunNames())
	}
}
