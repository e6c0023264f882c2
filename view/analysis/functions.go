package analysis

import (
	"slices"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"

	"androprof/chart"
	"androprof/internal/human"
	"androprof/model/cost"
	"androprof/view/ui"
)

// functionsTab prices each symbol, the level at which a programmer decides what to rewrite
// (seed §5.1: which methods to move to native code).
type functionsTab struct {
	Chart     *ui.ChartPanel
	Table     *ui.SortTable[cost.ReportRow]
	withImage bool // the table has the Image column: the trace named images
	content   fyne.CanvasObject
}

func newFunctionsTab(v *View) *functionsTab {
	t := &functionsTab{}
	t.Chart = ui.NewChartPanel(v.Window, v.bg, chart.Bars, nil)
	t.Table = ui.NewSortTable(v.Window, "functions", functionCols(false), nil)
	split := container.NewVSplit(t.Chart.Content(), t.Table.Content())
	split.Offset = 0.5
	t.content = split
	return t
}

// functionCols are the columns of a table of functions; withImage adds the image each is in
// (a library's memcpy and the program's are two rows).
func functionCols(withImage bool) []ui.Column[cost.ReportRow] {
	cols := []ui.Column[cost.ReportRow]{
		ui.TextCol("Function", 260, func(r cost.ReportRow) string { return r.Key }),
		ui.IntCol("Instructions", 140, func(r cost.ReportRow) int64 { return r.Instructions }),
		ui.IntCol("Blocks executed", 130, func(r cost.ReportRow) int64 { return r.Blocks }),
		ui.FloatCol("Cycles", 140, 0, func(r cost.ReportRow) float64 { return r.Cycles }),
		ui.QuantityCol("Time", "s", 110, func(r cost.ReportRow) float64 { return r.TimeS }),
		energyCol(110, reportRow),
	}
	if withImage {
		cols = slices.Insert(cols, 1, ui.TextCol("Image", 150, func(r cost.ReportRow) string { return r.Image }))
	}
	return cols
}

// hasImages tells whether any row names its image: traces without images get no Image column.
func hasImages(rows []cost.ReportRow) bool {
	return slices.ContainsFunc(rows, func(r cost.ReportRow) bool { return r.Image != "" })
}

func (t *functionsTab) show(res *results) {
	if res == nil {
		t.Table.Set(nil)
		return
	}
	if w := hasImages(res.funcs.Rows); w != t.withImage {
		t.withImage = w
		t.Table.SetColumns(functionCols(w))
	}
	t.Table.Set(res.funcs.Rows)
	t.Table.Count.SetText(human.Count(len(res.funcs.Rows), "function", "functions"))
}

func (t *functionsTab) chart(res *results, m chart.Metric) {
	if res == nil {
		t.Chart.Set(chart.Chart{})
		return
	}
	t.Chart.Set(chart.FromReport(res.funcs, m, chart.Bars, nil))
}
