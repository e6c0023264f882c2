package editor

import (
	"fmt"
	"image/color"
	"slices"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"androprof/controller"
	"androprof/internal/human"
	"androprof/model/cost"
	"androprof/view/ui"
)

const allISAs = "All"

// InstructionList is one filterable, tickable instruction list. Both sides of the editor use it
// so they render rows, filter and select the same way.
type InstructionList struct {
	Search    *widget.Entry  // filters as the user types
	ISA       *widget.Select // "All" or one of the profile's instruction sets
	SelectAll *widget.Button // ticks every row shown
	Clear     *widget.Button // unticks everything
	Count     *widget.Label  // "N … (M shown, K selected)"
	List      *widget.List   // a tap on a row, or Space on the focused row, ticks or unticks it

	rows    []controller.Row
	picked  map[cost.Instruction]bool
	load    func(controller.Filter) []controller.Row
	noun    func() string // what the count label calls the list, e.g. "uncategorised"
	changed func()        // told when the selection changes, to enable buttons
	content fyne.CanvasObject
}

// newInstructionList builds a list whose rows come from load; noun names them in the count label.
func newInstructionList(load func(controller.Filter) []controller.Row, noun func() string) *InstructionList {
	l := &InstructionList{load: load, noun: noun, picked: map[cost.Instruction]bool{}, changed: func() {}}
	l.Search = widget.NewEntry()
	l.Search.SetPlaceHolder("Search mnemonic or description")
	l.Search.OnChanged = func(string) { l.Reload() }
	l.ISA = widget.NewSelect([]string{allISAs}, nil)
	l.ISA.SetSelected(allISAs)
	l.ISA.OnChanged = func(string) { l.Reload() }
	l.SelectAll = widget.NewButton("Select all shown", l.pickAllShown)
	l.Clear = widget.NewButton("Clear", l.clearPicks)
	l.Count = widget.NewLabel("")
	l.Count.Truncation = fyne.TextTruncateEllipsis
	l.List = widget.NewList(func() int { return len(l.rows) }, l.newRow, l.updateRow)
	// A tap anywhere on a row ticks it; the list's own highlight would be a second, confusing selection.
	l.List.OnSelected = func(id widget.ListItemID) {
		l.List.Unselect(id)
		if id >= 0 && id < len(l.rows) {
			l.setPicked(l.rows[id].Instruction, !l.picked[l.rows[id].Instruction])
		}
	}
	// Search first: reading order is Tab order, and the list itself is the next stop.
	filters := readingBorder(nil, nil, nil, l.ISA, l.Search)
	buttons := container.NewHBox(l.SelectAll, l.Clear)
	top := container.NewVBox(filters, container.NewBorder(nil, nil, nil, buttons, l.Count), header())
	l.content = readingBorder(top, nil, nil, nil, l.List)
	return l
}

// Content is the list with its filter row, ready to place in a layout.
func (l *InstructionList) Content() fyne.CanvasObject { return l.content }

// SetISAs offers the profile's instruction sets in the filter, in cost.KnownISAs's order (ARM,
// Thumb, AArch64, MIPS, x86-64: a profile of all five lists all five), keeping the choice when
// it still applies.
func (l *InstructionList) SetISAs(isas []cost.ISA) {
	opts := []string{allISAs}
	keep := false
	for _, isa := range filterISAs(isas) {
		opts = append(opts, string(isa))
		keep = keep || string(isa) == l.ISA.Selected
	}
	l.ISA.Options = opts
	if !keep {
		l.ISA.Selected = allISAs
	}
	l.ISA.Refresh()
}

// filterISAs orders a profile's instruction sets as cost.KnownISAs lists them, any set it does
// not know after them, so every profile's filter reads the same way.
func filterISAs(isas []cost.ISA) []cost.ISA {
	var out []cost.ISA
	for _, known := range cost.KnownISAs {
		if slices.Contains(isas, known) {
			out = append(out, known)
		}
	}
	for _, isa := range isas {
		if !slices.Contains(out, isa) {
			out = append(out, isa)
		}
	}
	return out
}

// Filter is what the user asked to see.
func (l *InstructionList) Filter() controller.Filter {
	f := controller.Filter{Query: l.Search.Text}
	if l.ISA.Selected != allISAs {
		f.ISA = cost.ISA(l.ISA.Selected)
	}
	return f
}

// Rows are the rows shown, in display order.
func (l *InstructionList) Rows() []controller.Row { return l.rows }

// Picked lists the ticked instructions in display order. Ticks never outlive their row being
// shown, so what is ticked on screen is exactly what a move takes.
func (l *InstructionList) Picked() []cost.Instruction {
	var out []cost.Instruction
	for _, r := range l.rows {
		if l.picked[r.Instruction] {
			out = append(out, r.Instruction)
		}
	}
	return out
}

// Reload asks the editor for the rows again, e.g. after a move or as the filter changes.
func (l *InstructionList) Reload() {
	if l.load == nil {
		return
	}
	l.rows = l.load(l.Filter())
	shown := make(map[cost.Instruction]bool, len(l.rows))
	for _, r := range l.rows {
		shown[r.Instruction] = true
	}
	for in := range l.picked {
		if !shown[in] {
			delete(l.picked, in)
		}
	}
	l.redraw()
}

// Pick ticks rows by instruction, e.g. one just added by hand, ready to be moved.
func (l *InstructionList) Pick(ins ...cost.Instruction) {
	for _, in := range ins {
		l.picked[in] = true
	}
	l.Reload()
}

func (l *InstructionList) setPicked(in cost.Instruction, on bool) {
	if on {
		l.picked[in] = true
	} else {
		delete(l.picked, in)
	}
	l.redraw()
}

func (l *InstructionList) pickAllShown() {
	for _, r := range l.rows {
		l.picked[r.Instruction] = true
	}
	l.redraw()
}

func (l *InstructionList) clearPicks() {
	clear(l.picked)
	l.redraw()
}

// redraw shows new rows or ticks and tells the editor, which enables its buttons.
func (l *InstructionList) redraw() {
	l.List.Refresh()
	l.updateCount()
	l.changed()
}

func (l *InstructionList) updateCount() {
	total := len(l.load(controller.Filter{}))
	text := fmt.Sprintf("%d %s (%d shown", total, l.noun(), len(l.rows))
	if n := len(l.picked); n > 0 {
		text += fmt.Sprintf(", %d selected", n)
	}
	l.Count.SetText(text + ")")
}

// Row layout: tick, then columns weighted so mnemonics and descriptions get the room.
var columnWeights = []float32{2, 1.5, 1.7, 3.6}

func header() fyne.CanvasObject {
	gap := canvas.NewRectangle(color.Transparent)
	gap.SetMinSize(newTick().MinSize())
	cells := make([]fyne.CanvasObject, 0, len(columnWeights))
	for i, title := range []string{"Mnemonic", "ISA", "Executions", "Description"} {
		lbl := widget.NewLabelWithStyle(title, fyne.TextAlignLeading, fyne.TextStyle{Bold: true})
		if i == 2 {
			lbl.Alignment = fyne.TextAlignTrailing
		}
		cells = append(cells, lbl)
	}
	return container.NewBorder(nil, nil, gap, nil, container.New(&ui.WeightedColumns{Weights: columnWeights}, cells...))
}

func (l *InstructionList) newRow() fyne.CanvasObject { return newInstructionRow() }

func (l *InstructionList) updateRow(id widget.ListItemID, o fyne.CanvasObject) {
	if id >= 0 && id < len(l.rows) {
		r := l.rows[id]
		o.(*instructionRow).show(r, l.picked[r.Instruction])
	}
}

// instructionRow is one list row: a tick box and the instruction's columns. The box is a
// picture, not a widget.Check: a tap on it reaches the list like a tap elsewhere on the row,
// and Tab moves to the list as a whole instead of stopping at every visible box.
type instructionRow struct {
	widget.BaseWidget
	tick                       *widget.Icon
	mnemonic, isa, count, desc *widget.Label
}

// newTick is a tick box's picture, unticked.
func newTick() *widget.Icon { return widget.NewIcon(theme.CheckButtonIcon()) }

func newInstructionRow() *instructionRow {
	r := &instructionRow{
		tick:     newTick(),
		mnemonic: widget.NewLabelWithStyle("", fyne.TextAlignLeading, fyne.TextStyle{Monospace: true}),
		isa:      widget.NewLabel(""),
		count:    widget.NewLabelWithStyle("", fyne.TextAlignTrailing, fyne.TextStyle{}),
		desc:     widget.NewLabel(""),
	}
	for _, lbl := range []*widget.Label{r.mnemonic, r.isa, r.count, r.desc} {
		lbl.Truncation = fyne.TextTruncateEllipsis
	}
	r.ExtendBaseWidget(r)
	return r
}

func (r *instructionRow) CreateRenderer() fyne.WidgetRenderer {
	cols := container.New(&ui.WeightedColumns{Weights: columnWeights}, r.mnemonic, r.isa, r.count, r.desc)
	return widget.NewSimpleRenderer(container.NewBorder(nil, nil, r.tick, nil, cols))
}

func (r *instructionRow) show(row controller.Row, picked bool) {
	if picked {
		r.tick.SetResource(theme.NewPrimaryThemedResource(theme.CheckButtonCheckedIcon()))
	} else {
		r.tick.SetResource(theme.CheckButtonIcon())
	}
	r.mnemonic.SetText(row.Instruction.Mnemonic)
	r.isa.SetText(string(row.Instruction.ISA))
	r.count.SetText(executions(row.Count))
	if row.InCatalogue {
		r.desc.Importance = widget.MediumImportance
		r.desc.SetText(row.Description)
	} else {
		r.desc.Importance = widget.WarningImportance
		r.desc.SetText("not in catalogue")
	}
}

// executions is blank for zero so rows never seen in a log stay quiet, and grouped as every
// window writes counts, so counts in the millions can be compared at a glance.
func executions(n int64) string {
	if n == 0 {
		return ""
	}
	return human.Grouped(n)
}
