package samples

import (
	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/widget"

	"androprof/chart"
	"androprof/controller"
	"androprof/model/layers"
	samplesmodel "androprof/model/samples"
	"androprof/view/ui"
)

// The Layers tab's charts.
const (
	chartShares  = "Shares over time"
	chartCounts  = "Samples over time"
	chartLayers  = "By layer"
	chartThreads = "By thread"
)

// layerCharts are the Layers tab's charts as the controller draws them, by Show option.
var layerCharts = map[string]controller.SampleChartSpec{
	chartShares:  {By: controller.SampleByLayerTime},
	chartCounts:  {By: controller.SampleByLayerTime, Counts: true},
	chartLayers:  {By: controller.SampleByLayer},
	chartThreads: {By: controller.SampleByThread},
}

// layersTab is VARI's vertical profile: how the samples divide between the layers, over time
// (a program's phases show as bands that change colour), per layer and per thread. A tap on a
// thread's row or bar shows that thread alone.
type layersTab struct {
	Show    *widget.Select // which chart
	Chart   *ui.ChartPanel
	Layers  *ui.SortTable[samplesmodel.SampleRow]
	Threads *ui.SortTable[samplesmodel.ThreadRow]

	v       *View
	res     *result
	content fyne.CanvasObject
}

func newLayersTab(v *View) *layersTab {
	t := &layersTab{v: v}
	win := v.host.Window()
	t.Chart = ui.NewChartPanel(win, v.host.Background(), chart.Bars, func(i int) {
		if t.Show.Selected == chartThreads && t.res != nil && i < len(t.res.threads) {
			v.SelectThread(t.res.threads[i].TID)
		}
	})
	t.Show = widget.NewSelect([]string{chartShares, chartCounts, chartLayers, chartThreads}, func(string) { t.chart() })
	t.Show.SetSelected(chartShares)
	t.Layers = ui.NewSortTable(win, "sample-layers", layerColumns(), nil)
	t.Threads = ui.NewSortTable(win, "sample-threads", threadColumns(func() int {
		if t.res == nil {
			return 0
		}
		return t.res.set.Kept
	}), func(r samplesmodel.ThreadRow) { v.SelectThread(r.TID) })
	show := container.NewGridWrap(fyne.NewSize(200, t.Show.MinSize().Height), t.Show)
	top := container.NewBorder(container.NewHBox(widget.NewLabel("Chart"), show), nil, nil, nil, t.Chart.Content())
	tables := container.NewHSplit(t.Layers.Content(), t.Threads.Content())
	tables.Offset = 0.35
	split := container.NewVSplit(top, tables)
	split.Offset = 0.6
	t.content = split
	return t
}

// layerColumns are a layer's samples: as the leaf (they add up to the selection) and anywhere
// on the stack (a layer that calls into others, like the application, has more).
func layerColumns() []ui.Column[samplesmodel.SampleRow] {
	type row = samplesmodel.SampleRow
	return []ui.Column[row]{
		ui.TextCol("Layer", 110, func(r row) string { return r.Key }),
		ui.IntCol("Samples", 90, func(r row) int64 { return int64(r.Self) }),
		ui.PctCol("%", func(r row) float64 { return r.SelfPct }),
		ui.IntCol("On stack", 90, func(r row) int64 { return int64(r.Total) }),
		ui.PctCol("On stack %", func(r row) float64 { return r.TotalPct }),
	}
}

// threadColumns are a thread's samples by the layer of their leaf; kept is the selection's
// total, the 100% of the percentages.
func threadColumns(kept func() int) []ui.Column[samplesmodel.ThreadRow] {
	type row = samplesmodel.ThreadRow
	cols := []ui.Column[row]{
		ui.IDCol("TID", 70, func(r row) int64 { return int64(r.TID) }),
		ui.TextCol("Thread", 150, func(r row) string { return r.Comm }),
		ui.IntCol("Samples", 90, func(r row) int64 { return int64(r.Samples) }),
		ui.PctCol("%", func(r row) float64 { return 100 * float64(r.Samples) / float64(max(kept(), 1)) }),
	}
	for i, l := range layers.Layers {
		cols = append(cols, ui.IntCol(l.String(), 90, func(r row) int64 { return int64(r.Layers[i]) }))
	}
	cols = append(cols, ui.TextCol("Top layer", 100, func(r row) string { return r.Top.String() }),
		ui.IDCol("PID", 70, func(r row) int64 { return int64(r.PID) }))
	return cols
}

func (t *layersTab) show(res *result) {
	t.res = res
	t.Layers.Set(res.layers)
	t.Threads.Set(res.threads)
	t.chart()
}

// chart shows the chart chosen for the selection shown.
func (t *layersTab) chart() {
	if t.res == nil {
		return
	}
	d := t.res.charts[t.Show.Selected]
	title := ""
	if c, ok := d.(chart.LayerShares); ok {
		title = c.Title // a bar chart carries its own
	}
	t.Chart.SetDrawing(d, title)
}
