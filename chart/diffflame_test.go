package chart

import (
	"bytes"
	"strings"
	"testing"

	"androprof/chart/render"
	"androprof/model/flame"
)

// diffPair is two runs of all → main → {paint, draw, old}: B has paint's time doubled and no
// old (a method gone in the newer run), the rest as it was.
func diffPair() (a, b *flame.Node) {
	graph := func(paint, old int64) *flame.Node {
		kids := []*flame.Node{
			{Name: "paint", Origin: "com.example", Self: paint, Total: paint},
			{Name: "draw", Origin: "com.example", Self: 300, Total: 300},
		}
		if old > 0 {
			kids = append(kids, &flame.Node{Name: "old", Origin: "com.example", Self: old, Total: old})
		}
		total := paint + 300 + old + 100
		main := &flame.Node{Name: "main", Self: 100, Total: total, Children: kids}
		return &flame.Node{Name: "all", Total: total, Children: []*flame.Node{main}}
	}
	return graph(200, 50), graph(400, 0)
}

// The diff graph is B's widths, paint (whose share grew) red, draw and main (whose shares
// shrank as paint grew) blue, the root neutral; old, only in A, is in the note, not drawn; the
// hover text says A, B and the change in µs and points; the CSV is the rows.
func TestDiffFlameColoursNoteAndText(t *testing.T) {
	a, b := diffPair()
	d := flame.Diff(a, b)
	rows := flame.DiffRows(d, flame.DiffByFunction, 0.01)
	f := FromDiff(d, rows, "before", "after", FlameCPU, "all threads", 0.01)
	if f.Root.Total != 800 {
		t.Fatalf("root is %d wide, want B's 800", f.Root.Total)
	}
	const w, h = 1000, 400
	img, err := render.Image(f, w, h)
	if err != nil {
		t.Fatal(err)
	}
	colour := func(name string) [3]uint8 {
		t.Helper()
		n := findNode(f.Root, name)
		if n == nil {
			t.Fatalf("%s is not in the graph", name)
		}
		r, ok := f.FrameRect(w, h, n)
		if !ok {
			t.Fatalf("%s is not drawn", name)
		}
		return rgb(img.At(r.Min.X+1, r.Max.Y-2))
	}
	if c := colour("paint"); !(c[0] > 200 && c[2] < 150) {
		t.Errorf("paint, doubled, is %v: want red", c)
	}
	if c := colour("draw"); !(c[2] > 200 && c[0] < 200) {
		t.Errorf("draw, a smaller share of B, is %v: want blue", c)
	}
	if c := colour("all"); c != rgb(diffNeutral) {
		t.Errorf("the root is %v: want neutral %v", c, rgb(diffNeutral))
	}
	if findNode(f.Root, "old") != nil {
		t.Error("old, only in A, is drawn")
	}
	if !strings.Contains(f.Note, "1 frame only in before") || !strings.Contains(f.Note, "50 µs") {
		t.Errorf("note %q does not count old", f.Note)
	}
	text := f.FrameText(findNode(f.Root, "paint"))
	for _, want := range []string{"A 200 µs thread CPU", "B 400 µs thread CPU", "+200 µs thread CPU", "30.8% → 50.0%", "+19.23 points"} {
		if !strings.Contains(text, want) {
			t.Errorf("hover %q lacks %q", text, want)
		}
	}
	var svg bytes.Buffer
	if err := render.Render(&svg, f, render.SVG, w, h); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(svg.String(), "<title>paint (com.example): A 200") {
		t.Error("the SVG has no hover text for paint")
	}
	table := f.Table()
	if len(table) != len(rows)+1 || table[1][0] != rows[0].Key {
		t.Errorf("CSV %v is not the rows %v", table, rows)
	}
}

// Under the threshold every frame is neutral: a threshold above every change draws no colour.
func TestDiffFlameThresholdIsNeutral(t *testing.T) {
	a, b := diffPair()
	d := flame.Diff(a, b)
	f := FromDiff(d, flame.DiffRows(d, flame.DiffByFunction, 0.5), "a", "b", "", "all", 0.5)
	img, err := render.Image(f, 600, 300)
	if err != nil {
		t.Fatal(err)
	}
	n := findNode(f.Root, "paint")
	r, _ := f.FrameRect(600, 300, n)
	if c := rgb(img.At(r.Min.X+1, r.Max.Y-2)); c != rgb(diffNeutral) {
		t.Errorf("paint under a 50-point threshold is %v, want neutral", c)
	}
	if f.DiffNode(n) == nil || f.DiffNode(n).SelfA != 200 {
		t.Error("DiffNode does not find paint's diff")
	}
	// A zoom keeps the diff's colours and numbers.
	z := f.Zoom(n)
	if !strings.Contains(z.FrameText(n), "self A 200 samples") {
		t.Errorf("zoomed text %q", z.FrameText(n))
	}
	if (Flame{}).DiffNode(n) != nil {
		t.Error("a plain graph has diff nodes")
	}
}

// A diff of no stacks (an emulator run's) draws "No data".
func TestDiffFlameNil(t *testing.T) {
	if f := FromDiff(nil, nil, "a", "b", "", "all", 0); !f.Empty() {
		t.Error("a nil diff is not empty")
	}
}

func findNode(n *flame.Node, name string) *flame.Node {
	if n == nil || n.Name == name {
		return n
	}
	for _, c := range n.Children {
		if f := findNode(c, name); f != nil {
			return f
		}
	}
	return nil
}
