package methods

import (
	"context"
	"image"
	"strings"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"

	"androprof/model/calls"
	"androprof/model/flame"
)

// flameTabIndex is the Flame tab's place among the method tabs.
const flameTabIndex = 5

// findFrame is the first frame named name under n, depth first.
func findFrame(n *flame.Node, name string) *flame.Node {
	if n == nil || n.Name == name {
		return n
	}
	for _, c := range n.Children {
		if f := findFrame(c, name); f != nil {
			return f
		}
	}
	return nil
}

// tapFlame clicks the middle of frame n of the flame graph shown, as a person does.
func tapFlame(t *testing.T, v *methodsWindow, n *flame.Node) {
	t.Helper()
	p := v.Methods.Flame.Chart
	b := p.Image().Bounds()
	r, ok := v.Methods.Flame.Flame().FrameRect(b.Dx(), b.Dy(), n)
	if !ok {
		t.Fatalf("%s is not drawn", n.Name)
	}
	c := image.Pt((r.Min.X+r.Max.X)/2, (r.Min.Y+r.Max.Y)/2)
	size := p.Area.Size()
	test.TapAt(p.Area, fyne.NewPos(float32(c.X)*size.Width/float32(b.Dx()), float32(c.Y)*size.Height/float32(b.Dy())))
	v.Wait()
}

// The Flame tab draws the bar's thread and clock: its root is the profile table's total on that
// clock, a search's share is the searched method's inclusive time, a click on a frame selects
// its method in the other tabs and Show in profile opens its row, and a method selected
// elsewhere has its frames outlined.
func TestFlameTab(t *testing.T) {
	v, ma := openMethods(t)
	m := v.Methods
	showTab(v, flameTabIndex)
	v.Wait()
	if m.Tabs.Items[flameTabIndex].Text != TabFlame {
		t.Fatalf("tab %d is %q", flameTabIndex, m.Tabs.Items[flameTabIndex].Text)
	}
	ctx := context.Background()
	rep, err := ma.Report(ctx, calls.MethodReportOptions{Run: "jag", By: calls.ByMethod})
	if err != nil {
		t.Fatal(err)
	}
	f := m.Flame.Flame()
	if f.Top().Total != int64(rep.TotalCPU) || !strings.Contains(f.Title, "jag, all threads, µs thread CPU") || m.Flame.Chart.Image() == nil {
		t.Fatalf("all threads: %d µs, the table's %d; title %q", f.Top().Total, rep.TotalCPU, f.Title)
	}
	m.Thread.SetSelected("12 Thread-106")
	m.Clock.SetSelected(clockReal)
	v.Wait()
	if f := m.Flame.Flame(); f.Top().Name != "thread 12 Thread-106" || f.Top().Total != int64(rep.TotalWall) || !strings.Contains(f.Title, "µs real time") {
		t.Fatalf("thread 12 on real time: %s %d µs, the table's %d; title %q", f.Top().Name, f.Top().Total, rep.TotalWall, f.Title)
	}

	var paintRow calls.MethodRow
	for _, r := range rep.Rows {
		if r.Key == paint {
			paintRow = r
		}
	}
	test.Type(m.Flame.Search, `GameScreen\.paint`)
	if f := m.Flame.Flame(); f.Matched != int64(paintRow.Times.InclusiveWall) || !strings.Contains(m.Flame.Found.Text, "% of thread 12 Thread-106") {
		t.Errorf("search paint: %d µs, the table's inclusive %d; found %q", f.Matched, paintRow.Times.InclusiveWall, m.Flame.Found.Text)
	}
	m.Flame.Search.SetText("")

	frame := findFrame(m.Flame.Flame().Top(), "GameScreen.paint(float)")
	if frame == nil || frame.Origin != "com.jag.positron" || !m.Flame.ShowInProfile.Disabled() {
		t.Fatalf("paint's frame %+v, Show in profile enabled before a click", frame)
	}
	tapFlame(t, v, frame)
	if id, ok := m.selectedMethod(); !ok || id != paintRow.Method || m.Flame.ShowInProfile.Disabled() ||
		!strings.Contains(m.Flame.Info.Text, "GameScreen.paint(float) (com.jag.positron): ") || m.Flame.Flame().Root != frame {
		t.Fatalf("after a click on paint: selected %v %v, info %q", id, ok, m.Flame.Info.Text)
	}
	test.Tap(m.Flame.ShowInProfile)
	v.Wait()
	if m.Tabs.SelectedIndex() != 0 {
		t.Errorf("Show in profile left tab %d shown", m.Tabs.SelectedIndex())
	}
	var drawID uint64
	for id, mi := range m.trace.Profile.Methods {
		if calls.MethodName(mi) == draw {
			drawID = id
		}
	}
	m.selectMethod(drawID, fromProfile)
	marked := m.Flame.Flame().Marked
	if len(marked) == 0 {
		t.Fatal("a method selected in the profile has no frame outlined")
	}
	for n := range marked {
		if n.Name != "Particle.draw()" {
			t.Errorf("%s is outlined for Particle.draw", n.Name)
		}
	}
	// Raw names: frames are named as the trace names them, and still found.
	m.RawNames.SetChecked(true)
	v.Wait()
	if f := findFrame(m.Flame.Flame().Top(), paint); f == nil {
		t.Errorf("with raw names, no frame %q", paint)
	} else if id, ok := m.Flame.methodOf(f); !ok || id != paintRow.Method {
		t.Errorf("with raw names, paint's frame is method %v %v", id, ok)
	}
}

// A clock the trace does not have is not offered, so the tab never asks for it; a thread's
// frame and the root stand for no method.
func TestFlameTabFramesOfNoMethod(t *testing.T) {
	v, _ := openMethods(t)
	m := v.Methods
	showTab(v, flameTabIndex)
	v.Wait()
	f := m.Flame.Flame()
	if _, ok := m.Flame.methodOf(f.Top()); ok {
		t.Error("the root stands for a method")
	}
	if len(f.Top().Children) == 0 {
		t.Fatal("no thread under the root")
	}
	if _, ok := m.Flame.methodOf(f.Top().Children[0]); ok {
		t.Error("a thread's frame stands for a method")
	}
	v.SelectRun("sns")
	v.Wait()
	if f := m.Flame.Flame(); !strings.Contains(f.Title, "sns") || !strings.Contains(f.Title, "µs thread CPU") || v.Problem != "" {
		t.Errorf("sns (thread-CPU only): title %q, problem %q", f.Title, v.Problem)
	}
}
