package methods

import (
	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/widget"

	"androprof/chart"
	"androprof/controller"
	"androprof/model/calls"
	"androprof/view/ui"
)

// hotspotsTab charts the methods (or classes, packages, threads) with the most exclusive time,
// for all threads or the one chosen: DPA figure 6. A tap on a bar opens it in the Profile tab.
type hotspotsTab struct {
	Chart *ui.ChartPanel

	m       *View
	bars    []chart.Bar // as charted, named by their raw keys, for taps
	gen     int
	content fyne.CanvasObject
}

func newHotspotsTab(m *View) *hotspotsTab {
	t := &hotspotsTab{m: m}
	t.Chart = ui.NewChartPanel(m.host.Window(), m.host.Background(), chart.Bars, func(i int) {
		if i < len(t.bars) {
			m.jump(t.bars[i].Label)
		}
	})
	t.content = t.Chart.Content()
	return t
}

func (t *hotspotsTab) recompute() {
	t.gen++
	m := t.m
	gen := t.gen
	by := m.sel.by
	methodChart(m, m.sel.chart(by, chart.Bars), func(c chart.Chart) {
		if gen == t.gen {
			t.bars = c.Bars // raw keys, in the order drawn
			t.Chart.Set(m.chartNames(c, by))
		}
	})
}

// packagesTab shows how the time divides between packages, or classes: RMP figure 8's pie of
// execution time by module, exclusive so the slices add up to the whole.
type packagesTab struct {
	Level *widget.RadioGroup // Package or Class
	Chart *ui.ChartPanel

	m       *View
	gen     int
	content fyne.CanvasObject
}

const (
	levelPackage = "Package"
	levelClass   = "Class"
)

func newPackagesTab(m *View) *packagesTab {
	t := &packagesTab{m: m}
	t.Chart = ui.NewChartPanel(m.host.Window(), m.host.Background(), chart.Pie, nil)
	t.Level = widget.NewRadioGroup([]string{levelPackage, levelClass}, func(string) {
		if m.trace != nil {
			t.recompute()
		}
	})
	t.Level.Horizontal = true
	t.Level.Required = true
	t.Level.SetSelected(levelPackage)
	t.content = container.NewBorder(container.NewHBox(widget.NewLabel("Time by"), t.Level), nil, nil, nil, t.Chart.Content())
	return t
}

func (t *packagesTab) recompute() {
	t.gen++
	m := t.m
	by := calls.ByPackage
	if t.Level.Selected == levelClass {
		by = calls.ByClass
	}
	gen := t.gen
	methodChart(m, m.sel.chart(by, chart.Pie), func(c chart.Chart) {
		if gen == t.gen {
			t.Chart.Set(m.chartNames(c, by))
		}
	})
}

// methodChart asks the controller for a chart in the background (the one `androprof chart`
// draws for the same choices) and hands it to show on the UI goroutine.
func methodChart(m *View, opts controller.MethodChartOptions, show func(chart.Chart)) {
	a, ctx := m.a, m.host.Context()
	m.host.Background().Run(func() func() {
		c, err := a.Chart(ctx, opts)
		return func() {
			if err != nil {
				m.host.SetProblem(ui.ProblemText("chart the run", opts.Run, err))
				return
			}
			show(c)
		}
	})
}
