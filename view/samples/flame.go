package samples

import (
	"fyne.io/fyne/v2"

	"androprof/chart"
	"androprof/view/ui"
)

// flameTab is the mixed-mode flame graph of the selection: Java methods, the VM, native
// libraries and the kernel in one stack, in the window's shared flame panel (click to zoom,
// hover for numbers, search, focus). The zoom outlives a change of thread or time window as long
// as the frames zoomed through are still there; the focus steps outlive it too.
type flameTab struct {
	*ui.FlamePanel

	v       *View
	flame   chart.Flame // as shown
	zoom    []string    // the names of the frames from Top's child to the root zoomed to
	content fyne.CanvasObject
}

func newFlameTab(v *View) *flameTab {
	t := &flameTab{v: v, FlamePanel: ui.NewFlamePanel(v.host.Window(), v.host.Background())}
	t.OnChange = func(f chart.Flame, zoom []string) { t.flame, t.zoom = f, zoom }
	t.content = t.Content()
	return t
}

// show draws the selection's graph, zoomed as before where the same frames are there.
func (t *flameTab) show(res *result) { t.Show(res.flame, t.zoom) }
