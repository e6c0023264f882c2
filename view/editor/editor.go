// Package editor is the instruction-categorization window: a cost profile's categories, the
// instructions in each and what they cost, edited, saved to a file and kept in the workspace.
package editor

import (
	"context"
	"errors"
	"slices"
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/layout"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"androprof/controller"
	"androprof/internal/human"
	"androprof/model/cost"
	"androprof/view/ui"
)

// Size is the window's first size: room for two instruction tables side by side.
var Size = fyne.NewSize(1200, 700)

// View is the instruction-categorization window: uncategorised instructions on the left,
// the chosen category on the right, move buttons between. Its widgets are fields so tests
// and the workbench can drive it as a user would.
type View struct {
	Window        fyne.Window
	Uncategorized *InstructionList // left: instructions in no category
	Members       *InstructionList // right: the chosen category's instructions
	Category      *widget.Select   // the chosen category, Undefined last
	Cycles, Power *widget.Entry    // the chosen category's costs; applied as typed when valid
	CostError     *widget.Label    // why the typed costs were not applied
	Citations     *widget.Label    // where the chosen category's costs come from
	Imported      *widget.Label    // what the last log import read; hidden before one
	Add, Remove   *widget.Button   // move ticked rows into / out of the chosen category
	MoveTo        *widget.Button   // moves the chosen category's ticked rows to another one
	Toolbar       *overflowBar     // the buttons that fit; the rest under its More button

	NewCategory, RenameCategory, DeleteCategory *widget.Button
	EditCosts                                   *widget.Button // the chosen category's costs with their sources
	Sourced                                     *sourcedDialog // the open Profile details or Costs dialog, nil when none

	ed       *controller.Editor
	profiles controller.Profiles
	bg       *ui.Background // writes to the workspace database off the UI goroutine
	commands []*ui.Command
	// importing cancels the running log import; nil when none runs.
	importing    context.CancelFunc
	loadingCosts bool
	// onOpenAnalysis opens the other window; onKept tells it the stored profiles changed.
	onOpenAnalysis, onKept func()
}

// Wait blocks until the window's background work (keeping a profile in the workspace) is
// applied; tests call it on their goroutine.
func (v *View) Wait() { v.bg.Wait() }

// New fills win; it takes the window so tests can pass one from test.NewTempApp, and bg, which
// runs its work (tests pass ui.NewQueuedBackground).
func New(win fyne.Window, bg *ui.Background, ed *controller.Editor, profiles controller.Profiles, openAnalysis, kept func()) *View {
	v := &View{Window: win, ed: ed, profiles: profiles, bg: bg, onOpenAnalysis: openAnalysis, onKept: kept}
	v.buildCategoryPanel()
	v.Uncategorized = newInstructionList(ed.Uncategorized, func() string { return "uncategorised" })
	v.Members = newInstructionList(func(f controller.Filter) []controller.Row {
		return ed.CategoryRows(v.Category.Selected, f)
	}, func() string { return "in " + v.Category.Selected })
	v.Uncategorized.changed, v.Members.changed = v.updateButtons, v.updateButtons
	v.Add = widget.NewButtonWithIcon("Add", theme.NavigateNextIcon(), v.addPicked)
	v.Add.IconPlacement = widget.ButtonIconTrailingText
	v.Remove = widget.NewButtonWithIcon("Remove", theme.NavigateBackIcon(), v.removePicked)
	v.MoveTo = widget.NewButtonWithIcon("Move to…", theme.MenuDropDownIcon(), v.askMoveTo)
	v.MoveTo.IconPlacement = widget.ButtonIconTrailingText

	v.commands = v.buildCommands()
	win.SetMainMenu(v.mainMenu())
	ui.AddShortcuts(win.Canvas(), v.commands)
	win.SetContent(v.layout())
	v.Reload()
	return v
}

// layout builds the window in reading order, which is the order Tab visits: toolbar, the left
// list's search and rows, the move buttons, the chosen category, its search and rows.
func (v *View) layout() fyne.CanvasObject {
	v.Imported = widget.NewLabel("")
	v.Imported.Wrapping = fyne.TextWrapWord
	v.Imported.Hide()
	heading := container.NewVBox(ui.Heading("Uncategorised instructions"), v.Imported)
	left := readingBorder(heading, nil, nil, nil, v.Uncategorized.Content())
	middle := container.NewCenter(container.NewVBox(v.Add, v.Remove, v.MoveTo))
	right := readingBorder(nil, nil, middle, nil, v.categoryPanel())
	split := container.NewHSplit(left, right)
	split.Offset = 0.45
	v.Toolbar = v.toolbar()
	return readingBorder(v.Toolbar, nil, nil, nil, split)
}

// toolbar holds the commands used most; each is in the main menu too, with its shortcut and a
// longer label. Labels are short so that all fit at the default width.
func (v *View) toolbar() *overflowBar {
	c := v.commands
	b := func(label string, icon fyne.Resource, cmd int) *widget.Button {
		btn := widget.NewButtonWithIcon(label, icon, c[cmd].Run)
		btn.Importance = widget.LowImportance
		return btn
	}
	keep := b("Keep in workspace", theme.StorageIcon(), cmdKeep)
	if !v.profiles.CanKeep() {
		keep.Disable()
	}
	return newOverflowBar(
		b("New…", theme.DocumentCreateIcon(), cmdNew),
		b("Open…", theme.FolderOpenIcon(), cmdOpen),
		b("Built-in…", theme.ListIcon(), cmdBuiltin),
		b("Save", theme.DocumentSaveIcon(), cmdSave),
		b("Save As…", theme.DocumentSaveIcon(), cmdSaveAs),
		keep,
		b("Details…", theme.InfoIcon(), cmdDetails),
		widget.NewSeparator(),
		b("Import log…", theme.UploadIcon(), cmdImport),
		b("Add instruction…", theme.ContentAddIcon(), cmdAddInstruction),
		widget.NewSeparator(),
		b("Analysis", theme.GridIcon(), cmdAnalysis),
	)
}

// readingBorder is container.NewBorder with its objects in reading order (top, left, centre,
// right, bottom). Tab visits a container's objects in order, and NewBorder puts the centre first.
func readingBorder(top, bottom, left, right fyne.CanvasObject, center ...fyne.CanvasObject) *fyne.Container {
	var objs []fyne.CanvasObject
	for _, o := range [][]fyne.CanvasObject{{top, left}, center, {right, bottom}} {
		for _, o := range o {
			if o != nil {
				objs = append(objs, o)
			}
		}
	}
	return container.New(layout.NewBorderLayout(top, bottom, left, right), objs...)
}

// overflowBar is a toolbar that never pushes a button out of the window: the buttons that do
// not fit are hidden and offered, with the same labels, by a More button at its end. A window
// narrower than all of them (900 px for the editor) therefore loses no action.
type overflowBar struct {
	widget.BaseWidget
	items  []fyne.CanvasObject // buttons and separators, in order
	More   *widget.Button
	hidden []*widget.Button // the buttons the last layout had no room for
}

func newOverflowBar(items ...fyne.CanvasObject) *overflowBar {
	t := &overflowBar{items: items}
	t.More = widget.NewButtonWithIcon("More", theme.MoreHorizontalIcon(), t.showMore)
	t.More.Importance = widget.LowImportance
	t.ExtendBaseWidget(t)
	return t
}

// Buttons are every action of the bar, shown or not.
func (t *overflowBar) Buttons() []*widget.Button {
	var out []*widget.Button
	for _, o := range t.items {
		if b, ok := o.(*widget.Button); ok {
			out = append(out, b)
		}
	}
	return out
}

func (t *overflowBar) CreateRenderer() fyne.WidgetRenderer {
	return widget.NewSimpleRenderer(container.New(overflowLayout{t}, append(t.items, t.More)...))
}

// moreMenu lists the hidden buttons as menu items, disabled where the button is.
func (t *overflowBar) moreMenu() *fyne.Menu {
	items := make([]*fyne.MenuItem, len(t.hidden))
	for i, b := range t.hidden {
		items[i] = fyne.NewMenuItem(b.Text, b.OnTapped)
		items[i].Icon, items[i].Disabled = b.Icon, b.Disabled()
	}
	return fyne.NewMenu("", items...)
}

func (t *overflowBar) showMore() {
	c := fyne.CurrentApp().Driver().CanvasForObject(t.More)
	if c == nil {
		return
	}
	widget.ShowPopUpMenuAtRelativePosition(t.moreMenu(), c, fyne.NewPos(0, t.More.Size().Height), t.More)
}

// overflowLayout places the bar's items left to right while they fit, hides the rest and shows
// More only when something is hidden.
type overflowLayout struct{ bar *overflowBar }

func (l overflowLayout) Layout(objs []fyne.CanvasObject, size fyne.Size) {
	items, more := objs[:len(objs)-1], objs[len(objs)-1]
	pad := theme.Padding()
	fits := func(room float32) int { // how many items fit in room, a separator never last
		x, n := float32(0), 0
		for i, o := range items {
			if x+o.MinSize().Width > room {
				break
			}
			x += o.MinSize().Width + pad
			if _, sep := o.(*widget.Separator); !sep {
				n = i + 1
			}
		}
		return n
	}
	n := fits(size.Width)
	if n < len(items) {
		n = fits(size.Width - more.MinSize().Width - pad)
	}
	l.bar.hidden = l.bar.hidden[:0]
	x := float32(0)
	for i, o := range items {
		if i >= n {
			o.Hide()
			if b, ok := o.(*widget.Button); ok {
				l.bar.hidden = append(l.bar.hidden, b)
			}
			continue
		}
		o.Show()
		w := o.MinSize().Width
		o.Move(fyne.NewPos(x, 0))
		o.Resize(fyne.NewSize(w, size.Height))
		x += w + pad
	}
	if len(l.bar.hidden) == 0 {
		more.Hide()
		return
	}
	more.Show()
	w := more.MinSize().Width
	more.Move(fyne.NewPos(size.Width-w, 0))
	more.Resize(fyne.NewSize(w, size.Height))
}

// MinSize asks only for room for More and the first item, so the bar never makes the window wider.
func (l overflowLayout) MinSize(objs []fyne.CanvasObject) fyne.Size {
	var h float32
	for _, o := range objs {
		h = max(h, o.MinSize().Height)
	}
	return fyne.NewSize(objs[0].MinSize().Width+theme.Padding()+objs[len(objs)-1].MinSize().Width, h)
}

// Reload shows the editor's profile afresh: after New, Open, or a profile sent from elsewhere.
func (v *View) Reload() {
	isas := v.ed.Profile().ISAs
	v.Uncategorized.SetISAs(isas)
	v.Members.SetISAs(isas)
	v.reloadCategories("")
}

// reloadCategories refills the chooser, selecting want (or the current choice, or the first).
func (v *View) reloadCategories(want string) {
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
func (v *View) refreshLists() {
	v.Uncategorized.Reload()
	v.Members.Reload()
	v.updateTitle()
}

func (v *View) updateTitle() { v.Window.SetTitle(editorTitle(v.ed)) }

func editorTitle(ed *controller.Editor) string {
	t := "AndroProf — Instruction categorization: " + ed.Profile().Name
	if ed.Dirty() {
		t += " •"
	}
	return t
}

func (v *View) updateButtons() {
	into := v.Category.Selected != cost.UndefinedCategory
	ui.Enable(v.Add, into && len(v.Uncategorized.Picked()) > 0)
	ui.Enable(v.Remove, into && len(v.Members.Picked()) > 0)
	ui.Enable(v.MoveTo, len(v.Members.Picked()) > 0 && len(v.moveTargets()) > 0)
	ui.Enable(v.RenameCategory, into)
	ui.Enable(v.DeleteCategory, into)
}

// addPicked moves the ticked uncategorised instructions into the chosen category.
func (v *View) addPicked() {
	v.move(v.Uncategorized.Picked(), v.Category.Selected)
}

// removePicked sends the ticked instructions of the chosen category back to Undefined.
func (v *View) removePicked() {
	v.move(v.Members.Picked(), cost.UndefinedCategory)
}

func (v *View) move(ins []cost.Instruction, to string) {
	if len(ins) == 0 || v.Category.Selected == cost.UndefinedCategory {
		return
	}
	v.moveTo(ins, to)
}

// moveTargets are the categories the chosen category's ticked rows can move to: every other
// user category (Remove sends them to Undefined).
func (v *View) moveTargets() []string {
	var out []string
	for _, name := range v.ed.Profile().CategoryNames() {
		if name != v.Category.Selected && name != cost.UndefinedCategory {
			out = append(out, name)
		}
	}
	return out
}

// askMoveTo offers the other categories under the Move to… button; picking one moves the
// ticked rows of the chosen category there in one step.
func (v *View) askMoveTo() {
	picked, targets := v.Members.Picked(), v.moveTargets()
	if len(picked) == 0 || len(targets) == 0 {
		return
	}
	items := make([]*fyne.MenuItem, len(targets))
	for i, name := range targets {
		items[i] = fyne.NewMenuItem(name, func() { v.moveTo(picked, name) })
	}
	widget.ShowPopUpMenuAtRelativePosition(fyne.NewMenu("", items...), v.Window.Canvas(),
		fyne.NewPos(0, v.MoveTo.Size().Height), v.MoveTo)
}

// moveTo moves instructions to a category, whichever one they are in now.
func (v *View) moveTo(ins []cost.Instruction, to string) {
	if err := v.ed.Move(ins, to); err != nil {
		ui.ShowProblem(v.Window, "move the instructions to", to, err)
		return
	}
	v.refreshLists()
}

// describe says what a category holds, for confirmations.
func describe(n int) string {
	return human.Count(n, "instruction", "instructions")
}

// askProfileName lets the user name (or rename) the profile; then, if not nil, runs once the
// name is set.
func (v *View) askProfileName(title, confirm string, then func()) {
	current := v.ed.Profile().Name
	if current == controller.UnnamedProfile {
		current = ""
	}
	name := profileNameEntry(current)
	d := dialog.NewForm(title, confirm, "Cancel", []*widget.FormItem{profileNameItem(name)}, func(ok bool) {
		if !ok {
			return
		}
		if err := v.ed.SetName(name.Text); err != nil {
			ui.ShowProblem(v.Window, "rename the profile to", name.Text, err)
			return
		}
		v.updateTitle()
		if then != nil {
			then()
		}
	}, v.Window)
	ui.ShowForm(v.Window, d, &name.Entry)
}

// profileNameEntry checks a profile name as it is typed. Besides what the controller refuses it
// refuses the name every unnamed profile shares, which the workspace could not tell apart.
func profileNameEntry(text string) *ui.Entry {
	e := nameEntry(text, checkProfileName)
	e.SetPlaceHolder("e.g. Cortex-A8, measured")
	return e
}

func checkProfileName(s string) error {
	if strings.TrimSpace(s) == controller.UnnamedProfile {
		return errors.New("give the profile a name of its own")
	}
	return controller.CheckProfileName(s)
}

func profileNameItem(e *ui.Entry) *widget.FormItem {
	return &widget.FormItem{Text: "Name", Widget: e, HintText: "Shown in the title and in the analysis window"}
}
