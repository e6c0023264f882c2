package view

import (
	"context"
	"database/sql"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"

	"androprof/controller"
	"androprof/internal/viewtest"
	"androprof/model/cost"
	"androprof/view/ui"
)

// menuItem is the item labelled label in w's main menu, submenus included; nil when there is none.
func menuItem(w fyne.Window, label string) *fyne.MenuItem {
	var find func(items []*fyne.MenuItem) *fyne.MenuItem
	find = func(items []*fyne.MenuItem) *fyne.MenuItem {
		for _, it := range items {
			if it.Label == label {
				return it
			}
			if it.ChildMenu != nil {
				if found := find(it.ChildMenu.Items); found != nil {
					return found
				}
			}
		}
		return nil
	}
	for _, m := range w.MainMenu().Items {
		if it := find(m.Items); it != nil {
			return it
		}
	}
	return nil
}

// Each window opens the other, once: the editor's Window ▸ Analysis window and the analysis
// window's Ctrl+E.
func TestWindowsOpenEachOther(t *testing.T) {
	wb := NewWorkbench(test.NewTempApp(t), controller.NewEditor(), controller.NewWorkspace(nil), nil, ui.NewQueuedBackground)
	ed := wb.ShowEditor()
	if wb.ShowEditor() != ed {
		t.Fatal("a second ShowEditor made a second window")
	}
	menuItem(ed, "Analysis window").Action()
	if wb.AnalysisView() == nil {
		t.Fatal("the editor's Analysis command opened nothing")
	}
	if ed.Canvas().Size().Width < 1 {
		t.Error("editor window has no size")
	}
	menuItem(ed, "Keyboard shortcuts").Action() // must not panic

	wb = NewWorkbench(test.NewTempApp(t), controller.NewEditor(), controller.NewWorkspace(nil), nil, ui.NewQueuedBackground)
	viewtest.PressShortcut(t, wb.ShowAnalysis(), fyne.KeyE, ui.Primary)
	editor := false
	for _, w := range fyne.CurrentApp().Driver().AllWindows() {
		editor = editor || strings.Contains(w.Title(), "Instruction categorization")
	}
	if !editor || wb.EditorView() == nil {
		t.Error("Ctrl+E in the analysis window opened no editor")
	}
}

// The analysis window's Edit opens the profile shown in the editor window.
func TestAnalysisEditOpensEditor(t *testing.T) {
	db := viewtest.OpenDB(t, filepath.Join(t.TempDir(), "w.db"))
	if err := db.SaveProfile(context.Background(), viewtest.StoredProfile()); err != nil {
		t.Fatal(err)
	}
	wb := NewWorkbench(test.NewTempApp(t), controller.NewEditor(), controller.NewWorkspace(db), nil, ui.NewQueuedBackground)
	win := wb.ShowAnalysis()
	if win.Title() != "AndroProf — Analysis" {
		t.Errorf("title %q", win.Title())
	}
	v := wb.AnalysisView()
	v.Wait()
	i := slices.Index(v.Browser.ProfileNames(), "Stored test profile")
	if i < 0 {
		t.Fatalf("stored profile not listed: %v", v.Browser.ProfileNames())
	}
	v.Browser.Profiles.Select(i)
	v.Wait() // the profile is read off the UI goroutine
	test.Tap(v.Browser.Edit)
	if wb.EditorView() == nil || !strings.Contains(wb.EditorView().Window.Title(), "Stored test profile") {
		t.Fatal("Edit did not open the profile in the editor")
	}
}

func TestEditingAnotherProfileAsksAboutUnsavedChanges(t *testing.T) {
	ed := controller.NewEditor()
	viewtest.Must(t, ed.AddCategory("Mine", 1, 1)) // unsaved
	wb := NewWorkbench(test.NewTempApp(t), ed, controller.NewWorkspace(nil), nil, ui.NewQueuedBackground)
	w := wb.ShowEditor()

	wb.Edit(viewtest.StoredProfile())
	viewtest.TapDialogButton(t, w, "Cancel")
	if ed.Profile().Category("Mine") == nil || !ed.Dirty() {
		t.Fatal("Cancel replaced the edited profile")
	}

	wb.Edit(viewtest.StoredProfile())
	viewtest.TapDialogButton(t, w, "Discard")
	if ed.Profile().Name != "Stored test profile" || ed.Dirty() {
		t.Fatalf("Discard did not open the other profile: %q, dirty %v", ed.Profile().Name, ed.Dirty())
	}
	if got := wb.EditorView().Category.Options; !slices.Equal(got, []string{"Load", cost.UndefinedCategory}) {
		t.Errorf("category chooser offers %v", got)
	}
}

// A workspace written by a newer androprof opens read-only, and the analysis window says so.
func TestReadOnlyWorkspaceTitle(t *testing.T) {
	path := filepath.Join(t.TempDir(), "w.db")
	viewtest.OpenDB(t, path).Close()
	raw, err := sql.Open("sqlite", path)
	viewtest.Must(t, err)
	_, err = raw.Exec(`PRAGMA user_version = 999`)
	viewtest.Must(t, err)
	raw.Close()
	db := viewtest.OpenDB(t, path)
	wb := NewWorkbench(test.NewTempApp(t), controller.NewEditor(), controller.NewWorkspace(db), nil, ui.NewQueuedBackground)
	if title := wb.ShowAnalysis().Title(); title != "AndroProf — Analysis (read-only workspace)" {
		t.Errorf("title %q", title)
	}
	wb.AnalysisView().Wait()
}
