package chart

import (
	"bytes"
	"image"
	"regexp"
	"slices"
	"strings"
	"testing"

	"androprof/chart/render"
	"androprof/model/flame"
	"androprof/model/layers"
)

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

// Frames are as wide as their samples, callees under their callers; a click finds the frame
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
	if rects[main.Name].Min.Y < rects["all"].Max.Y || rects[work.Name].Min.Y < rects[main.Name].Max.Y {
		t.Errorf("callees are not drawn under their callers (an icicle): %v", rects)
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

// sameHue tells whether got is want lightened towards white (as frameColour does).
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

// Zooming draws a frame full width with its callers greyed above it; a click on a caller
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
	if got := rgb(img.At(rm.Min.X+5, rm.Max.Y-2)); got != rgb(callerFill) {
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
	if r, _ := z.FrameRect(800, 400, mid); r.Min.Y != z.layout(800, 400).top+flameCallers*z.layout(800, 400).rowH {
		t.Errorf("the zoomed frame is at %v, not on the row under %d callers", r, flameCallers)
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

// methodTree is a method run's graph: thread 1 main → View.paint (ui) → {Canvas.draw (gfx) →
// View.paint (ui), View.layout (ui)}, in µs of thread CPU; no frame has a layer.
func methodTree() (root, paint, draw, inner, layout *flame.Node) {
	inner = &flame.Node{Name: "View.paint()", Origin: "com.ui", Self: 150, Total: 150}
	draw = &flame.Node{Name: "Canvas.draw()", Origin: "com.gfx", Self: 50, Total: 200, Children: []*flame.Node{inner}}
	layout = &flame.Node{Name: "View.layout()", Origin: "com.ui", Self: 300, Total: 300}
	paint = &flame.Node{Name: "View.paint()", Origin: "com.ui", Self: 100, Total: 600, Children: []*flame.Node{draw, layout}}
	root = &flame.Node{Name: "thread 1 main", Self: 400, Total: 1000, Children: []*flame.Node{paint}}
	return root, paint, draw, inner, layout
}

// A method run's frames have no layer: each takes its package's warm hue (flamegraph.pl's hot
// palette: red high, blue low), one hue per package, never the grey of a zoomed caller; the
// title and hover say the clock's unit.
func TestMethodFlameColoursByPackage(t *testing.T) {
	root, paint, draw, _, layout := methodTree()
	f := FromMethodFlame(root, "r", "thread 1 main", false)
	if !strings.Contains(f.Title, "µs thread CPU") || !strings.Contains(FromMethodFlame(root, "r", "s", true).Title, "µs real time") {
		t.Errorf("titles %q: the unit is not said", f.Title)
	}
	const w, h = 1000, 400
	img, err := render.Image(f, w, h)
	if err != nil {
		t.Fatal(err)
	}
	colour := func(n *flame.Node) [3]uint8 {
		r, ok := f.FrameRect(w, h, n)
		if !ok {
			t.Fatalf("%s is not drawn", n.Name)
		}
		return rgb(img.At(r.Min.X+2, r.Max.Y-2))
	}
	for _, n := range []*flame.Node{paint, draw, layout} {
		c := colour(n)
		if c[0] < 205 || c[2] > 55 || c == rgb(callerFill) {
			t.Errorf("%s (%s) is %v: not a warm hue", n.Name, n.Origin, c)
		}
	}
	if a, b := originColour("com.ui", "x"), originColour("com.ui", "y"); a.G != b.G {
		t.Errorf("one package, two hues: %v, %v", a, b)
	}
	if a, b := originColour("com.ui", "x"), originColour("com.gfx", "x"); a.G == b.G {
		t.Errorf("two packages, one hue: %v", a)
	}
	if got := f.FrameText(paint); got != "View.paint() (com.ui): 600 µs thread CPU, 60.0% of thread 1 main; self 100 µs thread CPU" {
		t.Errorf("hover text %q", got)
	}
	var svg bytes.Buffer
	if err := f.Paint(&svg, render.SVG, w, h); err != nil {
		t.Fatal(err)
	}
	wellFormed(t, svg.Bytes())
	for _, want := range []string{"com.ui", "com.gfx", "<g><title>View.paint() (com.ui): 600 µs thread CPU, 60.0% of thread 1 main; self 100 µs thread CPU</title>"} {
		if !strings.Contains(svg.String(), want) {
			t.Errorf("the SVG lacks %q", want)
		}
	}
	if strings.Count(svg.String(), "<title>") != 5 || strings.Count(svg.String(), "<g>") != strings.Count(svg.String(), "</g>") || strings.Contains(svg.String(), "\x01") {
		t.Errorf("the SVG has %d titles for 5 frames, or marks left", strings.Count(svg.String(), "<title>"))
	}
}

// The SVG's hover text of hostile names is escaped: the file stays XML, and the names' control
// characters do not reach it.
func TestFlameHoverTextOfHostileNames(t *testing.T) {
	root := &flame.Node{Name: "all", Total: 10}
	for _, n := range hostile {
		root.Children = append(root.Children, &flame.Node{Name: n + "\x01/\x01", Origin: n, Total: 2, Self: 2})
	}
	var svg bytes.Buffer
	if err := FromMethodFlame(root, "r", "s", true).Paint(&svg, render.SVG, 800, 300); err != nil {
		t.Fatal(err)
	}
	wellFormed(t, svg.Bytes())
	if n := strings.Count(svg.String(), "<title>"); n != 1+len(hostile) {
		t.Errorf("%d titles for %d frames", n, 1+len(hostile))
	}
}

// A search lights up its matches and dims the rest; its share counts a recursive match once,
// zooming keeps it, and the note under the graph says it.
func TestFlameSearch(t *testing.T) {
	root, paint, draw, inner, _ := methodTree()
	f := FromMethodFlame(root, "r", "thread 1 main", true).Find(regexp.MustCompile(`paint`))
	if f.Matched != 600 || len(f.Hits) != 2 || !f.Hits[inner] {
		t.Fatalf("search paint: %d µs in %d frames", f.Matched, len(f.Hits))
	}
	if got := f.SearchText(); got != `Search "paint": 600 µs real time, 60.0% of thread 1 main, in 2 frames` {
		t.Errorf("search text %q", got)
	}
	const w, h = 1000, 400
	img, err := render.Image(f, w, h)
	if err != nil {
		t.Fatal(err)
	}
	at := func(n *flame.Node) [3]uint8 {
		r, _ := f.FrameRect(w, h, n)
		return rgb(img.At(r.Min.X+2, r.Max.Y-2))
	}
	if at(paint) != rgb(matchFill) || at(inner) != rgb(matchFill) {
		t.Errorf("matches are %v, %v, not %v", at(paint), at(inner), rgb(matchFill))
	}
	if c := at(draw); c == rgb(matchFill) || c != rgb(lighten(frameColour(draw), 75)) {
		t.Errorf("a frame that does not match is %v, not dimmed", c)
	}
	if z := f.Zoom(draw); z.Search != "paint" || !z.Hits[inner] || z.SearchText() != f.SearchText() {
		t.Error("zooming lost the search")
	}
	var svg bytes.Buffer
	if err := f.Paint(&svg, render.SVG, w, h); err != nil || !strings.Contains(svg.String(), "60.0% of thread 1 main, in 2 frames") {
		t.Errorf("the note does not say the search's share (%v)", err)
	}
	if none := f.Find(regexp.MustCompile(`nothing`)); none.SearchText() != `Search "nothing": no frame matches` {
		t.Errorf("no match: %q", none.SearchText())
	}
	if off := f.Find(nil); off.Search != "" || off.SearchText() != "" || len(off.Hits) != 0 {
		t.Error("a nil search did not end the search")
	}
	s := FromFlame(root, "r", "all threads")
	if got := s.FrameText(draw); got != "Canvas.draw() (com.gfx): 200 samples, 20.0% of all threads; self 50 samples" {
		t.Errorf("a sampled frame's text %q", got)
	}
}

// Marking a method outlines every frame of it, wherever it was called from, in the text colour;
// the others keep their fill to the edge.
func TestFlameMarkOutlines(t *testing.T) {
	root, paint, draw, inner, _ := methodTree()
	f := FromMethodFlame(root, "r", "thread 1 main", false).Mark(func(n *flame.Node) bool { return n.Name == "View.paint()" })
	if len(f.Marked) != 2 || !f.Marked[paint] || !f.Marked[inner] {
		t.Fatalf("marked %d frames", len(f.Marked))
	}
	const w, h = 1000, 400
	img, err := render.Image(f, w, h)
	if err != nil {
		t.Fatal(err)
	}
	for n, want := range map[*flame.Node]bool{paint: true, inner: true, draw: false} {
		r, _ := f.FrameRect(w, h, n)
		edge := rgb(img.At(r.Min.X+(r.Dx()/2), r.Min.Y))
		if got := edge == rgb(textColour); got != want {
			t.Errorf("%s's top edge is %v: outlined %v, want %v", n.Name, edge, got, want)
		}
	}
	if f.Mark(nil).Marked != nil {
		t.Error("a nil match kept the outlines")
	}
}

// A label is cut to its box as the PNG draws it (wider than the font measures): nothing of it
// spills onto the empty row to the right of its frame.
func TestFlameLabelsStayInTheirBoxes(t *testing.T) {
	long := &flame.Node{Name: "AndroidGraphics.drawCircFill(float, float, float, int, int) and more words", Origin: "gfx", Self: 30, Total: 30}
	root := &flame.Node{Name: "thread 1 main", Self: 70, Total: 100, Children: []*flame.Node{long}}
	f := FromMethodFlame(root, "r", "s", false)
	const w, h = 1000, 300
	img, err := render.Image(f, w, h)
	if err != nil {
		t.Fatal(err)
	}
	r, _ := f.FrameRect(w, h, long)
	for x := r.Max.X + 1; x < w-pad; x++ {
		for y := r.Min.Y; y < r.Max.Y; y++ {
			if got := rgb(img.At(x, y)); got != rgb(background) {
				t.Fatalf("pixel (%d, %d) right of the frame %v is %v: its label spilled", x, y, r, got)
			}
		}
	}
}
