package analysis

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"androprof/internal/human"
	"androprof/model/cost"
	"androprof/view/ui"
)

// estimateTab is the calculator of seed 000 figure 5.2 (a CPI, a processor power and a
// memory-access rate from a reference run) beside the per-category estimate the profile's
// own costs give, so the two ways of estimating can be held against each other.
type estimateTab struct {
	Why *widget.Label // how figure 5.2's estimate and the waterfall's total differ (gapLine)

	Instructions     *widget.Entry
	FrequencyGHz     *widget.Entry
	ProcessorPowerW  *widget.Entry
	CPI              *widget.Entry
	BaseInstructions *widget.Entry
	BaseCacheMisses  *widget.Entry
	MemoryEnergyNJ   *widget.Entry
	Calculate        *widget.Button
	Refill           *widget.Button // back to the profile's reference data and the selection
	CopyExact        *widget.Button // the results at full precision, for a spreadsheet

	// The results, rounded with their units ("14.7 M cycles", "893 mW").
	Cycles  *widget.Label
	TimeS   *widget.Label
	PowerW  *widget.Label
	EnergyJ *widget.Label
	Error   *widget.Label
	Source  *widget.Label // where the prefilled numbers come from, and what of them is a guess

	// Waterfall is the estimate step by step (category → pipeline → memory stalls → total)
	// beside figure 5.2's, with the gap between them named.
	Waterfall  *waterfallPanel
	Categories *ui.SortTable[cost.CategoryCost]
	Totals     *widget.Label
	Fit        *widget.Label // what of the per-category estimate is a guess
	Clock      *widget.Label // at a clock not the profile's own: why the energy follows the clock

	exact   *cost.Estimate // the last result, unrounded; nil after a failure
	res     *results
	content fyne.CanvasObject
}

func newEstimateTab(v *View) *estimateTab {
	t := &estimateTab{}
	entry := func() *widget.Entry {
		e := widget.NewEntry()
		e.OnSubmitted = func(string) { t.calculate() }
		return e
	}
	t.Instructions, t.FrequencyGHz, t.ProcessorPowerW, t.CPI = entry(), entry(), entry(), entry()
	t.BaseInstructions, t.BaseCacheMisses, t.MemoryEnergyNJ = entry(), entry(), entry()
	t.Calculate = widget.NewButtonWithIcon("Calculate", theme.ConfirmIcon(), t.calculate)
	t.Calculate.Importance = widget.HighImportance
	t.Refill = widget.NewButtonWithIcon("Fill from profile and selection", theme.ViewRefreshIcon(), func() { t.prefill() })
	t.CopyExact = widget.NewButtonWithIcon("Copy exact values", theme.ContentCopyIcon(), func() {
		if text := t.ExactText(); text != "" {
			fyne.CurrentApp().Clipboard().SetContent(text)
		}
	})
	result := func() *widget.Label {
		l := widget.NewLabel("")
		l.Selectable = true
		return l
	}
	t.Cycles, t.TimeS, t.PowerW, t.EnergyJ = result(), result(), result(), result()
	t.Error = widget.NewLabel("")
	t.Error.Importance = widget.DangerImportance
	t.Error.Wrapping = fyne.TextWrapWord
	t.Source = widget.NewLabel("")
	t.Source.Wrapping = fyne.TextWrapWord
	t.Why = widget.NewLabel("")
	t.Why.Wrapping = fyne.TextWrapWord
	t.Fit = widget.NewLabel("")
	t.Fit.Wrapping = fyne.TextWrapWord
	t.Fit.Importance = widget.WarningImportance
	t.Clock = widget.NewLabel("")
	t.Clock.Wrapping = fyne.TextWrapWord
	t.Clock.Hide()

	form := widget.NewForm(
		widget.NewFormItem("Number of instructions", t.Instructions),
		widget.NewFormItem("Operation frequency (GHz)", t.FrequencyGHz),
		widget.NewFormItem("Processor power dissipation (W)", t.ProcessorPowerW),
		widget.NewFormItem("CPI", t.CPI),
		widget.NewFormItem("Base number of instructions", t.BaseInstructions),
		widget.NewFormItem("Base number of cache misses", t.BaseCacheMisses),
		widget.NewFormItem("Memory access energy consumption (nJ)", t.MemoryEnergyNJ),
	)
	// The calculator's results go above its seven entries: under them they were below the fold
	// of a 768-px screen.
	results := container.NewGridWithColumns(2)
	for _, r := range []struct {
		name string
		l    *widget.Label
	}{{"Cycles", t.Cycles}, {"Time", t.TimeS}, {"Power", t.PowerW}, {"Energy", t.EnergyJ}} {
		r.l.Wrapping = fyne.TextWrapWord // "not estimated (power unknown)" in a narrow window
		results.Add(container.NewBorder(nil, nil, widget.NewLabelWithStyle(r.name, fyne.TextAlignLeading, fyne.TextStyle{Bold: true}), nil, r.l))
	}
	calc := container.NewVBox(container.NewBorder(nil, nil, nil, t.CopyExact, ui.Heading("Estimate from CPI (seed figure 5.2)")),
		results, t.Source, form, container.NewHBox(t.Calculate, t.Refill), t.Error)

	t.Categories = ui.NewSortTable(v.Window, "per-category-estimate", []ui.Column[cost.CategoryCost]{
		ui.TextCol("Category", 170, func(c cost.CategoryCost) string { return c.Category }),
		ui.IntCol("Instructions", 110, func(c cost.CategoryCost) int64 { return c.Instructions }),
		ui.FloatCol("Cycles", 110, 0, func(c cost.CategoryCost) float64 { return c.Cycles }),
		unknownIf(ui.QuantityCol("Energy", "J", 100, func(c cost.CategoryCost) float64 { return c.EnergyJ }), t.powerless),
	}, nil)
	t.Totals = widget.NewLabel("")
	t.Totals.Wrapping = fyne.TextWrapWord
	perCat := container.NewBorder(container.NewVBox(ui.Heading("Estimate from the profile's category costs"), t.Totals, t.Fit),
		nil, nil, nil, t.Categories.Content())
	// The waterfall, the tab's answer, takes the left half whole; the calculator it is held
	// against and the categories it starts from share the right.
	t.Waterfall = newWaterfallPanel()
	right := container.NewVSplit(container.NewVScroll(calc), perCat)
	right.Offset = 0.5
	split := container.NewHSplit(container.NewVScroll(t.Waterfall.content), right)
	split.Offset = 0.5
	t.content = container.NewBorder(container.NewVBox(t.Why, t.Clock), nil, nil, nil, split)
	return t
}

func (t *estimateTab) show(res *results) {
	t.res = res
	if res == nil {
		t.Categories.Set(nil)
		t.Totals.SetText("")
		t.setFit("")
		ui.SetNote(t.Clock, "")
		t.Source.SetText("Choose a run.")
		t.Waterfall.show(nil, "")
		t.Why.SetText("")
		return
	}
	w := &res.funcs.Waterfall // functions are whole blocks: the machine model's and the simulation's unit
	t.Waterfall.show(w, res.profile.Name)
	t.Why.SetText(gapLine(*w))
	c := res.costing
	t.Categories.Set(c.Categories)
	energy := energyText(c.EnergyJ, c.Coverage) + " · " + human.Quantity(c.PowerW, "W") + " on average"
	if c.Coverage.PowerUnknown() {
		energy = "energy and power unknown (no power in the profile)"
	}
	t.Totals.SetText(fmt.Sprintf("%s · %s · %s · %s at %g GHz", human.Count(c.Instructions, "instruction", "instructions"),
		human.Quantity(c.Cycles, "cycles"), human.Quantity(c.TimeS, "s"), energy, res.pids.FrequencyGHz))
	t.setFit(c.Coverage.Warning())
	note := res.pids.ClockNote()
	if note != "" {
		note = "Both estimates: " + note
	}
	ui.SetNote(t.Clock, note)
	t.prefill()
}

// powerless tells a category the profile gives no power: what it ran has no known energy.
func (t *estimateTab) powerless(c cost.CategoryCost) bool {
	if t.res == nil || c.Instructions == 0 {
		return false
	}
	p := t.res.profile
	cats := append(slices.Clone(p.Categories), p.Undefined)
	i := slices.IndexFunc(cats, func(k cost.Category) bool { return k.Name == c.Category })
	return i >= 0 && cats[i].PowerMW == 0
}

// setFit shows what of the per-category estimate is a guess, taking no room when nothing is.
func (t *estimateTab) setFit(warning string) { ui.SetNote(t.Fit, warning) }

// prefill puts the profile's reference data and the selection's instruction count into the
// calculator and calculates, so the tab opens with an answer.
func (t *estimateTab) prefill() {
	res := t.res
	if res == nil {
		return
	}
	in := cost.InputFromReference(res.profile.Reference, float64(res.instructions))
	in.FrequencyGHz = res.pids.FrequencyGHz // the top bar's, else the profile's, else assumed
	for _, f := range []struct {
		e *widget.Entry
		v float64
	}{{t.Instructions, in.Instructions}, {t.FrequencyGHz, in.FrequencyGHz}, {t.ProcessorPowerW, in.ProcessorPowerW},
		{t.CPI, in.CPI}, {t.BaseInstructions, in.BaseInstructions}, {t.BaseCacheMisses, in.BaseCacheMisses},
		{t.MemoryEnergyNJ, in.MemoryAccessEnergy}} {
		f.e.SetText(strconv.FormatFloat(f.v, 'f', -1, 64))
	}
	who := "run " + res.sel.run
	for _, p := range res.data.Processes {
		if p.PID == res.sel.pid {
			who = "process " + processLabel(p.Process)
		}
	}
	src := fmt.Sprintf("Filled in from the reference data of %s and the instructions of %s.", res.profile.Name, who)
	if res.profile.Reference.CPI == 0 {
		src += " This profile has no CPI: enter one."
	} else if foreign := res.costing.Coverage.ForeignISAs; len(foreign) > 0 {
		src += fmt.Sprintf(" Its CPI and power were measured on a processor that does not run %s: choose a profile for %s.",
			foreign[0], foreign[0])
	}
	if res.profile.Reference.CPI != 0 && res.profile.Reference.ProcessorPowerW == 0 {
		src += " This profile has no processor power: enter one for the power and energy."
	}
	t.Source.SetText(src)
	t.calculate()
}

// calculate applies equations (1)–(4) to the entries.
func (t *estimateTab) calculate() {
	var in cost.EstimateInput
	for _, f := range []struct {
		name string
		e    *widget.Entry
		v    *float64
	}{{"number of instructions", t.Instructions, &in.Instructions}, {"frequency", t.FrequencyGHz, &in.FrequencyGHz},
		{"processor power", t.ProcessorPowerW, &in.ProcessorPowerW}, {"CPI", t.CPI, &in.CPI},
		{"base number of instructions", t.BaseInstructions, &in.BaseInstructions},
		{"base number of cache misses", t.BaseCacheMisses, &in.BaseCacheMisses},
		{"memory access energy", t.MemoryEnergyNJ, &in.MemoryAccessEnergy}} {
		s := strings.TrimSpace(f.e.Text)
		if s == "" {
			s = "0"
		}
		v, err := strconv.ParseFloat(s, 64)
		if err != nil {
			t.fail(fmt.Sprintf("The %s %q is not a number.", f.name, f.e.Text))
			return
		}
		*f.v = v
	}
	e, err := cost.EstimateCPI(in)
	if err != nil {
		t.fail(err.Error())
		return
	}
	if in.CPI == 0 {
		t.fail("No CPI: enter one to estimate.")
		return
	}
	t.Error.SetText("")
	t.exact = &e
	t.CopyExact.Enable()
	t.Cycles.SetText(human.Quantity(e.Cycles, "cycles"))
	t.TimeS.SetText(human.Quantity(e.TimeS, "s"))
	if in.ProcessorPowerW == 0 {
		t.PowerW.SetText("unknown: enter the processor power")
		t.EnergyJ.SetText("not estimated (power unknown)")
		return
	}
	t.PowerW.SetText(human.Quantity(e.PowerW, "W"))
	t.EnergyJ.SetText(human.Quantity(e.EnergyJ, "J"))
}

// ExactText is the last result at full precision, one "name<tab>value" line each, as Copy
// exact values puts it on the clipboard ("" when there is none).
func (t *estimateTab) ExactText() string {
	e := t.exact
	if e == nil {
		return ""
	}
	f := func(v float64) string { return strconv.FormatFloat(v, 'g', -1, 64) }
	return "cycles\t" + f(e.Cycles) + "\ntime_s\t" + f(e.TimeS) + "\nmemory_accesses\t" + f(e.MemoryAccesses) +
		"\nmemory_power_w\t" + f(e.MemoryPowerW) + "\npower_w\t" + f(e.PowerW) + "\nenergy_j\t" + f(e.EnergyJ) + "\n"
}

func (t *estimateTab) fail(msg string) {
	t.Error.SetText(msg)
	t.exact = nil
	t.CopyExact.Disable()
	for _, l := range []*widget.Label{t.Cycles, t.TimeS, t.PowerW, t.EnergyJ} {
		l.SetText("—")
	}
}
