package analysis

import (
	"context"
	"fmt"
	"maps"
	"strings"

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

// kindTabSets is the tab set that analyses each kind of run; a kind not listed (a run not
// listed, "") gets the emulator tabs, the zero tabSet.
var kindTabSets = map[model.RunKind]tabSet{
	model.RunKindEmulator: emulatorTabs,
	model.RunKindMethods:  methodTabs,
	model.RunKindHeap:     heapTabs,
	model.RunKindHeapDump: dumpTabs,
	model.RunKindSamples:  samplesTabs,
}

// kindLabels is what the runs list says of a run of each kind but emulator runs, whose
// processes and instructions it counts.
var kindLabels = map[model.RunKind]string{
	model.RunKindMethods:  "method trace",
	model.RunKindHeap:     "heap log",
	model.RunKindHeapDump: "heap dump",
	model.RunKindSamples:  "sampled profile",
}

// tabSetOf is the tab set that analyses a kind of run.
func tabSetOf(kind model.RunKind) tabSet { return kindTabSets[kind] }

// route shows the tab set of the selected run and, unless it is an emulator run, loads the run
// into it; it reports whether it did, so the emulator computation is skipped.
func (v *View) route() bool {
	kind := model.RunKindEmulator
	if v.sel.run != "" {
		kind = v.runKind(v.sel.run)
	}
	set := tabSetOf(kind)
	v.showTabSet(set)
	if set == emulatorTabs {
		return false
	}
	if v.ws.Service(kind) == nil {
		v.setProblem(fmt.Sprintf("This session cannot read %s.", model.RunKindText(kind)))
		return true
	}
	open := [tabSets]func(run string){methodTabs: v.Methods.Load, heapTabs: v.Heap.Open, dumpTabs: v.Dump.Open,
		samplesTabs: v.Samples.Open}
	open[set](v.sel.run)
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
	maps.DeleteFunc(v.unpriced, func(k string, _ bool) bool { return strings.HasPrefix(k, run+"\x00") })
}

// tabHost is the analysis window as the tabs of method and heap runs see it.
type tabHost struct{ v *View }

func (h tabHost) Window() fyne.Window                    { return h.v.Window }
func (h tabHost) Background() *ui.Background             { return h.v.bg }
func (h tabHost) Context() context.Context               { return h.v.ctx }
func (h tabHost) SetProblem(msg string)                  { h.v.setProblem(msg) }
func (h tabHost) RunsOfKind(kind model.RunKind) []string { return h.v.RunsOfKind(kind) }

// tabSetObjects are the tabs and the top bar of each tab set, in tabSet order.
type tabSetObjects = [tabSets][2]fyne.CanvasObject
