// Package view is the workbench: its two windows, the analysis (view/analysis, which shows the
// tabs of view/methods and view/heap for those kinds of run) and the instruction-categorization
// editor (view/editor), wired to each other. They are built from the widgets of view/ui and take
// their fyne.App or fyne.Window from the caller, so tests drive them with fyne.io/fyne/v2/test
// exactly as a user would.
package view

import (
	"fyne.io/fyne/v2"

	"androprof/controller"
	"androprof/model/cost"
	"androprof/view/analysis"
	"androprof/view/editor"
	"androprof/view/ui"
)

// Workbench owns the two windows and what they share: one profile editor, one way to find
// profiles, the analysis of the workspace's runs and the importer that adds runs. Each window
// exists at most once; closing the last one quits the app.
type Workbench struct {
	app      fyne.App
	ed       *controller.Editor
	ws       *controller.Workspace
	importer analysis.RunImporter
	editor   *editor.View
	analysis *analysis.View
	firstRun string // the run a first start opens on
	// newBackground makes each window's background runner: ui.NewBackground in the app,
	// ui.NewQueuedBackground in tests.
	newBackground func() *ui.Background
}

// NewWorkbench creates no window yet, so the app can open whichever its command asked for.
// ws may have no database (no runs, built-in profiles only); importer may be nil (Import and Run program
// are then disabled). newBackground makes each window's background runner (ui.NewBackground;
// tests pass ui.NewQueuedBackground).
func NewWorkbench(a fyne.App, ed *controller.Editor, ws *controller.Workspace, importer analysis.RunImporter,
	newBackground func() *ui.Background) *Workbench {
	return &Workbench{app: a, ed: ed, ws: ws, importer: importer, newBackground: newBackground}
}

// SetFirstRun names the run the analysis window opens on when no run was chosen before: a
// first start opens on the demo's sieve run, priced, rather than on whichever run comes first.
func (wb *Workbench) SetFirstRun(name string) { wb.firstRun = name }

// ShowEditor shows the instruction-categorization window, creating it on first use.
func (wb *Workbench) ShowEditor() fyne.Window {
	if wb.editor == nil {
		win := wb.app.NewWindow("AndroProf")
		win.Resize(editor.Size)
		v := editor.New(win, wb.newBackground(), wb.ed, wb.ws.Profiles, func() { wb.ShowAnalysis() }, wb.profilesChanged)
		v.InterceptClose(wb.revert)
		wb.routeQuit(win)
		win.SetOnClosed(func() {
			if wb.editor == v {
				wb.editor = nil
			}
		})
		wb.editor = v
	}
	wb.editor.Window.Show()
	return wb.editor.Window
}

// ShowAnalysis shows the analysis window, creating it on first use.
func (wb *Workbench) ShowAnalysis() fyne.Window {
	if wb.analysis == nil {
		analysis.SetFirstRun(wb.app.Preferences(), wb.firstRun)
		title := "AndroProf — Analysis"
		if wb.ws.ReadOnly() != nil {
			title += " (read-only workspace)" // imports and deletes will say why
		}
		win := wb.app.NewWindow(title)
		win.Resize(analysis.Size)
		v := analysis.New(win, wb.newBackground(), wb.app.Preferences(), wb.ws, wb.importer, func() { wb.ShowEditor() }, wb.Edit)
		wb.routeQuit(win)
		win.SetOnClosed(func() {
			if wb.analysis == v {
				wb.analysis = nil
			}
		})
		wb.analysis = v
	}
	wb.analysis.Window.Show()
	return wb.analysis.Window
}

// EditorView is the editor window's content, nil until ShowEditor; tests reach widgets through it.
func (wb *Workbench) EditorView() *editor.View { return wb.editor }

// AnalysisView is the analysis window's content, nil until ShowAnalysis.
func (wb *Workbench) AnalysisView() *analysis.View { return wb.analysis }

// Edit opens a profile from elsewhere (the database, a built-in) in the editor window, asking
// first about unsaved changes to the current one.
func (wb *Workbench) Edit(p *cost.Profile) {
	wb.ShowEditor()
	wb.editor.Edit(p)
}

// revert throws away unsaved edits when the editor closes with Discard, so reopening the
// window from the analysis window does not bring them back.
func (wb *Workbench) revert() {
	if path := wb.ed.Path(); path != "" && wb.ed.Open(path) == nil {
		return
	}
	wb.ed.SetProfile(cost.NewProfile("New profile", cost.ARM, cost.Thumb))
}

// routeQuit makes the window's File ▸ Quit (Ctrl+Q) the workbench's Quit. Left to the desktop
// driver, Quit closes the windows one by one, so the analysis window was gone before the
// editor asked about unsaved changes, and Cancel could not bring it back.
func (wb *Workbench) routeQuit(win fyne.Window) {
	for _, m := range win.MainMenu().Items {
		for _, it := range m.Items {
			if it.IsQuit {
				it.Action = wb.Quit
			}
		}
	}
}

// Quit closes every window, once the editor's unsaved changes are saved or discarded; if the
// user cancels, nothing closes.
func (wb *Workbench) Quit() {
	closeAll := func() {
		if wb.analysis != nil {
			wb.analysis.Window.Close()
		}
		if wb.editor != nil {
			wb.editor.Window.Close()
		}
		wb.app.Quit()
	}
	if wb.editor == nil {
		closeAll()
		return
	}
	wb.editor.Quit(closeAll)
}

func (wb *Workbench) profilesChanged() {
	if wb.analysis != nil {
		wb.analysis.ReloadProfiles()
	}
}
