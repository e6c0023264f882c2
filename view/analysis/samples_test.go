package analysis

import (
	"slices"
	"strings"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"

	"androprof/controller"
	"androprof/internal/fastlane"
	"androprof/internal/viewtest"
	"androprof/model"
	"androprof/view/samples"
	"androprof/view/ui"
)

// A sampled run shows its own tabs and top bar in place of the emulator's; the window's keys
// reach them: Ctrl+F finds a symbol, the number keys pick its tabs. Ctrl+F on another run
// says where symbols are.
func TestSampledRunShowsSampleTabs(t *testing.T) {
	db := viewtest.OpenDB(t, viewtest.SamplesWorkspace(t))
	ws := controller.NewWorkspace(db)
	v := openWindow(test.NewTempApp(t), ws, ws.Importer())
	v.Wait()
	v.SelectRun(viewtest.SampleRun)
	v.Wait()
	s := v.Samples
	if !s.Tabs.Visible() || !s.Bar.Visible() || v.Tabs.Visible() || v.emulatorBar.Visible() || v.Problem.Visible() {
		t.Fatalf("a sampled run: its tabs %v, emulator tabs %v, problem %q", s.Tabs.Visible(), v.Tabs.Visible(), v.Problem.Text)
	}
	if got := runSummary(v.Runs.runs[slices.IndexFunc(v.Runs.runs, func(r model.RunInfo) bool { return r.Name == viewtest.SampleRun })]); got != "sampled profile" {
		t.Errorf("the Runs list calls the sampled run %q", got)
	}
	if s.Set() == nil || !strings.Contains(s.Kept.Text, " samples") || len(s.Symbols.Table.Rows()) == 0 {
		t.Fatalf("the sampled run shows nothing: %q", s.Kept.Text)
	}
	viewtest.PressShortcut(t, v.Window, fyne.KeyF, ui.Primary)
	if s.Tabs.Selected().Text != samples.TabSymbols || v.Window.Canvas().Focused() != s.Symbols.Filter {
		t.Errorf("Ctrl+F shows %s, focus on %T", s.Tabs.Selected().Text, v.Window.Canvas().Focused())
	}
	viewtest.PressShortcut(t, v.Window, fyne.Key4, ui.Primary)
	if s.Tabs.Selected().Text != samples.TabFlame {
		t.Errorf("Ctrl+4 shows %s", s.Tabs.Selected().Text)
	}
	v.SelectRun("small")
	v.Wait()
	if s.Tabs.Visible() || !v.Tabs.Visible() {
		t.Fatal("the emulator run after the sampled run shows the sample tabs")
	}
	viewtest.PressShortcut(t, v.Window, fyne.KeyF, ui.Primary)
	if !strings.Contains(dialogTexts(v.Window), "sampled runs") {
		t.Errorf("Ctrl+F on an emulator run: %q", dialogTexts(v.Window))
	}
}

// Every tab of a sampled run, at 900×600 and 1920×1080: every control reachable, none covered.
func TestSampledRunLayoutReachable(t *testing.T) {
	fastlane.Slow(t, "every tab at two window sizes")
	db := viewtest.OpenDB(t, viewtest.SamplesWorkspace(t))
	ws := controller.NewWorkspace(db)
	v := openWindow(test.NewTempApp(t), ws, ws.Importer())
	v.Wait()
	checkTabSetLayout(t, v, viewtest.SampleRun, samplesTabs)
}
