package methods

import (
	"bytes"
	"context"
	"strings"
	"testing"

	"fyne.io/fyne/v2/test"

	"androprof/chart"
	"androprof/chart/render"
	"androprof/controller"
	"androprof/model/flame"
)

// The Flame tab's focus, as a person uses it on the jag trace: click GameScreen.paint and hide
// it, merge a method into its callers, focus on one, keep only frames matching; each time the
// graph is, SVG byte for byte, the one controller.FocusFlame makes of the tab's graph with the
// same steps (the call `chart --by flame --hide … --merge …` makes), the line says what is
// hidden, and the steps outlive a change of thread.
func TestFlameTabFocus(t *testing.T) {
	v, ma := openMethods(t)
	m := v.Methods
	showTab(v, flameTabIndex)
	m.Thread.SetSelected("12 Thread-106")
	v.Wait()
	ctx := context.Background()
	same := func(what string, steps ...controller.FocusStep) {
		t.Helper()
		name, pkg := m.frameNames()
		whole, err := ma.FlameChart(ctx, "jag", controller.FlameOptions{TID: m.sel.tid, Wall: !m.sel.cpu, Name: name, Package: pkg})
		if err != nil {
			t.Fatal(err)
		}
		want, _, err := controller.FocusFlame(whole, controller.FocusOptions{Steps: steps})
		if err != nil {
			t.Fatal(err)
		}
		got := m.Flame.Flame()
		got = got.Zoom(got.Top()).Mark(nil)
		if a, b := svgOf(t, got), svgOf(t, want); a != b {
			t.Errorf("%s: the tab's graph is not FocusFlame's (%d µs, want %d)", what, got.Top().Total, want.Top().Total)
		}
	}
	paint := findFrame(m.Flame.Flame().Top(), "GameScreen.paint(float)")
	if paint == nil {
		t.Fatal("no paint frame")
	}
	path := strings.Join(flame.PathOf(m.Flame.Flame().Top(), paint), ";")
	tapFlame(t, v, paint)
	test.Tap(m.Flame.Focus.Hide)
	v.Wait()
	hide := controller.FocusStep{Op: flame.OpHide, Arg: path}
	same("hide paint", hide)
	if !strings.Contains(m.Flame.Focus.Hidden.Text, "%) hidden") || !strings.Contains(m.Flame.Flame().Note, "hide GameScreen.paint(float)") {
		t.Errorf("after hide: %q", m.Flame.Focus.Hidden.Text)
	}
	for _, c := range m.Flame.Flame().Top().Children {
		if c.Name == paint.Name {
			t.Errorf("%s is still under %s", path, m.Flame.Flame().Top().Name)
		}
	}
	widest := m.Flame.Flame().Top().Children[0]
	for _, c := range m.Flame.Flame().Top().Children {
		if c.Total > widest.Total {
			widest = c
		}
	}
	tapFlame(t, v, widest)
	test.Tap(m.Flame.Focus.Merge)
	v.Wait()
	merge := controller.FocusStep{Op: flame.OpMerge, Arg: widest.Name}
	same("merge the widest", hide, merge)
	m.Flame.Focus.Only.SetText(`^(Game|Particle)`)
	v.Wait()
	only := controller.FocusStep{Op: flame.OpOnly, Arg: `^(Game|Particle)`}
	same("only Game|Particle", hide, merge, only)
	test.Tap(m.Flame.Focus.Clear)
	v.Wait()
	same("cleared")

	draw := findFrame(m.Flame.Flame().Top(), "Particle.draw()")
	tapFlame(t, v, draw)
	test.Tap(m.Flame.Focus.FocusOn)
	v.Wait()
	keep := controller.FocusStep{Op: flame.OpKeep, Arg: `^Particle\.draw\(\)$`}
	same("focus on draw", keep)
	if f := m.Flame.Flame(); f.Root.Name != "Particle.draw()" {
		t.Errorf("the zoom to draw did not survive its focus: root %s", f.Root.Name)
	}
	m.Thread.SetSelected(m.Thread.Options[0]) // every thread
	v.Wait()
	same("focus on draw, every thread", keep)
	if !strings.Contains(m.Flame.Flame().Note, `Focus: focus ^Particle\.draw\(\)$: `) || !strings.Contains(m.Flame.Focus.Hidden.Text, "%) hidden") {
		t.Errorf("every thread: %q", m.Flame.Focus.Hidden.Text)
	}
}

// svgOf is a graph as Save SVG writes it.
func svgOf(t *testing.T, f chart.Flame) string {
	t.Helper()
	var b bytes.Buffer
	if err := render.Render(&b, f, render.SVG, 900, 600); err != nil {
		t.Fatal(err)
	}
	return b.String()
}
