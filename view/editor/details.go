package editor

import (
	"fmt"
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/widget"

	"androprof/controller"
	"androprof/model/cost"
	"androprof/view/ui"
)

// sourcedFields edit one number with where it comes from: its value, its citation and whether
// it is an estimate. The profile details and a category's costs are edited with them.
type sourcedFields struct {
	Value, Source *widget.Entry
	Estimate      *widget.Check
	shown         *ui.Entry // what the form shows for Value (Escape in it closes the dialog)
	unknownBlank  bool      // 0 means unknown and shows as an empty field
}

func newSourcedFields(s controller.Sourced, unknownBlank bool) *sourcedFields {
	f := &sourcedFields{Source: widget.NewMultiLineEntry(), Estimate: widget.NewCheck("Estimate", nil), unknownBlank: unknownBlank}
	f.Value, f.shown = dialogEntry()
	f.Value.Validator = f.check
	f.Value.AlwaysShowValidationError = true
	text := ui.FormatCost(s.Value)
	if unknownBlank {
		f.Value.SetPlaceHolder("unknown")
		if s.Value == 0 {
			text = ""
		}
	}
	prefill(f.Value, text)
	f.Source.Wrapping = fyne.TextWrapWord
	f.Source.SetMinRowsVisible(2)
	f.Source.SetPlaceHolder("Where this number comes from")
	f.Source.SetText(s.Source)
	f.Estimate.SetChecked(s.Estimate)
	return f
}

func (f *sourcedFields) check(s string) error { _, err := f.number(s); return err }

// number reads the value as typed: a blank field is unknown (0) where unknown is allowed.
func (f *sourcedFields) number(s string) (float64, error) {
	if f.unknownBlank && strings.TrimSpace(s) == "" {
		return 0, nil
	}
	return parseCost(s)
}

// sourced is what the fields say; the value must have passed check.
func (f *sourcedFields) sourced() controller.Sourced {
	v, _ := f.number(f.Value.Text)
	return controller.Sourced{Value: v, Source: f.Source.Text, Estimate: f.Estimate.Checked}
}

// items lays the fields out as two form rows: the value with its estimate box, then its source.
func (f *sourcedFields) items(label, hint string) []*widget.FormItem {
	return []*widget.FormItem{
		{Text: label, Widget: container.NewBorder(nil, nil, nil, f.Estimate, f.shown), HintText: hint},
		{Text: "Source", Widget: f.Source},
	}
}

// sourcedDialog is an open details or costs dialog; tests fill its fields and tap Apply.
type sourcedDialog struct {
	Fields                             []*sourcedFields
	Architecture, Organization, Source *widget.Entry // the profile details' own; nil for costs
	Apply                              *widget.Button
	dialog                             dialog.Dialog
}

// showSourcedDialog shows items in a scrolled form with Cancel and Apply. Apply is enabled only
// while every value is valid, and keeps the dialog open when apply refuses the values.
func (v *View) showSourcedDialog(title string, d *sourcedDialog, items []*widget.FormItem, apply func() error) {
	form := widget.NewForm(items...)
	scroll := container.NewVScroll(form)
	scroll.SetMinSize(fyne.NewSize(680, min(520, form.MinSize().Height)))
	dlg := dialog.NewCustomWithoutButtons(title, scroll, v.Window)
	d.dialog = dlg
	d.Apply = widget.NewButton("Apply", func() {
		if err := apply(); err != nil {
			ui.ShowProblem(v.Window, "apply the "+strings.ToLower(title), "", err)
			return
		}
		dlg.Hide()
	})
	d.Apply.Importance = widget.HighImportance
	enable := func() {
		ok := true
		for _, f := range d.Fields {
			ok = ok && f.Value.Validate() == nil
		}
		ui.Enable(d.Apply, ok)
	}
	for _, f := range d.Fields {
		f.Value.OnChanged = func(string) { enable() }
	}
	dlg.SetButtons([]fyne.CanvasObject{widget.NewButton("Cancel", dlg.Hide), d.Apply})
	dlg.SetOnClosed(func() { v.Sourced = nil }) // however it closes: Cancel, Apply or Escape
	v.Sourced = d
	dlg.Show()
}

// askDetails edits what the profile describes and where it comes from: architecture,
// organization, source, and the reference data with each number's citation.
func (v *View) askDetails() {
	if v.busy() {
		return
	}
	det := v.ed.Details()
	d := &sourcedDialog{Source: widget.NewMultiLineEntry()}
	var arch, org *ui.Entry
	d.Architecture, arch = dialogEntry()
	d.Organization, org = dialogEntry()
	prefill(d.Architecture, det.Architecture)
	prefill(d.Organization, det.Organization)
	d.Architecture.SetPlaceHolder("e.g. ARMv7-A")
	d.Organization.SetPlaceHolder("e.g. Cortex-A8")
	d.Source.Wrapping = fyne.TextWrapWord
	d.Source.SetMinRowsVisible(3)
	d.Source.SetPlaceHolder("Where the profile as a whole comes from")
	d.Source.SetText(det.Source)
	items := []*widget.FormItem{
		{Text: "Architecture", Widget: arch, HintText: "The instruction set architecture"},
		{Text: "Organization", Widget: org, HintText: "The processor its numbers describe"},
		{Text: "Source", Widget: d.Source},
		{Text: "", Widget: ui.Heading("Reference data (the CPI estimate's inputs; empty is unknown)")},
	}
	for i, f := range cost.ReferenceFields {
		fields := newSourcedFields(det.Reference[i], true)
		d.Fields = append(d.Fields, fields)
		items = append(items, fields.items(f.Label, "")...)
	}
	v.showSourcedDialog("Profile details", d, items, func() error {
		det := controller.Details{Architecture: d.Architecture.Text, Organization: d.Organization.Text, Source: d.Source.Text}
		for _, f := range d.Fields {
			det.Reference = append(det.Reference, f.sourced())
		}
		if err := v.ed.SetDetails(det); err != nil {
			return err
		}
		v.updateTitle()
		return nil
	})
	v.Window.Canvas().Focus(arch)
}

// askCosts edits the chosen category's costs together with their sources, so a new number can
// come with its own citation instead of being marked as edited by hand.
func (v *View) askCosts() {
	name := v.Category.Selected
	cycles, power, err := v.ed.Costs(name)
	if err != nil {
		ui.ShowProblem(v.Window, "edit the costs of", name, err)
		return
	}
	d := &sourcedDialog{Fields: []*sourcedFields{newSourcedFields(cycles, false), newSourcedFields(power, false)}}
	items := append(d.Fields[0].items("Cycles", "Per instruction, ≥ 0"), d.Fields[1].items("Power (mW)", "While it executes, ≥ 0")...)
	v.showSourcedDialog(fmt.Sprintf("Costs of “%s”", name), d, items, func() error {
		if err := v.ed.SetSourcedCosts(name, d.Fields[0].sourced(), d.Fields[1].sourced()); err != nil {
			return err
		}
		v.showCategory()
		return nil
	})
	v.Window.Canvas().Focus(d.Fields[0].Value)
}
