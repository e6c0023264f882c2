package editor

import (
	"errors"
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
	Value        *widget.Entry
	Source       *ui.Entry
	Estimate     *widget.Check
	shown        *ui.Entry // what the form shows for Value (Escape in it closes the dialog)
	unknownBlank bool      // 0 means unknown and shows as an empty field
}

func newSourcedFields(s controller.Sourced, unknownBlank bool) *sourcedFields {
	f := &sourcedFields{unknownBlank: unknownBlank}
	f.Source, f.Estimate = sourceFields(s.Source, s.Estimate, "Where this number comes from")
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
	Architecture, Organization, Source *widget.Entry  // the profile details' own; nil for costs
	Memory                             *memorySection // the profile details' own; nil for costs
	Apply                              *widget.Button
	Scroll                             *container.Scroll
	dialog                             dialog.Dialog
}

// showSourcedDialog shows items in a scrolled form, then below (when not nil), with
// Cancel and Apply. Apply is enabled only while every value is valid, and keeps the dialog open
// when apply refuses the values.
func (v *View) showSourcedDialog(title string, d *sourcedDialog, items []*widget.FormItem, below fyne.CanvasObject, apply func() error) {
	body := fyne.CanvasObject(widget.NewForm(items...))
	width := float32(680)
	if below != nil {
		body, width = container.NewVBox(body, below), 780
	}
	d.Scroll = container.NewVScroll(body)
	// The dialog, its title and buttons must fit a 600-pixel-high window too.
	height := min(520, body.MinSize().Height, v.Window.Canvas().Size().Height-200)
	d.Scroll.SetMinSize(fyne.NewSize(width, max(height, 200)))
	dlg := dialog.NewCustomWithoutButtons(title, d.Scroll, v.Window)
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
		ok := d.Memory == nil || d.Memory.err == nil
		for _, f := range d.Fields {
			ok = ok && f.Value.Validate() == nil
		}
		ui.Enable(d.Apply, ok)
	}
	for _, f := range d.Fields {
		f.Value.OnChanged = func(string) { enable() }
	}
	if d.Memory != nil {
		d.Memory.changed = enable
		d.Memory.grown = func() { body.Refresh(); d.Scroll.Refresh() }
		enable()
	}
	dlg.SetButtons([]fyne.CanvasObject{widget.NewButton("Cancel", dlg.Hide), d.Apply})
	dlg.SetOnClosed(func() { v.Sourced = nil }) // however it closes: Cancel, Apply or Escape
	v.Sourced = d
	dlg.Show()
}

// askDetails edits what the profile describes and where it comes from: architecture,
// organization, source, the reference data with each number's citation, and the memory
// hierarchy and machine model with theirs; atMemory opens it scrolled to the hierarchy.
func (v *View) askDetails(atMemory bool) {
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
	d.Memory = newMemorySection(v.ed)
	d.Memory.focus = v.Window.Canvas().Focus
	v.showSourcedDialog("Profile details", d, items, d.Memory.content, func() error {
		det := controller.Details{Architecture: d.Architecture.Text, Organization: d.Organization.Text, Source: d.Source.Text}
		for _, f := range d.Fields {
			det.Reference = append(det.Reference, f.sourced())
		}
		return v.setDetails(det, d.Memory)
	})
	if !atMemory {
		v.Window.Canvas().Focus(arch)
		return
	}
	d.Scroll.ScrollToOffset(fyne.NewPos(0, d.Memory.content.Position().Y))
	if len(d.Memory.Levels) > 0 {
		v.Window.Canvas().Focus(d.Memory.Levels[0].Size)
	} else {
		v.Window.Canvas().Focus(d.Memory.AddHierarchy)
	}
}

// setDetails applies the details and the memory section together: both are checked before
// either changes the profile.
func (v *View) setDetails(det controller.Details, mem *memorySection) error {
	m, hierarchy, model := mem.problems()
	if err := errors.Join(hierarchy, model, v.ed.CheckDetails(det)); err != nil {
		return err
	}
	if err := v.ed.SetDetails(det); err != nil {
		return err
	}
	if err := v.ed.SetMemory(m); err != nil {
		return err
	}
	v.updateTitle()
	return nil
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
	v.showSourcedDialog(fmt.Sprintf("Costs of “%s”", name), d, items, nil, func() error {
		if err := v.ed.SetSourcedCosts(name, d.Fields[0].sourced(), d.Fields[1].sourced()); err != nil {
			return err
		}
		v.showCategory()
		return nil
	})
	v.Window.Canvas().Focus(d.Fields[0].Value)
}
