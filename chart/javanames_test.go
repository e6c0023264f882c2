package chart

import (
	"testing"

	"androprof/model/calls"
	"androprof/model/flame"
	"androprof/model/layers"
)

// Bars keep their order and values; only their labels read as Java, and two that would read
// alike say their packages.
func TestReadableMethodLabels(t *testing.T) {
	c := Chart{Bars: []Bar{{Label: "com/jag/positron/GameScreen.paint (F)V", Value: 3}, {Label: "a/Util.run ()V", Value: 2},
		{Label: "b/Util.run ()V", Value: 1}, {Label: "a/B.odd (Q)V"}, {Label: OtherLabel, Value: 9}}}
	got := ReadableMethodLabels(c, calls.ByMethod)
	want := []string{"GameScreen.paint(float)", "Util.run() (a)", "Util.run() (b)", "a/B.odd (Q)V", OtherLabel}
	for i, b := range got.Bars {
		if b.Label != want[i] || b.Value != c.Bars[i].Value {
			t.Errorf("bar %d: %+v; want %q, %v", i, b, want[i], c.Bars[i].Value)
		}
	}
	if c.Bars[0].Label != "com/jag/positron/GameScreen.paint (F)V" {
		t.Error("the chart given was changed")
	}
	if got := ReadableMethodLabels(Chart{Bars: []Bar{{Label: "com/jag/positron"}}}, calls.ByPackage); got.Bars[0].Label != "com.jag.positron" {
		t.Errorf("package bar %q", got.Bars[0].Label)
	}
	if got := ReadableMethodLabels(Chart{Bars: []Bar{{Label: "12 main"}}}, calls.ByThread); got.Bars[0].Label != "12 main" {
		t.Errorf("thread bar %q", got.Bars[0].Label)
	}
}

// Java frames of a sampled flame graph read as Java; native ones that look like Java names
// and the graph given stay as they were.
func TestReadableFlame(t *testing.T) {
	java := &flame.Node{Name: "com.example.Phases.work(I)J", Layer: layers.LayerApp, Total: 2}
	native := &flame.Node{Name: "foo.constprop.0", Layer: layers.LayerNative, Total: 1}
	root := &flame.Node{Name: "all", Total: 3, Children: []*flame.Node{java, native}}
	f := ReadableFlame(Flame{Root: root})
	if n := f.Root.Children; n[0].Name != "Phases.work(int)" || n[0].Total != 2 || n[1].Name != "foo.constprop.0" {
		t.Errorf("frames %+v, %+v", n[0], n[1])
	}
	if java.Name != "com.example.Phases.work(I)J" || f.Root == root {
		t.Error("the graph given was changed")
	}
}
