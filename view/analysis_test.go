package view

import (
	"context"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/widget"

	"androprof/controller"
	"androprof/isaprofiles"
	"androprof/model"
	"androprof/store"
)

func storedProfile() *model.Profile {
	p := model.NewProfile("Stored test profile", model.ARM)
	p.Reference = model.Reference{FrequencyGHz: 1, CPI: 1.5}
	p.Categories = []model.Category{{Name: "Load", Cycles: 2, PowerMW: 90,
		Citations:    []model.Citation{{Cost: "power", Estimate: true, Text: "guess"}},
		Instructions: []model.Instruction{{ISA: model.ARM, Mnemonic: "LDR"}}}}
	return p
}

func TestAnalysisListsBuiltinAndStoredProfiles(t *testing.T) {
	db, err := store.Open(filepath.Join(t.TempDir(), "w.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if err := db.SaveProfile(context.Background(), storedProfile()); err != nil {
		t.Fatal(err)
	}
	wb := NewWorkbench(test.NewTempApp(t), controller.NewEditor(), controller.NewWorkspace(db), nil)
	win := wb.ShowAnalysis()
	if win.Title() != "AndroProf — Analysis" {
		t.Errorf("title %q", win.Title())
	}
	av := wb.AnalysisView()
	av.Wait()
	if av.Runs.Empty.Text == "" || len(av.Runs.Names()) != 0 {
		t.Errorf("Runs shows %q and %v in an empty workspace", av.Runs.Empty.Text, av.Runs.Names())
	}
	v := av.Browser
	names := v.ProfileNames()
	for _, b := range isaprofiles.BuiltinNames() {
		if !slices.Contains(names, b) {
			t.Errorf("built-in profile %q is not listed (have %v)", b, names)
		}
	}
	i := slices.Index(names, "Stored test profile")
	if i < 0 {
		t.Fatalf("stored profile not listed: %v", names)
	}
	if got := profileSummary(v.infos[i]); got != "database · ARM · 1 category" {
		t.Errorf("summary %q", got)
	}

	v.Profiles.Select(i)
	if rows, cols := v.tableSize(); rows != 2 || cols != 5 { // Load + Undefined
		t.Fatalf("table is %d×%d", rows, cols)
	}
	load := v.categoryRows()[0]
	got := []string{}
	for c := range 5 {
		got = append(got, categoryCell(load, c))
	}
	if strings.Join(got, "|") != "Load|2|90|1|yes" {
		t.Errorf("Load row reads %v", got)
	}
	if len(v.Reference.Objects) != 12 { // six label/value pairs
		t.Errorf("reference shows %d objects", len(v.Reference.Objects))
	}

	test.Tap(v.Edit)
	if wb.EditorView() == nil || !strings.Contains(wb.EditorView().Window.Title(), "Stored test profile") {
		t.Fatal("Edit did not open the profile in the editor")
	}
}

func TestAnalysisShowsEveryBuiltin(t *testing.T) {
	wb := NewWorkbench(test.NewTempApp(t), controller.NewEditor(), controller.NewWorkspace(nil), nil)
	wb.ShowAnalysis()
	v := wb.AnalysisView().Browser
	builtins := isaprofiles.BuiltinNames()
	if got := v.ProfileNames(); !slices.Equal(got, builtins) {
		t.Fatalf("listed %v, want the built-ins %v", got, builtins)
	}
	if len(builtins) == 0 && v.Status.Text == "" {
		t.Error("an empty list does not say why")
	}
	for i := range builtins {
		v.Profiles.Select(i)
		if rows, _ := v.tableSize(); rows < 1 {
			t.Errorf("%s shows no categories", builtins[i])
		}
	}
}

func TestWindowsOpenEachOther(t *testing.T) {
	wb := NewWorkbench(test.NewTempApp(t), controller.NewEditor(), controller.NewWorkspace(nil), nil)
	ed := wb.ShowEditor()
	if wb.ShowEditor() != ed {
		t.Fatal("a second ShowEditor made a second window")
	}
	wb.EditorView().commands[cmdAnalysis].run()
	if wb.AnalysisView() == nil {
		t.Fatal("the editor's Analysis command opened nothing")
	}
	if ed.Canvas().Size().Width < 1 {
		t.Error("editor window has no size")
	}
	showShortcuts(wb.EditorView().commands, ed) // must not panic
}

// tapDialogButton taps the button labelled text in the window's top dialog.
func tapDialogButton(t *testing.T, w fyne.Window, text string) {
	t.Helper()
	top := w.Canvas().Overlays().Top()
	if top == nil {
		t.Fatalf("no dialog to tap %q in", text)
	}
	for _, o := range test.LaidOutObjects(top) {
		if b, ok := o.(*widget.Button); ok && b.Text == text {
			test.Tap(b)
			return
		}
	}
	t.Fatalf("the dialog has no %q button", text)
}

func TestEditingAnotherProfileAsksAboutUnsavedChanges(t *testing.T) {
	ed := controller.NewEditor()
	must(t, ed.AddCategory("Mine", 1, 1)) // unsaved
	wb := NewWorkbench(test.NewTempApp(t), ed, controller.NewWorkspace(nil), nil)
	w := wb.ShowEditor()

	wb.Edit(storedProfile())
	tapDialogButton(t, w, "Cancel")
	if ed.Profile().Category("Mine") == nil || !ed.Dirty() {
		t.Fatal("Cancel replaced the edited profile")
	}

	wb.Edit(storedProfile())
	tapDialogButton(t, w, "Discard")
	if ed.Profile().Name != "Stored test profile" || ed.Dirty() {
		t.Fatalf("Discard did not open the other profile: %q, dirty %v", ed.Profile().Name, ed.Dirty())
	}
	if got := wb.EditorView().Category.Options; !slices.Equal(got, []string{"Load", model.UndefinedCategory}) {
		t.Errorf("category chooser offers %v", got)
	}
}
