package heap

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/widget"

	"androprof/controller"
	"androprof/internal/human"
	"androprof/model"
	heapmodel "androprof/model/heap"
	"androprof/view/ui"
)

// treeChildren is how many of an object's dominated objects the tree lists, largest first:
// a big array can dominate a million; the rest are summed up in one row (moreUID).
const treeChildren = 200

// moreUID is the tree row that sums up the objects past treeChildren under the object of uid.
func moreUID(uid widget.TreeNodeID) widget.TreeNodeID { return "more:" + uid }

// retainedTab answers "what keeps this memory alive?": the classes by the bytes their
// instances retain, the dominator tree (largest retainers first, expand to what they
// dominate), and the shortest chain of references from a GC root to the object or class chosen.
type retainedTab struct {
	Note    *widget.Label // reachable bytes and how weak references count
	Classes *ui.SortTable[heapmodel.RetainedClass]
	Tree    *widget.Tree
	Path    *ui.SortTable[heapmodel.DumpObject]
	PathTo  *widget.Label  // whose path the table shows
	Open    *widget.Button // opens the object whose path is shown in the object view

	d       *DumpView
	r       *heapmodel.DumpRetention // of the run shown; nil until loaded
	shown   int32                    // the object whose path is shown, -1 for none
	note    string                   // what is reachable, for the note; the heap shown adds to it
	gen     int
	content fyne.CanvasObject
}

func newRetainedTab(d *DumpView) *retainedTab {
	t := &retainedTab{d: d, shown: -1}
	win := d.host.Window()
	t.Note = widget.NewLabel("")
	t.Note.Wrapping = fyne.TextWrapWord
	t.Classes = ui.NewSortTable(win, "dump-retained-classes", retainedColumns(func() uint64 { return t.reachable() }),
		func(c heapmodel.RetainedClass) { t.pathToClass(c); d.showInstances(c.Name, "") })
	t.Classes.SortBy(3) // Retained, largest first
	t.Path = ui.NewSortTable(win, "dump-path", pathColumns(), func(o heapmodel.DumpObject) { d.showObject(o.Seq) })
	t.PathTo = widget.NewLabel(choosePrompt)
	t.PathTo.Truncation = fyne.TextTruncateEllipsis
	t.Tree = widget.NewTree(t.childUIDs, t.isBranch, func(bool) fyne.CanvasObject {
		l := widget.NewLabel("")
		l.Truncation = fyne.TextTruncateEllipsis
		return l
	}, t.updateNode)
	t.Tree.OnSelected = func(uid widget.TreeNodeID) {
		if seq, err := strconv.Atoi(uid); err == nil {
			t.showPath(int32(seq))
		}
	}
	title := widget.NewLabel("Dominator tree: largest retainers first; expand to what each keeps alive")
	title.Truncation = fyne.TextTruncateEllipsis // its width would squeeze the runs list at 900 px
	tree := container.NewBorder(title, nil, nil, nil, t.Tree)
	t.Open = widget.NewButton("Open object", func() {
		if t.shown >= 0 {
			d.showObject(t.shown)
		}
	})
	t.Open.Disable()
	path := container.NewBorder(container.NewBorder(nil, nil, nil, t.Open, t.PathTo), nil, nil, nil, t.Path.Content())
	right := container.NewVSplit(tree, path)
	right.Offset = 0.6
	split := container.NewHSplit(t.Classes.Content(), right)
	split.Offset = 0.42
	t.content = container.NewBorder(t.Note, nil, nil, nil, split)
	return t
}

func (t *retainedTab) reachable() uint64 {
	if t.r == nil {
		return 0
	}
	return t.r.Reachable
}

// retainedColumns are the class table's: instances, their shallow bytes and what they retain.
func retainedColumns(reachable func() uint64) []ui.Column[heapmodel.RetainedClass] {
	type row = heapmodel.RetainedClass
	return []ui.Column[row]{
		ui.TextCol("Class", 260, func(r row) string { return r.Name }),
		ui.IntCol("Instances", 90, func(r row) int64 { return int64(r.Instances) }),
		ui.IntCol("Shallow", 100, func(r row) int64 { return int64(r.Shallow) }),
		ui.IntCol("Retained", 100, func(r row) int64 { return int64(r.Retained) }),
		ui.PctCol("Retained %", func(r row) float64 { return percent(r.Retained, reachable()) }),
	}
}

// pathColumns are a path's: each step's reference, the object and what it retains.
func pathColumns() []ui.Column[heapmodel.DumpObject] {
	type row = heapmodel.DumpObject
	return []ui.Column[row]{
		ui.IntCol("Depth", 60, func(o row) int64 { return int64(o.Depth) }),
		ui.TextCol("Reference", 140, func(o row) string { return o.Field }),
		ui.TextCol("Object", 130, func(o row) string { return fmt.Sprintf("%#x", o.ID) }),
		ui.TextCol("Class", 240, func(o row) string { return o.ClassOf }),
		ui.IntCol("Shallow", 80, func(o row) int64 { return int64(o.Shallow) }),
		ui.IntCol("Retained", 100, func(o row) int64 { return int64(o.Retained) }),
	}
}

func percent(part, whole uint64) float64 {
	if whole == 0 {
		return 0
	}
	return 100 * float64(part) / float64(whole)
}

// choosePrompt is what the path's header says before an object or class is chosen.
const choosePrompt = "Choose an object in the tree, or a class, to see what keeps it alive."

// recompute loads the run's retention in the background (it can be tens of MB). Nothing of
// the dump shown before stays while it loads: not its classes, tree or path.
func (t *retainedTab) recompute() {
	d := t.d
	t.gen++
	t.show(nil, "Loading what keeps "+d.run+"'s memory alive…")
	gen, run, a, ctx := t.gen, d.run, d.a, d.host.Context()
	var dumped uint64 // the dump's instances and arrays, reachable or not
	if d.dump != nil {
		dumped = d.dump.Characteristics().Objects
	}
	d.host.Background().Run(func() func() {
		r, err := a.Retention(ctx, run)
		if err == nil {
			r.Dominated(-1, 1) // builds the tree's index here, not on the UI goroutine
		}
		return func() {
			if gen != t.gen {
				return
			}
			if err != nil {
				t.show(nil, ui.ProblemText("show what keeps", run+"'s memory alive", err))
				return
			}
			t.note = retainedNote(r, dumped)
			t.show(r, t.note)
		}
	})
}

// show puts a retention (nil: none) in every part of the tab, nothing chosen yet.
func (t *retainedTab) show(r *heapmodel.DumpRetention, note string) {
	t.r = r
	t.Note.SetText(note)
	t.showClasses()
	t.Tree.UnselectAll()
	t.Tree.CloseAllBranches()
	t.Tree.Refresh()
	t.PathTo.SetText(choosePrompt)
	t.Path.Set(nil)
	t.shown = -1
	t.Open.Disable()
}

// showClasses puts the classes of the heap Heap shows in the table: every heap's when it shows
// all, else the instances in that heap and what they keep alive (DumpRetention.ClassesInHeap).
// The dominator tree and paths stay the whole dump's: an app object can keep the system's alive.
func (t *retainedTab) showClasses() {
	r, heap := t.r, t.d.heap
	if r == nil {
		t.Classes.Set(nil)
		return
	}
	if heap == "" {
		t.Classes.Set(r.Classes)
		t.Note.SetText(t.note)
		return
	}
	rows, ok := r.ClassesInHeap(slices.Index(r.Heaps, heap))
	if !ok {
		t.Classes.Set(r.Classes)
		t.Note.SetText(t.note + " Classes are every heap's: this dump was imported before heaps were kept per object (import it again for heap " + heap + " alone).")
		return
	}
	t.Classes.Set(rows)
	t.Note.SetText(t.note + " Classes: the reachable instances in heap " + heap + " and what they keep alive, in any heap; the tree and paths are the whole dump's.")
}

// retainedNote says how much is reachable in how many objects: the dump's instances and arrays
// (dumped, which the Summary counts, reachable or not) and class objects, which it does not.
func retainedNote(r *heapmodel.DumpRetention, dumped uint64) string {
	weak := "weak, soft, phantom and finalizer references retain nothing (import with --weak-retains to count them)"
	if r.Weak {
		weak = "weak, soft, phantom and finalizer references retain their referents"
	}
	classes := r.ClassObjects()
	return fmt.Sprintf("%s reachable from the GC roots in %s: %s of the dump's %s instances and arrays, and %s; %s.",
		human.Bytes(r.Reachable), human.Count(r.Objects.Len(), "object", "objects"), human.Grouped(int64(r.Objects.Len()-classes)),
		human.Grouped(int64(dumped)), human.Count(classes, "class object", "class objects"), weak)
}

func (t *retainedTab) childUIDs(uid widget.TreeNodeID) []widget.TreeNodeID {
	if t.r == nil {
		return nil
	}
	seq := int32(-1)
	if uid != "" {
		n, err := strconv.Atoi(uid)
		if err != nil {
			return nil
		}
		seq = int32(n)
	}
	kids := t.r.Dominated(seq, treeChildren)
	out := make([]widget.TreeNodeID, len(kids), len(kids)+1)
	for i, o := range kids {
		out[i] = strconv.Itoa(int(o.Seq))
	}
	if n, _ := t.r.DominatedAfter(seq, treeChildren); n > 0 {
		out = append(out, moreUID(uid))
	}
	return out
}

func (t *retainedTab) isBranch(uid widget.TreeNodeID) bool {
	if uid == "" {
		return true
	}
	n, err := strconv.Atoi(uid)
	return err == nil && t.r != nil && n < t.r.Objects.Len() && t.r.HasDominated(int32(n))
}

func (t *retainedTab) updateNode(uid widget.TreeNodeID, _ bool, o fyne.CanvasObject) {
	if parent, ok := strings.CutPrefix(uid, "more:"); ok && t.r != nil {
		seq := int32(-1)
		if p, err := strconv.Atoi(parent); err == nil {
			seq = int32(p)
		}
		n, retained := t.r.DominatedAfter(seq, treeChildren)
		o.(*widget.Label).SetText(fmt.Sprintf("… %s more, retaining %s together", human.Count(n, "object", "objects"), human.Bytes(retained)))
		return
	}
	n, err := strconv.Atoi(uid)
	if err != nil || t.r == nil || n >= t.r.Objects.Len() {
		return
	}
	obj := t.r.Object(int32(n))
	o.(*widget.Label).SetText(fmt.Sprintf("%s %#x · retains %s (%.1f%%)", obj.ClassOf, obj.ID, human.Bytes(obj.Retained),
		percent(obj.Retained, t.r.Reachable)))
}

// pathToClass shows the path to the class's instance nearest a GC root, found as
// `androprof report --path-to CLASS` finds it.
func (t *retainedTab) pathToClass(c heapmodel.RetainedClass) {
	if t.r == nil {
		return
	}
	if o, err := controller.FindDumpObject(t.r, t.d.run, c.Name); err == nil {
		t.showPath(o.Seq)
		return
	}
	t.PathTo.SetText(fmt.Sprintf("No instance of %s is reachable from a GC root.", c.Name))
	t.Path.Set(nil)
	t.shown = -1
	t.Open.Disable()
}

// showPath shows the shortest chain of references from a GC root to an object.
func (t *retainedTab) showPath(seq int32) {
	if t.r == nil || int(seq) >= t.r.Objects.Len() {
		return
	}
	chain := t.r.Path(seq)
	o := chain[len(chain)-1]
	t.PathTo.SetText(fmt.Sprintf("%s %#x is alive through %s from a GC root (%s):", o.ClassOf, o.ID,
		human.Count(len(chain)-1, "reference", "references"), chain[0].Field))
	t.Path.Set(chain)
	t.shown = seq
	t.Open.Enable()
}

// dumpCompareTab puts another dump of the same program (before) beside the one shown (after),
// class by class, the classes that grew most first: the leak hunter's view.
type dumpCompareTab struct {
	Before  *widget.Select
	Hint    *widget.Label
	Warning *widget.Label // shown when the two dumps look like different programs
	Table   *ui.SortTable[heapmodel.DumpDiffRow]

	d       *DumpView
	gen     int
	content fyne.CanvasObject
}

func newDumpCompareTab(d *DumpView) *dumpCompareTab {
	t := &dumpCompareTab{d: d}
	t.Before = widget.NewSelect(nil, func(string) { t.recompute() })
	t.Before.PlaceHolder = "(choose an earlier dump)"
	t.Hint = widget.NewLabel("")
	t.Hint.Wrapping = fyne.TextWrapWord
	t.Warning = widget.NewLabel("")
	t.Warning.Wrapping = fyne.TextWrapWord
	t.Warning.Importance = widget.WarningImportance
	t.Warning.Hide()
	t.Table = ui.NewSortTable(d.host.Window(), "dump-diff", diffColumns(), nil)
	bar := container.NewBorder(nil, nil, container.NewHBox(widget.NewLabel("Compare with"),
		container.NewGridWrap(fyne.NewSize(260, t.Before.MinSize().Height), t.Before)), nil, t.Hint)
	t.content = container.NewBorder(container.NewVBox(bar, t.Warning), nil, nil, nil, t.Table.Content())
	return t
}

func diffColumns() []ui.Column[heapmodel.DumpDiffRow] {
	type row = heapmodel.DumpDiffRow
	growth := func(pick func(i, s, r int64) int64) func(row) int64 {
		return func(r row) int64 { i, s, rt := r.Growth(); return pick(i, s, rt) }
	}
	return []ui.Column[row]{
		ui.TextCol("Class", 280, func(r row) string { return r.Name }),
		ui.IntCol("Instances", 90, func(r row) int64 { return int64(r.B.Instances) }),
		ui.IntCol("+/- instances", 110, growth(func(i, _, _ int64) int64 { return i })),
		ui.IntCol("Shallow", 100, func(r row) int64 { return int64(r.B.Shallow) }),
		ui.IntCol("+/- shallow", 110, growth(func(_, s, _ int64) int64 { return s })),
		ui.IntCol("Retained", 100, func(r row) int64 { return int64(r.B.Retained) }),
		ui.IntCol("+/- retained", 110, growth(func(_, _, r int64) int64 { return r })),
	}
}

// recompute offers the other dump runs and compares with the one chosen.
func (t *dumpCompareTab) recompute() {
	d := t.d
	var others []string
	for _, r := range d.host.RunsOfKind(model.RunKindHeapDump) {
		if r != d.run {
			others = append(others, r)
		}
	}
	t.Before.Options = others
	t.Before.Refresh()
	t.gen++
	t.show(heapmodel.DumpDiff{})
	before := t.Before.Selected
	if !slices.Contains(others, before) {
		t.Hint.SetText("Choose an earlier dump of the same program: the classes that grew most come first.")
		if len(others) == 0 {
			t.Hint.SetText("Import a second heap dump of the same program to see what grew.")
		}
		return
	}
	t.Hint.SetText(fmt.Sprintf("From %s to %s: counts are %s's, +/- what changed.", before, d.run, d.run))
	gen, run, a, ctx := t.gen, d.run, d.a, d.host.Context()
	d.host.Background().Run(func() func() {
		diff, err := a.Diff(ctx, before, run)
		return func() {
			if gen != t.gen {
				return
			}
			if err != nil {
				t.Hint.SetText(ui.ProblemText("compare with", before, err))
				diff = heapmodel.DumpDiff{}
			}
			t.show(diff)
		}
	})
}

// show puts a comparison in the table: how many classes changed of how many (the unchanged are
// left out), and a warning when the two dumps look like different programs.
func (t *dumpCompareTab) show(diff heapmodel.DumpDiff) {
	t.Table.Set(diff.Rows)
	if diff.Classes > 0 {
		t.Table.Count.SetText(fmt.Sprintf("%s of %s classes changed (the unchanged left out)",
			human.Grouped(int64(len(diff.Rows))), human.Grouped(int64(diff.Classes))))
	}
	if w := diff.Unrelated(); w != "" {
		t.Warning.SetText("Warning: " + w + ".")
		t.Warning.Show()
	} else {
		t.Warning.Hide()
	}
}
