package editor

import (
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/widget"

	"androprof/model/cost"
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
func showProblems(parent fyne.Window, probs []cost.Problem) {
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
