package samples

import (
	"androprof/model/flame"
	"bytes"
	"context"
	"image"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"

	"androprof/chart"
	"androprof/chart/render"
	"androprof/controller"
	"androprof/internal/human"
	"androprof/internal/viewtest"
	"androprof/model/layers"
	samplesmodel "androprof/model/samples"
	"androprof/view/ui"
)

// samplesWindow is a window showing the sampled-run tabs, as the analysis window does while a
// sampled run is selected.
type samplesWindow struct {
	*viewtest.Host
	Samples *View
	a       *controller.SampleAnalysis
}

// openSamples opens the tabs on a workspace holding viewtest.SampleRun, which is shown.
func openSamples(t *testing.T) *samplesWindow {
	t.Helper()
	db := viewtest.OpenDB(t, viewtest.SamplesWorkspace(t))
	ws := controller.NewWorkspace(db)
	h := viewtest.NewHost(t, ws)
	v := &samplesWindow{Host: h, Samples: New(h, ws.Samples), a: ws.Samples}
	h.Show(v.Samples.Bar, v.Samples.Tabs)
	v.Samples.Open(viewtest.SampleRun)
	v.Wait()
	if v.Problem != "" || v.Samples.Set() == nil {
		t.Fatalf("the run did not open: %q", v.Problem)
	}
	return v
}

// selected is the controller's answer for a selection, for the expected values.
func (w *samplesWindow) selected(t *testing.T, sel samplesmodel.SampleSelection) *samplesmodel.SampleSet {
	t.Helper()
	set, err := w.a.Select(context.Background(), viewtest.SampleRun, sel, nil)
	if err != nil {
		t.Fatal(err)
	}
	return set
}

// showTab selects a tab and lays the window out, which draws its charts.
func (w *samplesWindow) showTab(name string) {
	for _, it := range w.Samples.Tabs.Items {
		if it.Text == name {
			w.Samples.Tabs.Select(it)
		}
	}
	w.Resize(viewtest.WindowSize)
}

// Every tab shows the real recording: the layer table adds up to the samples, the threads are
// the recording's, table V lists every symbol, and both charts draw.
func TestTabsShowARealRecording(t *testing.T) {
	w := openSamples(t)
	v := w.Samples
	var tabs []string
	for _, it := range v.Tabs.Items {
		tabs = append(tabs, it.Text)
	}
	if !slices.Equal(tabs, []string{TabLayers, TabSymbols, TabNeighbours, TabFlame, TabDiff}) {
		t.Errorf("tabs %v", tabs)
	}
	want := w.selected(t, samplesmodel.SampleSelection{})
	if want.Total < 500 || !strings.HasPrefix(v.Kept.Text, human.Grouped(int64(want.Total))+" of "+human.Count(want.Total, "sample", "samples")) {
		t.Errorf("Kept says %q for %d samples", v.Kept.Text, want.Total)
	}
	sum := 0
	for _, r := range v.Layers.Layers.Rows() {
		sum += r.Self
	}
	if sum != want.Kept || len(v.Layers.Layers.Rows()) < 3 {
		t.Errorf("the layer table's %d rows add up to %d, want %d", len(v.Layers.Layers.Rows()), sum, want.Kept)
	}
	if got, exp := len(v.Layers.Threads.Rows()), len(want.ByThread()); got != exp || got < 3 {
		t.Errorf("%d thread rows, want %d", got, exp)
	}
	if len(v.Thread.Options) != len(want.ByThread())+1 || !strings.HasPrefix(v.Thread.Options[1], "32765 java (") {
		t.Errorf("thread options %q", v.Thread.Options)
	}
	if got, exp := len(v.Symbols.Table.Rows()), len(want.BySymbol()); got != exp || got < 20 {
		t.Errorf("%d symbol rows, want %d", got, exp)
	}
	for _, tab := range []struct {
		name  string
		panel *ui.ChartPanel
	}{{TabLayers, v.Layers.Chart}, {TabFlame, v.Flame.Chart}} {
		w.showTab(tab.name)
		if tab.panel.Problem.Text != "" || tab.panel.Image() == nil || viewtest.CountColours(tab.panel.Image()) < 5 {
			t.Errorf("%s: problem %q, image %v", tab.name, tab.panel.Problem.Text, tab.panel.Image() != nil)
		}
	}
	if _, ok := v.Layers.Chart.Drawing().(chart.LayerShares); !ok {
		t.Errorf("the Layers tab opens on %T, not the layers over time", v.Layers.Chart.Drawing())
	}
	if f, ok := v.Flame.Chart.Drawing().(chart.Flame); !ok || f.Root.Total != int64(want.Kept) || !strings.Contains(f.Title, "all threads") {
		t.Errorf("the flame graph is %T %+v", v.Flame.Chart.Drawing(), f)
	}
	for _, show := range v.Layers.Show.Options {
		v.Layers.Show.SetSelected(show)
		w.Resize(viewtest.WindowSize)
		if v.Layers.Chart.Problem.Text != "" || v.Layers.Chart.Drawing().Empty() {
			t.Errorf("chart %q: %q, empty %v", show, v.Layers.Chart.Problem.Text, v.Layers.Chart.Drawing().Empty())
		}
	}
}

// The thread chooser narrows every tab to one thread and the Kept line says what was left out;
// a tap on a thread's row chooses it too.
func TestThreadChooserChangesTheCounts(t *testing.T) {
	w := openSamples(t)
	v := w.Samples
	all := w.selected(t, samplesmodel.SampleSelection{})
	var c2 samplesmodel.ThreadRow
	for _, r := range all.ByThread() {
		if strings.HasPrefix(r.Comm, "C2 Compiler") {
			c2 = r
		}
	}
	if c2.Samples == 0 {
		t.Fatal("the recording has no C2 compiler thread")
	}
	v.SelectThread(c2.TID)
	w.Wait()
	one := w.selected(t, samplesmodel.SampleSelection{TIDs: []int{c2.TID}})
	if v.Set().Kept != c2.Samples || one.Kept != c2.Samples {
		t.Fatalf("thread %d: kept %d, want %d", c2.TID, v.Set().Kept, c2.Samples)
	}
	if !strings.HasPrefix(v.Kept.Text, human.Grouped(int64(c2.Samples))+" of ") || !strings.Contains(v.Kept.Text, "left out") {
		t.Errorf("Kept says %q", v.Kept.Text)
	}
	if rows := v.Layers.Threads.Rows(); len(rows) != 1 || rows[0].TID != c2.TID {
		t.Errorf("thread rows %+v", rows)
	}
	if got, exp := len(v.Symbols.Table.Rows()), len(one.BySymbol()); got != exp || got >= len(all.BySymbol()) {
		t.Errorf("one thread: %d symbols, want %d (all threads have %d)", got, exp, len(all.BySymbol()))
	}
	if f := v.Flame.flame; f.Top().Total != int64(c2.Samples) || !strings.Contains(f.Title, "thread "+chart.ThreadLabel(c2.TID, c2.Comm)) {
		t.Errorf("the flame graph counts %d samples, title %q", f.Top().Total, f.Title)
	}

	v.SelectThread(0)
	w.Wait()
	if v.Set().Kept != all.Kept {
		t.Fatalf("all threads again: %d", v.Set().Kept)
	}
	rows := v.Layers.Threads.Rows()
	i := slices.IndexFunc(rows, func(r samplesmodel.ThreadRow) bool { return r.TID == c2.TID })
	v.Layers.Threads.Select(i)
	w.Wait()
	if v.Set().Kept != c2.Samples || v.threads[v.Thread.Selected] != c2.TID {
		t.Errorf("a tap on the thread's row chose %q, %d samples", v.Thread.Selected, v.Set().Kept)
	}
}

// The time window and the focus narrow the samples as the model does; a time that is not a
// number is said, not applied.
func TestTimeWindowAndFocus(t *testing.T) {
	w := openSamples(t)
	v := w.Samples
	test.Type(v.From, "0.5")
	test.Type(v.To, "1")
	w.Wait()
	want := w.selected(t, samplesmodel.SampleSelection{FromNS: 5e8, ToNS: 1e9})
	if v.Set().Kept != want.Kept || want.Kept == 0 || want.LeftOut == 0 {
		t.Errorf("0.5–1 s: %d samples, want %d of %d", v.Set().Kept, want.Kept, want.Total)
	}
	tl := v.Layers.res.charts[chartShares].(chart.LayerShares).Timeline
	if tl.StartNS != 5e8 || tl.StartNS+tl.BucketNS*int64(len(tl.Counts)) < 1e9 {
		t.Errorf("the timeline spans %d + %d × %d ns", tl.StartNS, len(tl.Counts), tl.BucketNS)
	}
	test.Type(v.To, "x")
	w.Wait()
	if !strings.Contains(v.Kept.Text, "not a time") || v.Set().Kept != want.Kept {
		t.Errorf("a bad time: %q, %d samples", v.Kept.Text, v.Set().Kept)
	}
	v.From.SetText("")
	v.To.SetText("")
	test.Type(v.Focus, "java.util")
	w.Wait()
	focus := w.selected(t, samplesmodel.SampleSelection{Focus: []string{"java.util"}})
	if v.Set().Kept != focus.Kept || focus.Kept == 0 || focus.LeftOut == 0 || !strings.Contains(v.Kept.Text, "focus java.util") {
		t.Errorf("focus java.util: %d samples, want %d; %q", v.Set().Kept, focus.Kept, v.Kept.Text)
	}
}

// Naming the application's packages re-classifies the run: Spin's methods move from the
// application (every class outside the libraries) to the libraries when the application is
// another package.
func TestAppPackagesReclassify(t *testing.T) {
	w := openSamples(t)
	v := w.Samples
	app := func() int {
		for _, r := range v.Layers.Layers.Rows() {
			if r.Layer == layers.LayerApp {
				return r.Total
			}
		}
		return 0
	}
	before := app()
	if before == 0 {
		t.Fatal("no application samples in the recording")
	}
	test.Type(v.App, "com.nothing")
	w.Wait()
	if app() != 0 {
		t.Errorf("with the application in com.nothing, %d samples are still the application's", app())
	}
	v.App.SetText("")
	w.Wait()
	if app() != before {
		t.Errorf("back to every class outside the libraries: %d application samples, want %d", app(), before)
	}
}

// The filter narrows table V to the symbols it names, in any case; clearing it shows all.
func TestFilterNarrowsTheSymbolTable(t *testing.T) {
	w := openSamples(t)
	s := w.Samples.Symbols
	all := len(s.Table.Rows())
	test.Type(s.Filter, "dualpivot")
	rows := s.Table.Rows()
	if len(rows) == 0 || len(rows) >= all {
		t.Fatalf("the filter kept %d of %d symbols", len(rows), all)
	}
	for _, r := range rows {
		if !strings.Contains(strings.ToLower(r.Symbol), "dualpivot") {
			t.Errorf("%q does not match", r.Symbol)
		}
	}
	if !strings.HasPrefix(s.Table.Count.Text, human.Grouped(int64(len(rows)))+" of ") {
		t.Errorf("count %q", s.Table.Count.Text)
	}
	test.Type(s.Filter, "kernel") // typing goes on: "dualpivotkernel" names nothing
	if len(s.Table.Rows()) != 0 {
		t.Errorf("%d rows match %q", len(s.Table.Rows()), s.Filter.Text)
	}
	s.Filter.SetText("kernel") // a layer's name matches its symbols
	if len(s.Table.Rows()) == 0 {
		t.Error("no symbol of the kernel layer")
	}
	for _, r := range s.Table.Rows() {
		if r.Layer != layers.LayerKernel && !strings.Contains(strings.ToLower(r.Symbol+r.Image+r.Component), "kernel") {
			t.Errorf("%+v matches kernel", r)
		}
	}
	s.Filter.SetText("")
	if len(s.Table.Rows()) != all {
		t.Errorf("cleared: %d of %d rows", len(s.Table.Rows()), all)
	}
	// Sorting by a header.
	s.Table.SortBy(viewtest.ColIndex(s.Table, "Total"))
	rows = s.Table.Rows()
	if !slices.IsSortedFunc(rows, func(a, b samplesmodel.SampleRow) int { return b.Total - a.Total }) {
		t.Error("not sorted by total, largest first")
	}
}

// A tap on a symbol shows its callers and callees, with the samples through each edge as the
// model counts them; a tap on a caller walks up the call graph.
func TestCallersAndCallees(t *testing.T) {
	w := openSamples(t)
	v := w.Samples
	rows := v.Symbols.Table.Rows()
	i := slices.IndexFunc(rows, func(r samplesmodel.SampleRow) bool { return strings.Contains(r.Symbol, "DualPivotQuicksort.sort(") })
	if i < 0 {
		t.Fatal("no DualPivotQuicksort.sort in the recording")
	}
	sym := rows[i]
	v.Symbols.Table.Select(i)
	w.Wait()
	if v.Tabs.Selected().Text != TabNeighbours || v.Neighbours.symbol != sym.SymbolID {
		t.Fatalf("a tap on %s shows tab %s on symbol %d", sym.Symbol, v.Tabs.Selected().Text, v.Neighbours.symbol)
	}
	callers, callees := v.Set().Neighbours(sym.SymbolID)
	n := v.Neighbours
	if !slices.Equal(n.Callers.Rows(), callers) || !slices.Equal(n.Callees.Rows(), callees) || len(callers) == 0 || len(callees) == 0 {
		t.Errorf("callers %d (want %d), callees %d (want %d)", len(n.Callers.Rows()), len(callers), len(n.Callees.Rows()), len(callees))
	}
	if !strings.Contains(n.Title.Text, sym.Symbol) || !strings.Contains(n.Title.Text, human.Count(sym.Total, "sample", "samples")+" on the stack") {
		t.Errorf("title %q", n.Title.Text)
	}
	up := slices.IndexFunc(n.Callers.Rows(), func(r samplesmodel.SampleRow) bool { return r.SymbolID != sym.SymbolID && r.SymbolID >= 0 })
	if up < 0 {
		t.Fatal("no caller to walk to")
	}
	caller := n.Callers.Rows()[up]
	n.Callers.Select(up)
	w.Wait()
	if n.symbol != caller.SymbolID || !strings.Contains(n.Title.Text, caller.Symbol) {
		t.Errorf("walked to %d %q, want %s", n.symbol, n.Title.Text, caller.Symbol)
	}
	// The find box lists matching symbols, and a tap on one picks it.
	test.Type(n.Find, "Spin.loop")
	if len(n.Matches.Rows()) == 0 {
		t.Fatal("no symbol matches Spin.loop")
	}
	n.Matches.Select(0)
	w.Wait()
	if got := n.Matches.Rows()[0]; n.symbol != got.SymbolID || !strings.Contains(got.Symbol, "Spin.loop") {
		t.Errorf("picked %d, the match is %+v", n.symbol, got)
	}
}

// tapFrame taps the middle of a frame of the flame graph shown, as a person clicks it.
func tapFrame(t *testing.T, w *samplesWindow, n *flame.Node) {
	t.Helper()
	p := w.Samples.Flame.Chart
	f := p.Drawing().(chart.Flame)
	img := p.Image()
	if img == nil {
		t.Fatal("the flame graph is not drawn")
	}
	b := img.Bounds()
	r, ok := f.FrameRect(b.Dx(), b.Dy(), n)
	if !ok {
		t.Fatalf("%s is not drawn", n.Name)
	}
	c := image.Pt((r.Min.X+r.Max.X)/2, (r.Min.Y+r.Max.Y)/2)
	size := p.Area.Size()
	test.TapAt(p.Area, fyne.NewPos(float32(c.X)*size.Width/float32(b.Dx()), float32(c.Y)*size.Height/float32(b.Dy())))
	w.Wait()
}

// A click on a frame zooms the flame graph to it; a click on a greyed caller zooms out to it,
// Show all to the whole graph; the zoom outlives a change of thread.
func TestFlameClickZooms(t *testing.T) {
	w := openSamples(t)
	v := w.Samples
	w.showTab(TabFlame)
	top := v.Flame.flame.Root
	// The widest frame two levels up: a thread's start routine or main.
	var pick *flame.Node
	for _, c := range top.Children {
		for _, g := range c.Children {
			if pick == nil || g.Total > pick.Total {
				pick = g
			}
		}
	}
	if pick == nil || !v.Flame.ShowAll.Disabled() {
		t.Fatalf("nothing to zoom to, or Show all enabled before zooming")
	}
	tapFrame(t, w, pick)
	f := v.Flame.Chart.Drawing().(chart.Flame)
	if f.Root != pick || len(f.Path) != 2 || v.Flame.ShowAll.Disabled() || !strings.Contains(v.Flame.Info.Text, pick.Name) {
		t.Fatalf("after a click on %s: root %s, %d callers, info %q", pick.Name, f.Root.Name, len(f.Path), v.Flame.Info.Text)
	}
	caller := f.Path[1]
	tapFrame(t, w, caller)
	if f := v.Flame.Chart.Drawing().(chart.Flame); f.Root != caller || len(f.Path) != 1 {
		t.Errorf("a click on the caller %s zoomed to %s", caller.Name, f.Root.Name)
	}
	tapFrame(t, w, pick)
	// Another thread's graph keeps the zoom when it has the frame.
	main := v.Layers.res.threads[0]
	v.SelectThread(main.TID)
	w.Wait()
	f = v.Flame.Chart.Drawing().(chart.Flame)
	if f.Root.Name != pick.Name || f.Top().Total != int64(main.Samples) {
		t.Errorf("thread %d: zoomed to %s (%d of %d), want %s", main.TID, f.Root.Name, f.Root.Total, f.Top().Total, pick.Name)
	}
	test.Tap(v.Flame.ShowAll)
	w.Wait()
	if f := v.Flame.Chart.Drawing().(chart.Flame); len(f.Path) != 0 || f.Root != f.Top() || !v.Flame.ShowAll.Disabled() {
		t.Errorf("Show all: root %s with %d callers", f.Root.Name, len(f.Path))
	}
}

// Every chart saves as PNG, SVG and CSV, and every table as CSV, as their Save buttons write them.
func TestExportWritesFiles(t *testing.T) {
	w := openSamples(t)
	v := w.Samples
	dir := t.TempDir()
	charts := map[string]chart.Drawing{"layers": v.Layers.Chart.Drawing(), "flame": v.Flame.Chart.Drawing()}
	v.Layers.Show.SetSelected(chartThreads)
	charts["threads"] = v.Layers.Chart.Drawing()
	for name, d := range charts {
		for _, f := range []struct {
			format render.Format
			ext    string
			size   int // at least, in bytes
		}{{render.PNG, ".png", 1000}, {render.SVG, ".svg", 1000}, {render.CSV, ".csv", 100}} {
			path := filepath.Join(dir, name+f.ext)
			if err := ui.SaveChart(d, f.format, path); err != nil {
				t.Fatal(err)
			}
			data, err := os.ReadFile(path)
			if err != nil || len(data) < f.size {
				t.Errorf("%s: %d bytes, %v", path, len(data), err)
			}
		}
	}
	path := filepath.Join(dir, "symbols.csv")
	if err := ui.WriteFile(path, v.Symbols.Table.WriteCSV); err != nil {
		t.Fatal(err)
	}
	data, _ := os.ReadFile(path)
	lines := strings.Split(strings.TrimSpace(string(data)), "\n")
	if lines[0] != "Samples,%,Total,Total %,Image,Symbol,Layer,Component" || len(lines) != len(v.Symbols.Table.Rows())+1 {
		t.Errorf("CSV header %q, %d lines for %d rows", lines[0], len(lines), len(v.Symbols.Table.Rows()))
	}
	var buf bytes.Buffer
	if err := v.Layers.Threads.WriteCSV(&buf); err != nil || !strings.Contains(buf.String(), "C2 CompilerThre") {
		t.Errorf("thread CSV: %v\n%s", err, buf.String())
	}
}
