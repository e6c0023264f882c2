package chart

import (
	"androprof/model/flame"
	"bytes"
	"image"
	"image/color"
	"slices"
	"strings"
	"testing"

	"androprof/chart/render"
	"androprof/model/layers"
	"androprof/model/samples"
)

// phases is a timeline of four buckets of 1 s, each dominated by one layer as the Phases
// sample's phases are: application, java library, native, kernel.
var phases = samples.LayerTimeline{StartNS: 0, BucketNS: 1e9, Counts: [][6]int{
	{90, 5, 5, 0, 0, 0}, {5, 80, 5, 0, 10, 0}, {2, 0, 3, 95, 0, 0}, {0, 0, 5, 10, 85, 0}}}

func rgb(c color.Color) [3]uint8 {
	r, g, b, _ := c.RGBA()
	return [3]uint8{uint8(r >> 8), uint8(g >> 8), uint8(b >> 8)}
}

// dominant is the colour most pixels of column x between rows y0 and y1 have.
func dominant(img image.Image, x, y0, y1 int) [3]uint8 {
	n := map[[3]uint8]int{}
	for y := y0; y < y1; y++ {
		n[rgb(img.At(x, y))]++
	}
	var best [3]uint8
	for c, k := range n {
		if k > n[best] {
			best = c
		}
	}
	return best
}

// Each bucket is a column stacked by layer: its dominant layer's colour covers most of it, and
// as shares every column reaches the top.
func TestLayerSharesColumnsShowTheDominantLayer(t *testing.T) {
	want := []layers.Layer{layers.LayerApp, layers.LayerJavaLib, layers.LayerNative, layers.LayerKernel}
	for _, shares := range []bool{false, true} {
		c := FromLayerTimeline(phases, "r", "all threads", shares)
		var buf bytes.Buffer
		f, err := c.render(&buf, render.PNG, 800, 400)
		if err != nil {
			t.Fatal(err)
		}
		save(t, "layer-shares.png", buf.Bytes())
		img, err := render.Image(c, 800, 400)
		if err != nil {
			t.Fatal(err)
		}
		for i, l := range want {
			x := f.px(float64(i) + 0.5)
			if got := dominant(img, x, f.top, f.bottom); got != rgb(layerColour(l)) {
				t.Errorf("shares %v: bucket %d is mostly %v, want %s's %v", shares, i, got, l, rgb(layerColour(l)))
			}
			if shares && rgb(img.At(x, f.top+1)) == rgb(background) {
				t.Errorf("bucket %d as shares does not reach 100%%", i)
			}
		}
	}
	var svg bytes.Buffer
	if err := FromLayerTimeline(phases, "r <1>", "all", true).Paint(&svg, render.SVG, 800, 400); err != nil {
		t.Fatal(err)
	}
	wellFormed(t, svg.Bytes())
	for _, s := range []string{"application", "kernel", "time (s)", "r &lt;1&gt;", ">0.5<"} { // seconds, not "500m"
		if !strings.Contains(svg.String(), s) {
			t.Errorf("the SVG lacks %q", s)
		}
	}
	if !(LayerShares{Timeline: samples.LayerTimeline{BucketNS: 1, Counts: make([][6]int, 3)}}).Empty() || FromLayerTimeline(phases, "r", "s", false).Empty() {
		t.Error("Empty is wrong")
	}
}

// flameTree is all → main → {work (app) → write (native) → sys_write (kernel), sort (java
// library)}, and a thin frame "tiny" of one sample in a thousand.
func flameTree() (root, main, work, write, sort, tiny *flame.Node) {
	sysWrite := &flame.Node{Name: "ksys_write", Origin: "[kernel.kallsyms]", Layer: layers.LayerKernel, Self: 200, Total: 200}
	write = &flame.Node{Name: "__libc_write", Origin: "libc.so.6", Layer: layers.LayerNative, Total: 200, Children: []*flame.Node{sysWrite}}
	work = &flame.Node{Name: "com.example.Phases.work(I)J", Origin: "/tmp/perf-1.map", Layer: layers.LayerApp, Self: 400, Total: 600,
		Children: []*flame.Node{write}}
	sort = &flame.Node{Name: "java.util.Arrays.sort([I)V", Origin: "/tmp/perf-1.map", Layer: layers.LayerJavaLib, Self: 399, Total: 399}
	tiny = &flame.Node{Name: "tiny", Origin: "libz.so", Layer: layers.LayerNative, Self: 1, Total: 1}
	main = &flame.Node{Name: "com.example.Phases.main([Ljava/lang/String;)V", Layer: layers.LayerApp, Total: 1000,
		Children: []*flame.Node{work, sort, tiny}}
	root = &flame.Node{Name: "all", Total: 1000, Children: []*flame.Node{main}}
	return
}

// Frames are as wide as their samples, callees on top of callers; a click finds the frame
// drawn there, and each is filled in its layer's hue.
func TestFlameLayoutHitAndColours(t *testing.T) {
	root, main, work, write, sort, tiny := flameTree()
	f := FromFlame(root, "r", "all threads")
	const w, h = 1000, 400
	img, err := render.Image(f, w, h)
	if err != nil {
		t.Fatal(err)
	}
	rects := map[string]image.Rectangle{}
	for _, n := range []*flame.Node{root, main, work, write, sort} {
		r, ok := f.FrameRect(w, h, n)
		if !ok {
			t.Fatalf("%s is not drawn", n.Name)
		}
		rects[n.Name] = r
		c := image.Pt((r.Min.X+r.Max.X)/2, r.Max.Y-2)
		if got := f.FrameAt(w, h, c.X, c.Y); got != n {
			t.Errorf("FrameAt(%v) = %v, want %s", c, got, n.Name)
		}
		if n.Layer != 0 {
			if got, want := rgb(img.At(c.X, c.Y)), rgb(layerColour(n.Layer)); !sameHue(got, want) {
				t.Errorf("%s is filled %v, not in %s's hue %v", n.Name, got, n.Layer, want)
			}
		}
	}
	full := rects["all"].Dx()
	if d := rects[work.Name].Dx(); d < full*6/10-2 || d > full*6/10+1 {
		t.Errorf("work is %d px of %d, want 60%%", d, full)
	}
	if rects[main.Name].Max.Y > rects["all"].Min.Y || rects[work.Name].Max.Y > rects[main.Name].Min.Y {
		t.Errorf("callees are not drawn on top of their callers: %v", rects)
	}
	if rects[sort.Name].Min.X < rects[work.Name].Max.X {
		t.Errorf("sort %v overlaps work %v", rects[sort.Name], rects[work.Name])
	}
	if _, ok := f.FrameRect(w, h, tiny); !ok {
		t.Error("a frame of one sample in a thousand is a pixel wide at 1000 px and should be drawn")
	}
	if _, ok := f.FrameRect(200, 400, tiny); ok {
		t.Error("a frame narrower than a pixel is drawn")
	}
	if f.FrameAt(w, h, w/2, 5) != nil {
		t.Error("the title is a frame")
	}
}

// sameHue tells whether got is want lightened towards white (as flameColour does).
func sameHue(got, want [3]uint8) bool {
	// got = want + (255-want)·k for one k in 0.2…0.6
	var ks []float64
	for i := range 3 {
		if want[i] == 255 {
			continue
		}
		ks = append(ks, float64(int(got[i])-int(want[i]))/float64(255-int(want[i])))
	}
	for _, k := range ks {
		if k < 0.2 || k > 0.6 || k-ks[0] > 0.03 || ks[0]-k > 0.03 {
			return false
		}
	}
	return true
}

// Zooming draws a frame full width with its callers greyed below it; a click on a caller
// finds it, so zooming out is a click too, and Zoom(Top) shows the whole graph.
func TestFlameZoom(t *testing.T) {
	root, main, work, write, _, _ := flameTree()
	f := FromFlame(root, "r", "s").Zoom(work)
	if f.Root != work || !slices.Equal(f.Path, []*flame.Node{root, main}) || f.Top() != root {
		t.Fatalf("zoomed to %s with path %v", f.Root.Name, f.Path)
	}
	const w, h = 800, 300
	rw, _ := f.FrameRect(w, h, work)
	rm, ok := f.FrameRect(w, h, main)
	if !ok || rw.Dx() < rm.Dx()-1 || rm.Dx() < w-2*pad-1 {
		t.Errorf("zoomed: work %v, main %v, want both full width", rw, rm)
	}
	if rx, _ := f.FrameRect(w, h, write); rx.Dx() < rw.Dx()/3-1 {
		t.Errorf("write is %v of work's %v, want a third", rx, rw)
	}
	img, err := render.Image(f, w, h)
	if err != nil {
		t.Fatal(err)
	}
	if got := rgb(img.At(rm.Min.X+5, rm.Max.Y-2)); got != rgb(flameColour(flameBox{caller: true})) {
		t.Errorf("a caller is %v, not grey", got)
	}
	if got := f.FrameAt(w, h, rm.Min.X+5, rm.Max.Y-2); got != main {
		t.Errorf("FrameAt on the caller = %v", got)
	}
	if back := f.Zoom(main); back.Root != main || len(back.Path) != 1 {
		t.Errorf("zoom out to main: %s, %d callers", back.Root.Name, len(back.Path))
	}
	if all := f.Zoom(f.Top()); all.Root != root || len(all.Path) != 0 {
		t.Errorf("zoom to the top: %s, %d callers", all.Root.Name, len(all.Path))
	}
	if same := f.Zoom(&flame.Node{Name: "elsewhere"}); same.Root != work {
		t.Error("zooming to a node of another tree changed the graph")
	}
}

// Labels go where they fit, escaped in SVG; the legend names the layers drawn; frames deeper
// than the rows are counted in the note, not drawn over the title.
func TestFlameLabelsLegendAndDepth(t *testing.T) {
	root, _, _, _, _, tiny := flameTree()
	var svg bytes.Buffer
	if err := FromFlame(root, "r", "thread 7 <main>").Paint(&svg, render.SVG, 1000, 400); err != nil {
		t.Fatal(err)
	}
	wellFormed(t, svg.Bytes())
	s := svg.String()
	for _, want := range []string{"com.example.Phases.work(I)J", "java.util.Arrays.sort([I)V", "ksys_write", "thread 7 &lt;main&gt;",
		"application", "java library", "native", "kernel"} {
		if !strings.Contains(s, want) {
			t.Errorf("the SVG lacks %q", want)
		}
	}
	if strings.Contains(s, ">"+tiny.Name+"<") || strings.Contains(s, ">vm<") {
		t.Error("a one-pixel frame got a label, or the legend names a layer not drawn")
	}

	// A stack 200 deep: the rows take what fits, the rest is counted.
	deep := &flame.Node{Name: "all", Total: 10}
	at := deep
	for i := range 200 {
		n := &flame.Node{Name: "f" + strings.Repeat("x", i%5), Layer: layers.LayerNative, Total: 10}
		at.Children = []*flame.Node{n}
		at = n
	}
	f := FromFlame(deep, "r", "s")
	l := f.layout(800, 400)
	if l.hidden == 0 || l.rowH != flameMinRow || len(l.boxes)+l.hidden != 201 {
		t.Errorf("deep stack: %d drawn, %d hidden, rows %d px", len(l.boxes), l.hidden, l.rowH)
	}
	for _, b := range l.boxes {
		if r := l.rect(b); r.Min.Y < pad+26+legendH {
			t.Errorf("row %d at %v is drawn over the title or legend", b.row, r)
		}
	}
	// Zoomed deep into it, only the nearest callers are drawn, so the rows go to the callees.
	mid := deep
	for range 150 {
		mid = mid.Children[0]
	}
	z := f.Zoom(mid)
	if len(z.Path) != 150 {
		t.Fatalf("zoomed %d deep", len(z.Path))
	}
	if _, ok := z.FrameRect(800, 400, z.Path[0]); ok {
		t.Error("the outermost caller of 150 is drawn")
	}
	if r, ok := z.FrameRect(800, 400, z.Path[149]); !ok || z.FrameAt(800, 400, r.Min.X+2, r.Min.Y+2) != z.Path[149] {
		t.Error("the nearest caller is not drawn, or not found by a click")
	}
	if r, _ := z.FrameRect(800, 400, mid); r.Max.Y != z.layout(800, 400).bottom-flameCallers*z.layout(800, 400).rowH {
		t.Errorf("the zoomed frame is at %v, not on the row above %d callers", r, flameCallers)
	}
	svg.Reset()
	if err := f.Paint(&svg, render.SVG, 800, 400); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(svg.String(), "deeper than the rows shown") {
		t.Error("the note does not say frames are left out")
	}
	var png bytes.Buffer
	if err := (Flame{}).Paint(&png, render.PNG, 300, 200); err != nil || !(Flame{}).Empty() {
		t.Errorf("an empty flame graph: %v", err)
	}
}

func TestFromSampleAndThreadRows(t *testing.T) {
	rows := []samples.SampleRow{{Key: "application", Layer: layers.LayerApp, Self: 70, Total: 100}, {Key: "kernel", Layer: layers.LayerKernel, Self: 30, Total: 40}}
	c := FromSampleRows(rows, "layer", "r", "all threads")
	if c.Title != "Samples by layer — r, all threads" || len(c.Bars) != 2 || c.Bars[0] != (Bar{Label: "application", Value: 70}) || c.Unit != "samples" {
		t.Errorf("chart %+v", c)
	}
	threads := []samples.ThreadRow{{PID: 1, TID: 2, Comm: "main", Samples: 10, Layers: [6]int{6, 0, 1, 0, 3, 0}}, {TID: 3, Samples: 1, Layers: [6]int{0, 0, 1}}}
	tc := FromThreadRows(threads, "r", "s")
	if !tc.Stacked || len(tc.Series) != 6 || tc.Series[0] != "application" || tc.Bars[0] != (Bar{Label: "2 main", Value: 10}) || tc.Bars[1].Label != "3" ||
		!slices.Equal(tc.Values[0], []float64{6, 0, 1, 0, 3, 0}) {
		t.Errorf("chart %+v", tc)
	}
	// The stacked bars take the layers' colours: the application's part is drawn in its colour.
	img, err := render.Image(tc, 800, 300)
	if err != nil {
		t.Fatal(err)
	}
	l := barRows(tc, 800, 300).fit(2)
	y, thick := l.bar(0)
	found := false
	for x := range 800 {
		if rgb(img.At(x, y+thick/2)) == rgb(layerColour(layers.LayerApp)) {
			found = true
		}
	}
	if !found {
		t.Error("the thread's application part is not in the application's colour")
	}
}
