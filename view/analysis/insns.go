package analysis

import (
	"fmt"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"

	"androprof/chart"
	"androprof/internal/human"
	"androprof/model/cost"
	"androprof/view/ui"
)

// insnsTab is seed §4.2's "histograms and cost": which instructions ran most, and what each
// category of them cost.
type insnsTab struct {
	Histogram  *ui.ChartPanel
	Costs      *ui.ChartPanel
	Insns      *ui.SortTable[cost.ReportRow]
	Categories *ui.SortTable[cost.ReportRow]

	total   cost.ReportRow // of the selection, for shares
	content fyne.CanvasObject
}

func newInsnsTab(v *View) *insnsTab {
	t := &insnsTab{}
	t.Histogram = ui.NewChartPanel(v.Window, v.bg, chart.Bars, nil) // Columns is one click away; bars keep names legible
	t.Costs = ui.NewChartPanel(v.Window, v.bg, chart.Bars, nil)
	share := func(part, whole float64) float64 {
		if whole == 0 {
			return 0
		}
		return 100 * part / whole
	}
	t.Insns = ui.NewSortTable(v.Window, "instructions", []ui.Column[cost.ReportRow]{
		ui.TextCol("Instruction", 140, func(r cost.ReportRow) string { return r.Key }),
		ui.TextCol("Category", 170, func(r cost.ReportRow) string { return r.Category }),
		ui.IntCol("Executed", 130, func(r cost.ReportRow) int64 { return r.Instructions }),
		ui.FloatCol("Cycles", 130, 0, func(r cost.ReportRow) float64 { return r.Cycles }),
		ui.FloatCol("% cycles", 80, 3, func(r cost.ReportRow) float64 { return share(r.Cycles, t.total.Cycles) }),
		ui.QuantityCol("Time", "s", 100, func(r cost.ReportRow) float64 { return r.TimeS }),
		energyCol(100, reportRow),
	}, nil)
	t.Categories = ui.NewSortTable(v.Window, "categories", []ui.Column[cost.ReportRow]{
		ui.TextCol("Category", 170, func(r cost.ReportRow) string { return r.Key }),
		ui.IntCol("Executed", 130, func(r cost.ReportRow) int64 { return r.Instructions }),
		ui.FloatCol("% executed", 90, 3, func(r cost.ReportRow) float64 {
			return share(float64(r.Instructions), float64(t.total.Instructions))
		}),
		ui.FloatCol("Cycles", 130, 0, func(r cost.ReportRow) float64 { return r.Cycles }),
		ui.FloatCol("% cycles", 80, 3, func(r cost.ReportRow) float64 { return share(r.Cycles, t.total.Cycles) }),
		ui.QuantityCol("Time", "s", 100, func(r cost.ReportRow) float64 { return r.TimeS }),
		energyCol(100, reportRow),
	}, nil)
	charts := container.NewHSplit(t.Histogram.Content(), t.Costs.Content())
	tables := container.NewHSplit(t.Insns.Content(), t.Categories.Content())
	split := container.NewVSplit(charts, tables)
	split.Offset = 0.5
	t.content = split
	return t
}

func (t *insnsTab) show(res *results) {
	if res == nil {
		t.total = cost.ReportRow{}
		t.Insns.Set(nil)
		t.Categories.Set(nil)
		return
	}
	t.total = res.insns.Total
	t.Insns.Set(res.insns.Rows)
	t.Categories.Set(res.cats.Rows)
	t.Insns.Count.SetText(human.Count(len(res.insns.Rows), "distinct instruction", "distinct instructions") + " · " + human.Grouped(res.insns.Total.Instructions) + " executed")
	t.Categories.Count.SetText(human.Count(len(res.cats.Rows), "category", "categories"))
}

func (t *insnsTab) chart(res *results, m chart.Metric) {
	if res == nil {
		t.Histogram.Set(chart.Chart{})
		t.Costs.Set(chart.Chart{})
		return
	}
	h := chart.FromReport(res.insns, chart.Instructions, chart.Bars, nil)
	h.Title = fmt.Sprintf("Most executed instructions — %s", res.sel.run)
	t.Histogram.Set(h)
	t.Costs.Set(chart.FromReport(res.cats, m, chart.Bars, nil))
}
