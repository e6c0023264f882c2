package heap

import (
	"fmt"
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/widget"

	"androprof/internal/human"
	heapmodel "androprof/model/heap"
	"androprof/view/ui"
)

// leaksTab lists the leak suspects the rules found (docs/heap-leaks.md), most retained first;
// the one chosen shows its leak trace, root first, the reference most likely wrong marked, and
// a tap on a step opens that object.
type leaksTab struct {
	Note     *widget.Label
	Suspects *ui.SortTable[heapmodel.LeakSuspect]
	TraceOf  *widget.Label
	Trace    *ui.SortTable[heapmodel.LeakStep]

	d       *DumpView
	run     string // whose suspects the tab shows or is finding, "" for none
	gen     int
	content fyne.CanvasObject
}

// chooseSuspectPrompt is what the trace says before a suspect is chosen.
const chooseSuspectPrompt = "Choose a suspect to see its leak trace: a GC root first, the leaking object last."

func newLeaksTab(d *DumpView) *leaksTab {
	t := &leaksTab{d: d}
	win := d.host.Window()
	t.Note = widget.NewLabel("")
	t.Note.Wrapping = fyne.TextWrapWord
	t.Suspects = ui.NewSortTable(win, "dump-leaks", suspectColumns(), t.showTrace)
	t.TraceOf = widget.NewLabel(chooseSuspectPrompt)
	t.TraceOf.Wrapping = fyne.TextWrapWord
	t.Trace = ui.NewSortTable(win, "dump-leak-trace", traceColumns(), func(s heapmodel.LeakStep) { d.showObject(s.Seq) })
	split := container.NewVSplit(t.Suspects.Content(), container.NewBorder(t.TraceOf, nil, nil, nil, t.Trace.Content()))
	split.Offset = 0.4
	t.content = container.NewBorder(t.Note, nil, nil, nil, split)
	return t
}

// suspectColumns are a suspect's: the rule that found it, its class and object, what it
// retains, and why the rule flagged it.
func suspectColumns() []ui.Column[heapmodel.LeakSuspect] {
	type row = heapmodel.LeakSuspect
	return []ui.Column[row]{
		ui.TextCol("Rule", 160, func(s row) string { return s.Rule }),
		ui.TextCol("Class", 220, func(s row) string { return s.Class }),
		ui.TextCol("Object", 110, func(s row) string { return objectID(s.Object.ID) }),
		ui.IntCol("Retained", 100, func(s row) int64 { return int64(s.Retained) }),
		ui.IntCol("Also", 60, func(s row) int64 { return int64(s.Also) }),
		ui.TextCol("Why", 300, func(s row) string { return s.Why }),
	}
}

// traceColumns are a trace step's: the reference to it (a suspect one marked » «, as Shark
// underlines it), whether the object leaks, the object (its class and id), what it retains and why it leaks or not.
func traceColumns() []ui.Column[heapmodel.LeakStep] {
	type row = heapmodel.LeakStep
	return []ui.Column[row]{
		ui.TextCol("Reference", 150, func(s row) string {
			if s.Suspect {
				return "» " + s.Field + " «"
			}
			return s.Field
		}),
		ui.TextCol("Leaking", 100, func(s row) string { return s.Leaking.String() }),
		ui.TextCol("Object", 280, func(s row) string { return objectName(s.DumpObject) }),
		ui.IntCol("Retained", 100, func(s row) int64 { return int64(s.Retained) }),
		ui.TextCol("Why", 240, func(s row) string { return s.Reason }),
	}
}

// forget drops the suspects shown: the rules run again when the tab is next shown.
func (t *leaksTab) forget() {
	t.gen++
	t.run = ""
	t.Note.SetText("")
	t.Suspects.Set(nil)
	t.clearTrace()
}

// shown runs the leak rules on the run shown unless they ran on it already: they decode the
// objects of the classes they look for, so they wait until the tab is first shown.
func (t *leaksTab) shown() {
	if t.run != t.d.run && t.d.dump != nil {
		t.recompute()
	}
}

// recompute runs the leak rules on the run shown, in the background.
func (t *leaksTab) recompute() {
	d := t.d
	t.gen++
	t.run = d.run
	t.Note.SetText("Looking for leak suspects in " + d.run + "…")
	t.Suspects.Set(nil)
	t.clearTrace()
	gen, run, a, ctx := t.gen, d.run, d.a, d.host.Context()
	d.host.Background().Run(func() func() {
		found, err := a.Leaks(ctx, run)
		if ctx.Err() != nil {
			return nil
		}
		return func() {
			if gen != t.gen {
				return
			}
			defer relayout(t.content) // the note's lines
			if err != nil {
				t.Note.SetText(ui.ProblemText("look for leak suspects in", run, err))
				return
			}
			t.Note.SetText(leaksNote(found))
			t.Suspects.Set(found)
		}
	})
}

// leaksNote says what the rules found, and what they look for when they found nothing.
func leaksNote(found []heapmodel.LeakSuspect) string {
	rules := "destroyed Activities, Fragments without a manager, Views detached from their window, and single objects holding much of the heap (docs/heap-leaks.md)"
	if len(found) == 0 {
		return "No leak suspect: the rules look for " + rules + "."
	}
	var retained uint64
	for _, s := range found {
		retained += s.Retained
	}
	return fmt.Sprintf("%s retaining %s (one object can be in two); the rules look for %s. Choose one for its leak trace.",
		human.Count(len(found), "suspect", "suspects"), human.Bytes(retained), rules)
}

func (t *leaksTab) clearTrace() {
	t.TraceOf.SetText(chooseSuspectPrompt)
	t.Trace.Set(nil)
}

// showTrace shows a suspect's leak trace, the suspect references marked.
func (t *leaksTab) showTrace(s heapmodel.LeakSuspect) {
	t.Trace.Set(s.Trace)
	var marked []string
	for _, st := range s.Trace {
		if st.Suspect {
			marked = append(marked, st.Field)
		}
	}
	mark := "no reference stands out"
	if len(marked) > 0 {
		mark = "the bug is one of the references marked » « (" + strings.Join(marked, ", ") + ")"
	}
	t.TraceOf.SetText(fmt.Sprintf("%s %s (%s): %s. Its trace: %s from a GC root; %s. Click a step to open it.", s.Class, objectID(s.Object.ID), s.Rule,
		s.Why, human.Count(max(len(s.Trace)-1, 0), "reference", "references"), mark))
	relayout(t.content)
}

// relayout lays a tab out again after a wrapped label in it changed its text, so its lines
// push what is below down at once (the desktop driver would on its next frame; a test's
// window would not).
func relayout(o fyne.CanvasObject) {
	if c, ok := o.(*fyne.Container); ok {
		c.Refresh()
	}
}
