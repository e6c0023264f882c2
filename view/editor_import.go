package view

import (
	"context"
	"errors"
	"path/filepath"
	"slices"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/dialog"

	"androprof/controller"
)

// busy tells the user an import is running and reports true; the editor's model is not safe
// to change while the import's result is pending.
func (v *EditorView) busy() bool {
	if v.importing == nil {
		return false
	}
	dialog.ShowInformation("Import running", "Wait for the log import to finish or cancel it.", v.Window)
	return true
}

func (v *EditorView) askImportLog() {
	if v.busy() {
		return
	}
	askPath(v.Window, pathRequest{title: "Import QEMU log", action: "Import", kind: openFile, folder: v.folder()},
		func(path string) { v.ImportLog(path, nil) })
}

// ImportLog counts the instructions of a QEMU `-d in_asm[,exec,nochain]` log in the background
// and then lists the most executed uncategorised instructions first. done, when not nil, runs
// on the UI goroutine once the import ended in any way; tests wait on it.
func (v *EditorView) ImportLog(path string, done func(error)) {
	if v.busy() {
		return
	}
	ctx, cancel := context.WithCancel(context.Background())
	v.importing = cancel
	progress := newProgressDialog("Importing QEMU log", "Reading "+filepath.Base(path)+"…", cancel, v.Window)
	isas := slices.Clone(v.ed.Profile().ISAs)
	go func() {
		counts, err := controller.CountLogs(ctx, []string{path}, isas, progress.report)
		fyne.Do(func() {
			cancel()
			v.importing = nil
			progress.close()
			v.importDone(counts, err)
			if done != nil {
				done(err)
			}
		})
	}()
}

func (v *EditorView) importDone(counts controller.LogCounts, err error) {
	switch {
	case errors.Is(err, context.Canceled):
		return
	case err != nil:
		showProblem(v.Window, "import the logs", "", err)
		return
	}
	v.ed.AddCounts(counts)
	v.refreshLists()
	v.Uncategorized.List.ScrollToTop()
}

// cancelImport stops a running import, e.g. when the window closes.
func (v *EditorView) cancelImport() {
	if v.importing != nil {
		v.importing()
	}
}
