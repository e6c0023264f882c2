package controller

import (
	"bytes"
	"context"
	"errors"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"androprof/chart"
	"androprof/chart/render"
	"androprof/model/flame"
)

// focusGraph is all → main → {Game.paint → lib.draw, lib.sleep}, in µs.
const focusGraph = `main;Game.paint;lib.draw 30
main;Game.paint 10
main;lib.sleep 20
main 40
`

func readFocusGraph(t *testing.T) *flame.Node {
	t.Helper()
	g, err := flame.ReadFolded(strings.NewReader(focusGraph), "all")
	if err != nil {
		t.Fatal(err)
	}
	return g
}

func folded(t *testing.T, g *flame.Node) string {
	t.Helper()
	var b bytes.Buffer
	if err := flame.WriteFolded(&b, g); err != nil {
		t.Fatal(err)
	}
	return b.String()
}

// Steps apply in the order given, each on what the one before left, and say what they did; the
// graph given is not changed; a bad expression and an unknown operation are errors that name
// the step; a path or a name not in the graph changes nothing and FocusMissing finds it.
func TestApplyFocus(t *testing.T) {
	g := readFocusGraph(t)
	before := folded(t, g)
	root, done, err := ApplyFocus(g, FocusOptions{Steps: []FocusStep{
		{flame.OpMerge, "Game.paint"},
		{flame.OpHide, "main;lib.sleep"},
	}})
	if err != nil {
		t.Fatal(err)
	}
	if got, want := folded(t, root), "main 50\nmain;lib.draw 30\n"; got != want {
		t.Errorf("merge then hide:\n%s\nwant\n%s", got, want)
	}
	if len(done) != 2 || done[0].Moved != 10 || done[1].Hidden != 20 || done[1].Whole != 100 {
		t.Errorf("done %+v", done)
	}
	if folded(t, g) != before {
		t.Error("ApplyFocus changed the graph it was given")
	}
	text := FocusText(done, func(v int64) string { return strconv.FormatInt(v, 10) + " µs" })
	if want := "Game.paint merged into its callers: 10 µs of 100 µs (10.0%) of self time now theirs; 20 µs of 100 µs (20.0%) hidden with main;lib.sleep and what it called"; text != want {
		t.Errorf("text %q\nwant %q", text, want)
	}
	micros := func(v int64) string { return strconv.FormatInt(v, 10) + " µs" }
	if got, want := FocusAmounts(done, micros, micros), "20 µs of 100 µs (20.0%) hidden · 10 µs (10.0%) moved to callers"; got != want {
		t.Errorf("amounts %q, want %q", got, want)
	}
	if js := FocusJSONOf(done); len(js) != 2 || js[1] != (FocusJSON{flame.OpHide, "main;lib.sleep", 20, 0, 1}) {
		t.Errorf("JSON %+v", js)
	}
	if js := FocusJSONOf(nil); js == nil || len(js) != 0 {
		t.Errorf("no step is %#v, want an empty list", js)
	}

	for _, c := range []struct {
		step FocusStep
		want string
	}{
		{FocusStep{flame.OpOnly, "(Game"}, `only "(Game": not a regular expression`},
		{FocusStep{flame.OpKeep, "a[z"}, `focus "a[z": not a regular expression`},
		{FocusStep{"prune", "x"}, `prune "x": no such focus operation`},
	} {
		_, _, err := ApplyFocus(g, FocusOptions{Steps: []FocusStep{c.step}})
		var fe *FocusError
		if !errors.As(err, &fe) || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%v: %v, want %q", c.step, err, c.want)
		}
	}
	_, done, err = ApplyFocus(g, FocusOptions{Steps: []FocusStep{{flame.OpHide, "main;nope"}, {flame.OpHide, "main"}}})
	if f, ok := FocusMissing(done); err != nil || !ok || f.Arg != "main;nope" {
		t.Errorf("missing path: %q %v %v", f.Arg, ok, err)
	}
	if _, ok := FocusMissing(done[1:]); ok {
		t.Error("a path that is there said missing")
	}
	_, done, _ = ApplyFocus(g, FocusOptions{Steps: []FocusStep{{flame.OpMerge, "lib.draw"}, {flame.OpMerge, "nope"}}})
	if f, ok := FocusMissing(done); !ok || f.Arg != "nope" {
		t.Errorf("missing name: %q %v", f.Arg, ok)
	}
}

// FocusFlame focuses the whole graph even when given zoomed, keeps the search on the focused
// graph, keeps the note it had and adds what the steps hid, which a saved SVG then says.
func TestFocusFlame(t *testing.T) {
	g := readFocusGraph(t)
	f := chart.FromMethodFlame(g, "r", "thread 1 main", false)
	f.Note = "selection note"
	f, err := FindFrames(f.Zoom(g.Children[0].Children[0]), "draw")
	if err != nil {
		t.Fatal(err)
	}
	got, done, err := FocusFlame(f, FocusOptions{Steps: []FocusStep{{flame.OpKeep, "^Game"}}})
	if err != nil {
		t.Fatal(err)
	}
	if len(got.Path) != 0 || got.Root.Total != 40 || len(done) != 1 || done[0].Hidden != 60 {
		t.Fatalf("root %s %d, path %d, done %+v", got.Root.Name, got.Root.Total, len(got.Path), done)
	}
	if got.Search != "draw" || got.Matched != 30 || len(got.Hits) != 1 {
		t.Errorf("search %q matched %d in %d frames", got.Search, got.Matched, len(got.Hits))
	}
	want := "selection note; Focus: focus ^Game: 60 µs of 100 µs thread CPU (60.0%) hidden"
	if got.Note != want {
		t.Errorf("note %q\nwant %q", got.Note, want)
	}
	var svg bytes.Buffer
	if err := got.Paint(&svg, render.SVG, 900, 500); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(svg.String(), "Focus: focus ^Game: 60 µs of 100 µs thread CPU (60.0%) hidden") {
		t.Error("the SVG does not say what the focus hid")
	}
	if _, _, err := FocusFlame(f, FocusOptions{Steps: []FocusStep{{flame.OpOnly, "("}}}); err == nil {
		t.Error("a bad expression focused")
	}
	if same, done, _ := FocusFlame(f, FocusOptions{}); same.Root != g || done != nil {
		t.Error("no step changed the graph")
	}
}

// An export of folded stacks and a diff take the same steps: the folded file is the focused
// graph, the diff compares both runs focused; other formats refuse a focus.
func TestFocusExportAndDiff(t *testing.T) {
	ctx := context.Background()
	ws := NewWorkspace(openStore(t))
	dir := t.TempDir()
	selfs := []uint64{50, 60, 45}
	writeDiffTrace(t, filepath.Join(dir, "a.trace"), 101, selfs)
	selfs[1] *= 2
	writeDiffTrace(t, filepath.Join(dir, "b.trace"), 202, selfs)
	importMethodRun(t, ws.Importer(), "a", filepath.Join(dir, "a.trace"))
	importMethodRun(t, ws.Importer(), "b", filepath.Join(dir, "b.trace"))
	merge := FocusOptions{Steps: []FocusStep{{flame.OpMerge, "com/example/Work.m3 ()V"}}}

	var out bytes.Buffer
	s, err := ws.Export(ctx, "a", "folded", ExportOptions{Clock: "cpu", Focus: merge}, &out)
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(out.String(), "m3") || len(s.Focused) != 1 || s.Focused[0].Moved != 60 {
		t.Errorf("folded with m3 merged (moved %+v):\n%s", s.Focused, out.String())
	}
	if _, err := ws.Export(ctx, "a", "speedscope", ExportOptions{Focus: merge}, &out); err == nil ||
		!strings.Contains(err.Error(), "folded stacks only") {
		t.Errorf("speedscope with a focus: %v", err)
	}

	res, err := ws.Diff(ctx, "a", "b", DiffOptions{Threshold: 0.01, Focus: merge})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.FocusA) != 1 || res.FocusA[0].Moved != 60 || res.FocusB[0].Moved != 120 {
		t.Errorf("focus A %+v, B %+v", res.FocusA, res.FocusB)
	}
	for _, r := range res.Rows {
		if strings.Contains(r.Key, "m3") {
			t.Errorf("the merged method is a row: %+v", r)
		}
	}
}

// A path to hide is cut where the graph's frames end, so a raw method name holding ";" (a
// descriptor) is one frame.
func TestHidePathWithSemicolons(t *testing.T) {
	leaf := &flame.Node{Name: "A.f (Ljava/lang/String;)V", Self: 5, Total: 5}
	other := &flame.Node{Name: "A.g ()V", Self: 7, Total: 7}
	top := &flame.Node{Name: "thread 1 main", Total: 12, Children: []*flame.Node{leaf, other}}
	root := &flame.Node{Name: "all", Total: 12, Children: []*flame.Node{top}}
	got, done, err := ApplyFocus(root, FocusOptions{Steps: []FocusStep{{flame.OpHide, "thread 1 main;A.f (Ljava/lang/String;)V"}}})
	if err != nil {
		t.Fatal(err)
	}
	if got.Total != 7 || done[0].Hidden != 5 || done[0].Frames != 1 {
		t.Errorf("total %d, hidden %d in %d frames", got.Total, done[0].Hidden, done[0].Frames)
	}
}
