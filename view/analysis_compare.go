package view

import (
	"context"
	"fmt"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"androprof/controller"
	"androprof/model"
	"androprof/view/chart"
)

// compareChoice is one line of the Compare list: a run, or a process of it.
type compareChoice struct {
	item  controller.CompareItem
	label string
}

// compareTab puts runs or processes side by side under the profile of the top bar, in the
// shape of seed tables 5.2 (instructions, blocks, instructions per block), 5.4 (cycles) and
// 5.5 (energy), with ratios to the first item ticked.
type compareTab struct {
	Choices *widget.List
	Clear   *widget.Button
	Hint    *widget.Label
	Chart   *chartPanel
	Table   *sortTable[controller.CompareRow]

	v       *AnalysisView
	choices []compareChoice
	picked  []controller.CompareItem // in the order ticked: the first is the base of the ratios
	rows    []controller.CompareRow
	gen     int
	content fyne.CanvasObject
}

func newCompareTab(v *AnalysisView) *compareTab {
	t := &compareTab{v: v}
	t.Choices = widget.NewList(func() int { return len(t.choices) },
		func() fyne.CanvasObject { return widget.NewCheck("", nil) }, t.updateChoice)
	t.Clear = widget.NewButtonWithIcon("Clear", theme.ContentClearIcon(), func() {
		t.picked = nil
		t.Choices.Refresh()
		t.recompute()
	})
	t.Hint = widget.NewLabel("")
	t.Hint.Wrapping = fyne.TextWrapWord
	t.Chart = newChartPanel(v.Window, v.bg, chart.Bars, nil)
	ratio := func(f float64) string { return formatFloat(f, 4) }
	t.Table = newSortTable(v.Window, "comparison", []column[controller.CompareRow]{
		textCol("Item", 160, func(r controller.CompareRow) string { return r.Item }),
		intCol("Instructions", 130, func(r controller.CompareRow) int64 { return r.Instructions }),
		intCol("Blocks", 120, func(r controller.CompareRow) int64 { return r.Blocks }),
		floatCol("Insns/block", 90, 4, func(r controller.CompareRow) float64 { return r.InsnsPerBlock }),
		floatCol("Cycles", 130, 0, func(r controller.CompareRow) float64 { return r.Cycles }),
		floatCol("Time (s)", 100, 6, func(r controller.CompareRow) float64 { return r.TimeS }),
		floatCol("Energy (J)", 100, 6, func(r controller.CompareRow) float64 { return r.EnergyJ }),
		{title: "Insns ratio", width: 90, num: true, text: func(r controller.CompareRow) string { return ratio(r.InstructionRatio) }},
		{title: "Cycles ratio", width: 90, num: true, text: func(r controller.CompareRow) string { return ratio(r.CycleRatio) }},
		{title: "Energy ratio", width: 90, num: true, text: func(r controller.CompareRow) string { return ratio(r.EnergyRatio) }},
	}, nil)
	left := container.NewBorder(container.NewVBox(heading("Compare"), t.Hint), container.NewHBox(t.Clear), nil, nil, t.Choices)
	right := container.NewVSplit(t.Chart.Content(), t.Table.Content())
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
	check := o.(*widget.Check)
	check.OnChanged = nil // SetChecked would report the old row's state as a change
	check.SetText(c.label)
	check.SetChecked(t.isPicked(c.item))
	check.OnChanged = func(on bool) { t.Pick(c.item, on) }
}

func (t *compareTab) isPicked(it controller.CompareItem) bool {
	for _, p := range t.picked {
		if p == it {
			return true
		}
	}
	return false
}

// Pick ticks or unticks an item, as its check box does.
func (t *compareTab) Pick(it controller.CompareItem, on bool) {
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
	store := v.analysis.Store
	v.bg.run(func() func() {
		var choices []compareChoice
		for _, r := range runs {
			if tabSetOf(r.Kind) != emulatorTabs { // method traces are compared in their own tabs; heap runs have no costs
				continue
			}
			choices = append(choices, compareChoice{controller.CompareItem{Run: r.Name}, r.Name})
			procs, err := store.Processes(context.Background(), r.Name)
			if err != nil {
				continue
			}
			for _, p := range procs {
				choices = append(choices, compareChoice{controller.CompareItem{Run: r.Name, PID: p.PID},
					"    " + r.Name + ":" + processLabel(p.Process)})
			}
		}
		return func() {
			t.choices = choices
			var kept []controller.CompareItem
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
		t.rows = nil
		t.Table.Set(nil)
		t.chart(v.metric)
		return
	}
	t.Hint.SetText(fmt.Sprintf("Under %s; ratios are to %s.", v.res.profile.Name, t.picked[0]))
	gen, items, a, p, freq := t.gen, append([]controller.CompareItem(nil), t.picked...), v.analysis, v.res.profile, v.sel.freq
	v.bg.run(func() func() {
		rows, err := a.Compare(context.Background(), items, p, freq)
		return func() {
			if gen != t.gen {
				return
			}
			if err != nil {
				t.Hint.SetText(err.Error())
				rows = nil
			}
			t.rows = rows
			t.Table.Set(rows)
			t.chart(v.metric)
		}
	})
}

func (t *compareTab) chart(m chart.Metric) {
	t.Chart.Set(chart.FromComparison(t.rows, m, chart.Bars))
}
