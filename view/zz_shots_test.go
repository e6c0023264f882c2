package view

import (
	"image/png"
	"os"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/theme"

	"androprof/controller"
	"androprof/model"
)

func shot(t *testing.T, w fyne.Window, name string) {
	f, _ := os.Create("/tmp/viewdemo/" + name + ".png")
	defer f.Close()
	png.Encode(f, w.Canvas().Capture())
}

func TestZZShots(t *testing.T) {
	a := test.NewTempApp(t)
	a.Settings().SetTheme(theme.DefaultTheme())
	store := &fakeStore{profiles: []*model.Profile{storedProfile()}}
	ed := controller.NewEditor()
	ed.AddCategory("Conditional branch", 3, 113)
	ed.Profile().Categories[0].Citations = []model.Citation{{Cost: "cycles", Text: "ARM Cortex-A8 TRM"}, {Cost: "power", Estimate: true, Text: "Bazzaz, Salehi and Ejlali 2013"}}
	wb := NewWorkbench(a, ed, controller.Profiles{Store: store})
	w := wb.ShowEditor()
	w.Resize(editorSize)
	v := wb.EditorView()
	v.Uncategorized.Pick(v.Uncategorized.Rows()[3].Instruction, v.Uncategorized.Rows()[5].Instruction)
	test.Type(v.Members.Search, "")
	v.Cycles.SetText("")
	test.Type(v.Cycles, "x")
	shot(t, w, "s_editor")
	v.askNewCategory()
	shot(t, w, "s_newcat")
	w.Canvas().Overlays().Top().Hide()
	v.askNewProfile()
	shot(t, w, "s_newprof")
	w.Canvas().Overlays().Top().Hide()
	askUnsaved(w, "X", func() {}, func() {})
	shot(t, w, "s_unsaved")
	w.Canvas().Overlays().Top().Hide()
	newProgressDialog("Importing QEMU log", "Reading qemu.log…", func() {}, w).bar.SetValue(0.4)
	shot(t, w, "s_progress")
	w.Canvas().Overlays().Top().Hide()
	showShortcuts(v.commands, w)
	shot(t, w, "s_shortcuts")
	w.Canvas().Overlays().Top().Hide()
	ed.Profile().Name = ""
	v.save(nil)
	shot(t, w, "s_problems")
	w.Canvas().Overlays().Top().Hide()
	aw := wb.ShowAnalysis()
	aw.Resize(analysisSize)
	wb.AnalysisView().Profiles.Select(0)
	shot(t, aw, "s_analysis")
}
