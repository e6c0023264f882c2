package samples

import (
	"androprof/model/flame"
	"fmt"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"androprof/chart"
	"androprof/internal/human"
	"androprof/view/ui"
)

// flameTab is the mixed-mode flame graph of the selection: Java methods, the VM, native
// libraries and the kernel in one stack. A click on a frame zooms to it; a click on a greyed
// caller, or Show all, zooms back out. The zoom outlives a change of thread or time window as
// long as the frames zoomed through are still there.
type flameTab struct {
	Chart   *ui.ChartPanel
	ShowAll *widget.Button
	Info    *widget.Label // the frame zoomed to

	v       *View
	res     *result
	flame   chart.Flame // as shown
	zoom    []string    // the names of the frames from Top's child to the root zoomed to
	content fyne.CanvasObject
}

const flameHint = "Click a frame to zoom to it; click a grey caller below it, or Show all, to zoom out."

func newFlameTab(v *View) *flameTab {
	t := &flameTab{v: v}
	t.Chart = ui.NewChartPanel(v.host.Window(), v.host.Background(), chart.Bars, nil)
	t.Chart.OnPoint = func(d chart.Drawing, w, h, x, y int) {
		if f, ok := d.(chart.Flame); ok {
			if n := f.FrameAt(w, h, x, y); n != nil {
				t.zoomTo(n)
			}
		}
	}
	t.ShowAll = widget.NewButtonWithIcon("Show all", theme.ZoomFitIcon(), func() { t.zoomTo(t.flame.Top()) })
	t.ShowAll.Disable()
	t.Info = widget.NewLabel(flameHint)
	t.Info.Truncation = fyne.TextTruncateEllipsis
	t.content = container.NewBorder(container.NewBorder(nil, nil, nil, t.ShowAll, t.Info), nil, nil, nil, t.Chart.Content())
	return t
}

// show draws the selection's graph, zoomed as before where the same frames are there.
func (t *flameTab) show(res *result) {
	t.res = res
	f := res.flame
	at := f.Root
	for _, name := range t.zoom {
		next := (*flame.Node)(nil)
		for _, c := range at.Children {
			if c.Name == name {
				next = c
				break
			}
		}
		if next == nil {
			break
		}
		at = next
	}
	t.set(f.Zoom(at))
}

// zoomTo draws the graph with n full width.
func (t *flameTab) zoomTo(n *flame.Node) {
	f := t.flame.Zoom(n)
	t.zoom = nil
	if len(f.Path) > 0 {
		for _, p := range f.Path[1:] {
			t.zoom = append(t.zoom, p.Name)
		}
		t.zoom = append(t.zoom, f.Root.Name)
	}
	t.set(f)
}

func (t *flameTab) set(f chart.Flame) {
	t.flame = f
	ui.Enable(t.ShowAll, len(f.Path) > 0)
	t.Info.SetText(t.describe(f))
	t.Chart.SetDrawing(f, f.Title)
}

// describe says which frame the graph is zoomed to and what share of the selection it holds.
func (t *flameTab) describe(f chart.Flame) string {
	if len(f.Path) == 0 || f.Root == nil {
		return flameHint
	}
	n, all := f.Root, f.Top().Total
	return fmt.Sprintf("%s (%s, %s): %s, %.1f%% of the selection; %s as leaf. Click a grey caller or Show all to zoom out.",
		n.Name, n.Origin, n.Layer, human.Count(n.Total, "sample", "samples"), 100*float64(n.Total)/float64(max(all, 1)), human.Grouped(int64(n.Self)))
}
