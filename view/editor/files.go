package editor

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"slices"
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"androprof/controller"
	"androprof/model/cost"
	"androprof/view/ui"
)

// Edit opens a profile from elsewhere (the database, a built-in), asking first about unsaved
// changes to the current one.
func (v *View) Edit(p *cost.Profile) {
	if v.busy() {
		return
	}
	v.settle(func() {
		v.ed.SetProfile(p)
		v.Reload()
	})
}

// settle runs next once the user no longer has unsaved changes: it asks Save / Discard / Cancel
// when there are some. Save continues only if saving succeeded.
func (v *View) settle(next func()) {
	if !v.ed.Dirty() {
		next()
		return
	}
	askUnsaved(v.Window, v.ed.Profile().Name, func() { v.save(next) }, next)
}

// askNewProfile asks about unsaved changes first, then for the new profile's name: a person
// deciding what to do with the old profile should not have typed the new one's name already.
func (v *View) askNewProfile() {
	if v.busy() {
		return
	}
	v.settle(v.askNewProfileName)
}

func (v *View) askNewProfileName() {
	name := profileNameEntry("")
	opts := make([]string, len(cost.KnownISAs)) // every set the workbench prices, each with its catalogue
	for i, isa := range cost.KnownISAs {
		opts[i] = string(isa)
	}
	isas := widget.NewCheckGroup(opts, nil)
	isas.Horizontal = true
	isas.SetSelected([]string{string(cost.ARM), string(cost.Thumb)})
	items := []*widget.FormItem{profileNameItem(name), widget.NewFormItem("Instruction sets", isas)}
	d := dialog.NewForm("New profile", "Create", "Cancel", items, func(ok bool) {
		if !ok {
			return
		}
		var chosen []cost.ISA
		for _, s := range isas.Selected {
			chosen = append(chosen, cost.ISA(s))
		}
		if err := v.ed.NewProfile(name.Text, chosen...); err != nil {
			ui.ShowProblem(v.Window, "create the profile", name.Text, err)
			return
		}
		v.Reload()
	}, v.Window)
	ui.ShowForm(v.Window, d, &name.Entry)
}

func (v *View) askOpen() {
	if v.busy() {
		return
	}
	v.settle(func() {
		ui.AskPath(v.Window, ui.PathRequest{Title: "Open profile", Action: "Open", Kind: ui.OpenFile,
			Folder: v.folder(), Exts: []string{".xml"}}, v.Open)
	})
}

// Open reads a profile file into the editor; errors name the file and line.
func (v *View) Open(path string) {
	if err := v.ed.Open(path); err != nil {
		ui.ShowProblem(v.Window, "open the profile", path, err)
		return
	}
	v.Reload()
}

// askBuiltin starts a new profile from a built-in one (model.Profile.Derive says what it takes),
// asking first about unsaved changes, then which built-in and the new profile's name.
func (v *View) askBuiltin() {
	if v.busy() {
		return
	}
	names := v.profiles.BuiltinNames()
	if len(names) == 0 {
		dialog.ShowInformation("No built-in profiles", "This build carries no built-in profiles.", v.Window)
		return
	}
	v.settle(func() { v.askBuiltinName(names) })
}

func (v *View) askBuiltinName(names []string) {
	sel := widget.NewSelect(names, nil)
	sel.SetSelected(names[0])
	sel.PlaceHolder = longest(names) // a Select is as wide as its placeholder: every name shows whole
	name := nameEntry("", func(s string) error {
		if slices.Contains(names, strings.TrimSpace(s)) {
			return errors.New("a built-in profile has that name")
		}
		return checkProfileName(s)
	})
	name.SetPlaceHolder("e.g. Cortex-A53, from the A8")
	items := []*widget.FormItem{
		{Text: "Start from", Widget: sel, HintText: "Its categories, and its costs as estimates"},
		profileNameItem(name),
	}
	d := dialog.NewForm("Start from a built-in profile", "Create", "Cancel", items, func(ok bool) {
		if !ok {
			return
		}
		if err := v.ed.DeriveFromBuiltin(sel.Selected, name.Text); err != nil {
			ui.ShowProblem(v.Window, "start from the built-in profile", sel.Selected, err)
			return
		}
		v.Reload()
	}, v.Window)
	ui.ShowForm(v.Window, d, &name.Entry)
}

// longest is the longest of names, by its width on screen.
func longest(names []string) string {
	var out string
	var w float32
	for _, n := range names {
		if nw := fyne.MeasureText(n, theme.TextSize(), fyne.TextStyle{}).Width; nw > w {
			out, w = n, nw
		}
	}
	return out
}

// valid shows every problem and reports false when the profile must not be saved.
func (v *View) valid() bool {
	probs := v.ed.Problems()
	if len(probs) == 0 {
		return true
	}
	showProblems(v.Window, probs)
	return false
}

// save writes to the profile's file, asking for one when it has none; then runs after.
func (v *View) save(after func()) {
	if v.busy() || !v.valid() {
		return
	}
	if v.ed.Path() == "" {
		v.saveAs(after)
		return
	}
	if err := v.ed.Save(); err != nil {
		ui.ShowProblem(v.Window, "save the profile", v.ed.Path(), err)
		return
	}
	v.updateTitle()
	if after != nil {
		after()
	}
}

func (v *View) saveAs(after func()) {
	if v.busy() || !v.valid() {
		return
	}
	req := ui.PathRequest{Title: "Save profile as", Action: "Save", Kind: ui.SaveFile, Folder: v.folder(),
		Name: fileName(v.ed.Profile().Name), Exts: []string{".xml"}}
	ui.AskPath(v.Window, req, func(path string) {
		if err := v.ed.SaveAs(path); err != nil {
			ui.ShowProblem(v.Window, "save the profile as", path, err)
			return
		}
		v.updateTitle()
		if after != nil {
			after()
		}
	})
}

// fileName suggests a file for a profile: "ARMv7-A Cortex-A8" → "armv7-a-cortex-a8.xml".
func fileName(profile string) string {
	slug := strings.Join(strings.FieldsFunc(strings.ToLower(profile), func(r rune) bool {
		return !(r >= 'a' && r <= 'z' || r >= '0' && r <= '9' || r == '-' || r == '_' || r == '.')
	}), "-")
	if slug == "" {
		slug = "profile"
	}
	return slug + ".xml"
}

// folder is where the editor's path dialogs start: beside the profile's file, if it has one.
func (v *View) folder() string {
	if p := v.ed.Path(); p != "" {
		return filepath.Dir(p)
	}
	return ""
}

// keepInWorkspace stores the profile in the database so analyses can name it.
func (v *View) keepInWorkspace() {
	if !v.profiles.CanKeep() {
		dialog.ShowInformation("No workspace", "This session has no workspace database.", v.Window)
		return
	}
	if v.busy() || !v.valid() {
		return
	}
	if v.ed.Profile().Name == controller.UnnamedProfile { // would replace the last unnamed one kept
		v.askProfileName("Name the profile", "Keep", v.keepInWorkspace)
		return
	}
	p, profiles := v.ed.Profile().Clone(), v.profiles
	v.bg.Run(func() func() {
		err := profiles.Keep(context.Background(), p)
		return func() {
			if err != nil {
				ui.ShowProblem(v.Window, "keep the profile in the workspace", p.Name, err)
				return
			}
			if v.onKept != nil {
				v.onKept()
			}
			dialog.ShowInformation("Kept in workspace", fmt.Sprintf("The workspace now holds profile “%s”.", p.Name), v.Window)
		}
	})
}

func (v *View) askAddInstruction() {
	if v.busy() {
		return
	}
	var opts []string
	for _, isa := range v.ed.Profile().ISAs {
		opts = append(opts, string(isa))
	}
	isa := widget.NewSelect(opts, nil)
	if len(opts) > 0 {
		isa.SetSelected(opts[0])
	}
	mnemonic := ui.NewEntry()
	mnemonic.Validator = func(s string) error {
		if strings.TrimSpace(s) == "" {
			return errors.New("type a mnemonic")
		}
		return nil
	}
	items := []*widget.FormItem{widget.NewFormItem("Instruction set", isa),
		{Text: "Mnemonic", Widget: mnemonic, HintText: "As the disassembly writes it, e.g. LDRD"}}
	ui.ShowForm(v.Window, dialog.NewForm("Add instruction", "Add", "Cancel", items, func(ok bool) {
		if ok {
			v.AddInstruction(cost.Instruction{ISA: cost.ISA(isa.Selected), Mnemonic: mnemonic.Text})
		}
	}, v.Window), &mnemonic.Entry)
}

// AddInstruction adds a mnemonic no catalogue lists and ticks it, ready to be moved.
func (v *View) AddInstruction(in cost.Instruction) {
	if err := v.ed.AddInstruction(in); err != nil {
		ui.ShowProblem(v.Window, "add the instruction", in.Mnemonic, err)
		return
	}
	in.Mnemonic = strings.ToUpper(strings.TrimSpace(in.Mnemonic))
	v.refreshLists()
	v.Uncategorized.Pick(in)
}
