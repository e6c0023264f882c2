package view

import (
	"context"
	"fmt"
	"slices"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"androprof/controller"
	"androprof/model"
)

// EditorView is the instruction-categorization window: uncategorised instructions on the left,
// the chosen category on the right, move buttons between. Its widgets are fields so tests
// and the workbench can drive it as a user would.
type EditorView struct {
	Window        fyne.Window
	Uncategorized *InstructionList // left: instructions in no category
	Members       *InstructionList // right: the chosen category's instructions
	Category      *widget.Select   // the chosen category, Undefined last
	Cycles, Power *widget.Entry    // the chosen category's costs; applied as typed when valid
	CostError     *widget.Label    // why the typed costs were not applied
	Citations     *widget.Label    // where the chosen category's costs come from
	Add, Remove   *widget.Button   // move ticked rows into / out of the chosen category

	NewCategory, RenameCategory, DeleteCategory *widget.Button

	ed       *controller.Editor
	profiles controller.Profiles
	commands []*command
	// importing cancels the running log import; nil when none runs.
	importing    context.CancelFunc
	loadingCosts bool
	// onOpenAnalysis opens the other window; onKept tells it the stored profiles changed.
	onOpenAnalysis, onKept func()
}

// newEditorView fills win; it takes the window so tests can pass one from test.NewTempApp.
func newEditorView(win fyne.Window, ed *controller.Editor, profiles controller.Profiles, openAnalysis, kept func()) *EditorView {
	v := &EditorView{Window: win, ed: ed, profiles: profiles, onOpenAnalysis: openAnalysis, onKept: kept}
	v.buildCategoryPanel()
	v.Uncategorized = newInstructionList(ed.Uncategorized, func() string { return "uncategorised" })
	v.Members = newInstructionList(func(f controller.Filter) []controller.Row {
		return ed.CategoryRows(v.Category.Selected, f)
	}, func() string { return "in " + v.Category.Selected })
	v.Uncategorized.changed, v.Members.changed = v.updateButtons, v.updateButtons
	v.Add = widget.NewButtonWithIcon("Add", theme.NavigateNextIcon(), v.addPicked)
	v.Add.IconPlacement = widget.ButtonIconTrailingText
	v.Remove = widget.NewButtonWithIcon("Remove", theme.NavigateBackIcon(), v.removePicked)

	v.commands = v.buildCommands()
	win.SetMainMenu(v.mainMenu())
	addShortcuts(win.Canvas(), v.commands)
	win.SetContent(v.layout())
	v.Reload()
	return v
}

func (v *EditorView) layout() fyne.CanvasObject {
	left := container.NewBorder(heading("Uncategorised instructions"), nil, nil, nil, v.Uncategorized.Content())
	middle := container.NewCenter(container.NewVBox(v.Add, v.Remove))
	right := container.NewBorder(nil, nil, middle, nil, v.categoryPanel())
	split := container.NewHSplit(left, right)
	split.Offset = 0.45
	return container.NewBorder(v.toolbar(), nil, nil, nil, split)
}

func (v *EditorView) toolbar() fyne.CanvasObject {
	b := func(label string, icon fyne.Resource, run func()) *widget.Button {
		btn := widget.NewButtonWithIcon(label, icon, run)
		btn.Importance = widget.LowImportance
		return btn
	}
	keep := b("Keep in workspace", theme.StorageIcon(), v.keepInWorkspace)
	if v.profiles.Store == nil {
		keep.Disable()
	}
	return container.NewHBox(
		b("New…", theme.DocumentCreateIcon(), v.askNewProfile),
		b("Open…", theme.FolderOpenIcon(), v.askOpen),
		b("Built-in…", theme.ListIcon(), v.askBuiltin),
		b("Save", theme.DocumentSaveIcon(), func() { v.save(nil) }),
		b("Save As…", theme.DocumentSaveIcon(), func() { v.saveAs(nil) }),
		keep,
		widget.NewSeparator(),
		b("Import QEMU log…", theme.UploadIcon(), v.askImportLog),
		b("Add instruction…", theme.ContentAddIcon(), v.askAddInstruction),
		widget.NewSeparator(),
		b("Analysis", theme.GridIcon(), v.openAnalysis),
	)
}

func heading(text string) *widget.Label {
	return widget.NewLabelWithStyle(text, fyne.TextAlignLeading, fyne.TextStyle{Bold: true})
}

// Reload shows the editor's profile afresh: after New, Open, or a profile sent from elsewhere.
func (v *EditorView) Reload() {
	isas := v.ed.Profile().ISAs
	v.Uncategorized.SetISAs(isas)
	v.Members.SetISAs(isas)
	v.reloadCategories("")
}

// reloadCategories refills the chooser, selecting want (or the current choice, or the first).
func (v *EditorView) reloadCategories(want string) {
	names := v.ed.Profile().CategoryNames()
	if want == "" {
		want = v.Category.Selected
	}
	if !slices.Contains(names, want) {
		want = names[0]
	}
	v.Category.Options = names
	v.Category.Refresh()
	if v.Category.Selected == want {
		v.showCategory()
	} else {
		v.Category.SetSelected(want) // calls showCategory
	}
}

// refreshLists re-reads both lists and the title after the model changed.
func (v *EditorView) refreshLists() {
	v.Uncategorized.Reload()
	v.Members.Reload()
	v.updateTitle()
}

func (v *EditorView) updateTitle() { v.Window.SetTitle(editorTitle(v.ed)) }

func editorTitle(ed *controller.Editor) string {
	t := "AndroProf — Instruction categorization: " + ed.Profile().Name
	if ed.Dirty() {
		t += " •"
	}
	return t
}

func (v *EditorView) updateButtons() {
	into := v.Category.Selected != model.UndefinedCategory
	enable(v.Add, into && len(v.Uncategorized.Picked()) > 0)
	enable(v.Remove, into && len(v.Members.Picked()) > 0)
	enable(v.RenameCategory, into)
	enable(v.DeleteCategory, into)
}

func enable(w fyne.Disableable, on bool) {
	if w == nil {
		return
	}
	if on {
		w.Enable()
	} else {
		w.Disable()
	}
}

// addPicked moves the ticked uncategorised instructions into the chosen category.
func (v *EditorView) addPicked() {
	v.move(v.Uncategorized.Picked(), v.Category.Selected)
}

// removePicked sends the ticked instructions of the chosen category back to Undefined.
func (v *EditorView) removePicked() {
	v.move(v.Members.Picked(), model.UndefinedCategory)
}

func (v *EditorView) move(ins []model.Instruction, to string) {
	if len(ins) == 0 || v.Category.Selected == model.UndefinedCategory {
		return
	}
	if err := v.ed.Move(ins, to); err != nil {
		dialog.ShowError(err, v.Window)
		return
	}
	v.refreshLists()
}

// describe says what a category holds, for confirmations.
func describe(n int) string {
	if n == 1 {
		return "1 instruction"
	}
	return fmt.Sprintf("%d instructions", n)
}
