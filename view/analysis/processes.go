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

// processRow is a process with its cost: the PID chart of seed §4.2.2 as a table.
type processRow struct {
	cost.ReportRow
	Name string
}

// processesTab shows which processes cost most; a tap on one drills into its blocks.
type processesTab struct {
	Chart *ui.ChartPanel
	Table *ui.SortTable[processRow]

	rows    []cost.ReportRow // in chart order, for taps on bars
	content fyne.CanvasObject
}

func newProcessesTab(v *View) *processesTab {
	t := &processesTab{}
	t.Chart = ui.NewChartPanel(v.Window, v.bg, chart.Bars, func(i int) {
		if i < len(t.rows) {
			v.drill(t.rows[i].PID)
		}
	})
	t.Table = ui.NewSortTable(v.Window, "processes", []ui.Column[processRow]{
		ui.IDCol("PID", 70, func(r processRow) int64 { return int64(r.PID) }),
		ui.TextCol("Name", 160, func(r processRow) string { return r.Name }),
		ui.IntCol("Instructions", 140, func(r processRow) int64 { return r.Instructions }),
		ui.IntCol("Blocks executed", 130, func(r processRow) int64 { return r.Blocks }),
		ui.FloatCol("Cycles", 140, 0, func(r processRow) float64 { return r.Cycles }),
		ui.QuantityCol("Time", "s", 110, func(r processRow) float64 { return r.TimeS }),
		energyCol(110, func(r processRow) cost.ReportRow { return r.ReportRow }),
	}, func(r processRow) { v.drill(r.PID) })
	split := container.NewVSplit(t.Chart.Content(), t.Table.Content())
	split.Offset = 0.5
	t.content = split
	return t
}

func (t *processesTab) show(res *results) {
	if res == nil {
		t.rows = nil
		t.Table.Set(nil)
		return
	}
	t.rows = res.pids.Rows
	names := map[int]string{}
	for _, p := range res.data.Processes {
		names[p.PID] = p.Name
	}
	rows := make([]processRow, len(res.pids.Rows))
	for i, r := range res.pids.Rows {
		rows[i] = processRow{r, names[r.PID]}
	}
	cov := res.pids.Coverage
	t.Table.Set(rows)
	t.Table.Count.SetText(fmt.Sprintf("%s · %s · %s · %s · %s%s", human.Count(len(rows), "process", "processes"),
		human.Count(res.pids.Total.Instructions, "instruction", "instructions"), human.Quantity(res.pids.Total.Cycles, "cycles"),
		human.Quantity(res.pids.Total.TimeS, "s"), energyText(res.pids.Total.EnergyJ, cov), fitNote(cov)))
}

func (t *processesTab) chart(res *results, m chart.Metric) {
	if res == nil {
		t.Chart.Set(chart.Chart{})
		return
	}
	t.rows = res.pids.Rows // a bar's index is its row's index
	t.Chart.Set(chart.FromReport(res.pids, m, chart.Bars, res.names))
}
