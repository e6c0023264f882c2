package view

import (
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"

	"androprof/controller"
	"androprof/internal/viewtest"
	"androprof/view/ui"
)

// quit does what File ▸ Quit (Ctrl+Q) of w does: its own action, or, with none, the desktop
// driver's, which closes every window as its close button would: the analysis window at once,
// the editor only after asking.
func quit(t *testing.T, w, analysis fyne.Window) {
	t.Helper()
	it := menuItem(w, "Quit")
	if it == nil || !it.IsQuit {
		t.Fatalf("%q has no Quit in its menu", w.Title())
	}
	if it.Action != nil {
		it.Action()
		return
	}
	analysis.Close()
}

// Ctrl+Q in the analysis window with unsaved changes in the editor used to close the analysis
// window before the editor asked, so Cancel kept the editor alone. Quit now asks first, from
// either window, and Cancel closes nothing; Discard closes both.
func TestQuitAsksAboutUnsavedChangesBeforeClosingAnything(t *testing.T) {
	for _, from := range []string{"analysis", "editor"} {
		t.Run(from, func(t *testing.T) {
			a := test.NewTempApp(t)
			ed := controller.NewEditor()
			wb := NewWorkbench(a, ed, controller.NewWorkspace(nil), nil, ui.NewQueuedBackground)
			edWin, anWin := wb.ShowEditor(), wb.ShowAnalysis()
			viewtest.Must(t, ed.AddCategory("Unsaved", 1, 1))
			w := map[string]fyne.Window{"analysis": anWin, "editor": edWin}[from]
			open := len(a.Driver().AllWindows())

			quit(t, w, anWin)
			if n := len(a.Driver().AllWindows()); n != open || wb.AnalysisView() == nil {
				t.Fatalf("Quit closed windows before asking: %d of %d open", n, open)
			}
			viewtest.TapDialogButton(t, edWin, "Cancel")
			if n := len(a.Driver().AllWindows()); n != open {
				t.Fatalf("after Cancel %d of %d windows are open", n, open)
			}
			quit(t, w, anWin)
			viewtest.TapDialogButton(t, edWin, "Discard")
			if n := len(a.Driver().AllWindows()); n != open-2 || wb.AnalysisView() != nil || wb.EditorView() != nil {
				t.Fatalf("after Discard %d of %d windows are open, want neither of the workbench's", n, open)
			}
		})
	}
}
