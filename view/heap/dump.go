package heap

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/driver/desktop"
	"fyne.io/fyne/v2/widget"

	"androprof/chart"
	"androprof/controller"
	"androprof/internal/human"
	heapmodel "androprof/model/heap"
	"androprof/view/ui"
)

// allHeaps is the Heap chooser's first option.
const allHeaps = "All heaps"

// DumpView is what the analysis window shows for a heap dump run (HPROF): one moment of the heap,
// so the seed's tables 4.1–4.3 and 5.1–5.3 for that moment, object sizes and figure 5.23's pointer
// distances by address, for every heap or the one chosen (Android dumps have an image, a zygote and
// an app heap). It replaces the other tabs while a dump run is selected.
type DumpView struct {
	Heap *widget.Select // all heaps or one
	Tabs *container.AppTabs
	Bar  *fyne.Container // the top bar's controls for dump runs

	Summary   *ui.SortTable[heapFact]
	Classes   *dumpRowsTab
	Packages  *dumpRowsTab
	Sizes     *dumpFigureTab
	Pointers  *dumpFigureTab
	Retained  *retainedTab
	Instances *instancesTab
	Object    *objectTab
	Leaks     *leaksTab
	Compare   *dumpCompareTab
	HeapNote  *widget.Label // which heap the tabs show, and that the others are a click away

	host   ui.Host
	a      *controller.HeapDumps
	run    string              // the run shown, or being loaded
	dump   *heapmodel.HeapDump // of run; nil until loaded
	heap   string              // "" for every heap
	chosen map[string]string   // the heap chosen per run ("" every heap), once opened
	gen    int
	sgen   int
}

// NewDump makes the dump tabs, shown by host, which read dumps through a.
func NewDump(host ui.Host, a *controller.HeapDumps) *DumpView {
	d := &DumpView{host: host, a: a, chosen: map[string]string{}}
	d.Heap = widget.NewSelect([]string{allHeaps}, func(opt string) {
		heap := opt
		if opt == allHeaps {
			heap = ""
		}
		if d.dump != nil {
			d.chosen[d.run] = heap
		}
		if heap != d.heap {
			d.heap = heap
			d.refresh()
		}
	})
	d.Heap.SetSelected(allHeaps)
	d.Summary = ui.NewSortTable(host.Window(), "dump-summary", factColumns(), nil)
	d.Classes = newDumpRowsTab(d, "dump-classes", false)
	d.Packages = newDumpRowsTab(d, "dump-packages", true)
	d.Sizes = newDumpFigureTab(d, "dump-sizes")
	d.Pointers = newDumpFigureTab(d, "dump-pointers")
	d.Retained = newRetainedTab(d)
	d.Instances = newInstancesTab(d)
	d.Object = newObjectTab(d)
	d.Leaks = newLeaksTab(d)
	d.Compare = newDumpCompareTab(d)
	d.Tabs = container.NewAppTabs(
		container.NewTabItem("Summary", d.Summary.Content()),
		container.NewTabItem("Classes", d.Classes.content),
		container.NewTabItem("Packages", d.Packages.content),
		container.NewTabItem("Sizes", d.Sizes.Chart.Content()),
		container.NewTabItem("Pointers", d.Pointers.Chart.Content()),
		container.NewTabItem("Retained", d.Retained.content),
		container.NewTabItem(TabInstances, d.Instances.content),
		container.NewTabItem(TabObject, d.Object.content),
		container.NewTabItem(TabLeaks, d.Leaks.content),
		container.NewTabItem("Compare", d.Compare.content),
	)
	d.Tabs.OnSelected = func(it *container.TabItem) {
		if it.Text == TabLeaks {
			d.Leaks.shown()
		}
	}
	d.HeapNote = widget.NewLabel("")
	d.HeapNote.Truncation = fyne.TextTruncateEllipsis
	h := d.Heap.MinSize().Height
	d.Bar = ui.NewBar(ui.Group(widget.NewLabel("Heap"), container.NewGridWrap(fyne.NewSize(200, h), d.Heap)),
		container.NewGridWrap(fyne.NewSize(heapNoteWidth, h), d.HeapNote))
	d.addKeys()
	return d
}

// The titles of the object-level tabs, for the callers that open them (cmd/tour).
const (
	TabInstances = "Instances"
	TabObject    = "Object"
	TabLeaks     = "Leaks"
)

// heapNoteWidth is the room the heap note takes beside the chooser: its longest line, cut
// with an ellipsis past that (the bar wraps it onto a row of its own at 900 px).
const heapNoteWidth = 520

// addKeys makes Alt+Left and Alt+Right go back and forward between the objects visited while
// the object view is shown, as in a browser.
func (d *DumpView) addKeys() {
	c := d.host.Window().Canvas()
	for key, by := range map[fyne.KeyName]int{fyne.KeyLeft: -1, fyne.KeyRight: 1} {
		c.AddShortcut(&desktop.CustomShortcut{KeyName: key, Modifier: fyne.KeyModifierAlt}, func(fyne.Shortcut) {
			if d.Tabs.Visible() && d.Tabs.Selected() != nil && d.Tabs.Selected().Text == TabObject {
				d.Object.step(by)
			}
		})
	}
}

// selectTab shows the dump tab titled title.
func (d *DumpView) selectTab(title string) {
	for _, it := range d.Tabs.Items {
		if it.Text == title {
			d.Tabs.Select(it)
			return
		}
	}
}

// showInstances lists a class's instances in heap ("" for every heap) and shows them.
func (d *DumpView) showInstances(class, heap string) {
	d.Instances.open(class, heap)
	d.selectTab(TabInstances)
}

// showObject opens object seq in the object view and shows it.
func (d *DumpView) showObject(seq int32) {
	d.Object.open(seq)
	d.selectTab(TabObject)
}

// Open shows a dump run, unless it is shown already.
func (d *DumpView) Open(run string) {
	if run == d.run && d.dump != nil {
		d.host.SetProblem("")
		return
	}
	d.run, d.dump = run, nil
	d.Instances.forget()
	d.Object.forget()
	d.Leaks.forget()
	a := d.a
	ui.LoadRun(d.host, &d.gen, run, func(ctx context.Context) (*heapmodel.HeapDump, error) { return a.Dump(ctx, run) }, func(dump *heapmodel.HeapDump) {
		d.dump = dump
		d.setChoices()
		d.refresh()
		d.Retained.recompute() // the tree is the whole dump's; its classes follow Heap
		d.Compare.recompute()
		if d.Tabs.Selected() != nil && d.Tabs.Selected().Text == TabLeaks {
			d.Leaks.shown()
		}
	})
}

// Forget drops a run's dump after it was imported again or deleted.
func (d *DumpView) Forget(run string) {
	if d.run == run {
		d.run, d.dump = "", nil
	}
}

// setChoices offers the dump's heaps and shows the one chosen for this run before; a run
// opened for the first time shows its app heap when it has one (an Android dump: the image and
// zygote heaps are the system's), every heap otherwise.
func (d *DumpView) setChoices() {
	heap, ok := d.chosen[d.run]
	if !ok && slices.Contains(d.dump.Heaps, appHeap) {
		heap = appHeap
	}
	d.heap = ""
	if slices.Contains(d.dump.Heaps, heap) {
		d.heap = heap
	}
	d.Heap.Options = append([]string{allHeaps}, d.dump.Heaps...)
	if d.heap == "" {
		d.Heap.SetSelected(allHeaps)
	} else {
		d.Heap.SetSelected(d.heap)
	}
	d.Heap.Refresh()
	d.chosen[d.run] = d.heap
	d.HeapNote.SetText(heapNote(d.dump.Heaps, d.heap))
}

// appHeap is the heap an Android dump keeps the app's own objects in.
const appHeap = "app"

// heapNote says which heap the tabs show and that the others are one click away; nothing for
// a dump of one heap.
func heapNote(heaps []string, heap string) string {
	if len(heaps) < 2 {
		return ""
	}
	if heap == "" {
		return "Every heap shown (" + strings.Join(heaps, ", ") + "); choose one in Heap."
	}
	var others []string
	for _, h := range heaps {
		if h != heap {
			others = append(others, h)
		}
	}
	return "Heap " + heap + " shown; " + strings.Join(others, ", ") + " and all heaps are one click away in Heap."
}

// refresh recomputes every tab for the dump and heap chosen.
func (d *DumpView) refresh() {
	if d.dump == nil {
		return
	}
	d.sgen++
	gen, dump, heap := d.sgen, d.dump, d.heap
	d.host.Background().Run(func() func() {
		facts := dumpFacts(dump, heap)
		return func() {
			if gen == d.sgen {
				d.Summary.Set(facts)
			}
		}
	})
	d.Classes.recompute()
	d.Packages.recompute()
	d.Sizes.recompute()
	d.Pointers.recompute()
	d.Retained.showClasses()
}

// dumpFacts sums a dump up as the seed's tables 4.1–4.3 do for one moment, every heap apart;
// the object counts are those of heap ("" for every heap), and say which.
func dumpFacts(d *heapmodel.HeapDump, heap string) []heapFact {
	ch := d.Characteristics()
	when := "(not stated)"
	if d.Timestamp != 0 {
		when = time.UnixMilli(int64(d.Timestamp)).UTC().Format("2006-01-02 15:04:05 UTC")
	}
	part := func(c heapmodel.DumpCount) string {
		return human.Count(c.Objects, "object", "objects") + ", " + human.Bytes(c.Bytes)
	}
	in, ar, where := ch.Instances, ch.Arrays, "every heap"
	if heap != "" {
		in, ar = heapCounts(d, heap)
		where = "heap " + heap
	}
	all := heapmodel.DumpCount{Objects: in.Objects + ar.Objects, Bytes: in.Bytes + ar.Bytes}
	facts := []heapFact{
		{Name: "Version", Value: d.Version},
		{Name: "Identifier size", Value: fmt.Sprintf("%d bytes", d.IDSize)},
		{Name: "Timestamp", Value: when, raw: fmt.Sprint(d.Timestamp)},
		{Name: "Heaps", Value: strings.Join(d.Heaps, ", ")},
		{Name: "Loaded classes", Value: human.Grouped(int64(ch.LoadedClasses))},
		{Name: "Array classes", Value: human.Grouped(int64(ch.ArrayClasses))},
		{Name: "Objects", Value: part(all) + " in " + where + " (instances and arrays; class objects are not counted)",
			raw: fmt.Sprint(all.Objects)},
		{Name: "Instances", Value: part(in) + " in " + where, raw: fmt.Sprint(in.Objects)},
		{Name: "Arrays", Value: part(ar) + " in " + where, raw: fmt.Sprint(ar.Objects)},
	}
	if heap != "" {
		facts = append(facts, heapFact{Name: "Objects, all heaps", Value: part(heapmodel.DumpCount{Objects: ch.Objects, Bytes: ch.Bytes}) + " (instances and arrays)",
			raw: fmt.Sprint(ch.Objects)})
	}
	facts = append(facts, heapFact{Name: "GC roots", Value: human.Grouped(int64(d.Roots)) + " (every heap)", raw: fmt.Sprint(d.Roots)})
	for _, h := range d.Heaps {
		in, ar := heapCounts(d, h)
		facts = append(facts, heapFact{Name: "Heap " + h, Value: fmt.Sprintf("%s (%s), %s (%s)",
			human.Count(in.Objects, "instance", "instances"), human.Bytes(in.Bytes), human.Count(ar.Objects, "array", "arrays"), human.Bytes(ar.Bytes))})
	}
	return facts
}

// heapCounts sums one heap's instances and arrays.
func heapCounts(d *heapmodel.HeapDump, heap string) (in, ar heapmodel.DumpCount) {
	for _, c := range d.Classes {
		if c.Heap != heap {
			continue
		}
		p := &in
		if c.Array {
			p = &ar
		}
		p.Objects += c.Objects
		p.Bytes += c.Bytes
	}
	return in, ar
}

// dumpRowsTab is a dump's class (or package) table with its bar chart; a tap on a bar selects
// its row.
type dumpRowsTab struct {
	Find  *widget.Entry // classes only
	Chart *ui.ChartPanel
	Table *ui.SortTable[heapmodel.DumpRow]

	d         *DumpView
	fig       chart.DumpFigure
	byPackage bool
	quiet     bool // a bar tapped selects its row without opening its instances
	rows      []heapmodel.DumpRow
	gen       int
	content   fyne.CanvasObject
}

func newDumpRowsTab(d *DumpView, figure string, byPackage bool) *dumpRowsTab {
	t := &dumpRowsTab{d: d, byPackage: byPackage}
	t.fig, _ = chart.FindDumpFigure(figure)
	kind := chart.Bars
	name := "Class"
	if byPackage {
		kind, name = chart.Pie, "Package"
	}
	t.Chart = ui.NewChartPanel(d.host.Window(), d.host.Background(), kind, t.barTapped)
	var open func(heapmodel.DumpRow)
	if !byPackage {
		open = func(r heapmodel.DumpRow) {
			if !t.quiet {
				d.showInstances(r.Name, r.Heap)
			}
		}
	}
	t.Table = ui.NewSortTable(d.host.Window(), figure, dumpColumns(name), open)
	table := t.Table.Content()
	if !byPackage {
		t.Find = widget.NewEntry()
		t.Find.SetPlaceHolder("Find: part of a class name")
		t.Find.OnChanged = func(string) { t.filter() }
		table = container.NewBorder(t.Find, nil, nil, nil, table)
	}
	split := container.NewVSplit(t.Chart.Content(), table)
	split.Offset = 0.5
	t.content = split
	return t
}

func (t *dumpRowsTab) recompute() {
	d := t.d
	t.gen++
	gen, dump, heap, run, fig, byPackage := t.gen, d.dump, d.heap, d.run, t.fig, t.byPackage
	a, ctx := d.a, d.host.Context()
	d.host.Background().Run(func() func() {
		rows := dump.DumpRows(heap, byPackage)
		c, err := a.Figure(ctx, run, heap, fig)
		if ctx.Err() != nil {
			return nil // the user moved on
		}
		return func() {
			if gen == t.gen {
				t.rows = rows
				t.filter()
				showFigure(d, t.Chart, c, err, fig, run)
			}
		}
	})
}

func (t *dumpRowsTab) filter() {
	rows := t.rows
	if t.Find != nil && t.Find.Text != "" {
		text := strings.ToLower(t.Find.Text)
		rows = nil
		for _, r := range t.rows {
			if strings.Contains(strings.ToLower(r.Name), text) {
				rows = append(rows, r)
			}
		}
	}
	t.Table.Set(rows)
	if len(rows) != len(t.rows) {
		t.Table.Count.SetText(fmt.Sprintf("%d of %s", len(rows), human.Count(len(t.rows), "row", "rows")))
	}
}

// barTapped selects the row of the bar tapped, clearing Find when it hides it.
func (t *dumpRowsTab) barTapped(i int) {
	bars := t.Chart.Chart().Bars
	if i >= len(bars) {
		return
	}
	name := bars[i].Label
	find := func() int {
		return slices.IndexFunc(t.Table.Rows(), func(r heapmodel.DumpRow) bool { return r.Name == name })
	}
	j := find()
	if j < 0 && t.Find != nil && t.Find.Text != "" {
		t.Find.SetText("")
		j = find()
	}
	if j >= 0 {
		t.quiet = true
		t.Table.Select(j)
		t.quiet = false
	}
}

// dumpColumns are a dump table's: name, heap, instances, arrays, objects and bytes with shares.
// (No class count per package: model.DumpRow.Classes counts a class once per heap it is in.)
func dumpColumns(name string) []ui.Column[heapmodel.DumpRow] {
	type row = heapmodel.DumpRow
	return []ui.Column[row]{
		ui.TextCol(name, 310, func(r row) string { return r.Name }),
		ui.TextCol("Heap", 70, func(r row) string {
			if r.Heap == "" {
				return "all"
			}
			return r.Heap
		}),
		countCol("Instances", 90, func(r row) uint64 { return r.Instances.Objects }),
		countCol("Arrays", 80, func(r row) uint64 { return r.Arrays.Objects }),
		countCol("Objects", 90, func(r row) uint64 { return r.Objects() }),
		widthOf(ui.PctCol("%", func(r row) float64 { return r.Percent }), 60),
		bytesCol("Bytes", 90, func(r row) uint64 { return r.Bytes() }),
		widthOf(ui.PctCol("Bytes %", func(r row) float64 { return r.BytesShare }), 75),
	}
}

// dumpFigureTab is one dump figure for the heap chosen.
type dumpFigureTab struct {
	Chart *ui.ChartPanel

	d   *DumpView
	fig chart.DumpFigure
	gen int
}

func newDumpFigureTab(d *DumpView, figure string) *dumpFigureTab {
	t := &dumpFigureTab{d: d}
	t.fig, _ = chart.FindDumpFigure(figure)
	t.Chart = ui.NewChartPanel(d.host.Window(), d.host.Background(), chart.Bars, nil)
	return t
}

func (t *dumpFigureTab) recompute() {
	d := t.d
	t.gen++
	gen, heap, run, fig, a, ctx := t.gen, d.heap, d.run, t.fig, d.a, d.host.Context()
	d.host.Background().Run(func() func() {
		c, err := a.Figure(ctx, run, heap, fig)
		if ctx.Err() != nil {
			return nil // the user moved on
		}
		return func() {
			if gen == t.gen {
				showFigure(d, t.Chart, c, err, fig, run)
			}
		}
	})
}

// showFigure puts a dump figure drawn through the controller (as `androprof chart --figure`
// draws it) in its panel, or says why it could not be drawn.
func showFigure(d *DumpView, p *ui.ChartPanel, c chart.Drawing, err error, fig chart.DumpFigure, run string) {
	if err != nil {
		d.host.SetProblem(ui.ProblemText("draw", fig.Title, err))
		return
	}
	p.SetDrawing(c, fig.Name+" "+run)
}
