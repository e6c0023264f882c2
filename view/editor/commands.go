package editor

import (
	"androprof/view/ui"

	"fyne.io/fyne/v2"
)

// Editor command indexes, so menus and tests can name them.
const (
	cmdNew = iota
	cmdOpen
	cmdBuiltin
	cmdSave
	cmdSaveAs
	cmdKeep
	cmdRenameProfile
	cmdDetails
	cmdMemory
	cmdImport
	cmdAddInstruction
	cmdMoveIn
	cmdMoveOut
	cmdMoveTo
	cmdFind
	cmdNewCategory
	cmdRenameCategory
	cmdDeleteCategory
	cmdEditCosts
	cmdAnalysis
	cmdShortcuts
	cmdQuit
)

func (v *View) buildCommands() []*ui.Command {
	return []*ui.Command{
		cmdNew:            {Label: "New profile…", Key: fyne.KeyN, Mod: ui.Primary, Run: v.askNewProfile},
		cmdOpen:           {Label: "Open…", Key: fyne.KeyO, Mod: ui.Primary, Run: v.askOpen},
		cmdBuiltin:        {Label: "Start from built-in…", Run: v.askBuiltin},
		cmdSave:           {Label: "Save", Key: fyne.KeyS, Mod: ui.Primary, Run: func() { v.save(nil) }},
		cmdSaveAs:         {Label: "Save As…", Key: fyne.KeyS, Mod: ui.PrimaryShift, Run: func() { v.saveAs(nil) }},
		cmdKeep:           {Label: "Keep in workspace", Run: v.keepInWorkspace},
		cmdRenameProfile:  {Label: "Rename profile…", Run: func() { v.askProfileName("Rename profile", "Rename", nil) }},
		cmdDetails:        {Label: "Profile details…", Run: func() { v.askDetails(false) }},
		cmdMemory:         {Label: "Memory hierarchy and machine model…", Run: func() { v.askDetails(true) }},
		cmdImport:         {Label: "Import QEMU log…", Key: fyne.KeyI, Mod: ui.Primary, Run: v.askImportLog},
		cmdAddInstruction: {Label: "Add instruction by hand…", Run: v.askAddInstruction},
		cmdMoveIn:         {Label: "Add selection to category", Key: fyne.KeyRight, Mod: fyne.KeyModifierAlt, Run: v.addPicked},
		cmdMoveOut:        {Label: "Remove selection from category", Key: fyne.KeyLeft, Mod: fyne.KeyModifierAlt, Run: v.removePicked},
		cmdMoveTo:         {Label: "Move selection to category…", Key: fyne.KeyM, Mod: ui.Primary, Run: v.askMoveTo},
		cmdFind:           {Label: "Find instruction", Key: fyne.KeyF, Mod: ui.Primary, Run: v.focusSearch},
		cmdNewCategory:    {Label: "New category…", Run: v.askNewCategory},
		cmdRenameCategory: {Label: "Rename category…", Run: v.askRenameCategory},
		cmdDeleteCategory: {Label: "Delete category…", Run: v.askDeleteCategory},
		cmdEditCosts:      {Label: "Costs and sources…", Run: v.askCosts},
		cmdAnalysis:       {Label: "Analysis window", Run: v.openAnalysis},
		cmdShortcuts:      {Label: "Keyboard shortcuts", Run: func() { showShortcuts(v.commands, v.Window) }},
		cmdQuit:           {Label: "Quit", Key: fyne.KeyQ, Mod: ui.Primary}, // the workbench's Quit, else the driver's
	}
}

func (v *View) mainMenu() *fyne.MainMenu {
	c := v.commands
	return fyne.NewMainMenu(
		ui.Menu("File", c[cmdNew], c[cmdOpen], c[cmdBuiltin], nil, c[cmdSave], c[cmdSaveAs], c[cmdKeep], c[cmdRenameProfile], c[cmdDetails], c[cmdMemory],
			nil, c[cmdImport], nil, c[cmdQuit]),
		ui.Menu("Edit", c[cmdMoveIn], c[cmdMoveOut], c[cmdMoveTo], nil, c[cmdFind], c[cmdAddInstruction], nil,
			c[cmdNewCategory], c[cmdRenameCategory], c[cmdDeleteCategory], c[cmdEditCosts]),
		ui.Menu("Window", c[cmdAnalysis]),
		ui.Menu("Help", c[cmdShortcuts]),
	)
}

// ShowMemoryHierarchy opens Profile details at its memory hierarchy, as the File menu does; the
// screenshot tour shows it so.
func (v *View) ShowMemoryHierarchy() { v.commands[cmdMemory].Run() }

// focusSearch puts the cursor in the uncategorised list's search box.
func (v *View) focusSearch() { v.Window.Canvas().Focus(v.Uncategorized.Search) }

func (v *View) openAnalysis() {
	if v.onOpenAnalysis != nil {
		v.onOpenAnalysis()
	}
}

// Quit asks about unsaved changes, bringing the window forward to do so, then stops a running
// import and runs closeAll; Cancel runs nothing.
func (v *View) Quit(closeAll func()) {
	v.Window.Show()
	v.Window.RequestFocus()
	v.settle(func() {
		v.cancelImport()
		closeAll()
	})
}

// InterceptClose asks about unsaved changes before the window goes; discard runs when the
// user throws them away, so the workbench can reset the editor.
func (v *View) InterceptClose(discard func()) {
	v.Window.SetCloseIntercept(func() {
		if !v.ed.Dirty() {
			v.cancelImport()
			v.Window.Close()
			return
		}
		askUnsaved(v.Window, v.ed.Profile().Name,
			func() { v.save(func() { v.cancelImport(); v.Window.Close() }) },
			func() { v.cancelImport(); discard(); v.Window.Close() })
	})
}

// showShortcuts lists the editor's keys, with how its lists take the keyboard.
func showShortcuts(cmds []*ui.Command, parent fyne.Window) {
	ui.ShowKeys(cmds, "In a list, click a row or its box to tick it; Space ticks the row under the keyboard focus.", parent)
}
