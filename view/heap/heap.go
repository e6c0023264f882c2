// Package heap is the analysis window's tabs for a heap log (its characteristics, the heap by
// cohort, size, thread and class, pointer distances) and for a heap dump (one moment of the
// heap). They see the window that shows them only as a ui.Host.
package heap

import (
	"context"
	"fmt"
	"maps"
	"slices"
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/widget"

	"androprof/chart"
	"androprof/controller"
	"androprof/internal/human"
	heapmodel "androprof/model/heap"
	"androprof/view/ui"
)

// cohortSteps are the Cohort chooser's multiples of the imported cohort: ×1 … ×32. Only
// multiples can be had without importing again (model.HeapProfile.Regroup).
var cohortSteps = []int{1, 2, 4, 8, 16, 32}

// View is what the analysis window shows for a heap log run (seed 001 chapter 5): its
// characteristics (tables 4.1–4.3), the heap composition by cohort, size, thread and class over
// allocation time (figures 5.1–5.21), pointer distances (5.22, 5.23), and the class and package
// tables (5.1–5.3). It replaces the emulator tabs and their top bar while a heap run is selected;
// its own bar chooses the cohort size, which every chart and table is regrouped to.
type View struct {
	Cohort *widget.Select // the cohort size: the run's imported one times cohortSteps
	Tabs   *container.AppTabs
	Bar    *fyne.Container // the top bar's controls for heap runs

	Summary  *heapSummaryTab
	Cohorts  *heapFigureTab
	Sizes    *heapFigureTab
	Threads  *heapFigureTab // with the thread table
	Classes  *heapFigureTab // with the class table and its Find box
	Packages *heapPackagesTab
	Pointers *heapFigureTab

	ThreadTable *heapTable
	ClassTable  *heapTable

	host     ui.Host
	a        *controller.HeapLogs
	run      string                 // the run shown, or being loaded
	factor   int                    // cohort multiple of the run's imported cohort
	profile  *heapmodel.HeapProfile // of run at factor; nil until loaded
	factors  map[string]int         // Cohort option → factor
	imported uint64                 // the run's imported cohort size
	gen      int
	quiet    bool // set while the code, not the user, changes a chooser
}

// New makes the heap log tabs, shown by host, which read profiles and draw figures through a.
func New(host ui.Host, a *controller.HeapLogs) *View {
	h := &View{host: host, a: a, factor: 1}
	h.Cohort = widget.NewSelect(nil, func(opt string) {
		if f, ok := h.factors[opt]; ok && !h.quiet && f != h.factor {
			h.factor = f
			h.load()
		}
	})
	h.Cohort.PlaceHolder = "(imported)"
	h.Summary = newHeapSummaryTab(h)
	h.ThreadTable = newHeapTable(h, "heap-threads", threadColumns(), heapmodel.ScopeThread, false)
	h.ClassTable = newHeapTable(h, "heap-classes", classColumns(), heapmodel.ScopeClass, true)
	h.Cohorts = newHeapFigureTab(h, chart.TabCohorts, nil)
	h.Sizes = newHeapFigureTab(h, chart.TabSizes, nil)
	h.Threads = newHeapFigureTab(h, chart.TabThreads, h.ThreadTable.content)
	h.Classes = newHeapFigureTab(h, chart.TabClasses, h.ClassTable.content)
	h.Packages = newHeapPackagesTab(h)
	h.Pointers = newHeapFigureTab(h, chart.TabPointers, nil)
	h.Tabs = container.NewAppTabs(
		container.NewTabItem("Summary", h.Summary.content),
		container.NewTabItem(chart.TabCohorts, h.Cohorts.content),
		container.NewTabItem(chart.TabSizes, h.Sizes.content),
		container.NewTabItem(chart.TabThreads, h.Threads.content),
		container.NewTabItem(chart.TabClasses, h.Classes.content),
		container.NewTabItem("Packages", h.Packages.content),
		container.NewTabItem(chart.TabPointers, h.Pointers.content),
	)
	note := widget.NewLabel("bytes of allocation per cohort; time is total allocation")
	note.Importance = widget.LowImportance
	h.Bar = ui.NewBar(ui.Group(widget.NewLabel("Cohort"),
		container.NewGridWrap(fyne.NewSize(130, h.Cohort.MinSize().Height), h.Cohort)), note)
	return h
}

// figureTabs are the tabs with a figure chooser, in tab order.
func (h *View) figureTabs() []*heapFigureTab {
	return []*heapFigureTab{h.Cohorts, h.Sizes, h.Threads, h.Classes, h.Pointers}
}

// FigureChooser is the figure chooser of tab i of Tabs, nil for a tab without one; for
// the screenshot tour (cmd/tour), which captures every figure.
func (h *View) FigureChooser(i int) *widget.Select {
	if i < 0 || i >= len(h.Tabs.Items) {
		return nil
	}
	for _, t := range h.figureTabs() {
		if t.content == h.Tabs.Items[i].Content {
			return t.Figure
		}
	}
	return nil
}

// Open shows a heap run at its imported cohort, unless it is shown already.
func (h *View) Open(run string) {
	if run == h.run && h.profile != nil {
		h.host.SetProblem("") // a problem of the run shown before is not this one's
		return
	}
	h.run, h.factor, h.profile = run, 1, nil
	h.load()
}

// Run is the heap run shown, or being loaded.
func (h *View) Run() string { return h.run }

// Profile is the run's profile at the cohort chosen, nil until it is loaded.
func (h *View) Profile() *heapmodel.HeapProfile { return h.profile }

// Forget drops a run's profile after it was imported again or deleted.
func (h *View) Forget(run string) {
	if h.run == run {
		h.run, h.profile = "", nil
	}
}

// load reads the run's profile at the cohort chosen (the controller keeps the stored one;
// regrouping is done here, off the UI goroutine) and shows it in every tab.
func (h *View) load() {
	a, run, factor := h.a, h.run, h.factor
	ui.LoadRun(h.host, &h.gen, run, func(ctx context.Context) (*heapmodel.HeapProfile, error) { return a.Profile(ctx, run, factor) }, func(p *heapmodel.HeapProfile) {
		h.profile = p
		h.imported = p.Cohort / uint64(max(factor, 1))
		h.setChoices()
		h.refresh()
	})
}

// setChoices offers the cohort sizes of the run loaded.
func (h *View) setChoices() {
	h.quiet = true
	defer func() { h.quiet = false }()
	h.factors = map[string]int{}
	var opts []string
	selected := ""
	for _, f := range cohortSteps {
		o := human.Bytes(h.imported * uint64(f))
		h.factors[o] = f
		opts = append(opts, o)
		if f == h.factor {
			selected = o
		}
	}
	h.Cohort.Options = opts
	h.Cohort.SetSelected(selected)
}

// refresh recomputes every tab for the profile loaded; each works in the background.
func (h *View) refresh() {
	if h.profile == nil {
		return
	}
	h.Summary.recompute()
	for _, t := range h.figureTabs() {
		t.recompute()
	}
	h.ThreadTable.recompute()
	h.ClassTable.recompute()
	h.Packages.recompute()
}

// heapFact is one line of a Summary table: a characteristic and its value.
type heapFact struct {
	Name, Value string
	raw         string // for CSV, when Value is rounded ("1.5 MB"); "" keeps Value
}

func factColumns() []ui.Column[heapFact] {
	return []ui.Column[heapFact]{
		ui.TextCol("Characteristic", 220, func(f heapFact) string { return f.Name }),
		{Title: "Value", Width: 700, Text: func(f heapFact) string { return f.Value }, Raw: func(f heapFact) string {
			if f.raw != "" {
				return f.raw
			}
			return f.Value
		}},
	}
}

// heapSummaryTab is the seed's tables 4.1–4.3 for the run, and what its log cannot show.
type heapSummaryTab struct {
	Table *ui.SortTable[heapFact]
	Note  *widget.Label // what the log lacks (pointer mutations, snapshots), and skipped deaths

	h       *View
	gen     int
	content fyne.CanvasObject
}

func newHeapSummaryTab(h *View) *heapSummaryTab {
	t := &heapSummaryTab{h: h}
	t.Table = ui.NewSortTable(h.host.Window(), "heap-summary", factColumns(), nil)
	t.Note = widget.NewLabel("")
	t.Note.Wrapping = fyne.TextWrapWord
	t.Note.Importance = widget.WarningImportance
	t.Note.Hide()
	t.content = container.NewBorder(t.Note, nil, nil, nil, t.Table.Content())
	return t
}

func (t *heapSummaryTab) recompute() {
	h := t.h
	t.gen++
	gen, p, factor := t.gen, h.profile, h.factor
	h.host.Background().Run(func() func() {
		facts, notes := heapFacts(p, factor)
		return func() {
			if gen != t.gen {
				return
			}
			t.Table.Set(facts)
			t.Note.SetText(strings.Join(notes, "\n"))
			if len(notes) == 0 {
				t.Note.Hide()
			} else {
				t.Note.Show()
			}
		}
	})
}

// heapFacts lists a profile's characteristics as the seed's tables 4.1–4.3 do, then the rest
// of what the log says; notes say plainly what the log lacks.
func heapFacts(p *heapmodel.HeapProfile, factor int) (facts []heapFact, notes []string) {
	ch := p.Characteristics()
	bytes := func(name string, n uint64, more string) {
		facts = append(facts, heapFact{Name: name, Value: human.Bytes(n) + more, raw: fmt.Sprint(n)})
	}
	count := func(name string, n uint64, more string) {
		facts = append(facts, heapFact{Name: name, Value: human.Grouped(int64(n)) + more, raw: fmt.Sprint(n)})
	}
	bytes("Total allocation", ch.TotalAllocation, fmt.Sprintf(" (%s bytes)", human.Grouped(int64(ch.TotalAllocation))))
	bytes("Maximum live", ch.MaxLive, fmt.Sprintf(" (%s objects, at %s of allocation)", human.Grouped(int64(ch.MaxLiveObjects)), human.Bytes(ch.MaxLiveAt)))
	count("Live objects (at end)", ch.LiveObjects, " ("+human.Bytes(ch.LiveBytes)+")")
	count("Loaded classes", uint64(ch.LoadedClasses), "")
	count("Array classes", uint64(ch.ArrayClasses), "")
	count("Objects allocated", ch.TotalObjects, fmt.Sprintf(" (%s arrays)", human.Grouped(int64(p.Allocated.ArrayObjects))))
	count("Objects freed", ch.FreedObjects, " ("+human.Bytes(p.Freed.Bytes)+")")
	count("Threads", uint64(ch.Threads), "")
	count("GCs", uint64(ch.GCs), "")
	count("Pointer mutations", ch.Mutations, "")
	cohort := ""
	if factor > 1 {
		cohort = fmt.Sprintf(" (%d × the %s imported)", factor, human.Bytes(p.Cohort/uint64(factor)))
	}
	bytes("Cohort size", p.Cohort, cohort)
	if ch.UnknownFrees > 0 {
		count("Unknown frees (skipped)", ch.UnknownFrees, "")
	}
	vm := p.Header.VM
	if vm == "" {
		vm = "(not stated)"
	}
	facts = append(facts, heapFact{Name: "VM", Value: vm})
	facts = append(facts, heapFact{Name: "Format", Value: fmt.Sprintf("%s %d", p.Header.Format, p.Header.Version)})
	for _, k := range slices.Sorted(maps.Keys(p.Header.Props)) {
		facts = append(facts, heapFact{Name: "Property " + k, Value: p.Header.Props[k]})
	}

	if p.Header.Props["synthetic"] == "true" {
		notes = append(notes, "This log is synthetic (prop synthetic true): nothing in it was measured.")
	}
	if ch.Mutations == 0 {
		if withoutMutations(p) {
			notes = append(notes, "No pointer mutations: the heap agent records them only under "+
				"`androprof heap --mutations`: figure 5.22 is empty.")
		} else {
			notes = append(notes, "No pointer mutations in this log: figure 5.22 is empty.")
		}
	}
	if !slices.ContainsFunc(p.Pointers, func(r heapmodel.HeapPointers) bool { return r.Snapshot && r.Count > 0 }) {
		notes = append(notes, "No heap snapshots in this log (the VM did not walk the heap): figure 5.23 is empty.")
	}
	if ch.UnknownFrees > 0 {
		notes = append(notes, human.Count(ch.UnknownFrees, "death", "deaths")+" of objects never allocated (or freed twice) "+human.Noun(ch.UnknownFrees, "was", "were")+" skipped.")
	}
	return facts, notes
}

// withoutMutations tells whether the project's JVMTI agent wrote the log (its vm line says so)
// without recording reference stores (it says "prop mutations on" when it does).
func withoutMutations(p *heapmodel.HeapProfile) bool {
	return strings.Contains(p.Header.VM, "androprof heap agent") && p.Header.Props["mutations"] != "on"
}
