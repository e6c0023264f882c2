package chart

import (
	"androprof/model/calls"
	"androprof/model/flame"
	"androprof/model/javaname"
	"androprof/model/layers"
)

// Charts name Java methods as people read them (model/javaname); the reports and the CSV of
// the tables keep the raw names, which stay the identity.

// ReadableMethodLabels relabels a method chart's bars (FromMethodReport, FromMethodComparison
// grouped by by) as people read Java: "GameScreen.paint(float)" for
// "com/jag/positron/GameScreen.paint (F)V", a class without its package, a package dotted.
// Where two bars would read alike (one class name in two packages) their package follows in
// parentheses. The bars keep their order, so a tap's index still finds the raw key in c.
// `androprof chart` and the window draw this unless asked for raw names.
func ReadableMethodLabels(c Chart, by calls.MethodGrouping) Chart {
	read := func(label string) javaname.Name {
		switch by {
		case calls.ByMethod:
			n, _ := javaname.Traceview(label)
			return n
		case calls.ByClass:
			n, _ := javaname.Class(label)
			return n
		case calls.ByPackage:
			n, _ := javaname.Package(label)
			return n
		}
		return javaname.Raw(label)
	}
	names := make([]javaname.Name, len(c.Bars))
	seen := map[string]int{}
	for i, b := range c.Bars {
		names[i] = read(b.Label)
		seen[names[i].Short]++
	}
	bars := make([]Bar, len(c.Bars))
	for i, b := range c.Bars {
		b.Label = names[i].Short
		if seen[b.Label] > 1 && names[i].Package != "" {
			b.Label += " (" + names[i].Package + ")"
		}
		bars[i] = b
	}
	c.Bars = bars
	return c
}

// ReadableFlame names a sampled run's Java frames (the application's and the Java library's
// layers) as Java reads them, "Phases.work(int)" for "com.example.Phases.work(I)J", on a copy
// of the tree: the graph given may be kept by others. Other frames keep their symbols, as a
// native symbol can look like a Java name ("foo.constprop.0"). A graph already zoomed or
// searched is returned as it is, since its Path and Hits point into the tree.
func ReadableFlame(f Flame) Flame {
	if f.Root == nil || len(f.Path) > 0 || len(f.Hits) > 0 {
		return f
	}
	f.Root = readableFrames(f.Root)
	return f
}

// readableFrames copies a tree, renaming its Java frames; iterative, as a tree can be deep.
func readableFrames(root *flame.Node) *flame.Node {
	rename := func(n *flame.Node) *flame.Node {
		c := *n
		c.Name = layers.ReadableSymbol(n.Name, n.Layer).Short
		c.Children = append([]*flame.Node(nil), n.Children...)
		return &c
	}
	top := rename(root)
	stack := []*flame.Node{top}
	for len(stack) > 0 {
		n := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		for i, ch := range n.Children {
			n.Children[i] = rename(ch)
			stack = append(stack, n.Children[i])
		}
	}
	return top
}
