package heap

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"

	"androprof/controller"
	"androprof/internal/human"
	"androprof/internal/viewtest"
	"androprof/model"
	heapmodel "androprof/model/heap"
)

// realDump is the heap workspace's real Android dump (viewtest.CorpusDump): the synthetic
// one's instances are all unreachable, so it has no object level to show.
const realDump = "dialer"

// openRealDump opens the dump tabs on realDump; it skips the test when ../shared/corpus is absent.
func openRealDump(t *testing.T) (*heapWindow, *controller.Workspace) {
	t.Helper()
	v, ws := openHeap(t)
	if !slices.Contains(v.RunsOfKind(model.RunKindHeapDump), realDump) {
		t.Skip(viewtest.CorpusDump + " is absent: the synthetic dump has no reachable instance")
	}
	v.SelectRun(realDump)
	v.Wait()
	return v, ws
}

// wantInstances are a class's reachable instances in heap as the controller lists them, each
// heap's apart when the retention says which heap an object is in.
func wantInstances(t *testing.T, ws *controller.Workspace, class, heap string) []int32 {
	t.Helper()
	ctx := context.Background()
	r, err := ws.HeapDumps.Retention(ctx, realDump)
	viewtest.Must(t, err)
	known := len(r.Objects.Heap) == r.Objects.Len() && len(r.Heaps) > 0
	var out []int32
	for i, c := range r.Classes {
		if c.Name != class {
			continue
		}
		objs, err := ws.HeapDumps.Instances(ctx, realDump, int32(i))
		viewtest.Must(t, err)
		for _, o := range objs {
			if heap == "" || !known || r.Heaps[r.Objects.Heap[o.Seq]] == heap {
				out = append(out, o.Seq)
			}
		}
	}
	return out
}

func seqsOf(rows []instance) []int32 {
	out := make([]int32, len(rows))
	for i, o := range rows {
		out[i] = o.Seq
	}
	return out
}

// A tap on a class in Classes lists its instances in the heap of its row, largest retained
// first; the find box keeps the ids that hold its text and says how many of how many; a tap
// on a class in Retained lists its instances in every heap.
func TestClassRowOpensItsInstances(t *testing.T) {
	v, ws := openRealDump(t)
	d := v.Dump
	rows := d.Classes.Table.Rows()
	i := slices.IndexFunc(rows, func(r heapmodel.DumpRow) bool { return len(wantInstances(t, ws, r.Name, r.Heap)) > 3 })
	if i < 0 {
		t.Fatal("no class of the synthetic dump has more than three reachable instances")
	}
	row := rows[i]
	d.Classes.Table.Select(i)
	v.Wait()
	it := d.Instances
	want := wantInstances(t, ws, row.Name, row.Heap)
	got := seqsOf(it.Table.Rows())
	if d.Tabs.Selected().Text != TabInstances || !slices.Equal(sorted(got), sorted(want)) {
		t.Fatalf("class %s in heap %q: tab %q, %d instances, want %d", row.Name, row.Heap, d.Tabs.Selected().Text, len(got), len(want))
	}
	for j := 1; j < len(it.Table.Rows()); j++ {
		if a, b := it.Table.Rows()[j-1], it.Table.Rows()[j]; a.Retained < b.Retained {
			t.Fatalf("instance %d retains %d, more than the one before (%d)", j, b.Retained, a.Retained)
		}
	}
	n := human.Grouped(int64(len(want)))
	if !strings.Contains(it.Title.Text, row.Name) || !strings.HasPrefix(it.Table.Count.Text, n+" of "+n) {
		t.Errorf("title %q, count %q", it.Title.Text, it.Table.Count.Text)
	}
	first := it.Table.Rows()[0]
	id := objectID(first.ID)
	test.Type(it.Find, id[2:])
	if rows := it.Table.Rows(); len(rows) == 0 || len(rows) > len(want) || !strings.HasSuffix(it.Table.Count.Text, "of "+human.Count(len(want), "instance", "instances")) {
		t.Errorf("find %s: %d rows, count %q", id, len(rows), it.Table.Count.Text)
	}
	for _, o := range it.Table.Rows() {
		if !strings.Contains(objectID(o.ID), id[2:]) {
			t.Errorf("find %s keeps %s", id, objectID(o.ID))
		}
	}
	it.Find.SetText("")
	it.Table.SortBy(viewtest.ColIndex(it.Table, "Shallow"))
	if r := it.Table.Rows(); r[0].Shallow < r[len(r)-1].Shallow {
		t.Error("Shallow does not sort largest first")
	}

	rt := d.Retained
	j := slices.IndexFunc(rt.Classes.Rows(), func(c heapmodel.RetainedClass) bool { return c.Name == row.Name })
	rt.Classes.Select(j)
	v.Wait()
	if all := wantInstances(t, ws, row.Name, ""); d.Tabs.Selected().Text != TabInstances || !slices.Equal(sorted(seqsOf(it.Table.Rows())), sorted(all)) {
		t.Errorf("Retained's %s: %d instances, want every heap's %d", row.Name, len(it.Table.Rows()), len(all))
	}
}

func sorted(s []int32) []int32 {
	s = slices.Clone(s)
	slices.Sort(s)
	return s
}

// An instance tapped opens in the object view: its class, id and sizes, its dominator and
// its path from a GC root. A reference (a field, a step of the path, the dominator) opens
// that object; Back and Alt+Left return, Forward and Alt+Right go again.
func TestObjectViewNavigatesAndGoesBack(t *testing.T) {
	v, ws := openRealDump(t)
	d := v.Dump
	r, err := ws.HeapDumps.Retention(context.Background(), realDump)
	viewtest.Must(t, err)
	// The deepest instance of the largest class: a path of a few steps.
	d.Retained.Classes.Select(0)
	v.Wait()
	rows := d.Instances.Table.Rows()
	k := 0
	for i, o := range rows {
		if o.Depth > rows[k].Depth {
			k = i
		}
	}
	d.Instances.Table.Select(k)
	v.Wait()
	o := d.Object
	start := rows[k].Seq
	if d.Tabs.Selected().Text != TabObject || o.seq != start || !strings.Contains(o.Title.Text, objectID(rows[k].ID)) ||
		!strings.Contains(o.Title.Text, human.Bytes(rows[k].Retained)) {
		t.Fatalf("tab %q shows %d, want %d: %q", d.Tabs.Selected().Text, o.seq, start, o.Title.Text)
	}
	path := o.Path.Rows()
	if want := r.Path(start); len(path) != len(want) || path[len(path)-1].Seq != start || len(path) < 2 {
		t.Fatalf("path of %d steps, want %d ending with %d", len(path), len(want), start)
	}
	if o.Back.Disabled() == false || o.Forward.Disabled() == false {
		t.Error("Back or Forward enabled on the first object visited")
	}
	// A field that refers to a reachable object, when the object store reads fields; the
	// path's step before otherwise.
	next := path[len(path)-2].Seq
	if f := slices.IndexFunc(o.Fields.Rows(), func(f heapmodel.FieldValue) bool { return f.Ref >= 0 }); f >= 0 {
		next = o.Fields.Rows()[f].Ref
		o.Fields.Select(f)
	} else {
		if _, err := ws.HeapDumps.Object(context.Background(), realDump, start); err == nil {
			t.Log("the object has no reference to a reachable object: the path is followed instead")
		} else if !o.Note.Visible() || !strings.Contains(o.Note.Text, err.Error()) {
			t.Errorf("the object view does not say why it has no fields (%v): %q", err, o.Note.Text)
		}
		o.Path.Select(len(path) - 2)
	}
	v.Wait()
	if o.seq != next || o.Back.Disabled() {
		t.Fatalf("after the reference: shows %d, want %d (Back disabled %v)", o.seq, next, o.Back.Disabled())
	}
	test.Tap(o.Back)
	v.Wait()
	if o.seq != start || o.Forward.Disabled() || !o.Back.Disabled() {
		t.Fatalf("Back shows %d, want %d", o.seq, start)
	}
	viewtest.PressShortcut(t, v.Window(), fyne.KeyRight, fyne.KeyModifierAlt)
	v.Wait()
	if o.seq != next {
		t.Errorf("Alt+Right shows %d, want %d", o.seq, next)
	}
	viewtest.PressShortcut(t, v.Window(), fyne.KeyLeft, fyne.KeyModifierAlt)
	v.Wait()
	if o.seq != start {
		t.Errorf("Alt+Left shows %d, want %d", o.seq, start)
	}
	// The dominator opens, and drops the objects ahead.
	if idom := r.Objects.Idom[start]; idom >= 0 {
		test.Tap(o.Dominator)
		v.Wait()
		if o.seq != idom || !o.Forward.Disabled() {
			t.Errorf("the dominator button opens %d, want %d; Forward disabled %v", o.seq, idom, o.Forward.Disabled())
		}
	}
	// Back from another run, the same object; the dump imported again, nothing.
	seen, shown := len(o.visited), o.seq
	v.SelectRun(viewtest.HeapRun)
	v.Wait()
	v.SelectRun(realDump)
	v.Wait()
	if o.seq != shown || len(o.visited) != seen {
		t.Errorf("back on the dump: shows %d of %d visited, want %d of %d", o.seq, len(o.visited), shown, seen)
	}
	d.Forget(realDump)
	v.SelectRun(realDump)
	v.Wait()
	if o.seq != -1 || len(o.visited) != 0 || !o.Back.Disabled() {
		t.Errorf("the dump imported again: shows %d, %d visited", o.seq, len(o.visited))
	}
}

// The Retained tab's tree opens the object chosen in it, and a step of its path opens that
// step's object.
func TestRetainedOpensTheObjectView(t *testing.T) {
	v, _ := openRealDump(t)
	d := v.Dump
	rt := d.Retained
	if !rt.Open.Disabled() {
		t.Error("Open object enabled with nothing chosen")
	}
	top := rt.childUIDs("")
	rt.Tree.Select(top[0])
	test.Tap(rt.Open)
	v.Wait()
	if d.Tabs.Selected().Text != TabObject || d.Object.seq != rt.shown || rt.shown < 0 {
		t.Fatalf("Open object: tab %q shows %d, want %d", d.Tabs.Selected().Text, d.Object.seq, rt.shown)
	}
	rt.Path.Select(0)
	v.Wait()
	if root := rt.Path.Rows()[0]; d.Object.seq != root.Seq {
		t.Errorf("a tap on the path's root shows %d, want %d", d.Object.seq, root.Seq)
	}
}

// The Leaks tab lists what the leak rules find, or says in words why it cannot; a suspect
// chosen shows its trace, and a step of it opens in the object view.
func TestLeaksTabShowsTraces(t *testing.T) {
	v, ws := openRealDump(t)
	d := v.Dump
	l := d.Leaks
	if len(l.Suspects.Rows()) != 0 || l.run != "" {
		t.Errorf("the leak rules ran before the tab was shown: %d suspects", len(l.Suspects.Rows()))
	}
	d.selectTab(TabLeaks)
	v.Wait()
	found, err := ws.HeapDumps.Leaks(context.Background(), realDump)
	if err != nil {
		if !strings.Contains(l.Note.Text, err.Error()) || len(l.Suspects.Rows()) != 0 {
			t.Errorf("leaks failed with %v; the tab says %q over %d rows", err, l.Note.Text, len(l.Suspects.Rows()))
		}
		return
	}
	if len(l.Suspects.Rows()) != len(found) {
		t.Fatalf("%d suspects shown, the rules found %d", len(l.Suspects.Rows()), len(found))
	}
	if len(found) == 0 {
		if !strings.HasPrefix(l.Note.Text, "No leak suspect") {
			t.Errorf("no suspect, and the note says %q", l.Note.Text)
		}
		return
	}
	l.Suspects.Select(0)
	s := l.Suspects.Rows()[0]
	if len(l.Trace.Rows()) != len(s.Trace) || !strings.Contains(l.TraceOf.Text, s.Class) {
		t.Fatalf("trace of %d steps, want %d: %q", len(l.Trace.Rows()), len(s.Trace), l.TraceOf.Text)
	}
	for i, st := range s.Trace {
		if marked := strings.HasPrefix(l.Trace.Cell(i, 0), "» "); marked != st.Suspect {
			t.Errorf("step %d (%s) marked %v, suspect %v", i, st.Field, marked, st.Suspect)
		}
	}
	last := len(s.Trace) - 1
	l.Trace.Select(last)
	v.Wait()
	if d.Object.seq != s.Trace[last].Seq || d.Tabs.Selected().Text != TabObject {
		t.Errorf("the leaking object's step opens %d, want %d", d.Object.seq, s.Trace[last].Seq)
	}
}

// An Android dump opens on its app heap and says so beside the chooser; the Summary's
// numbers say the heap they are for; a heap chosen stays chosen for that run.
func TestDumpOpensOnTheAppHeap(t *testing.T) {
	v, ws := openHeapWithSecondDump(t)
	d := v.Dump
	dump, err := ws.HeapDumps.Dump(context.Background(), viewtest.DumpRun)
	viewtest.Must(t, err)
	if d.Heap.Selected != "app" || d.heap != "app" || len(d.Classes.Table.Rows()) != len(dump.DumpRows("app", false)) {
		t.Fatalf("opened on %q with %d class rows", d.Heap.Selected, len(d.Classes.Table.Rows()))
	}
	if !strings.Contains(d.HeapNote.Text, "Heap app shown") || !strings.Contains(d.HeapNote.Text, "one click away") {
		t.Errorf("heap note %q", d.HeapNote.Text)
	}
	in, ar := heapCounts(dump, "app")
	if got := viewtest.Fact(d.Summary, "Objects"); !strings.HasPrefix(got, human.Grouped(int64(in.Objects+ar.Objects))+" objects") ||
		!strings.Contains(got, "in heap app") || viewtest.Fact(d.Summary, "Objects, all heaps") == "" {
		t.Errorf("summary objects %q", got)
	}
	if !strings.Contains(d.Retained.Note.Text, "whole dump's") {
		t.Errorf("the Retained note does not say it is the whole dump's: %q", d.Retained.Note.Text)
	}
	d.Heap.SetSelected(allHeaps)
	v.Wait()
	v.SelectRun(secondDump)
	v.Wait()
	if d.Heap.Selected != "app" {
		t.Errorf("another dump opens on %q", d.Heap.Selected)
	}
	v.SelectRun(viewtest.DumpRun)
	v.Wait()
	if d.Heap.Selected != allHeaps || !strings.HasPrefix(d.HeapNote.Text, "Every heap shown") ||
		len(d.Classes.Table.Rows()) != len(dump.DumpRows("", false)) {
		t.Errorf("back on the dump chosen for all heaps: %q, %q", d.Heap.Selected, d.HeapNote.Text)
	}
}

// The object-level tabs, filled, fit a 900×600 and a 1366×768 window: every control reachable
// and none covered.
func TestObjectTabsFitTheWindow(t *testing.T) {
	v, _ := openRealDump(t)
	d := v.Dump
	d.Retained.Classes.Select(0)
	v.Wait()
	d.Instances.Table.Select(0)
	v.Wait()
	for _, size := range []fyne.Size{{Width: 900, Height: 600}, {Width: 1366, Height: 768}} {
		for _, tab := range []string{TabInstances, TabObject, TabLeaks} {
			d.selectTab(tab)
			v.Wait() // Leaks runs its rules when first shown; the window lays their note out again
			v.Resize(size)
			t.Run(fmt.Sprintf("%s at %gx%g", tab, size.Width, size.Height), func(t *testing.T) {
				viewtest.CheckReachable(t, v.Window())
			})
		}
	}
}

// A String shows its text, quoted as Java writes it, and its fields as the object store reads
// them; its char[] (or byte[]) is an array: its length and the elements shown.
func TestObjectViewShowsTextAndArrays(t *testing.T) {
	v, ws := openRealDump(t)
	d := v.Dump
	ctx := context.Background()
	rt := d.Retained
	i := slices.IndexFunc(rt.Classes.Rows(), func(c heapmodel.RetainedClass) bool { return c.Name == "java.lang.String" })
	if i < 0 {
		t.Fatal("no java.lang.String in " + realDump)
	}
	rt.Classes.Select(i)
	v.Wait()
	d.Instances.Table.Select(0)
	v.Wait()
	o := d.Object
	x, err := ws.HeapDumps.Object(ctx, realDump, o.seq)
	if err != nil {
		if !strings.Contains(o.Note.Text, err.Error()) || len(o.Fields.Rows()) != 0 {
			t.Errorf("Object failed with %v; the view says %q over %d fields", err, o.Note.Text, len(o.Fields.Rows()))
		}
		return
	}
	if !x.TextKnown || !o.text.Visible() || o.Text.Text != "Text: "+quoteText(x.Text) {
		t.Errorf("the String's text %q (known %v) is shown as %q (visible %v)", x.Text, x.TextKnown, o.Text.Text, o.text.Visible())
	}
	if len(o.Fields.Rows()) != len(x.Fields) || o.Fields.Count.Text != human.Count(len(x.Fields), "field", "fields") {
		t.Errorf("%d fields shown (%q), the object store reads %d", len(o.Fields.Rows()), o.Fields.Count.Text, len(x.Fields))
	}
	for j, f := range x.Fields {
		if o.Fields.Cell(j, 2) != fieldValue(f) || !strings.HasPrefix(fieldValue(f), f.Value) {
			t.Errorf("field %s shows %q, its value is %q", f.Name, o.Fields.Cell(j, 2), f.Value)
		}
	}
	f := slices.IndexFunc(x.Fields, func(f heapmodel.FieldValue) bool { return f.Ref >= 0 && strings.HasSuffix(f.Value, "[]") })
	if f < 0 {
		t.Skip("this String holds no array it can open")
	}
	o.Fields.Select(f)
	v.Wait()
	arr, err := ws.HeapDumps.Object(ctx, realDump, o.seq)
	viewtest.Must(t, err)
	want := "length " + human.Grouped(int64(arr.Length)) + ", " + human.Grouped(int64(len(arr.Elements))) + " shown"
	if arr.Kind != heapmodel.KindPrimitiveArray || o.Fields.Count.Text != want || len(o.Fields.Rows()) != len(arr.Elements) {
		t.Errorf("the String's %s: %q over %d rows, want %q", x.Fields[f].Value, o.Fields.Count.Text, len(o.Fields.Rows()), want)
	}
}

// Retained follows Heap: the app heap's classes (DumpRetention.ClassesInHeap) when the dump
// opens on it, every heap's when All heaps is chosen.
func TestRetainedClassesFollowTheHeap(t *testing.T) {
	v, ws := openRealDump(t)
	d := v.Dump
	r, err := ws.HeapDumps.Retention(context.Background(), realDump)
	viewtest.Must(t, err)
	want, ok := r.ClassesInHeap(slices.Index(r.Heaps, "app"))
	if d.heap != "app" || !ok || len(want) == 0 {
		t.Fatalf("opened on %q; %d app classes (%v)", d.heap, len(want), ok)
	}
	if got := d.Retained.Classes.Rows(); len(got) != len(want) || !strings.Contains(d.Retained.Note.Text, "in heap app") {
		t.Errorf("app heap: %d class rows, want %d; note %q", len(got), len(want), d.Retained.Note.Text)
	}
	d.Heap.SetSelected(allHeaps)
	v.Wait()
	if got := d.Retained.Classes.Rows(); len(got) != len(r.Classes) || strings.Contains(d.Retained.Note.Text, "in heap app") {
		t.Errorf("all heaps: %d class rows, want %d; note %q", len(got), len(r.Classes), d.Retained.Note.Text)
	}
}
