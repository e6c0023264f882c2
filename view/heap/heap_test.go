package heap

import (
	"context"
	"fmt"
	"image/png"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/widget"

	"androprof/chart"
	"androprof/controller"
	"androprof/internal/human"
	"androprof/internal/viewtest"
	"androprof/model"
	heapmodel "androprof/model/heap"
	"androprof/view/ui"
)

// heapWindow is a window showing the heap tabs or the dump tabs, as the analysis window does
// while a heap log or a heap dump is selected.
type heapWindow struct {
	*viewtest.Host
	Heap *View
	Dump *DumpView
}

// SelectRun shows a run, as choosing it in the analysis window does: a heap log in the heap tabs,
// a dump in the dump tabs; another kind of run leaves both as they are.
func (w *heapWindow) SelectRun(run string) {
	w.MoveOn()
	switch {
	case slices.Contains(w.RunsOfKind(model.RunKindHeap), run):
		w.Show(w.Heap.Bar, w.Heap.Tabs)
		w.Heap.Open(run)
	case slices.Contains(w.RunsOfKind(model.RunKindHeapDump), run):
		w.Show(w.Dump.Bar, w.Dump.Tabs)
		w.Dump.Open(run)
	}
}

// openHeap opens the heap tabs on a copy of HeapWorkspace with the heap run selected.
func openHeap(t *testing.T) (*heapWindow, *controller.Workspace) {
	t.Helper()
	path, _, _ := viewtest.HeapWorkspace(t)
	db := viewtest.OpenDB(t, path)
	ws := controller.NewWorkspace(db)
	h := viewtest.NewHost(t, ws)
	v := &heapWindow{Host: h, Heap: New(h, ws.HeapLogs), Dump: NewDump(h, ws.HeapDumps)}
	v.SelectRun(viewtest.HeapRun)
	v.Wait()
	return v, ws
}

// loaded is a run's profile as the controller gives it, for the expected values.
func loaded(t *testing.T, ws *controller.Workspace, run string, factor int) *heapmodel.HeapProfile {
	t.Helper()
	p, err := ws.HeapLogs.Profile(context.Background(), run, factor)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// showTabOf selects a tab and lays the window out, which draws its charts.
func showTabOf(v *heapWindow, tabs interface{ SelectIndex(int) }, i int) {
	tabs.SelectIndex(i)
	v.Resize(viewtest.WindowSize)
}

func TestHeapRunShowsHeapTabs(t *testing.T) {
	v, ws := openHeap(t)
	h := v.Heap
	p := loaded(t, ws, viewtest.HeapRun, 1)
	if p.Cohort != viewtest.HeapCohort || h.profile == nil || h.profile.Allocated != p.Allocated {
		t.Fatalf("heap tabs show %+v", h.profile)
	}
	want := []string{"32 KB", "64 KB", "128 KB", "256 KB", "512 KB", "1 MB"}
	if !slices.Equal(h.Cohort.Options, want) || h.Cohort.Selected != "32 KB" {
		t.Errorf("cohorts %v, selected %q", h.Cohort.Options, h.Cohort.Selected)
	}
	var tabs []string
	for _, it := range h.Tabs.Items {
		tabs = append(tabs, it.Text)
	}
	if !slices.Equal(tabs, []string{"Summary", "Cohorts", "Sizes", "Threads", "Classes", "Packages", "Pointers"}) {
		t.Errorf("tabs %v", tabs)
	}
}

// Every figure of every tab is offered by its seed number and title, and draws.
func TestHeapFigureChoosersDrawEveryFigure(t *testing.T) {
	v, ws := openHeap(t)
	h := v.Heap
	p := loaded(t, ws, viewtest.HeapRun, 1)
	seen := 0
	for i, item := range h.Tabs.Items {
		var tab *heapFigureTab
		for _, ft := range h.figureTabs() {
			if ft.content == item.Content {
				tab = ft
			}
		}
		if tab == nil {
			continue
		}
		figs := chart.FiguresOf(item.Text)
		var want []string
		for _, f := range figs {
			want = append(want, figureOption(f))
		}
		if len(figs) == 0 || !slices.Equal(tab.Figure.Options, want) {
			t.Errorf("tab %s offers %v, want %v", item.Text, tab.Figure.Options, want)
		}
		for j, f := range figs {
			tab.Figure.SetSelectedIndex(j)
			showTabOf(v, h.Tabs, i)
			seen++
			d := tab.Chart.Drawing()
			if tab.Chart.Problem.Text != "" || v.Problem != "" {
				t.Errorf("figure %s: %q %q", f.Seed, tab.Chart.Problem.Text, v.Problem)
			}
			if tab.Chosen().Seed != f.Seed || tab.Chart.Kind.Visible() {
				t.Errorf("figure %s: chosen %s, kind chooser shown %v", f.Seed, tab.Chosen().Seed, tab.Chart.Kind.Visible())
			}
			if want := f.Draw(p, viewtest.HeapRun); fmt.Sprintf("%T", d) != fmt.Sprintf("%T", want) || d.Empty() != want.Empty() {
				t.Errorf("figure %s drew %T (empty %v), want %T (empty %v)", f.Seed, d, d.Empty(), want, want.Empty())
			}
			if d.Empty() {
				if !tab.Note.Visible() || tab.Note.Text == "" {
					t.Errorf("figure %s is empty and does not say why", f.Seed)
				}
				continue
			}
			if tab.Note.Visible() || tab.Chart.Image() == nil {
				t.Errorf("figure %s: note %q, image %v", f.Seed, tab.Note.Text, tab.Chart.Image() != nil)
			} else if c := viewtest.CountColours(tab.Chart.Image()); c < 4 {
				t.Errorf("figure %s image has %d colours", f.Seed, c)
			}
		}
	}
	if seen != len(chart.HeapFigures) {
		t.Errorf("the tabs offer %d figures of %d", seen, len(chart.HeapFigures))
	}
}

func TestHeapSummary(t *testing.T) {
	v, ws := openHeap(t)
	s := v.Heap.Summary
	p := loaded(t, ws, viewtest.HeapRun, 1)
	ch := p.Characteristics()
	if got := viewtest.Fact(s.Table, "Total allocation"); !strings.HasPrefix(got, human.Bytes(ch.TotalAllocation)+" (") ||
		!strings.Contains(got, human.Grouped(int64(ch.TotalAllocation))+" bytes") {
		t.Errorf("total allocation %q, want %s", got, human.Bytes(ch.TotalAllocation))
	}
	for name, want := range map[string]string{
		"Maximum live":          human.Bytes(ch.MaxLive),
		"Live objects (at end)": human.Grouped(int64(ch.LiveObjects)),
		"Loaded classes":        fmt.Sprint(ch.LoadedClasses),
		"Array classes":         fmt.Sprint(ch.ArrayClasses),
		"Threads":               fmt.Sprint(ch.Threads),
		"Pointer mutations":     human.Grouped(int64(ch.Mutations)),
		"Cohort size":           "32 KB",
		"VM":                    p.Header.VM,
		"Property synthetic":    "true",
	} {
		if got := viewtest.Fact(s.Table, name); !strings.HasPrefix(got, want) {
			t.Errorf("%s: %q, want %q", name, got, want)
		}
	}
	if !s.Note.Visible() || !strings.Contains(s.Note.Text, "synthetic") || strings.Contains(s.Note.Text, "5.22") {
		t.Errorf("note %q", s.Note.Text)
	}
	var csv strings.Builder
	if err := s.Table.WriteCSV(&csv); err != nil || !strings.Contains(csv.String(), fmt.Sprintf("Total allocation,%d\n", ch.TotalAllocation)) {
		t.Errorf("CSV: %v\n%s", err, csv.String())
	}

	// A JVMTI log without mutations says what it lacks.
	q := *p
	q.Pointers = nil
	q.Header.VM = "OpenJDK 64-Bit Server VM 17.0.9 (androprof heap agent 1)"
	q.UnknownFrees = 3
	_, notes := heapFacts(&q, 1)
	all := strings.Join(notes, "\n")
	for _, want := range []string{"records them only under `androprof heap --mutations`: figure 5.22 is empty",
		"figure 5.23 is empty", "3 deaths of objects never allocated"} {
		if !strings.Contains(all, want) {
			t.Errorf("notes %q lack %q", all, want)
		}
	}
}

func TestHeapClassTableAndFind(t *testing.T) {
	v, ws := openHeap(t)
	c := v.Heap.ClassTable
	p := loaded(t, ws, viewtest.HeapRun, 1)
	want := p.Table(heapmodel.ScopeClass)
	if len(c.Table.Rows()) != len(want) || len(want) < 40 {
		t.Fatalf("%d class rows, want %d", len(c.Table.Rows()), len(want))
	}
	i := slices.IndexFunc(c.Table.Rows(), func(r heapmodel.HeapRow) bool { return r.Name == "java/lang/String" })
	j := slices.IndexFunc(want, func(r heapmodel.HeapRow) bool { return r.Name == "java/lang/String" })
	if i < 0 || c.Table.Cell(i, viewtest.ColIndex(c.Table, "Live")) != human.Grouped(int64(want[j].Live.Objects)) ||
		c.Table.Cell(i, viewtest.ColIndex(c.Table, "Size")) != human.Bytes(want[j].Total.Bytes) {
		t.Errorf("String row %d: %+v", i, want[j])
	}
	if k := slices.IndexFunc(c.Table.Rows(), func(r heapmodel.HeapRow) bool { return r.Name == "[C" }); k < 0 || c.Table.Cell(k, viewtest.ColIndex(c.Table, "Array")) != "yes" {
		t.Error("[C is not an array row")
	}
	// Table 5.2: the app's own classes.
	test.Type(c.Find, "quadrant")
	v.Wait()
	rows := c.Table.Rows()
	if len(rows) != len(heapmodel.FilterHeapRows(want, "quadrant")) || len(rows) == 0 || !strings.Contains(c.Table.Count.Text, fmt.Sprintf("of %d", len(want))) {
		t.Errorf("find quadrant: %d rows, count %q", len(rows), c.Table.Count.Text)
	}
	for _, r := range rows {
		if !strings.Contains(r.Name, "quadrant") {
			t.Errorf("row %q does not match", r.Name)
		}
	}
	c.Find.SetText("")
	c.Table.SortBy(viewtest.ColIndex(c.Table, "Size"))
	if r := c.Table.Rows(); r[0].Total.Bytes < r[len(r)-1].Total.Bytes {
		t.Error("Size does not sort largest first")
	}
	var csv strings.Builder
	if err := c.Table.WriteCSV(&csv); err != nil || !strings.HasPrefix(csv.String(), "Class name,Live,Live %,Total,Size,Live bytes,Avg lifetime,Array\n") {
		t.Errorf("CSV: %v %.100s", err, csv.String())
	}
}

func TestHeapThreadsAndPackages(t *testing.T) {
	v, ws := openHeap(t)
	h := v.Heap
	p := loaded(t, ws, viewtest.HeapRun, 1)
	threads := p.Table(heapmodel.ScopeThread)
	if len(h.ThreadTable.Table.Rows()) != len(threads) || !slices.ContainsFunc(h.ThreadTable.Table.Rows(), func(r heapmodel.HeapRow) bool { return r.Name == "main" }) {
		t.Errorf("thread rows %+v", h.ThreadTable.Table.Rows())
	}
	pk := h.Packages
	want := p.Packages()
	if len(pk.Table.Rows()) != len(want) || pk.Table.Rows()[0].Name != want[0].Name {
		t.Fatalf("package rows %d, want %d", len(pk.Table.Rows()), len(want))
	}
	c := pk.Chart.Chart()
	if len(c.Bars) != len(want) || c.Bars[0].Value != float64(want[0].Live.Objects) || !pk.Chart.Kind.Visible() {
		t.Errorf("package chart %+v", c)
	}
	pk.Measure.SetSelected(measureAllocated)
	pk.Chart.Kind.SetSelected("Pie")
	showTabOf(v, h.Tabs, 5)
	c = pk.Chart.Chart()
	if c.Kind != chart.Pie || c.Bars[0].Value != float64(want[0].Total.Bytes) || pk.Chart.Problem.Text != "" || pk.Chart.Image() == nil {
		t.Errorf("bytes allocated by package: %+v", c)
	}
}

// The Cohort chooser regroups every chart and table at twice the cohort.
func TestHeapCohortChooserRegroups(t *testing.T) {
	v, ws := openHeap(t)
	h := v.Heap
	before := h.Cohorts.Chart.Drawing().(chart.Lines)
	h.Cohort.SetSelected("64 KB")
	v.Wait()
	p2 := loaded(t, ws, viewtest.HeapRun, 2)
	if h.factor != 2 || h.profile.Cohort != 2*viewtest.HeapCohort {
		t.Fatalf("factor %d, cohort %d", h.factor, h.profile.Cohort)
	}
	after := h.Cohorts.Chart.Drawing().(chart.Lines)
	want := chart.FiguresOf(chart.TabCohorts)[0].Draw(p2, viewtest.HeapRun).(chart.Lines)
	if len(after.Series) != len(want.Series) || len(after.Series) >= len(before.Series) {
		t.Errorf("5.1 at 64 KB: %d series, want %d (%d at 32 KB)", len(after.Series), len(want.Series), len(before.Series))
	}
	if got := viewtest.Fact(h.Summary.Table, "Cohort size"); got != "64 KB (2 × the 32 KB imported)" {
		t.Errorf("summary cohort %q", got)
	}
	if !slices.Equal(h.Cohort.Options[:2], []string{"32 KB", "64 KB"}) {
		t.Errorf("options after regrouping %v", h.Cohort.Options)
	}
	// Another run and back keeps the cohort chosen.
	v.SelectRun("small")
	v.Wait()
	v.SelectRun(viewtest.HeapRun)
	v.Wait()
	if h.Cohort.Selected != "64 KB" || h.factor != 2 {
		t.Errorf("back on the run: %q ×%d", h.Cohort.Selected, h.factor)
	}
}

func TestDumpTabs(t *testing.T) {
	v, ws := openHeap(t)
	d := v.Dump
	v.SelectRun(viewtest.DumpRun)
	v.Wait()
	dump, err := ws.HeapDumps.Dump(context.Background(), viewtest.DumpRun)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(d.Heap.Options, []string{allHeaps, "image", "zygote", "app"}) || d.Heap.Selected != "app" {
		t.Fatalf("heaps %v, %q chosen", d.Heap.Options, d.Heap.Selected)
	}
	d.Heap.SetSelected(allHeaps)
	v.Wait()
	all := dump.DumpRows("", false)
	if len(d.Classes.Table.Rows()) != len(all) || len(all) < 10 || d.Classes.Table.Cell(0, 0) != all[0].Name ||
		d.Classes.Table.Cell(0, viewtest.ColIndex(d.Classes.Table, "Heap")) != "all" {
		t.Fatalf("%d class rows, want %d", len(d.Classes.Table.Rows()), len(all))
	}
	ch := dump.Characteristics()
	if got := viewtest.Fact(d.Summary, "Objects"); !strings.HasPrefix(got, human.Grouped(int64(ch.Objects))+" objects") || viewtest.Fact(d.Summary, "Heap app") == "" {
		t.Errorf("summary objects %q", got)
	}
	for _, tab := range []*dumpFigureTab{d.Sizes, d.Pointers} {
		if tab.Chart.Drawing().Empty() {
			t.Errorf("%s is empty", tab.fig.Name)
		}
	}
	if c := d.Classes.Chart.Chart(); len(c.Bars) != len(all) || !strings.Contains(c.Title, "Bytes by class") {
		t.Errorf("class chart %+v", c.Title)
	}
	if c := d.Packages.Chart.Chart(); c.Kind != chart.Pie || len(d.Packages.Table.Rows()) != len(dump.DumpRows("", true)) {
		t.Errorf("package chart kind %v, %d rows", c.Kind, len(d.Packages.Table.Rows()))
	}
	// One heap.
	d.Heap.SetSelected("app")
	v.Wait()
	app := dump.DumpRows("app", false)
	if len(d.Classes.Table.Rows()) != len(app) || d.Classes.Table.Cell(0, viewtest.ColIndex(d.Classes.Table, "Heap")) != "app" ||
		!strings.Contains(d.Sizes.Chart.Drawing().(chart.StackedColumns).Title, "heap app") {
		t.Errorf("heap app: %d rows, want %d", len(d.Classes.Table.Rows()), len(app))
	}
	test.Type(d.Classes.Find, "String")
	v.Wait()
	for _, r := range d.Classes.Table.Rows() {
		if !strings.Contains(r.Name, "String") {
			t.Errorf("row %q does not match", r.Name)
		}
	}
	// A tap on a bar the find box hides selects its row all the same.
	d.Classes.barTapped(0)
	if top := d.Classes.Chart.Chart().Bars[0].Label; !strings.Contains(top, "String") && d.Classes.Find.Text != "" {
		t.Errorf("find %q after a tap on the top bar", d.Classes.Find.Text)
	}
	for i := range d.Tabs.Items {
		showTabOf(v, d.Tabs, i)
		if v.Problem != "" {
			t.Errorf("dump tab %d: %s", i, v.Problem)
		}
	}
	if d.Pointers.Chart.Problem.Text != "" || d.Pointers.Chart.Image() == nil {
		t.Errorf("pointers: %q", d.Pointers.Chart.Problem.Text)
	}

	// A real dump, when the corpus is there.
	if !slices.Contains(v.RunsOfKind(model.RunKindHeapDump), "dialer") {
		t.Log(viewtest.CorpusDump + " is absent: only the synthetic dump was shown")
		return
	}
	v.SelectRun("dialer")
	v.Wait()
	real, err := ws.HeapDumps.Dump(context.Background(), "dialer")
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(d.Heap.Options, append([]string{allHeaps}, real.Heaps...)) || len(d.Classes.Table.Rows()) == 0 || d.heap != "" && !slices.Contains(real.Heaps, d.heap) {
		t.Errorf("dialer: heaps %v, %d rows", d.Heap.Options, len(d.Classes.Table.Rows()))
	}
}

// TestHeapScreens draws every heap and dump tab with the software painter and checks it is not
// blank; with ANALYSIS_SHOTS=DIR it also writes them there to look at.
func TestHeapScreens(t *testing.T) {
	v, _ := openHeap(t)
	dir := os.Getenv("ANALYSIS_SHOTS")
	shoot := func(name string) {
		img := v.Window().Canvas().Capture()
		if colours := viewtest.CountColours(img); colours < 8 {
			t.Errorf("%s looks blank: %d colours", name, colours)
		}
		if dir == "" {
			return
		}
		f, err := os.Create(filepath.Join(dir, name+".png"))
		if err != nil {
			t.Fatal(err)
		}
		png.Encode(f, img)
		f.Close()
	}
	h := v.Heap
	for i, item := range h.Tabs.Items {
		if i == 4 {
			test.Type(h.ClassTable.Find, "quadrant")
		}
		showTabOf(v, h.Tabs, i)
		shoot("heap-" + ui.Slug(item.Text, "tab"))
	}
	v.SelectRun(viewtest.DumpRun)
	v.Wait()
	for i, item := range v.Dump.Tabs.Items {
		showTabOf(v, v.Dump.Tabs, i)
		shoot("dump-" + ui.Slug(item.Text, "tab"))
	}
}

// The Retained tab on a dump: classes by retained size, the dominator tree largest first, the
// path from a GC root to a class's nearest instance and to an object chosen in the tree; the
// Compare tab against a second dump.
func TestDumpRetainedTreePathAndCompare(t *testing.T) {
	v, ws := openHeap(t)
	v.SelectRun(viewtest.DumpRun)
	v.Wait()
	d := v.Dump
	d.Heap.SetSelected(allHeaps) // the dump opens on its app heap; this test is every heap's
	v.Wait()
	rt := d.Retained
	r, err := ws.HeapDumps.Retention(context.Background(), viewtest.DumpRun)
	if err != nil || rt.r == nil {
		t.Fatalf("retention: %v (tab has %v)", err, rt.r != nil)
	}
	var most uint64
	for _, c := range r.Classes {
		most = max(most, c.Retained)
	}
	if rows := rt.Classes.Rows(); len(rows) != len(r.Classes) || rows[0].Retained != most {
		t.Fatalf("classes: %d rows, the first retains %d, want %d rows and %d first", len(rows), rows[0].Retained, len(r.Classes), most)
	}
	top := rt.childUIDs("")
	if len(top) == 0 || !rt.isBranch("") {
		t.Fatal("the dominator tree has no top level")
	}
	if n, _ := r.DominatedAfter(-1, treeChildren); n > 0 {
		var label widget.Label
		rt.updateNode(top[len(top)-1], false, &label)
		if len(top) != treeChildren+1 || !strings.HasPrefix(label.Text, fmt.Sprintf("… %s more", human.Count(n, "object", "objects"))) {
			t.Errorf("%d top-level rows past %d: the tree lists %d, the last says %q", n, treeChildren, len(top), label.Text)
		}
	}
	first := r.Dominated(-1, 1)[0]
	if top[0] != strconv.Itoa(int(first.Seq)) {
		t.Errorf("the tree starts with %s, want the largest retainer %d", top[0], first.Seq)
	}

	// A class row: the path to its nearest instance, from a root (depth 0) to the class.
	rt.Classes.Select(0)
	path := rt.Path.Rows()
	if len(path) == 0 || path[0].Depth != 0 || path[len(path)-1].ClassOf != rt.Classes.Rows()[0].Name ||
		!strings.Contains(rt.PathTo.Text, rt.Classes.Rows()[0].Name) {
		t.Errorf("path to class %s: %q, %+v", rt.Classes.Rows()[0].Name, rt.PathTo.Text, path)
	}
	// A node of the tree: the path ends with it.
	rt.Tree.Select(top[0])
	if path := rt.Path.Rows(); len(path) == 0 || path[len(path)-1].Seq != first.Seq {
		t.Errorf("path to the largest retainer: %+v", path)
	}
	// A row of the path opens that object in the object view.
	rt.Classes.Select(0)
	v.Wait()
	rt.Path.Select(0)
	v.Wait()
	if root := rt.Path.Rows()[0]; d.Object.seq != root.Seq || d.Tabs.Selected().Text != TabObject {
		t.Errorf("a tap on the path's root shows object %d in %q, want %d", d.Object.seq, d.Tabs.Selected().Text, root.Seq)
	}

	others := v.RunsOfKind(model.RunKindHeapDump)
	c := d.Compare
	if len(others) < 2 {
		if !strings.Contains(c.Hint.Text, "Import a second heap dump") {
			t.Errorf("compare hint %q", c.Hint.Text)
		}
		return
	}
	c.Before.SetSelected(c.Before.Options[0])
	v.Wait()
	if len(c.Table.Rows()) == 0 || !strings.HasPrefix(c.Hint.Text, "From "+c.Before.Options[0]) {
		t.Errorf("compare with %s: %d rows, %q", c.Before.Options[0], len(c.Table.Rows()), c.Hint.Text)
	}
}
