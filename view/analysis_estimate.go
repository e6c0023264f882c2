package view

import (
	"fmt"
	"strconv"
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"androprof/model"
)

// estimateTab is the calculator of seed 000 figure 5.2 (a CPI, a processor power and a
// memory-access rate from a reference run) beside the per-category estimate the profile's
// own costs give, so the two ways of estimating can be held against each other.
type estimateTab struct {
	Instructions     *widget.Entry
	FrequencyGHz     *widget.Entry
	ProcessorPowerW  *widget.Entry
	CPI              *widget.Entry
	BaseInstructions *widget.Entry
	BaseCacheMisses  *widget.Entry
	MemoryEnergyNJ   *widget.Entry
	Calculate        *widget.Button
	Refill           *widget.Button // back to the profile's reference data and the selection

	Cycles  *widget.Label
	TimeS   *widget.Label
	PowerW  *widget.Label
	EnergyJ *widget.Label
	Error   *widget.Label
	Source  *widget.Label // where the prefilled numbers come from

	Categories *sortTable[model.CategoryCost]
	Totals     *widget.Label

	res     *results
	content fyne.CanvasObject
}

func newEstimateTab(v *AnalysisView) *estimateTab {
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

	form := widget.NewForm(
		widget.NewFormItem("Number of instructions", t.Instructions),
		widget.NewFormItem("Operation frequency (GHz)", t.FrequencyGHz),
		widget.NewFormItem("Processor power dissipation (W)", t.ProcessorPowerW),
		widget.NewFormItem("CPI", t.CPI),
		widget.NewFormItem("Base number of instructions", t.BaseInstructions),
		widget.NewFormItem("Base number of cache misses", t.BaseCacheMisses),
		widget.NewFormItem("Memory access energy consumption (nJ)", t.MemoryEnergyNJ),
	)
	results := widget.NewForm(
		widget.NewFormItem("Estimated cycles", t.Cycles),
		widget.NewFormItem("Time estimation (s)", t.TimeS),
		widget.NewFormItem("Estimated power dissipation (W)", t.PowerW),
		widget.NewFormItem("Estimated energy consumption (J)", t.EnergyJ),
	)
	calc := container.NewVBox(heading("Estimate from CPI (seed figure 5.2)"), t.Source, form,
		container.NewHBox(t.Calculate, t.Refill), t.Error, heading("Results"), results)

	t.Categories = newSortTable(v.Window, "per-category-estimate", []column[model.CategoryCost]{
		textCol("Category", 170, func(c model.CategoryCost) string { return c.Category }),
		intCol("Instructions", 110, func(c model.CategoryCost) int64 { return c.Instructions }),
		floatCol("Cycles", 110, 0, func(c model.CategoryCost) float64 { return c.Cycles }),
		floatCol("Energy (J)", 100, 6, func(c model.CategoryCost) float64 { return c.EnergyJ }),
	}, nil)
	t.Totals = widget.NewLabel("")
	t.Totals.Wrapping = fyne.TextWrapWord
	perCat := container.NewBorder(
		container.NewVBox(heading("Estimate from the profile's category costs"), t.Totals), nil, nil, nil,
		t.Categories.Content())
	split := container.NewHSplit(container.NewVScroll(calc), perCat)
	split.Offset = 0.5
	t.content = split
	return t
}

func (t *estimateTab) show(res *results) {
	t.res = res
	if res == nil {
		t.Categories.Set(nil)
		t.Totals.SetText("")
		t.Source.SetText("Choose a run.")
		return
	}
	c := res.costing
	t.Categories.Set(c.Categories)
	t.Totals.SetText(fmt.Sprintf("%s instructions · %s cycles · %s s · %s J · %s W on average at %g GHz",
		grouped(c.Instructions), formatFloat(c.Cycles, 0), formatFloat(c.TimeS, 6), formatFloat(c.EnergyJ, 6),
		formatFloat(c.PowerW, 6), res.pids.FrequencyGHz))
	t.prefill()
}

// prefill puts the profile's reference data and the selection's instruction count into the
// calculator and calculates, so the tab opens with an answer.
func (t *estimateTab) prefill() {
	res := t.res
	if res == nil {
		return
	}
	in := model.InputFromReference(res.profile.Reference, float64(res.instructions))
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
	}
	t.Source.SetText(src)
	t.calculate()
}

// calculate applies equations (1)–(4) to the entries.
func (t *estimateTab) calculate() {
	var in model.EstimateInput
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
	e, err := model.EstimateCPI(in)
	if err != nil {
		t.fail(err.Error())
		return
	}
	t.Error.SetText("")
	t.Cycles.SetText(strconv.FormatFloat(e.Cycles, 'f', 0, 64))
	t.TimeS.SetText(strconv.FormatFloat(e.TimeS, 'g', -1, 64))
	t.PowerW.SetText(strconv.FormatFloat(e.PowerW, 'g', -1, 64))
	t.EnergyJ.SetText(strconv.FormatFloat(e.EnergyJ, 'g', -1, 64))
}

func (t *estimateTab) fail(msg string) {
	t.Error.SetText(msg)
	for _, l := range []*widget.Label{t.Cycles, t.TimeS, t.PowerW, t.EnergyJ} {
		l.SetText("—")
	}
}
