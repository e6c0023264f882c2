package view

import (
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/widget"

	"androprof/model"
)

// askUnsaved offers Save / Discard / Cancel, the three answers a person closing or replacing
// an edited profile may mean; Cancel does nothing.
func askUnsaved(parent fyne.Window, name string, save, discard func()) {
	msg := widget.NewLabel("Profile “" + name + "” has unsaved changes. Save them first?")
	msg.Wrapping = fyne.TextWrapWord
	d := dialog.NewCustomWithoutButtons("Unsaved changes", msg, parent)
	saveBtn := widget.NewButton("Save", func() { d.Hide(); save() })
	saveBtn.Importance = widget.HighImportance
	d.SetButtons([]fyne.CanvasObject{
		widget.NewButton("Cancel", d.Hide),
		widget.NewButton("Discard", func() { d.Hide(); discard() }),
		saveBtn,
	})
	d.Resize(fyne.NewSize(440, d.MinSize().Height))
	d.Show()
}

// showProblems lists every reason the profile cannot be saved, so they can be fixed in one go.
func showProblems(parent fyne.Window, probs []model.Problem) {
	lines := make([]string, len(probs))
	for i, p := range probs {
		lines[i] = "• " + p.Msg
	}
	text := widget.NewLabel(strings.Join(lines, "\n"))
	text.Wrapping = fyne.TextWrapWord
	scroll := container.NewVScroll(text)
	scroll.SetMinSize(fyne.NewSize(460, 120))
	body := container.NewBorder(widget.NewLabel("The profile was not saved:"), nil, nil, nil, scroll)
	dialog.ShowCustom("Profile has problems", "Close", body, parent)
}

// chosenPath adapts a file dialog's callback to fn(path): errors are shown, a cancel does
// nothing, and the reader or writer is closed at once because the editor and the importers
// open files by path themselves.
func chosenPath[F interface {
	URI() fyne.URI
	Close() error
}](parent fyne.Window, fn func(path string)) func(F, error) {
	return func(f F, err error) {
		if err != nil {
			showProblem(parent, "open the file", "", err)
			return
		}
		if any(f) == nil {
			return // cancelled
		}
		path := f.URI().Path()
		f.Close()
		fn(path)
	}
}

// showForm shows a form dialog wide enough for paths, with the keyboard in its first entry and
// Enter in any entry submitting it, as in any desktop dialog, but only when every entry is valid
// (Fyne 2.8 reports no error of the entry holding the focus, so its Create may still be enabled):
// otherwise the first bad entry shows its error and keeps the cursor.
func showForm(win fyne.Window, d *dialog.FormDialog, entries ...*widget.Entry) {
	submit := func(string) {
		for _, e := range entries {
			if e.Validator != nil && e.Validator(e.Text) != nil {
				win.Canvas().Unfocus() // the entry reports its error as it loses the focus
				win.Canvas().Focus(e)
				return
			}
		}
		d.Submit()
	}
	for _, e := range entries {
		e.OnSubmitted = submit
	}
	d.Resize(fyne.NewSize(620, d.MinSize().Height))
	d.Show()
	win.Canvas().Focus(entries[0])
}
