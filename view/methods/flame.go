package methods

import (
	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"androprof/chart"
	"androprof/controller"
	"androprof/model/calls"
	"androprof/model/flame"
	"androprof/model/javaname"
	"androprof/view/ui"
)

// TabFlame is the Flame tab's title.
const TabFlame = "Flame"

// flameTab is the run's call tree as a flame graph (issue 28): the thread and clock of the top
// bar, each frame as wide as its call path's inclusive time, in the window's shared flame panel
// (click to zoom, hover for numbers, search with its share, focus steps kept across threads and
// clocks, Save PNG/SVG). A click on a method's frame selects the method in the other tabs, and
// Show in profile opens its row; a method selected elsewhere has its frames outlined.
type flameTab struct {
	*ui.FlamePanel
	ShowInProfile *widget.Button

	m       *View
	name    func(calls.MethodInfo) string // how the graph shown names methods
	pkg     func(string) string           // and their packages
	zoom    []string                      // the names of the frames zoomed through, kept across threads and clocks
	gen     int
	content fyne.CanvasObject
}

func newFlameTab(m *View) *flameTab {
	t := &flameTab{m: m, FlamePanel: ui.NewFlamePanel(m.host.Window(), m.host.Background()), name: calls.MethodName, pkg: func(p string) string { return p }}
	t.OnChange = func(_ chart.Flame, zoom []string) { t.zoom = zoom }
	t.ShowInProfile = widget.NewButtonWithIcon("Show in profile", theme.ListIcon(), func() {
		if id, ok := t.methodOf(t.Selected()); ok {
			m.openMethod(id)
		}
	})
	t.ShowInProfile.Disable()
	t.OnSelect = func(n *flame.Node) {
		id, ok := t.methodOf(n)
		ui.Enable(t.ShowInProfile, ok)
		if ok {
			m.selectMethod(id, fromFlame)
			t.markMethod(id)
		}
	}
	t.AddTool(t.ShowInProfile)
	m.followSelection(fromFlame, t.markMethod)
	t.content = t.Content()
	return t
}

// frameNames are how the flame graph names methods and their packages now: as Java reads them
// (the package apart, as the frame's origin in its hover text and colour), or raw when the bar
// says so.
func (m *View) frameNames() (method func(calls.MethodInfo) string, pkg func(string) string) {
	if m.raw {
		return calls.MethodName, func(p string) string { return p }
	}
	return func(mi calls.MethodInfo) string { return calls.ReadableName(mi).Short },
		func(p string) string { n, _ := javaname.Package(p); return n.Short }
}

// recompute draws the graph of the bar's thread and clock in the background.
func (t *flameTab) recompute() {
	t.gen++
	gen, m := t.gen, t.m
	name, pkg := m.frameNames()
	run := m.sel.run
	opts := controller.FlameOptions{TID: m.sel.tid, Wall: !m.sel.cpu, Name: name, Package: pkg}
	a, ctx := m.a, m.host.Context()
	m.host.Background().Run(func() func() {
		f, err := a.FlameChart(ctx, run, opts)
		return func() {
			if gen != t.gen {
				return
			}
			if err != nil {
				m.host.SetProblem(ui.ProblemText("draw the flame graph of", run, err))
				return
			}
			t.name, t.pkg = name, pkg
			ui.Enable(t.ShowInProfile, false)
			t.Show(f, t.zoom)
			if id, ok := m.selectedMethod(); ok {
				t.markMethod(id)
			}
		}
	})
}

// methodOf is the trace's method a frame stands for; the root and the threads' frames stand
// for none. Frames are found by name and package, as the graph names them.
func (t *flameTab) methodOf(n *flame.Node) (uint64, bool) {
	f, tr := t.Flame(), t.m.trace
	if n == nil || tr == nil || n == f.Top() || t.m.sel.tid == 0 && f.Top() != nil && isChild(f.Top(), n) {
		return 0, false
	}
	for id, mi := range tr.Profile.Methods {
		if t.name(mi) == n.Name && t.pkg(calls.PackageOf(mi.Class)) == n.Origin {
			return id, true
		}
	}
	return 0, false
}

// markMethod outlines every frame of method id, wherever it was called from.
func (t *flameTab) markMethod(id uint64) {
	tr := t.m.trace
	if tr == nil {
		return
	}
	mi, ok := tr.Profile.Methods[id]
	if !ok {
		t.Mark(nil)
		return
	}
	name, pkg := t.name(mi), t.pkg(calls.PackageOf(mi.Class))
	t.Mark(func(n *flame.Node) bool { return n.Name == name && n.Origin == pkg })
}

func isChild(parent, n *flame.Node) bool {
	for _, c := range parent.Children {
		if c == n {
			return true
		}
	}
	return false
}
