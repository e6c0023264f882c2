package analysis

import (
	"fmt"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/theme"

	"androprof/internal/fastlane"
	"androprof/internal/viewtest"
	"androprof/model"
	"androprof/model/cost"
)

// menuBarHeight is about what the desktop driver's main menu bar takes off the top of a real
// window (the test driver draws none).
const menuBarHeight = 32

// layOut resizes a window and lets its background work finish, so charts and tables are drawn
// at that size.
func layOut(v *View, size fyne.Size) {
	v.Window.Resize(size.Add(fyne.NewSize(0, 1)))
	v.Window.Resize(size)
	v.Wait()
}

// Every tab of every tab set, at 900×600 and 1920×1080: every control reachable, none covered.
// At 900×600 the analysis toolbar used to run off the window (Charts) and the Editor button
// covered the frequency note.
func TestAnalysisLayoutReachable(t *testing.T) {
	fastlane.Slow(t, "every tab of every tab set at two window sizes")
	v, _ := openHeapWindow(t) // an emulator run, a heap log, a heap dump, and a method trace when the corpus is here
	sets := []struct {
		name string
		kind model.RunKind
		set  tabSet
	}{{"emulator", "", emulatorTabs}, {"method trace", model.RunKindMethods, methodTabs},
		{"heap log", model.RunKindHeap, heapTabs}, {"heap dump", model.RunKindHeapDump, dumpTabs}}
	for _, s := range sets {
		t.Run(s.name, func(t *testing.T) {
			run := "small"
			if s.kind != "" {
				runs := v.RunsOfKind(s.kind)
				if len(runs) == 0 {
					t.Skipf("no %s run (the method trace comes from ../shared/corpus)", s.name)
				}
				run = runs[0]
			}
			checkTabSetLayout(t, v, run, s.set)
		})
	}
	// From a one-row bar back to the emulator's two rows at 900 px: the window is laid out again.
	v.SelectRun(v.RunsOfKind(model.RunKindHeap)[0])
	layOut(v, viewtest.LayoutSizes[0])
	v.SelectRun("small")
	v.Wait()
	viewtest.CheckReachable(t, v.Window)
}

// checkTabSetLayout shows run, which set shows, and checks every tab of it at every layout size.
func checkTabSetLayout(t *testing.T, v *View, run string, set tabSet) {
	t.Helper()
	v.SelectRun(run)
	v.Wait()
	tabs := v.tabSets[set][0].(interface {
		SelectIndex(int)
	})
	items := v.shownTabs().Items
	if v.shownTabs() != v.tabSets[set][0] {
		t.Fatalf("run %s shows another tab set", run)
	}
	// A real window cannot be smaller than its content's MinSize (plus its padding and
	// a menu bar): it refused 900 px, staying 941 px wide.
	if m := v.Window.Content().MinSize(); m.Width > viewtest.LayoutSizes[0].Width-2*theme.Padding() ||
		m.Height > viewtest.LayoutSizes[0].Height-2*theme.Padding()-menuBarHeight {
		t.Errorf("the window's content needs %v, more than a 900×600 window has", m)
	}
	for _, size := range viewtest.LayoutSizes {
		for i, item := range items {
			tabs.SelectIndex(i)
			layOut(v, size)
			t.Run(fmt.Sprintf("%s at %gx%g", item.Text, size.Width, size.Height), func(t *testing.T) {
				viewtest.CheckReachable(t, v.Window)
			})
		}
	}
}

// At 1366×768, a small laptop's screen, the figure 5.2 calculator's results are in view without
// scrolling (they were below the fold, under the seven entries), and so is the per-category
// estimate's total.
func TestEstimateResultsAboveTheFold(t *testing.T) {
	v := openSieves(t)
	showRun(v, "demo-sieve-arm", "ARMv7-A Cortex-A8")
	v.Frequency.SetText("2") // the clock note takes a line too
	v.Wait()
	selectTab(t, v.Tabs, "Estimate")
	layOut(v, fyne.NewSize(1366, 768-menuBarHeight))
	e := v.Estimate
	d := fyne.CurrentApp().Driver()
	bottom := v.Window.Canvas().Size().Height
	for name, o := range map[string]fyne.CanvasObject{"energy result": e.EnergyJ, "power result": e.PowerW,
		"Copy exact values": e.CopyExact, "per-category totals": e.Totals, "clock note": e.Clock} {
		if at := d.AbsolutePositionForObject(o); !o.Visible() || at.Y+o.Size().Height > bottom || o.Size().Height == 0 {
			t.Errorf("the %s is at y %g–%g, below the window's %g", name, at.Y, at.Y+o.Size().Height, bottom)
		}
	}
	if e.EnergyJ.Text == "" || e.EnergyJ.Text == "—" {
		t.Errorf("no result: %q", e.EnergyJ.Text)
	}
}

// Compare's profile choosers, one per instruction set compared, stay inside a 900×600 window.
func TestComparePricingFitsNarrowWindow(t *testing.T) {
	v := openSieves(t)
	for _, run := range []string{"demo-sieve-arm", "demo-sieve-mips", "demo-sieve-thumb"} {
		v.Compare.Pick(cost.CompareItem{Run: run}, true)
	}
	v.Wait()
	selectTab(t, v.Tabs, "Compare")
	for _, size := range viewtest.LayoutSizes {
		layOut(v, size)
		viewtest.CheckReachable(t, v.Window)
	}
}
