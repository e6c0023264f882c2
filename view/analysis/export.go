package analysis

import (
	"context"
	"fmt"
	"io"
	"path/filepath"
	"slices"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/widget"

	"androprof/controller"
	"androprof/model"
	"androprof/view/ui"
)

// exportChoice is File ▸ Export…'s first step: the formats of the selected run's kind, as
// `androprof export --format` takes them. Tests pick one and press Next.
type exportChoice struct {
	Run     string
	Formats []controller.ExportFormat
	Choice  *widget.RadioGroup
	Dialog  dialog.Dialog
}

// exportRun asks for a format, then where to save: the selected run written for another tool
// through Workspace.Export, as `androprof export` writes it.
func (v *View) exportRun() *exportChoice {
	run := v.sel.run
	if run == "" || v.ws == nil {
		dialog.ShowInformation("Export", "Choose a run in the list first.", v.Window)
		return nil
	}
	kind := v.Runs.kindOf(run)
	formats := controller.ExportFormats(kind)
	if len(formats) == 0 {
		dialog.ShowInformation("Export", fmt.Sprintf("Run “%s” is %s: there is no format other tools open for it yet.",
			run, model.RunKindText(kind)), v.Window)
		return nil
	}
	labels := make([]string, len(formats))
	for i, f := range formats {
		labels[i] = exportLabel(f)
	}
	c := &exportChoice{Run: run, Formats: formats, Choice: widget.NewRadioGroup(labels, nil)}
	c.Choice.SetSelected(labels[0])
	c.Choice.Required = true
	c.Dialog = dialog.NewCustomConfirm(fmt.Sprintf("Export “%s”", run), "Next…", "Cancel", c.Choice, func(ok bool) {
		if ok {
			v.saveExport(run, formats[max(slices.Index(labels, c.Choice.Selected), 0)])
		}
	}, v.Window)
	c.Dialog.Show()
	return c
}

// exportLabel names a format in the dialog: its name, file ending and the tools that open it.
func exportLabel(f controller.ExportFormat) string {
	return fmt.Sprintf("%s (%s) — %s", f.Name, f.Ext, f.Opens)
}

// saveExport asks where to write the run, then writes it off the UI goroutine and says what
// was written.
func (v *View) saveExport(run string, f controller.ExportFormat) {
	ui.AskSavePath(v.Window, ui.FileName(v.Window, run, "", "")+f.Ext, filepath.Ext(f.Ext), func(path string) error {
		var s controller.ExportSummary
		err := ui.WriteFile(path, func(w io.Writer) error {
			var err error
			s, err = v.ws.Export(context.Background(), run, f.Name, controller.ExportOptions{}, w)
			return err
		})
		if err == nil {
			fyne.Do(func() { dialog.ShowInformation("Exported", exportDoneText(path, s), v.Window) })
		}
		return err
	})
}

// exportDoneText says what an export wrote, as the command line says it.
func exportDoneText(path string, s controller.ExportSummary) string {
	text := filepath.Base(path) + ": " + s.Text()
	if s.Partial != "" {
		text += ".\n" + s.Partial
	}
	return text
}

// kindOf is the kind of a listed run ("" when it is not listed).
func (p *runsPanel) kindOf(run string) model.RunKind {
	for _, r := range p.runs {
		if r.Name == run {
			return r.Kind
		}
	}
	return ""
}
