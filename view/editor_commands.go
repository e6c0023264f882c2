package view

import (
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
	cmdImport
	cmdAddInstruction
	cmdMoveIn
	cmdMoveOut
	cmdMoveTo
	cmdFind
	cmdNewCategory
	cmdRenameCategory
	cmdDeleteCategory
	cmdAnalysis
	cmdShortcuts
)

func (v *EditorView) buildCommands() []*command {
	return []*command{
		cmdNew:            {label: "New profile…", key: fyne.KeyN, mod: primary, run: v.askNewProfile},
		cmdOpen:           {label: "Open…", key: fyne.KeyO, mod: primary, run: v.askOpen},
		cmdBuiltin:        {label: "Start from built-in…", run: v.askBuiltin},
		cmdSave:           {label: "Save", key: fyne.KeyS, mod: primary, run: func() { v.save(nil) }},
		cmdSaveAs:         {label: "Save As…", key: fyne.KeyS, mod: primaryShift, run: func() { v.saveAs(nil) }},
		cmdKeep:           {label: "Keep in workspace", run: v.keepInWorkspace},
		cmdRenameProfile:  {label: "Rename profile…", run: func() { v.askProfileName("Rename profile", "Rename", nil) }},
		cmdImport:         {label: "Import QEMU log…", key: fyne.KeyI, mod: primary, run: v.askImportLog},
		cmdAddInstruction: {label: "Add instruction by hand…", run: v.askAddInstruction},
		cmdMoveIn:         {label: "Add selection to category", key: fyne.KeyRight, mod: fyne.KeyModifierAlt, run: v.addPicked},
		cmdMoveOut:        {label: "Remove selection from category", key: fyne.KeyLeft, mod: fyne.KeyModifierAlt, run: v.removePicked},
		cmdMoveTo:         {label: "Move selection to category…", key: fyne.KeyM, mod: primary, run: v.askMoveTo},
		cmdFind:           {label: "Find instruction", key: fyne.KeyF, mod: primary, run: v.focusSearch},
		cmdNewCategory:    {label: "New category…", run: v.askNewCategory},
		cmdRenameCategory: {label: "Rename category…", run: v.askRenameCategory},
		cmdDeleteCategory: {label: "Delete category…", run: v.askDeleteCategory},
		cmdAnalysis:       {label: "Analysis window", run: v.openAnalysis},
		cmdShortcuts:      {label: "Keyboard shortcuts", run: func() { showShortcuts(v.commands, v.Window) }},
	}
}

func (v *EditorView) mainMenu() *fyne.MainMenu {
	c := v.commands
	return fyne.NewMainMenu(
		menu("File", c[cmdNew], c[cmdOpen], c[cmdBuiltin], nil, c[cmdSave], c[cmdSaveAs], c[cmdKeep], c[cmdRenameProfile],
			nil, c[cmdImport]),
		menu("Edit", c[cmdMoveIn], c[cmdMoveOut], c[cmdMoveTo], nil, c[cmdFind], c[cmdAddInstruction], nil,
			c[cmdNewCategory], c[cmdRenameCategory], c[cmdDeleteCategory]),
		menu("Window", c[cmdAnalysis]),
		menu("Help", c[cmdShortcuts]),
	)
}

// focusSearch puts the cursor in the uncategorised list's search box.
func (v *EditorView) focusSearch() { v.Window.Canvas().Focus(v.Uncategorized.Search) }

func (v *EditorView) openAnalysis() {
	if v.onOpenAnalysis != nil {
		v.onOpenAnalysis()
	}
}

// interceptClose asks about unsaved changes before the window goes; discard runs when the
// user throws them away, so the workbench can reset the editor.
func (v *EditorView) interceptClose(discard func()) {
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
