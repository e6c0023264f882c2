package methods

import (
	"fmt"
	"slices"
	"strconv"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/widget"

	"androprof/chart"
	"androprof/model"
	"androprof/model/calls"
	"androprof/model/javaname"
	"androprof/view/ui"
)

// methodCompareTab puts the method run shown (A) beside a second one (B), method by method
// (or class, package, thread): the same app on two phones, or before and after a change, as
// DPA figure 7 compares methods on two phones. Rates are B over A.
type methodCompareTab struct {
	Other *widget.Select // run B
	Hint  *widget.Label
	Chart *ui.ChartPanel
	Table *ui.SortTable[calls.MethodCompareRow]

	m       *View
	cpu     bool // the table's columns are for this clock
	raw     bool // and these names (View.raw)
	gen     int
	content fyne.CanvasObject
}

func newMethodCompareTab(m *View) *methodCompareTab {
	t := &methodCompareTab{m: m, cpu: true}
	t.Other = widget.NewSelect(nil, func(string) {
		if m.trace != nil {
			t.recompute()
		}
	})
	t.Other.PlaceHolder = "(choose a second method trace)"
	t.Hint = widget.NewLabel("")
	t.Hint.Wrapping = fyne.TextWrapWord
	t.Chart = ui.NewChartPanel(m.host.Window(), m.host.Background(), chart.Bars, nil)
	t.Chart.Kind.Hide() // only bars put two runs side by side
	t.Table = ui.NewSortTable(m.host.Window(), "method-comparison", compareColumns(true, false), nil)
	h := t.Other.MinSize().Height
	bar := container.NewBorder(nil, nil, container.NewHBox(widget.NewLabel("Compare with"),
		container.NewGridWrap(fyne.NewSize(280, h), t.Other)), nil, t.Hint)
	split := container.NewVSplit(t.Chart.Content(), t.Table.Content())
	split.Offset = 0.55
	t.content = container.NewBorder(bar, nil, nil, nil, split)
	return t
}

// compareColumns show one clock's inclusive times, calls and the rate of B to A, the rows named
// as raw says (nameColumns).
func compareColumns(cpu, raw bool) []ui.Column[calls.MethodCompareRow] {
	type row = calls.MethodCompareRow
	clock, incl, rate := "real", func(t row) (uint64, uint64) { return t.A.InclusiveWall, t.B.InclusiveWall }, func(r row) float64 { return r.InclWallRate }
	if cpu {
		clock, incl, rate = "CPU", func(t row) (uint64, uint64) { return t.A.InclusiveCPU, t.B.InclusiveCPU }, func(r row) float64 { return r.InclCPURate }
	}
	rateCol := ui.FloatCol("B/A", 80, 0, rate)
	rateCol.Text = func(r row) string {
		if rate(r) == 0 {
			return "–"
		}
		return strconv.FormatFloat(rate(r), 'f', 3, 64)
	}
	name, pkg := nameColumns("Key", 300, raw, func(r row) string { return r.Key }, func(r row) javaname.Name { return r.Readable })
	return append(append([]ui.Column[row]{name}, pkg...),
		usCol("A incl "+clock+" µs", func(r row) uint64 { a, _ := incl(r); return a }),
		usCol("B incl "+clock+" µs", func(r row) uint64 { _, b := incl(r); return b }),
		rateCol,
		ui.IntCol("A calls", 90, func(r row) int64 { return r.A.Calls }),
		ui.IntCol("B calls", 90, func(r row) int64 { return r.B.Calls }),
	)
}

// recompute offers the other method runs and compares with the one chosen.
func (t *methodCompareTab) recompute() {
	m := t.m
	var others []string
	for _, r := range m.host.RunsOfKind(model.RunKindMethods) {
		if r != m.sel.run {
			others = append(others, r)
		}
	}
	t.Other.Options = others
	t.Other.Refresh()
	if t.cpu != m.sel.cpu || t.raw != m.raw {
		t.cpu, t.raw = m.sel.cpu, m.raw
		t.Table.SetColumns(compareColumns(t.cpu, t.raw))
	}
	t.gen++
	other := t.Other.Selected
	if other == "" || other == m.sel.run || !slices.Contains(others, other) {
		if len(others) == 0 {
			t.Hint.SetText("Import a second method trace to compare with.")
		} else {
			t.Hint.SetText("Choose a second method trace to compare with.")
		}
		t.Table.Set(nil)
		t.Chart.Set(chart.Chart{})
		return
	}
	t.Hint.SetText(fmt.Sprintf("A is %s, B is %s; B/A is B's inclusive time over A's.", m.sel.run, other))
	gen, a, sel, ctx := t.gen, m.a, m.sel, m.host.Context()
	m.host.Background().Run(func() func() {
		rows, err := a.CompareMethods(ctx, sel.run, other, sel.by)
		return func() {
			if gen != t.gen {
				return
			}
			if err != nil {
				t.Hint.SetText(ui.ProblemText("compare with", other, err))
				rows = nil
			}
			t.Table.Set(rows)
			t.Chart.Set(m.chartNames(chart.FromMethodComparison(rows, sel.run, other, sel.by, sel.cpu), sel.by))
		}
	})
}
