package ui

import (
	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/widget"

	"androprof/controller"
)

// ShowProblem tells the user that doing action ("import", "save the profile") to subject
// failed, in words (controller.Explain), with the technical cause under "Details" for a bug
// report, never a bare driver or SQL message as the headline.
func ShowProblem(win fyne.Window, action, subject string, err error) dialog.Dialog {
	p := controller.Explain(action, subject, err)
	if p == nil {
		return nil
	}
	what := widget.NewLabelWithStyle(p.What, fyne.TextAlignLeading, fyne.TextStyle{Bold: true})
	what.Wrapping = fyne.TextWrapWord
	hint := widget.NewLabel(p.Hint)
	hint.Wrapping = fyne.TextWrapWord
	details := widget.NewLabel(p.Details())
	details.Wrapping = fyne.TextWrapBreak
	details.Selectable = true
	copyBtn := widget.NewButton("Copy details", func() { win.Clipboard().SetContent(p.Details()) })
	more := widget.NewAccordion(widget.NewAccordionItem("Details", container.NewVBox(details, copyBtn)))
	body := container.NewVBox(what, hint, more)
	if p.Details() == p.Hint {
		body.Remove(more) // the cause already reads as words; Details would only repeat them
	}
	d := dialog.NewCustom("Problem", "OK", body, win)
	d.Resize(fyne.NewSize(520, body.MinSize().Height+120))
	d.Show()
	closeDialogsOnEscape(win.Canvas())
	return d
}

// ProblemText is a failure as a status line shows it: the message in words; the details are
// for the dialog.
func ProblemText(action, subject string, err error) string {
	if p := controller.Explain(action, subject, err); p != nil {
		return p.Error()
	}
	return ""
}
