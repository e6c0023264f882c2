package view

import (
	"fyne.io/fyne/v2"

	"androprof/model"
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
	tabSets // how many
)

// runKind is the kind of a listed run ("" when not listed).
func (v *AnalysisView) runKind(name string) string {
	for _, r := range v.Runs.runs {
		if r.Name == name {
			return r.Kind
		}
	}
	return ""
}

// RunsOfKind lists the runs of one kind (model.RunKindHeap, …), in the order shown.
func (v *AnalysisView) RunsOfKind(kind string) []string {
	var out []string
	for _, r := range v.Runs.runs {
		if r.Kind == kind {
			out = append(out, r.Name)
		}
	}
	return out
}

// tabSetOf is the tab set that analyses a kind of run.
func tabSetOf(kind string) tabSet {
	switch kind {
	case MethodRunKind:
		return methodTabs
	case model.RunKindHeap:
		return heapTabs
	case model.RunKindHeapDump:
		return dumpTabs
	}
	return emulatorTabs
}

// route shows the tab set of the selected run and, unless it is an emulator run, loads the run
// into it; it reports whether it did, so the emulator computation is skipped.
func (v *AnalysisView) route() bool {
	set := emulatorTabs
	if v.sel.run != "" {
		set = tabSetOf(v.runKind(v.sel.run))
	}
	v.showTabSet(set)
	switch set {
	case methodTabs:
		if v.Methods.a == nil {
			v.setProblem("This session cannot read method traces.")
			return true
		}
		v.Methods.load(v.sel.run)
	case heapTabs:
		if v.Heap.a == nil {
			v.setProblem("This session cannot read heap logs.")
			return true
		}
		v.Heap.open(v.sel.run)
	case dumpTabs:
		if v.Dump.a == nil {
			v.setProblem("This session cannot read heap dumps.")
			return true
		}
		v.Dump.open(v.sel.run)
	default:
		return false
	}
	return true
}

// showTabSet shows one tab set and its top bar, and hides the others.
func (v *AnalysisView) showTabSet(set tabSet) {
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
func (v *AnalysisView) forgetRun(run string) {
	v.Methods.forget(run)
	v.Heap.forget(run)
	v.Dump.forget(run)
}

// tabSetObjects are the tabs and the top bar of each tab set, in tabSet order.
type tabSetObjects = [tabSets][2]fyne.CanvasObject
