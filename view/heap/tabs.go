package heap

import (
	"cmp"
	"fmt"
	"strconv"
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/widget"

	"androprof/chart"
	"androprof/internal/human"
	heapmodel "androprof/model/heap"
	"androprof/view/ui"
)

// heapFigureTab shows one figure of a tab of seed 001 chapter 5 at a time, chosen by its
// number and title, above what the tab adds (the thread or class table).
type heapFigureTab struct {
	Figure *widget.Select // "5.1 Heap volume by cohort", …
	Chart  *ui.ChartPanel
	Note   *widget.Label // why the figure is empty, when it is

	h       *View
	figs    []chart.HeapFigure
	gen     int
	content fyne.CanvasObject
}

// figureOption is a figure's line in a chooser.
func figureOption(f chart.HeapFigure) string { return f.Seed + " " + f.Title }

func newHeapFigureTab(h *View, tab string, below fyne.CanvasObject) *heapFigureTab {
	t := &heapFigureTab{h: h, figs: chart.FiguresOf(tab)}
	opts := make([]string, len(t.figs))
	for i, f := range t.figs {
		opts[i] = figureOption(f)
	}
	t.Figure = widget.NewSelect(opts, func(string) {
		if h.profile != nil {
			t.recompute()
		}
	})
	t.Figure.SetSelectedIndex(0)
	t.Chart = ui.NewChartPanel(h.host.Window(), h.host.Background(), chart.Bars, nil)
	t.Note = widget.NewLabel("")
	t.Note.Wrapping = fyne.TextWrapWord
	t.Note.Importance = widget.WarningImportance
	t.Note.Hide()
	top := container.NewHBox(widget.NewLabel("Figure"), container.NewGridWrap(fyne.NewSize(500, t.Figure.MinSize().Height), t.Figure))
	figure := container.NewBorder(container.NewVBox(top, t.Note), nil, nil, nil, t.Chart.Content())
	t.content = figure
	if below != nil {
		split := container.NewVSplit(figure, below)
		split.Offset = 0.6
		t.content = split
	}
	return t
}

// Chosen is the figure shown.
func (t *heapFigureTab) Chosen() chart.HeapFigure {
	return t.figs[max(t.Figure.SelectedIndex(), 0)]
}

// recompute draws the figure chosen at the cohort size loaded, in the background, through
// the controller (which `androprof chart --figure` asks too): the figure's series are
// computed there, then the panel renders them there too.
func (t *heapFigureTab) recompute() {
	h := t.h
	t.gen++
	gen, p, run, factor, fig, a, ctx := t.gen, h.profile, h.run, h.factor, t.Chosen(), h.a, h.host.Context()
	h.host.Background().Run(func() func() {
		d, err := a.Figure(ctx, run, factor, fig)
		if ctx.Err() != nil {
			return nil // the user moved on
		}
		empty := err == nil && d.Empty()
		return func() {
			if gen != t.gen {
				return
			}
			if err != nil {
				h.host.SetProblem(ui.ProblemText("draw", fig.Title, err))
				return
			}
			t.Chart.SetDrawing(d, fig.Title+" "+run)
			t.Note.SetText("")
			t.Note.Hide()
			if empty {
				t.Note.SetText(emptyFigureNote(fig, p))
				t.Note.Show()
			}
		}
	})
}

// emptyFigureNote says why a figure has nothing to draw for a run.
func emptyFigureNote(f chart.HeapFigure, p *heapmodel.HeapProfile) string {
	switch f.Seed {
	case "5.22":
		if withoutMutations(p) {
			return "The heap agent records pointer mutations only under `androprof heap --mutations`: figure 5.22 is empty."
		}
		return "This log has no pointer mutations: figure 5.22 is empty."
	case "5.23":
		return "This log has no heap snapshots (the VM did not walk the heap): figure 5.23 is empty."
	case "5.5", "5.6", "5.15", "5.16", "5.19":
		return "No object died in this log: an average lifetime is known only once objects die."
	case "5.3", "5.4", "5.13", "5.14", "5.20", "5.21":
		if p.Allocated.ArrayObjects == 0 {
			return "This log allocates no arrays."
		}
		return "No array is live at any bucket boundary."
	}
	return "Nothing to draw for this run."
}

// heapTable is the thread or class table of seed tables 5.1 and 5.2 (table 5.2 is the class
// table found by the app's package name), sortable and saved as CSV.
type heapTable struct {
	Table *ui.SortTable[heapmodel.HeapRow]
	Find  *widget.Entry // nil for tables without one

	h       *View
	scope   heapmodel.HeapScope
	rows    []heapmodel.HeapRow // every row; the table shows those Find keeps
	gen     int
	content fyne.CanvasObject
}

func newHeapTable(h *View, name string, cols []ui.Column[heapmodel.HeapRow], scope heapmodel.HeapScope, find bool) *heapTable {
	t := &heapTable{h: h, scope: scope}
	t.Table = ui.NewSortTable(h.host.Window(), name, cols, nil)
	t.content = t.Table.Content()
	if find {
		t.Find = widget.NewEntry()
		t.Find.SetPlaceHolder("Find: part of a class name (e.g. the app's package, for table 5.2)")
		t.Find.OnChanged = func(string) { t.filter() }
		t.content = container.NewBorder(t.Find, nil, nil, nil, t.content)
	}
	return t
}

func (t *heapTable) recompute() {
	h := t.h
	t.gen++
	gen, p, scope := t.gen, h.profile, t.scope
	h.host.Background().Run(func() func() {
		rows := p.Table(scope)
		return func() {
			if gen == t.gen {
				t.rows = rows
				t.filter()
			}
		}
	})
}

// filter shows the rows the Find box keeps (a few thousand classes filter in a blink).
func (t *heapTable) filter() {
	rows := t.rows
	if t.Find != nil && t.Find.Text != "" {
		rows = heapmodel.FilterHeapRows(rows, t.Find.Text)
	}
	t.Table.Set(rows)
	if len(rows) != len(t.rows) {
		t.Table.Count.SetText(fmt.Sprintf("%d of %s", len(rows), human.Count(len(t.rows), "row", "rows")))
	}
}

// heapPackagesTab is seed table 5.3, the classes summed by package, with a chart of how the
// heap divides between packages.
type heapPackagesTab struct {
	Measure *widget.RadioGroup // what the chart shows per package
	Chart   *ui.ChartPanel
	Table   *ui.SortTable[heapmodel.HeapRow]

	h       *View
	rows    []heapmodel.HeapRow
	gen     int
	content fyne.CanvasObject
}

// The Packages chart's measures.
const (
	measureLiveObjects = "Live objects"
	measureLiveBytes   = "Live bytes"
	measureAllocated   = "Bytes allocated"
)

func newHeapPackagesTab(h *View) *heapPackagesTab {
	t := &heapPackagesTab{h: h}
	t.Chart = ui.NewChartPanel(h.host.Window(), h.host.Background(), chart.Bars, nil)
	t.Table = ui.NewSortTable(h.host.Window(), "heap-packages", packageColumns(), nil)
	t.Measure = widget.NewRadioGroup([]string{measureLiveObjects, measureLiveBytes, measureAllocated}, func(string) { t.chart() })
	t.Measure.Horizontal = true
	t.Measure.Required = true
	t.Measure.SetSelected(measureLiveObjects)
	top := container.NewBorder(container.NewHBox(widget.NewLabel("Chart"), t.Measure), nil, nil, nil, t.Chart.Content())
	split := container.NewVSplit(top, t.Table.Content())
	split.Offset = 0.55
	t.content = split
	return t
}

func (t *heapPackagesTab) recompute() {
	h := t.h
	t.gen++
	gen, p := t.gen, h.profile
	h.host.Background().Run(func() func() {
		rows := p.Packages()
		return func() {
			if gen == t.gen {
				t.rows = rows
				t.Table.Set(rows)
				t.chart()
			}
		}
	})
}

// chart charts the measure chosen per package; the panel draws it in the background.
func (t *heapPackagesTab) chart() {
	if t.h.profile == nil {
		return
	}
	value, unit := func(r heapmodel.HeapRow) uint64 { return r.Live.Objects }, "live objects"
	switch t.Measure.Selected {
	case measureLiveBytes:
		value, unit = func(r heapmodel.HeapRow) uint64 { return r.Live.Bytes }, "live bytes"
	case measureAllocated:
		value, unit = func(r heapmodel.HeapRow) uint64 { return r.Total.Bytes }, "bytes allocated"
	}
	c := chart.Chart{Title: fmt.Sprintf("%s by package — %s (seed table 5.3)", strings.ToUpper(unit[:1])+unit[1:], t.h.run), YLabel: unit}
	if t.Measure.Selected != measureLiveObjects {
		c.Unit = "B" // bars read "1.5 MB"
	}
	for _, r := range t.rows {
		c.Bars = append(c.Bars, chart.Bar{Label: r.Name, Value: float64(value(r))})
	}
	t.Chart.Set(c)
}

// Columns of the heap tables: counts grouped, bytes in binary units (exact in the CSV).

func threadColumns() []ui.Column[heapmodel.HeapRow] {
	type row = heapmodel.HeapRow
	return []ui.Column[row]{
		ui.TextCol("Thread", 240, func(r row) string { return r.Name }),
		countCol("Live objects", 110, func(r row) uint64 { return r.Live.Objects }),
		ui.PctCol("Live %", func(r row) float64 { return r.LivePercent }),
		countCol("Total objects", 110, func(r row) uint64 { return r.Total.Objects }),
		bytesCol("Total bytes", 100, func(r row) uint64 { return r.Total.Bytes }),
		countCol("Died", 100, func(r row) uint64 { return r.Died.Objects }),
		lifetimeCol("Avg lifetime", func(r row) float64 { return r.AvgLifetime }),
	}
}

func classColumns() []ui.Column[heapmodel.HeapRow] {
	type row = heapmodel.HeapRow
	return []ui.Column[row]{
		ui.TextCol("Class name", 355, func(r row) string { return r.Name }),
		countCol("Live", 75, func(r row) uint64 { return r.Live.Objects }),
		widthOf(ui.PctCol("Live %", func(r row) float64 { return r.LivePercent }), 65),
		countCol("Total", 85, func(r row) uint64 { return r.Total.Objects }),
		bytesCol("Size", 80, func(r row) uint64 { return r.Total.Bytes }),
		bytesCol("Live bytes", 85, func(r row) uint64 { return r.Live.Bytes }),
		widthOf(lifetimeCol("Avg lifetime", func(r row) float64 { return r.AvgLifetime }), 95),
		ui.TextCol("Array", 55, func(r row) string { return yes(r.Array) }),
	}
}

func packageColumns() []ui.Column[heapmodel.HeapRow] {
	type row = heapmodel.HeapRow
	return []ui.Column[row]{
		ui.TextCol("Package name", 320, func(r row) string { return r.Name }),
		countCol("Classes", 70, func(r row) uint64 { return uint64(r.Classes) }),
		countCol("Live", 75, func(r row) uint64 { return r.Live.Objects }),
		widthOf(ui.PctCol("Live %", func(r row) float64 { return r.LivePercent }), 65),
		countCol("Total", 85, func(r row) uint64 { return r.Total.Objects }),
		bytesCol("Size", 80, func(r row) uint64 { return r.Total.Bytes }),
		bytesCol("Live bytes", 85, func(r row) uint64 { return r.Live.Bytes }),
		widthOf(lifetimeCol("Avg lifetime", func(r row) float64 { return r.AvgLifetime }), 95),
	}
}

func yes(b bool) string {
	if b {
		return "yes"
	}
	return ""
}

// widthOf narrows a column made by a helper: the heap tables have many.
func widthOf[T any](c ui.Column[T], width float32) ui.Column[T] {
	c.Width = width
	return c
}

func countCol[T any](title string, width float32, v func(T) uint64) ui.Column[T] {
	return ui.IntCol(title, width, func(r T) int64 { return int64(v(r)) })
}

// bytesCol shows "1.5 MB", sorts and exports the exact number.
func bytesCol[T any](title string, width float32, v func(T) uint64) ui.Column[T] {
	return ui.Column[T]{Title: title, Width: width, Num: true,
		Text: func(r T) string { return human.Bytes(v(r)) },
		Raw:  func(r T) string { return strconv.FormatUint(v(r), 10) },
		Cmp:  func(a, b T) int { return cmp.Compare(v(a), v(b)) }}
}

// lifetimeCol shows an average lifetime in bytes of allocation; empty when nothing died.
func lifetimeCol[T any](title string, v func(T) float64) ui.Column[T] {
	c := ui.FloatCol(title, 105, 0, v)
	c.Text = func(r T) string {
		if v(r) == 0 {
			return ""
		}
		return human.Bytes(uint64(v(r) + 0.5))
	}
	return c
}
