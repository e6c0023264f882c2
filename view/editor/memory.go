package editor

import (
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"androprof/controller"
	"androprof/model/cost"
	"androprof/view/ui"
)

// memorySection is the Memory hierarchy part of Profile details: a row per cache level under
// column headings with the level's source below it, buttons that add and take away levels, and
// the machine model with its source. It edits a draft; the dialog's Apply applies it.
type memorySection struct {
	Note   *widget.Label  // what the hierarchy lacks (none, unknown costs) or what is wrong with it
	Levels []*levelFields // the rows shown, l1i l1d l2 [l3]

	AddHierarchy, AddL3, RemoveL3, RemoveHierarchy *widget.Button

	ModelNote     *widget.Label // no model, or what is wrong with it
	Tool          *widget.Select
	CPU           *ui.Entry
	ModelSource   *ui.Entry
	ModelEstimate *widget.Check

	ed      *controller.Editor
	err     error // what check found wrong, nil when the section can be applied
	header  fyne.CanvasObject
	rows    *fyne.Container // the levels' rows, rebuilt when levels come and go
	content fyne.CanvasObject
	changed func()               // the dialog re-checks everything
	focus   func(fyne.Focusable) // gives a new hierarchy's first field the keyboard
	grown   func()               // lays the dialog out again when levels come and go
}

// levelFields edit one cache level. Size takes what --cache takes (32k, 2m, bytes); the miss
// cost and access energy are empty when unknown.
type levelFields struct {
	Name                           string
	Size, Ways, Line, Miss, Energy *ui.Entry
	Replacement                    *widget.Select
	WriteAllocate                  *widget.Check
	Source                         *ui.Entry
	Estimate                       *widget.Check
}

// memoryColumns are the level rows' columns and their relative widths.
var memoryColumns = []struct {
	title  string
	weight float32
}{
	{"Level", 0.6}, {"Size", 1}, {"Ways", 0.7}, {"Line (B)", 0.8}, {"Replacement", 1.5},
	{"Write-allocate", 1.2}, {"Miss cycles", 1}, {"Access nJ", 1},
}

func columns() *ui.WeightedColumns {
	w := make([]float32, len(memoryColumns))
	for i, c := range memoryColumns {
		w[i] = c.weight
	}
	return &ui.WeightedColumns{Weights: w}
}

func newMemorySection(ed *controller.Editor) *memorySection {
	s := &memorySection{ed: ed, Note: widget.NewLabel(""), ModelNote: widget.NewLabel(""), rows: container.NewVBox()}
	s.Note.Wrapping, s.ModelNote.Wrapping = fyne.TextWrapWord, fyne.TextWrapWord
	s.AddHierarchy = widget.NewButtonWithIcon("Add hierarchy", theme.ContentAddIcon(), func() { s.change(ed.AddHierarchy) })
	s.AddL3 = widget.NewButtonWithIcon("Add L3", theme.ContentAddIcon(), func() { s.change(ed.AddL3) })
	s.RemoveL3 = widget.NewButtonWithIcon("Remove L3", theme.ContentRemoveIcon(), func() { s.change(controller.Memory.WithoutL3) })
	s.RemoveHierarchy = widget.NewButtonWithIcon("Remove hierarchy", theme.DeleteIcon(), func() { s.change(controller.Memory.WithoutHierarchy) })
	heads := make([]fyne.CanvasObject, len(memoryColumns))
	for i, c := range memoryColumns {
		l := widget.NewLabelWithStyle(c.title, fyne.TextAlignLeading, fyne.TextStyle{Bold: true})
		l.Truncation = fyne.TextTruncateEllipsis
		heads[i] = l
	}
	s.header = container.New(columns(), heads...)

	m := ed.Memory()
	s.setLevels(m.Levels)
	s.buildModel(m)
	buttons := container.NewHBox(s.AddHierarchy, s.AddL3, s.RemoveL3, s.RemoveHierarchy)
	s.content = container.NewVBox(
		ui.Heading("Memory hierarchy (a simulated run's misses × these costs; empty is unknown)"),
		s.header, s.rows, s.Note, buttons, widget.NewSeparator(),
		ui.Heading("Machine model (llvm-mca prices each block's pipeline cycles)"),
		container.New(&ui.WeightedColumns{Weights: []float32{0.6, 2, 0.9, 3.7}},
			widget.NewLabel("Tool"), s.Tool, widget.NewLabel("-mcpu"), s.CPU),
		sourceRow(s.ModelSource, s.ModelEstimate), s.ModelNote)
	s.check()
	return s
}

func (s *memorySection) buildModel(m controller.Memory) {
	tools := slices.Clone(controller.PipelineTools)
	if t := m.Pipeline.Tool; t != "" && !slices.Contains(tools, t) {
		tools = append(tools, t)
	}
	s.Tool = widget.NewSelect(tools, func(string) { s.check() })
	s.Tool.PlaceHolder = "default (" + controller.DefaultPipelineTool + ")"
	s.Tool.Selected = m.Pipeline.Tool
	s.CPU = dialogField(m.Pipeline.CPU, "none; e.g. cortex-a55")
	s.CPU.OnChanged = func(string) { s.check() }
	s.ModelSource, s.ModelEstimate = sourceFields(m.PipelineCite.Source, m.PipelineCite.Estimate, "Where the choice of model comes from")
}

// change applies a controller edit of the draft's levels (add the hierarchy, add or remove L3)
// to the rows: a level that stays keeps what was typed in it.
func (s *memorySection) change(edit func(controller.Memory) controller.Memory) {
	var now controller.Memory
	for _, f := range s.Levels {
		now.Levels = append(now.Levels, controller.MemoryLevel{CacheLevel: cost.CacheLevel{Name: f.Name}})
	}
	s.setLevels(edit(now).Levels)
	s.check()
	if s.grown != nil {
		s.grown()
	}
	if len(now.Levels) == 0 && len(s.Levels) > 0 && s.focus != nil {
		s.focus(s.Levels[0].Size) // Add hierarchy is disabled now: the keyboard goes on to fill it in
	}
}

// setLevels shows levels, keeping the fields of those already shown.
func (s *memorySection) setLevels(levels []controller.MemoryLevel) {
	kept := s.Levels
	s.Levels = nil
	var objs []fyne.CanvasObject
	for _, l := range levels {
		i := slices.IndexFunc(kept, func(f *levelFields) bool { return f.Name == l.Name })
		f := (*levelFields)(nil)
		if i >= 0 {
			f = kept[i]
		} else {
			f = s.newLevelFields(l)
		}
		s.Levels = append(s.Levels, f)
		objs = append(objs, f.row(), sourceRow(f.Source, f.Estimate))
	}
	s.rows.Objects = objs
	s.rows.Refresh()
	has := len(levels) > 0
	showIf(s.header, has)
	ui.Enable(s.AddHierarchy, !has)
	ui.Enable(s.AddL3, len(levels) == 3)
	ui.Enable(s.RemoveL3, len(levels) == 4)
	ui.Enable(s.RemoveHierarchy, has)
}

func showIf(o fyne.CanvasObject, on bool) {
	if on {
		o.Show()
	} else {
		o.Hide()
	}
}

func (s *memorySection) newLevelFields(l controller.MemoryLevel) *levelFields {
	num := func(v int64) string {
		if v == 0 {
			return ""
		}
		return strconv.FormatInt(v, 10)
	}
	cost0 := func(v float64) string {
		if v == 0 {
			return ""
		}
		return ui.FormatCost(v)
	}
	size := ""
	if l.SizeBytes > 0 {
		size = cost.CacheSizeText(l.SizeBytes)
	}
	f := &levelFields{
		Name:   l.Name,
		Size:   dialogField(size, "e.g. 32k"),
		Ways:   dialogField(num(int64(l.Ways)), "e.g. 4"),
		Line:   dialogField(num(int64(l.LineBytes)), "e.g. 64"),
		Miss:   dialogField(cost0(l.MissCycles), "unknown"),
		Energy: dialogField(cost0(l.AccessEnergyNJ), "unknown"),
	}
	names := make([]string, len(cost.Replacements))
	for i, r := range cost.Replacements {
		names[i] = string(r)
	}
	f.Replacement = widget.NewSelect(names, func(string) { s.check() })
	f.Replacement.Selected = string(l.Replacement)
	f.WriteAllocate = widget.NewCheck("", func(bool) { s.check() })
	f.WriteAllocate.Checked = l.WriteAllocate
	for _, e := range []*ui.Entry{f.Size, f.Ways, f.Line, f.Miss, f.Energy} {
		e.OnChanged = func(string) { s.check() }
	}
	f.Source, f.Estimate = sourceFields(l.Source, l.Estimate, "Where this level's numbers come from")
	return f
}

func (f *levelFields) row() fyne.CanvasObject {
	name := widget.NewLabelWithStyle(strings.ToUpper(f.Name), fyne.TextAlignLeading, fyne.TextStyle{Bold: true})
	return container.New(columns(), name, f.Size, f.Ways, f.Line, f.Replacement, f.WriteAllocate, f.Miss, f.Energy)
}

// level reads the row; the error names the level and the field.
func (f *levelFields) level() (controller.MemoryLevel, error) {
	l := controller.MemoryLevel{CacheLevel: cost.CacheLevel{Name: f.Name, Replacement: cost.Replacement(f.Replacement.Selected),
		WriteAllocate: f.WriteAllocate.Checked}, Cite: controller.Cite{Source: f.Source.Text, Estimate: f.Estimate.Checked}}
	var err error
	whole := func(what, text string, to *int) {
		if err == nil {
			if *to, err = strconv.Atoi(strings.TrimSpace(text)); err != nil {
				err = fmt.Errorf("%s %q is not a whole number", what, text)
			}
		}
	}
	unknown := func(what, text string, to *float64) {
		if err == nil {
			if *to, err = unknownBlank(text); err != nil {
				err = fmt.Errorf("%s: %w", what, err)
			}
		}
	}
	if l.SizeBytes, err = cost.ParseCacheSize(f.Size.Text); err != nil {
		err = fmt.Errorf("size %q: %w", f.Size.Text, err)
	}
	whole("associativity", f.Ways.Text, &l.Ways)
	whole("line size", f.Line.Text, &l.LineBytes)
	unknown("miss cycles", f.Miss.Text, &l.MissCycles)
	unknown("access energy", f.Energy.Text, &l.AccessEnergyNJ)
	switch {
	case err == nil:
		return l, nil
	case strings.TrimSpace(f.Size.Text+f.Ways.Text+f.Line.Text) == "":
		err = errors.New("size, ways and line are needed")
	}
	return l, fmt.Errorf("cache level %s: %w", f.Name, err)
}

// unknownBlank reads a cost that may be left empty for unknown (0).
func unknownBlank(s string) (float64, error) {
	if strings.TrimSpace(s) == "" {
		return 0, nil
	}
	return parseCost(s)
}

// memory reads the whole section, with what is wrong with the fields that are not numbers. A
// level that cannot be read stands in as a valid one, so CheckMemory still judges the others.
func (s *memorySection) memory() (controller.Memory, []error) {
	m := controller.Memory{
		Pipeline:     cost.PipelineModel{Tool: s.Tool.Selected, CPU: s.CPU.Text},
		PipelineCite: controller.Cite{Source: s.ModelSource.Text, Estimate: s.ModelEstimate.Checked},
	}
	var errs []error
	for _, f := range s.Levels {
		l, err := f.level()
		if err != nil {
			errs = append(errs, err)
			l.CacheLevel = cost.CacheLevel{Name: f.Name, SizeBytes: 64, Ways: 1, LineBytes: 64, Replacement: cost.LRU}
		}
		m.Levels = append(m.Levels, l)
	}
	return m, errs
}

// problems says what keeps the hierarchy, and the model, from being applied: CheckMemory's
// verdict on the numbers (the geometry's rules are the controller's), then every field that is
// not a number.
func (s *memorySection) problems() (m controller.Memory, hierarchy, model error) {
	m, errs := s.memory()
	hierarchy = errors.Join(append([]error{s.ed.CheckMemory(controller.Memory{Levels: m.Levels})}, errs...)...)
	model = s.ed.CheckMemory(controller.Memory{Pipeline: m.Pipeline})
	return m, hierarchy, model
}

// check says under the levels and under the model what is wrong, or else what the profile goes
// without, and tells the dialog.
func (s *memorySection) check() {
	m, hierarchy, model := s.problems()
	s.err = errors.Join(hierarchy, model)
	grew := showNote(s.Note, hierarchy, m.HierarchyNotes()...)
	if showNote(s.ModelNote, model, m.ModelNote()) || grew {
		if s.grown != nil {
			s.grown() // a note's lines push what is below it
		}
	}
	if s.changed != nil {
		s.changed()
	}
}

// showNote shows err in l, or else notes (hiding l when there are none), and says whether l
// took another number of lines.
func showNote(l *widget.Label, err error, notes ...string) bool {
	before := l.Visible() && l.Text != ""
	lines := strings.Count(l.Text, "\n")
	l.Importance = widget.MediumImportance
	text := strings.TrimSpace(strings.Join(notes, "\n"))
	if err != nil {
		l.Importance, text = widget.DangerImportance, err.Error()
	}
	ui.SetNote(l, text)
	return before != (text != "") || strings.Count(text, "\n") != lines
}

// dialogField is a one-line dialog entry (Escape closes the dialog) holding text.
func dialogField(text, placeholder string) *ui.Entry {
	e := ui.NewEntry()
	e.SetPlaceHolder(placeholder)
	prefill(&e.Entry, text)
	return e
}

// sourceFields edit where numbers come from: their citation (Escape in it closes the dialog)
// and whether they are an estimate.
func sourceFields(text string, estimate bool, placeholder string) (*ui.Entry, *widget.Check) {
	e := ui.NewEntry()
	e.MultiLine = true
	e.Wrapping = fyne.TextWrapWord
	e.SetMinRowsVisible(2)
	e.SetPlaceHolder(placeholder)
	e.SetText(text)
	check := widget.NewCheck("Estimate", nil)
	check.SetChecked(estimate)
	return e, check
}

// sourceRow lays a source out as the reference data's: the text with its estimate box, both
// at the top of the text's rows.
func sourceRow(src *ui.Entry, estimate *widget.Check) fyne.CanvasObject {
	return container.NewBorder(nil, nil, container.NewVBox(widget.NewLabel("Source")), container.NewVBox(estimate), src)
}
