// Package methods is the analysis window's tabs for a method trace (Traceview, DPA, RMP): the
// profile table, a timeline of every thread, hotspot and package charts, and two traces compared. It
// sees the window that shows it only as a ui.Host.
package methods

import (
	"context"
	"slices"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/widget"

	"androprof/chart"
	"androprof/controller"
	"androprof/model/calls"
	"androprof/view/ui"
)

// allThreads is the Thread chooser's first option.
const allThreads = "All threads"

// The Clock chooser's options: what the charts and the comparison measure.
const (
	clockCPU  = "CPU time"
	clockReal = "Real time"
)

// View is what the analysis window shows for a method run (issue 4): Traceview's profile table, a
// timeline of every thread, hotspot and package charts, and two traces compared method by method. It
// replaces the emulator tabs and their top bar while a method run is selected, because nothing
// there (profiles, frequency, processes) applies to a method trace.
type View struct {
	Thread   *widget.Select // all threads or one; the timeline shows a lane per thread for "All"
	Grouping *widget.Select // one row per method, class, package or thread
	Clock    *widget.Select // thread-CPU or real time, for the charts and the comparison
	RawNames *widget.Check  // methods named as the trace does, not as Java reads them (names.go)
	Tabs     *container.AppTabs
	Bar      *fyne.Container // the top bar's controls for method runs

	Profile  *methodProfileTab
	Timeline *timelineTab
	Hotspots *hotspotsTab
	Packages *packagesTab
	Compare  *methodCompareTab
	Flame    *flameTab
	Diff     *diffTab

	host    ui.Host
	a       *controller.MethodAnalysis
	sel     methodSel
	trace   *calls.MethodTrace // of sel.run; nil until loaded
	threads map[string]int     // Thread option → tid
	gen     int
	quiet   bool // set while the code, not the user, changes a chooser
	raw     bool // RawNames is ticked

	chosen    chosenMethod // the method selected in every tab (selection.go)
	followers []follower
}

// methodSel is what the method tabs show; background work gets a copy.
type methodSel struct {
	run string
	tid int // 0: every thread
	by  calls.MethodGrouping
	cpu bool // charts on thread-CPU time, else real time
}

// New makes the method tabs, shown by host, which read traces through a.
func New(host ui.Host, a *controller.MethodAnalysis) *View {
	m := &View{host: host, a: a, sel: methodSel{by: calls.ByMethod, cpu: true}, threads: map[string]int{allThreads: 0}}
	m.Thread = widget.NewSelect([]string{allThreads}, func(opt string) {
		if !m.quiet {
			m.sel.tid = m.threads[opt]
			m.refresh()
		}
	})
	m.Thread.SetSelected(allThreads)
	groupings := make([]string, len(calls.MethodGroupings))
	for i, g := range calls.MethodGroupings {
		groupings[i] = string(g)
	}
	m.Grouping = widget.NewSelect(groupings, func(s string) {
		if !m.quiet {
			m.sel.by = calls.MethodGrouping(s)
			m.refresh()
		}
	})
	m.Grouping.SetSelected(string(calls.ByMethod))
	m.Clock = widget.NewSelect([]string{clockCPU, clockReal}, func(s string) {
		if !m.quiet {
			m.sel.cpu = s == clockCPU
			m.refresh()
		}
	})
	m.Clock.SetSelected(clockCPU)
	m.RawNames = widget.NewCheck(rawNamesText, func(on bool) { m.raw = on; m.refresh() })

	m.Profile = newMethodProfileTab(m)
	m.Timeline = newTimelineTab(m)
	m.Hotspots = newHotspotsTab(m)
	m.Packages = newPackagesTab(m)
	m.Compare = newMethodCompareTab(m)
	m.Flame = newFlameTab(m)
	m.Diff = newDiffTab(m)
	m.followTabs()
	m.Tabs = container.NewAppTabs(
		container.NewTabItem("Profile", m.Profile.content),
		container.NewTabItem("Timeline", m.Timeline.content),
		container.NewTabItem("Hotspots", m.Hotspots.content),
		container.NewTabItem("Packages", m.Packages.content),
		container.NewTabItem("Compare", m.Compare.content),
		container.NewTabItem(TabFlame, m.Flame.content),
		container.NewTabItem(TabDiff, m.Diff.Content()),
	)
	h := m.Thread.MinSize().Height
	sized := func(w float32, o fyne.CanvasObject) fyne.CanvasObject {
		return container.NewGridWrap(fyne.NewSize(w, h), o)
	}
	m.Bar = ui.NewBar(ui.Group(widget.NewLabel("Thread"), sized(280, m.Thread)), ui.Group(widget.NewLabel("Group by"),
		sized(120, m.Grouping)), ui.Group(widget.NewLabel("Charts"), sized(120, m.Clock)), m.RawNames)
	return m
}

// Forget drops a method run's cached trace after it was imported again or deleted.
func (m *View) Forget(run string) {
	if m.sel.run == run {
		m.sel.run, m.trace = "", nil
	}
}

// Load reads the run's trace (the controller keeps it) and shows it in every tab.
func (m *View) Load(run string) {
	a := m.a
	ui.LoadRun(m.host, &m.gen, run, func(ctx context.Context) (*calls.MethodTrace, error) { return a.Load(ctx, run) }, func(t *calls.MethodTrace) {
		if run != m.sel.run || t != m.trace {
			m.forgetSelection()
			m.sel.run, m.trace = run, t
			m.setChoices()
		}
		m.refresh()
	})
}

// setChoices offers the threads that have events and the clocks the trace has, keeping the
// choices made for the previous run where they still apply.
func (m *View) setChoices() {
	m.quiet = true
	defer func() { m.quiet = false }()
	p := m.trace.Profile
	m.threads = map[string]int{allThreads: 0}
	opts := []string{allThreads}
	keep := allThreads
	for _, th := range p.Threads {
		if th.Events == 0 {
			continue
		}
		o := controller.ThreadLabel(th)
		m.threads[o] = th.TID
		opts = append(opts, o)
		if th.TID == m.sel.tid {
			keep = o
		}
	}
	m.Thread.Options = opts
	m.Thread.SetSelected(keep)
	m.sel.tid = m.threads[keep]

	var clocks []string
	cpu, real := controller.ChartClocks(p.Clock)
	if cpu {
		clocks = append(clocks, clockCPU)
	}
	if real {
		clocks = append(clocks, clockReal)
	}
	m.Clock.Options = clocks
	want := clockReal
	if m.sel.cpu && slices.Contains(clocks, clockCPU) || !slices.Contains(clocks, clockReal) {
		want = clockCPU
	}
	m.Clock.SetSelected(want)
	m.sel.cpu = want == clockCPU
}

// chart is the selection's question for a chart grouped by by, drawn as kind until the user
// picks another kind in the chart's panel.
func (s methodSel) chart(by calls.MethodGrouping, kind chart.Kind) controller.MethodChartOptions {
	return controller.MethodChartOptions{Run: s.run, By: by, TID: s.tid, CPU: s.cpu, Kind: kind}
}

// refresh recomputes every tab for the selection; each tab works in the background.
func (m *View) refresh() {
	if m.trace == nil {
		return
	}
	m.Profile.recompute()
	m.Timeline.show()
	m.Hotspots.recompute()
	m.Packages.recompute()
	m.Compare.recompute()
	m.Flame.recompute()
	m.Diff.recompute()
}

// jump shows a method (or class, package: a row's key) in the Profile tab: from a parent or
// child, a hotspot bar or a call on the timeline.
func (m *View) jump(key string) {
	m.Tabs.SelectIndex(0)
	m.Profile.jump(key)
}

// jumpMethod shows a method in the Profile tab, grouping by method first if need be.
func (m *View) jumpMethod(key string) {
	if m.sel.by == calls.ByMethod {
		m.jump(key)
		return
	}
	m.Tabs.SelectIndex(0)
	m.Profile.pending = key
	m.Grouping.SetSelected(string(calls.ByMethod)) // recomputes, then selects pending
}
