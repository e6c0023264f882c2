package heap

import (
	"cmp"
	"context"
	"fmt"
	"slices"
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/widget"

	"androprof/controller"
	"androprof/internal/human"
	heapmodel "androprof/model/heap"
	"androprof/view/ui"
)

// instance is one row of a class's instances: the object and the heap its record is in.
type instance struct {
	heapmodel.DumpObject
	Heap string // "unknown" when the run's retention does not say
}

// instancesTab lists a class's reachable instances, chosen in Classes or Retained: largest
// retained first, sortable, found by part of their id; a tap opens one in the object view.
type instancesTab struct {
	Title *widget.Label // whose instances, and which are left out
	Find  *widget.Entry
	Table *ui.SortTable[instance]

	d       *DumpView
	class   string // the class shown, "" for none
	heap    string // the heap its instances are kept from, "" for every heap
	rows    []instance
	gen     int
	content fyne.CanvasObject
}

// chooseClassPrompt is what Instances says before a class is chosen.
const chooseClassPrompt = "Choose a class in Classes or Retained to list its instances."

func newInstancesTab(d *DumpView) *instancesTab {
	t := &instancesTab{d: d}
	t.Title = widget.NewLabel(chooseClassPrompt)
	t.Title.Wrapping = fyne.TextWrapWord
	t.Find = widget.NewEntry()
	t.Find.SetPlaceHolder("Find: part of an object id (0x…)")
	t.Find.OnChanged = func(string) { t.filter() }
	t.Table = ui.NewSortTable(d.host.Window(), "dump-instances", instanceColumns(), func(o instance) { d.showObject(o.Seq) })
	t.content = container.NewBorder(container.NewVBox(t.Title, t.Find), nil, nil, nil, t.Table.Content())
	return t
}

// instanceColumns are an instance's: its id, heap, sizes and its distance from a GC root.
func instanceColumns() []ui.Column[instance] {
	type row = instance
	return []ui.Column[row]{
		ui.TextCol("Object", 150, func(o row) string { return objectID(o.ID) }),
		ui.TextCol("Heap", 80, func(o row) string { return o.Heap }),
		ui.IntCol("Shallow", 90, func(o row) int64 { return int64(o.Shallow) }),
		ui.IntCol("Retained", 110, func(o row) int64 { return int64(o.Retained) }),
		ui.IntCol("Depth", 70, func(o row) int64 { return int64(o.Depth) }),
	}
}

// objectID writes a dump id as the command line and ahat do: 0x12f4a0.
func objectID(id uint64) string { return fmt.Sprintf("%#x", id) }

// forget clears the tab for another run.
func (t *instancesTab) forget() {
	t.gen++
	t.class, t.heap, t.rows = "", "", nil
	t.Title.SetText(chooseClassPrompt)
	t.Table.Set(nil)
}

// open lists the instances of the class named (every class of that name: class loaders can
// load one twice) in heap ("" for every heap).
func (t *instancesTab) open(class, heap string) {
	d := t.d
	t.gen++
	t.class, t.heap = class, heap
	t.Title.SetText("Listing the instances of " + class + "…")
	t.rows = nil
	t.Table.Set(nil)
	gen, run, a, ctx := t.gen, d.run, d.a, d.host.Context()
	d.host.Background().Run(func() func() {
		rows, known, err := classInstances(ctx, a, run, class, heap)
		if ctx.Err() != nil {
			return nil
		}
		return func() {
			if gen != t.gen {
				return
			}
			if err != nil {
				t.Title.SetText(ui.ProblemText("list the instances of", class, err))
				return
			}
			t.rows = rows
			t.Title.SetText(instancesTitle(class, heap, known, len(rows)))
			t.filter()
			relayout(t.content)
		}
	})
}

// classInstances are the reachable instances of every class named class, in heap ("" for
// any), largest retained first; known says whether the retention names each object's heap
// (when it does not, every heap's are listed).
func classInstances(ctx context.Context, a *controller.HeapDumps, run, class, heap string) (rows []instance, known bool, err error) {
	r, err := a.Retention(ctx, run)
	if err != nil {
		return nil, false, err
	}
	known = len(r.Objects.Heap) == r.Objects.Len() && len(r.Heaps) > 0
	for i, c := range r.Classes {
		if c.Name != class {
			continue
		}
		objs, err := a.Instances(ctx, run, int32(i))
		if err != nil {
			return nil, known, err
		}
		for _, o := range objs {
			h := controller.ObjectHeap(r, o.Seq)
			if heap == "" || !known || h == heap {
				rows = append(rows, instance{DumpObject: o, Heap: h})
			}
		}
	}
	slices.SortStableFunc(rows, func(a, b instance) int {
		return cmp.Or(cmp.Compare(b.Retained, a.Retained), cmp.Compare(a.ID, b.ID))
	})
	return rows, known, nil
}

// instancesTitle says whose instances the table lists, and which it leaves out.
func instancesTitle(class, heap string, known bool, n int) string {
	where := ""
	switch {
	case heap != "" && known:
		where = " in heap " + heap
	case heap != "":
		where = " in every heap (this run does not say which heap each object is in)"
	}
	return fmt.Sprintf("%s of %s%s, largest retained first. Only objects reachable from a GC root are listed; "+
		"the Summary counts the unreachable ones too. Click one to open it.", human.Count(n, "instance", "instances"), class, where)
}

// filter shows the instances whose id holds the text of Find, and how many of how many.
func (t *instancesTab) filter() {
	rows := t.rows
	text := strings.ToLower(strings.TrimSpace(t.Find.Text))
	if text != "" {
		rows = nil
		for _, o := range t.rows {
			if strings.Contains(objectID(o.ID), strings.TrimPrefix(text, "0x")) {
				rows = append(rows, o)
			}
		}
	}
	t.Table.Set(rows)
	t.Table.Count.SetText(fmt.Sprintf("%s of %s", human.Grouped(int64(len(rows))), human.Count(len(t.rows), "instance", "instances")))
}
