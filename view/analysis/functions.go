package analysis

import (
	"slices"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"androprof/chart"
	"androprof/internal/human"
	"androprof/model/cost"
	"androprof/view/ui"
)

// functionsTab prices each symbol, the level at which a programmer decides what to rewrite
// (seed §5.1: which methods to move to native code).
type functionsTab struct {
	Chart       *ui.ChartPanel
	Show        *widget.Select // what the chart shows: the top bar's metric, or cycles by source
	Table       *ui.SortTable[cost.ReportRow]
	MissesFirst *widget.Check // shown for a cache-simulated run
	withImage   bool          // the table has the Image column: the trace named images
	extra       reportColumns // the report's own columns (misses, stalls, pipeline cycles)
	extraCols   []ui.Column[cost.ReportRow]
	content     fyne.CanvasObject
}

// The Functions chart's choices: the metric the top bar chooses, or where the cycles come
// from (issue 27's lecture chart: category, pipeline and memory stall cycles per function).
const (
	ChartMetric  = "Top bar's metric"
	ChartSources = "Cycles by source"
)

func newFunctionsTab(v *View) *functionsTab {
	t := &functionsTab{}
	t.Chart = ui.NewChartPanel(v.Window, v.bg, chart.Bars, nil)
	t.Show = widget.NewSelect([]string{ChartMetric, ChartSources}, func(string) { t.chart(v.res, v.metric) })
	t.Show.SetSelected(ChartMetric)
	// A Select is as wide as its placeholder, and cut "Cycles by source" short.
	wide := widget.NewLabel(ChartSources).MinSize().Width + theme.IconInlineSize() + 4*theme.Padding()
	t.Chart.AddChoice(container.NewGridWrap(fyne.NewSize(wide, t.Show.MinSize().Height), t.Show))
	t.Table = ui.NewSortTable(v.Window, "functions", functionCols(false), nil)
	t.MissesFirst = newMissesFirst(v)
	table := container.NewBorder(t.MissesFirst, nil, nil, nil, t.Table.Content())
	split := container.NewVSplit(t.Chart.Content(), table)
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
	extra, changed := t.extra.update(res.funcs)
	if changed {
		t.extraCols = extra
	}
	if w := hasImages(res.funcs.Rows); w != t.withImage || changed {
		t.withImage = w
		t.Table.SetColumns(append(functionCols(w), t.extraCols...))
	}
	showMissesFirst(t.MissesFirst, res)
	t.Table.Set(res.funcs.Rows)
	scrollToMisses(t.Table, res)
	t.Table.Count.SetText(human.Count(len(res.funcs.Rows), "function", "functions"))
}

func (t *functionsTab) chart(res *results, m chart.Metric) {
	if res == nil {
		t.Chart.Set(chart.Chart{})
		return
	}
	if t.Show.Selected == ChartSources {
		t.Chart.Set(chart.FromSources(res.funcs, nil))
		return
	}
	t.Chart.Set(chart.FromReport(res.funcs, m, chart.Bars, nil))
}
