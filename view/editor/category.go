package editor

import (
	"errors"
	"math"
	"strconv"
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"androprof/model/cost"
	"androprof/view/ui"
)

// buildCategoryPanel makes the right-hand widgets: chooser, costs, citations.
func (v *View) buildCategoryPanel() {
	v.Category = widget.NewSelect(nil, func(string) { v.showCategory() })
	v.Cycles = costEntry(v.applyCosts)
	v.Power = costEntry(v.applyCosts)
	v.CostError = widget.NewLabel("")
	v.CostError.Importance = widget.DangerImportance
	v.CostError.Truncation = fyne.TextTruncateEllipsis
	v.Citations = widget.NewLabel("")
	v.Citations.Wrapping = fyne.TextWrapWord
	v.NewCategory = widget.NewButtonWithIcon("New…", theme.ContentAddIcon(), v.askNewCategory)
	v.RenameCategory = widget.NewButtonWithIcon("Rename…", theme.DocumentCreateIcon(), v.askRenameCategory)
	v.DeleteCategory = widget.NewButtonWithIcon("Delete…", theme.DeleteIcon(), v.askDeleteCategory)
	v.EditCosts = widget.NewButtonWithIcon("Costs and sources…", theme.DocumentCreateIcon(), v.askCosts)
	v.EditCosts.Importance = widget.LowImportance
}

func (v *View) categoryPanel() fyne.CanvasObject {
	chooser := container.NewBorder(nil, nil, widget.NewLabel("Category"), nil, v.Category)
	costs := container.NewGridWithColumns(2,
		container.NewBorder(nil, nil, widget.NewLabel("Cycles"), nil, v.Cycles),
		container.NewBorder(nil, nil, widget.NewLabel("Power (mW)"), nil, v.Power))
	// The error shares a row with the buttons so its coming and going never moves the layout.
	buttons := container.NewBorder(nil, nil, nil,
		container.NewHBox(v.NewCategory, v.RenameCategory, v.DeleteCategory), v.CostError)
	top := container.NewVBox(ui.Heading("Selected category"), chooser, costs, buttons, widget.NewSeparator())
	sources := container.NewVScroll(v.Citations)
	sources.SetMinSize(fyne.NewSize(0, 90))
	heading := container.NewBorder(nil, nil, nil, v.EditCosts, ui.Heading("Sources of these costs"))
	bottom := container.NewBorder(heading, nil, nil, nil, sources)
	return readingBorder(top, bottom, nil, nil, v.Members.Content())
}

// costEntry accepts a number ≥ 0 and calls changed on every edit. It shows a wrong number's
// error as it is typed: by default an entry keeps its last state while it has the focus, which
// left the ✓ of the number before beside the error the editor showed for the new one.
func costEntry(changed func()) *widget.Entry { return asCost(widget.NewEntry(), changed) }

// asCost makes e a cost field: checked as typed, its error always shown.
func asCost(e *widget.Entry, changed func()) *widget.Entry {
	e.Validator = func(s string) error { _, err := parseCost(s); return err }
	e.AlwaysShowValidationError = true
	e.OnChanged = func(string) { changed() }
	return e
}

// parseCost reads a cost as typed; the model refuses the same values, but saying so while the
// user types is kinder than failing at save time.
func parseCost(s string) (float64, error) {
	v, err := strconv.ParseFloat(strings.TrimSpace(s), 64)
	switch {
	case err != nil || math.IsNaN(v) || math.IsInf(v, 0):
		return 0, errors.New("not a number")
	case v < 0:
		return 0, errors.New("cannot be negative")
	}
	return v, nil
}

// showCategory fills the right side for the chosen category.
func (v *View) showCategory() {
	c := v.ed.Profile().Category(v.Category.Selected)
	if c == nil {
		return
	}
	v.loadingCosts = true
	prefill(v.Cycles, ui.FormatCost(c.Cycles))
	prefill(v.Power, ui.FormatCost(c.PowerMW))
	v.loadingCosts = false
	v.setCostError("")
	v.showCitations()
	v.refreshLists()
}

// applyCosts stores the typed costs when both are valid; otherwise the model keeps its values
// and the reason is shown.
func (v *View) applyCosts() {
	if v.loadingCosts {
		return
	}
	cycles, errC := parseCost(v.Cycles.Text)
	power, errP := parseCost(v.Power.Text)
	switch {
	case errC != nil:
		v.setCostError("Cycles: " + errC.Error())
		return
	case errP != nil:
		v.setCostError("Power: " + errP.Error())
		return
	}
	if err := v.ed.SetCosts(v.Category.Selected, cycles, power); err != nil {
		v.setCostError(err.Error())
		return
	}
	v.setCostError("")
	v.showCitations() // a changed cost no longer cites the old number's source
	v.updateTitle()
}

func (v *View) showCitations() {
	if c := v.ed.Profile().Category(v.Category.Selected); c != nil {
		v.Citations.SetText(ui.CitationText(c.Citations))
	}
}

func (v *View) setCostError(msg string) { v.CostError.SetText(msg) }

// nameEntry is a dialog's entry checked by check as the user types (Escape in it closes the dialog).
func nameEntry(text string, check func(string) error) *ui.Entry {
	e := ui.NewEntry()
	prefill(&e.Entry, text)
	e.Validator = check
	return e
}

func (v *View) askNewCategory() {
	name := nameEntry("", func(s string) error { return v.ed.CheckCategoryName("", s) })
	cycles, power := ui.NewEntry(), ui.NewEntry()
	asCost(&cycles.Entry, func() {})
	asCost(&power.Entry, func() {})
	prefill(&cycles.Entry, "1")
	prefill(&power.Entry, "0")
	items := []*widget.FormItem{
		{Text: "Name", Widget: name, HintText: "Unique in this profile"},
		{Text: "Cycles", Widget: cycles, HintText: "Per instruction, ≥ 0"},
		{Text: "Power (mW)", Widget: power, HintText: "While it executes, ≥ 0"},
	}
	// Each entry has a hint, so the line its error takes is always there and the dialog
	// neither grows nor moves its buttons under the pointer while the user types.
	d := dialog.NewForm("New category", "Create", "Cancel", items, func(ok bool) {
		if !ok {
			return
		}
		c, _ := parseCost(cycles.Text) // the form only confirms when every validator passes
		p, _ := parseCost(power.Text)
		if err := v.ed.AddCategory(name.Text, c, p); err != nil {
			ui.ShowProblem(v.Window, "add the category", name.Text, err)
			return
		}
		v.reloadCategories(strings.TrimSpace(name.Text))
	}, v.Window)
	ui.ShowForm(v.Window, d, &name.Entry, &cycles.Entry, &power.Entry)
}

func (v *View) askRenameCategory() {
	old := v.Category.Selected
	if old == cost.UndefinedCategory {
		return
	}
	name := nameEntry(old, func(s string) error { return v.ed.CheckCategoryName(old, s) })
	items := []*widget.FormItem{{Text: "Name", Widget: name, HintText: "Unique in this profile"}}
	d := dialog.NewForm("Rename category", "Rename", "Cancel", items, func(ok bool) {
		if !ok {
			return
		}
		if err := v.ed.RenameCategory(old, name.Text); err != nil {
			ui.ShowProblem(v.Window, "rename the category", old, err)
			return
		}
		v.reloadCategories(strings.TrimSpace(name.Text))
	}, v.Window)
	ui.ShowForm(v.Window, d, &name.Entry)
}

func (v *View) askDeleteCategory() {
	name := v.Category.Selected
	c := v.ed.Profile().Category(name)
	if c == nil || name == cost.UndefinedCategory {
		return
	}
	msg := "Delete category “" + name + "”? Its " + describe(len(c.Instructions)) + " become uncategorised."
	dialog.ShowConfirm("Delete category", msg, func(ok bool) {
		if !ok {
			return
		}
		if err := v.ed.DeleteCategory(name); err != nil {
			ui.ShowProblem(v.Window, "delete the category", name, err)
			return
		}
		v.reloadCategories("")
	}, v.Window)
}
