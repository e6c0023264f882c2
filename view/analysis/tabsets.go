package analysis

import (
	"context"

	"fyne.io/fyne/v2"

	"androprof/model"
	"androprof/view/ui"
)

// tabSet is one of the window's sets of tabs and top bar; the kind of the selected run picks
// it, because what one kind of run is analysed with (profiles and processes, threads and
// clocks, cohorts and heaps) means nothing for another.
type tabSet int

const (
	emulatorTabs tabSet = iota
	methodTabs
	heapTabs
	dumpTabs
	samplesTabs
	tabSets // how many
)

// runKind is the kind of a listed run ("" when not listed).
func (v *View) runKind(name string) model.RunKind {
	for _, r := range v.Runs.runs {
		if r.Name == name {
			return r.Kind
		}
	}
	return ""
}

// RunsOfKind lists the runs of one kind (model.RunKindHeap, …), in the order shown.
func (v *View) RunsOfKind(kind model.RunKind) []string {
	var out []string
	for _, r := range v.Runs.runs {
		if r.Kind == kind {
			out = append(out, r.Name)
		}
	}
	return out
}

// tabSetOf is the tab set that analyses a kind of run.
func tabSetOf(kind model.RunKind) tabSet {
	switch kind {
	case model.RunKindMethods:
		return methodTabs
	case model.RunKindHeap:
		return heapTabs
	case model.RunKindHeapDump:
		return dumpTabs
	case model.RunKindSamples:
		return samplesTabs
	}
	return emulatorTabs
}

// route shows the tab set of the selected run and, unless it is an emulator run, loads the run
// into it; it reports whether it did, so the emulator computation is skipped.
func (v *View) route() bool {
	set := emulatorTabs
	if v.sel.run != "" {
		set = tabSetOf(v.runKind(v.sel.run))
	}
	v.showTabSet(set)
	switch set {
	case methodTabs:
		if v.ws.Methods == nil {
			v.setProblem("This session cannot read method traces.")
			return true
		}
		v.Methods.Load(v.sel.run)
	case heapTabs:
		if v.ws.Heap == nil {
			v.setProblem("This session cannot read heap logs.")
			return true
		}
		v.Heap.Open(v.sel.run)
	case dumpTabs:
		if v.ws.Heap == nil {
			v.setProblem("This session cannot read heap dumps.")
			return true
		}
		v.Dump.Open(v.sel.run)
	case samplesTabs:
		if v.ws.Samples == nil {
			v.setProblem("This session cannot read sampled runs.")
			return true
		}
		v.Samples.Open(v.sel.run)
	default:
		return false
	}
	return true
}

// showTabSet shows one tab set and its top bar, and hides the others.
func (v *View) showTabSet(set tabSet) {
	for s, objs := range v.tabSets {
		for _, o := range objs {
			if tabSet(s) == set {
				o.Show()
			} else {
				o.Hide()
			}
		}
	}
}

// forgetRun drops what the window and the controllers keep of a run (a method trace, a heap
// profile or dump) after it was imported again or deleted.
func (v *View) forgetRun(run string) {
	v.Methods.Forget(run)
	v.Heap.Forget(run)
	v.Dump.Forget(run)
	v.Samples.Forget(run)
}

// tabHost is the analysis window as the tabs of method and heap runs see it.
type tabHost struct{ v *View }

func (h tabHost) Window() fyne.Window             { return h.v.Window }
func (h tabHost) Background() *ui.Background      { return h.v.bg }
func (h tabHost) Context() context.Context        { return h.v.ctx }
func (h tabHost) SetProblem(msg string)           { h.v.setProblem(msg) }
func (h tabHost) RunsOfKind(kind model.RunKind) []string { return h.v.RunsOfKind(kind) }

// tabSetObjects are the tabs and the top bar of each tab set, in tabSet order.
type tabSetObjects = [tabSets][2]fyne.CanvasObject
