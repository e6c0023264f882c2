package editor

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"slices"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/dialog"

	"androprof/controller"
	"androprof/internal/human"
	"androprof/view/ui"
)

// busy tells the user an import is running and reports true; the editor's model is not safe
// to change while the import's result is pending.
func (v *View) busy() bool {
	if v.importing == nil {
		return false
	}
	dialog.ShowInformation("Import running", "Wait for the log import to finish or cancel it.", v.Window)
	return true
}

func (v *View) askImportLog() {
	if v.busy() {
		return
	}
	ui.AskPath(v.Window, ui.PathRequest{Title: "Import QEMU log", Action: "Import", Kind: ui.OpenFile, Folder: v.folder()},
		func(path string) { v.ImportLog(path, nil) })
}

// ImportLog counts the instructions of a QEMU `-d in_asm[,exec,nochain]` log in the background
// and then lists the most executed uncategorised instructions first. done, when not nil, runs
// on the UI goroutine once the import ended in any way; tests wait on it.
func (v *View) ImportLog(path string, done func(error)) {
	if v.busy() {
		return
	}
	ctx, cancel := context.WithCancel(context.Background())
	v.importing = cancel
	progress := ui.NewProgressDialog(v.bg, "Importing QEMU log", "Reading "+filepath.Base(path)+"…", cancel, v.Window)
	isas := slices.Clone(v.ed.Profile().ISAs)
	go func() {
		counts, err := controller.CountLogs(ctx, []string{path}, isas, progress.Report)
		fyne.Do(func() {
			cancel()
			v.importing = nil
			progress.Close()
			v.importDone(path, counts, err)
			if done != nil {
				done(err)
			}
		})
	}()
}

func (v *View) importDone(path string, counts controller.LogCounts, err error) {
	switch {
	case errors.Is(err, context.Canceled):
		return
	case err != nil:
		ui.ShowProblem(v.Window, "import the logs", "", err)
		return
	}
	ui.SetNote(v.Imported, importedText(filepath.Base(path), v.ed.AddCounts(counts)))
	v.refreshLists()
	v.Uncategorized.List.ScrollToTop()
}

// importedText says what a log import read, so a person can tell an empty or foreign log from
// one whose instructions are all categorised already.
func importedText(file string, s controller.CountSummary) string {
	kinds := human.Noun(s.Kinds, "kind", "kinds")
	text := fmt.Sprintf("Read %s executed instructions of %d %s from %s; %d of the %s are in no category.",
		human.Grouped(s.Executions), s.Kinds, kinds, file, s.Uncategorized, kinds)
	if s.Dropped > 0 {
		text += fmt.Sprintf(" %s more are of instruction sets this profile does not price.", human.Grouped(s.Dropped))
	}
	return text
}

// cancelImport stops a running import, e.g. when the window closes.
func (v *View) cancelImport() {
	if v.importing != nil {
		v.importing()
	}
}
