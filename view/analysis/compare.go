package analysis

import (
	"cmp"
	"context"
	"fmt"
	"maps"
	"slices"
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"androprof/chart"
	"androprof/controller"
	"androprof/internal/human"
	"androprof/model"
	"androprof/model/cost"
	"androprof/view/ui"
)

// compareChoice is one line of the Compare list: a run, or a process of it.
type compareChoice struct {
	item  cost.CompareItem
	label string
}

// compareTab puts runs or processes side by side, in the shape of seed tables 5.2
// (instructions, blocks, instructions per block), 5.4 (cycles) and 5.5 (energy), with ratios
// to the first item ticked and figure 5.2's estimate where a row's profile has reference data. Each instruction set is priced with the profile chosen for it in
// the tab (PriceWith), else with the top bar's when it prices the set, else with one that
// does: an ARM and a MIPS run each get their own, and any two can be held side by side.
type compareTab struct {
	Choices   *widget.List
	Clear     *widget.Button
	Hint      *widget.Label               // what to do, then which profile priced what and what is a guess
	PriceWith map[cost.ISA]*widget.Select // per instruction set compared, the profile that prices it
	Pricing   *fyne.Container             // the choosers, in the order of the items' sets
	Chart     *ui.ChartPanel
	Table     *ui.SortTable[cost.CompareRow]
	PerImage  *widget.Check // shows Images instead of Table: the program, libraries and loader side by side
	Images    *ui.SortTable[cost.ImageCompareRow]

	v         *View
	choices   []compareChoice
	picked    []cost.CompareItem // in the order ticked: the first is the base of the ratios
	rows      []cost.CompareRow
	imageRows []cost.ImageCompareRow
	items     []string            // the picked items' names, in the order of rows
	chosen    map[cost.ISA]string // the profile the user chose per instruction set, by name
	quiet     bool                // set while the code, not the user, sets a chooser
	gen       int
	content   fyne.CanvasObject
}

func newCompareTab(v *View) *compareTab {
	t := &compareTab{v: v, PriceWith: map[cost.ISA]*widget.Select{}, chosen: map[cost.ISA]string{}}
	t.Choices = widget.NewList(func() int { return len(t.choices) },
		func() fyne.CanvasObject { return newPickRow() }, t.updateChoice)
	t.Pricing = container.NewStack()
	t.Clear = widget.NewButtonWithIcon("Clear", theme.ContentClearIcon(), func() {
		t.picked = nil
		t.Choices.Refresh()
		t.recompute()
	})
	t.Hint = widget.NewLabel("")
	t.Hint.Wrapping = fyne.TextWrapWord
	// The hint's room is fixed (it scrolls when the warnings are longer), so nothing below it
	// moves when results arrive while the user ticks the next item.
	hint := container.NewVScroll(t.Hint)
	hint.SetMinSize(fyne.NewSize(0, widget.NewLabel("1\n2\n3").MinSize().Height))
	t.Chart = ui.NewChartPanel(v.Window, v.bg, chart.Bars, nil)
	ratio := func(f float64) string { return ui.FormatFloat(f, 4) }
	t.Table = ui.NewSortTable(v.Window, "comparison", []ui.Column[cost.CompareRow]{
		ui.TextCol("Item", 160, func(r cost.CompareRow) string { return r.Item }),
		ui.TextCol("Profile", 180, func(r cost.CompareRow) string { return r.Profile }),
		shareCol("Not in profile", 100, func(r cost.CompareRow) float64 { return r.Coverage.UndefinedShare() }),
		ui.IntCol("Instructions", 130, func(r cost.CompareRow) int64 { return r.Instructions }),
		// Each of cycles, time and energy beside figure 5.2's, so the two estimates are read
		// together (the Estimate tab says why they differ); within a 1366-px window's reach.
		ui.FloatCol("Cycles", 130, 0, func(r cost.CompareRow) float64 { return r.Cycles }),
		unknownIf(ui.FloatCol("Fig. 5.2 cycles", 130, 0, func(r cost.CompareRow) float64 { return cpiEstimate(r).Cycles }), noCPIEstimate),
		ui.QuantityCol("Time", "s", 100, func(r cost.CompareRow) float64 { return r.TimeS }),
		unknownIf(ui.QuantityCol("Fig. 5.2 time", "s", 110, func(r cost.CompareRow) float64 { return cpiEstimate(r).TimeS }), noCPIEstimate),
		unknownIf(ui.QuantityCol("Energy", "J", 100, func(r cost.CompareRow) float64 { return r.EnergyJ }), energyUnknown),
		unknownIf(ui.QuantityCol("Fig. 5.2 energy", "J", 120, func(r cost.CompareRow) float64 { return cpiEstimate(r).EnergyJ }), noCPIEstimate),
		ui.IntCol("Blocks", 120, func(r cost.CompareRow) int64 { return r.Blocks }),
		ui.FloatCol("Insns/block", 90, 4, func(r cost.CompareRow) float64 { return r.InsnsPerBlock }),
		{Title: "Insns ratio", Width: 90, Num: true, Text: func(r cost.CompareRow) string { return ratio(r.InstructionRatio) }},
		{Title: "Cycles ratio", Width: 90, Num: true, Text: func(r cost.CompareRow) string { return ratio(r.CycleRatio) }},
		unknownIf(ui.Column[cost.CompareRow]{Title: "Energy ratio", Width: 90, Num: true,
			Text: func(r cost.CompareRow) string { return ratio(r.EnergyRatio) }},
			func(r cost.CompareRow) bool {
				return energyUnknown(r) || len(t.rows) > 0 && energyUnknown(t.rows[0])
			}),
	}, nil)
	t.Images = ui.NewSortTable(v.Window, "comparison-per-image", t.imageCols(), nil)
	t.PerImage = widget.NewCheck("Per image", func(on bool) {
		showIf(t.Images.Content(), on)
		showIf(t.Table.Content(), !on)
		t.chart(v.metric)
	})
	t.Images.Content().Hide()
	tables := container.NewStack(t.Table.Content(), t.Images.Content())
	left := container.NewBorder(ui.Heading("Compare"), container.NewHBox(t.Clear), nil, nil, t.Choices)
	// Per image beside the hint (no row of its own), the profile choosers under it.
	top := container.NewBorder(nil, t.Pricing, nil, container.NewVBox(t.PerImage), hint)
	right := container.NewBorder(top, nil, nil, nil, container.NewVSplit(t.Chart.Content(), tables))
	split := container.NewHSplit(left, right)
	split.Offset = 0.25
	t.content = split
	t.recompute()
	return t
}

func (t *compareTab) updateChoice(id widget.ListItemID, o fyne.CanvasObject) {
	if id < 0 || id >= len(t.choices) {
		return
	}
	c := t.choices[id]
	check := o.(*pickRow).Check
	check.OnChanged = nil // SetChecked would report the old row's state as a change
	check.SetText(c.label)
	check.SetChecked(t.isPicked(c.item))
	check.OnChanged = func(on bool) { t.Pick(c.item, on) }
}

func (t *compareTab) isPicked(it cost.CompareItem) bool {
	for _, p := range t.picked {
		if p == it {
			return true
		}
	}
	return false
}

// Pick ticks or unticks an item, as its check box does.
func (t *compareTab) Pick(it cost.CompareItem, on bool) {
	if on == t.isPicked(it) {
		return
	}
	if on {
		t.picked = append(t.picked, it)
	} else {
		for i, p := range t.picked {
			if p == it {
				t.picked = append(t.picked[:i], t.picked[i+1:]...)
				break
			}
		}
	}
	t.Choices.Refresh()
	t.recompute()
}

// loadChoices lists every run and its processes; called when the runs change.
func (t *compareTab) loadChoices(runs []model.RunInfo) {
	v := t.v
	if v.analysis == nil {
		return
	}
	store := v.ws
	v.bg.Run(func() func() {
		var choices []compareChoice
		for _, r := range runs {
			if tabSetOf(r.Kind) != emulatorTabs { // method traces are compared in their own tabs; heap runs have no costs
				continue
			}
			choices = append(choices, compareChoice{cost.CompareItem{Run: r.Name}, r.Name})
			procs, err := store.Processes(context.Background(), r.Name)
			if err != nil {
				continue
			}
			for _, p := range procs {
				choices = append(choices, compareChoice{cost.CompareItem{Run: r.Name, PID: p.PID},
					"    " + r.Name + ":" + processLabel(p.Process)})
			}
		}
		return func() {
			t.choices = choices
			var kept []cost.CompareItem
			for _, p := range t.picked {
				for _, c := range choices {
					if c.item == p {
						kept = append(kept, p)
					}
				}
			}
			t.picked = kept
			t.Choices.Refresh()
			t.recompute()
		}
	})
}

// recompute compares the ticked items under the profile and frequency shown.
func (t *compareTab) recompute() {
	v := t.v
	t.gen++
	if len(t.picked) < 2 || v.res == nil || v.analysis == nil {
		t.Hint.SetText("Tick two or more runs or processes; ratios are to the first ticked.")
		t.rows, t.imageRows, t.items = nil, nil, nil
		t.Table.Set(nil)
		t.Images.SetColumns(t.imageCols())
		t.Images.Set(nil)
		t.chart(v.metric)
		return
	}
	t.Hint.SetText(fmt.Sprintf("Ratios are to %s.", t.picked[0]))
	gen, items, a, freq, ctx := t.gen, append([]cost.CompareItem(nil), t.picked...), v.analysis, v.sel.freq, v.ctx
	infos := slices.Clone(v.infos)
	profileFor := v.profiles.ByISA(infos, maps.Clone(t.chosen), v.profiles.ForISA(infos, v.res.profile))
	v.bg.Run(func() func() {
		isas, err := itemISAs(ctx, a, items)
		var rows []cost.CompareRow
		var images []cost.ImageCompareRow
		if err == nil {
			rows, err = a.Compare(ctx, items, profileFor, freq)
		}
		if err == nil {
			images, err = a.CompareImages(ctx, items, profileFor, freq)
		}
		return func() {
			if gen != t.gen {
				return
			}
			if err != nil {
				t.Hint.SetText(ui.ProblemText("compare", "", err))
				rows, images, isas = nil, nil, nil
			} else {
				t.Hint.SetText(compareNotes(rows))
			}
			t.showPricing(infos, isas, rows)
			t.rows, t.imageRows, t.items = rows, images, nil
			for _, r := range rows {
				t.items = append(t.items, r.Item)
			}
			subject := strings.Join(t.items, "-vs-") // files saved are named after the items, not the run shown
			t.Table.SetSubject(subject)
			t.Images.SetSubject(subject)
			t.Chart.SetSubject(subject)
			t.Table.Set(rows)
			t.Images.Set(nil) // the rows shown are the last items', fewer cells than the new columns read
			t.Images.SetColumns(t.imageCols())
			t.Images.Set(images)
			t.Images.Count.SetText(human.Count(len(images), "image", "images"))
			t.chart(v.metric)
		}
	})
}

// itemISAs is the instruction set each item executed most: the one its profile has to price.
func itemISAs(ctx context.Context, a *controller.Analysis, items []cost.CompareItem) ([]cost.ISA, error) {
	out := make([]cost.ISA, len(items))
	for i, it := range items {
		d, err := a.Load(ctx, it.Run)
		if err != nil {
			return nil, err
		}
		out[i] = d.MainISA(it.PID)
	}
	return out, nil
}

// showPricing offers, for each instruction set compared, the profiles that price it, showing
// the one that priced its items; a choice prices that set's items with it from then on.
func (t *compareTab) showPricing(infos []cost.ProfileInfo, isas []cost.ISA, rows []cost.CompareRow) {
	var cells []fyne.CanvasObject
	seen := map[cost.ISA]bool{}
	t.quiet = true
	defer func() { t.quiet = false }()
	for i, isa := range isas {
		if isa == "" || seen[isa] || i >= len(rows) {
			continue
		}
		seen[isa] = true
		sel, ok := t.PriceWith[isa]
		if !ok {
			sel = widget.NewSelect(nil, func(name string) {
				if !t.quiet && name != "" {
					t.chosen[isa] = name
					t.recompute()
				}
			})
			t.PriceWith[isa] = sel
		}
		sel.Options = controller.PricedBy(infos, isa)
		sel.SetSelected(rows[i].Profile)
		cells = append(cells, container.NewBorder(nil, nil, widget.NewLabel(string(isa)), nil, sel))
	}
	for isa, sel := range t.PriceWith {
		showIf(sel, seen[isa])
	}
	t.Pricing.Objects = nil
	if len(cells) > 0 { // as many a line as the width holds (two at 900 px); the hint says what they are
		cell := fyne.NewSize(270, widget.NewSelect(nil, nil).MinSize().Height)
		t.Pricing.Objects = []fyne.CanvasObject{container.NewGridWrap(cell, cells...)}
	}
	t.Pricing.Refresh()
}

func (t *compareTab) chart(m chart.Metric) {
	if t.PerImage.Checked {
		c := chart.FromImageComparison(t.items, t.imageRows, m)
		c.Caveat = chart.ComparisonCaveat(t.rows, m)
		t.Chart.Set(c)
		return
	}
	t.Chart.Set(chart.FromComparison(t.rows, m, chart.Bars))
}

// imageCols are the per-image table's columns for the items compared: each item's
// instructions, cycles and energy, and the images' names where the items name one differently
// (ld-linux-armhf.so.3 and ld.so.1 are both the loader).
func (t *compareTab) imageCols() []ui.Column[cost.ImageCompareRow] {
	cols := []ui.Column[cost.ImageCompareRow]{
		ui.TextCol("Image", 170, func(r cost.ImageCompareRow) string { return r.Key }),
		ui.TextCol("Kind", 80, func(r cost.ImageCompareRow) string { return string(r.Kind) }),
	}
	for i, item := range t.items {
		cell := func(r cost.ImageCompareRow) cost.ReportRow { return r.Cells[i] }
		unknown := func(cost.ImageCompareRow) bool { return i < len(t.rows) && energyUnknown(t.rows[i]) }
		cols = append(cols,
			ui.IntCol(item+" instructions", 130, func(r cost.ImageCompareRow) int64 { return cell(r).Instructions }),
			ui.FloatCol(item+" cycles", 130, 0, func(r cost.ImageCompareRow) float64 { return cell(r).Cycles }),
			unknownIf(ui.QuantityCol(item+" energy", "J", 110, func(r cost.ImageCompareRow) float64 { return cell(r).EnergyJ }), unknown))
	}
	if slices.ContainsFunc(t.imageRows, func(r cost.ImageCompareRow) bool { return imageNames(r) != "" }) {
		cols = append(cols, ui.TextCol("Names", 240, imageNames))
	}
	return cols
}

// imageNames lists each item's name for an image when they differ ("" when they agree).
func imageNames(r cost.ImageCompareRow) string {
	var names []string
	for _, n := range r.Names {
		if n != "" && !slices.Contains(names, n) {
			names = append(names, n)
		}
	}
	if len(names) < 2 {
		return ""
	}
	each := make([]string, len(r.Names))
	for i, n := range r.Names {
		each[i] = cmp.Or(n, "—")
	}
	return strings.Join(each, " · ")
}

func energyUnknown(r cost.CompareRow) bool { return r.Coverage.PowerUnknown() }

// noCPIEstimate tells a row whose profile has no reference CPI and power: figure 5.2's
// estimate of it is unknown.
func noCPIEstimate(r cost.CompareRow) bool { return r.CPIEstimate == nil }

// cpiEstimate is a row's figure 5.2 estimate, zero where unknown (noCPIEstimate says so).
func cpiEstimate(r cost.CompareRow) cost.Estimate {
	if r.CPIEstimate == nil {
		return cost.Estimate{}
	}
	return *r.CPIEstimate
}

// pickRow is a line of the Compare list: its check box ticks on a tap anywhere on the line,
// not only on the box and its label.
type pickRow struct {
	widget.BaseWidget
	Check *widget.Check
}

func newPickRow() *pickRow {
	r := &pickRow{Check: widget.NewCheck("", nil)}
	r.ExtendBaseWidget(r)
	return r
}

// Tapped ticks or unticks the line: a tap beside the label lands here, on the box the Check takes it.
func (r *pickRow) Tapped(*fyne.PointEvent) {
	if !r.Check.Disabled() {
		r.Check.SetChecked(!r.Check.Checked)
	}
}

// CreateRenderer is Fyne's hook: the check at its own size (at most the line's), the rest of
// the line this widget's.
func (r *pickRow) CreateRenderer() fyne.WidgetRenderer {
	return widget.NewSimpleRenderer(container.New(pickRowLayout{}, r.Check))
}

// pickRowLayout gives the check its own width, cut to the line's: wider, it would take the
// taps beside its label and ignore them; narrower than its label, it would stick out of the list.
type pickRowLayout struct{}

func (pickRowLayout) Layout(objs []fyne.CanvasObject, size fyne.Size) {
	objs[0].Move(fyne.Position{})
	objs[0].Resize(fyne.NewSize(min(objs[0].MinSize().Width, size.Width), size.Height))
}

func (pickRowLayout) MinSize(objs []fyne.CanvasObject) fyne.Size { return objs[0].MinSize() }

// compareNotes says what the ratios are to, which profile priced which rows, and, row by row,
// what of a row's cost is a guess.
func compareNotes(rows []cost.CompareRow) string {
	var profiles []string
	items := map[string][]string{}
	for _, r := range rows {
		if _, ok := items[r.Profile]; !ok {
			profiles = append(profiles, r.Profile)
		}
		items[r.Profile] = append(items[r.Profile], r.Item)
	}
	var b strings.Builder
	fmt.Fprintf(&b, "Ratios are to %s. Priced with ", rows[0].Item)
	if len(profiles) == 1 {
		fmt.Fprintf(&b, "%s.", profiles[0])
	} else {
		for i, p := range profiles {
			if i > 0 {
				b.WriteString("; ")
			}
			fmt.Fprintf(&b, "%s for %s", p, strings.Join(items[p], ", "))
		}
		if !slices.ContainsFunc(rows, func(r cost.CompareRow) bool { return len(r.Coverage.ForeignISAs) > 0 }) {
			b.WriteString(" (each row with a profile of its own instruction set).")
		} else {
			b.WriteString(".")
		}
	}
	b.WriteString(" Choose the profile of each instruction set below.")
	for _, r := range rows {
		if w := r.Coverage.Warning(); w != "" {
			fmt.Fprintf(&b, "\n%s: %s", r.Item, w)
		}
	}
	return b.String()
}
