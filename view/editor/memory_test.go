package editor

import (
	"fmt"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/widget"

	"androprof/controller"
	"androprof/internal/viewtest"
	"androprof/model/cost"
)

// fillLevel types a level's numbers as a person does, field by field; "" empties a field.
func fillLevel(f *levelFields, size, ways, line, miss string) {
	for _, e := range []struct {
		entry *widget.Entry
		text  string
	}{{&f.Size.Entry, size}, {&f.Ways.Entry, ways}, {&f.Line.Entry, line}, {&f.Miss.Entry, miss}} {
		e.entry.TypedShortcut(&fyne.ShortcutSelectAll{})
		e.entry.TypedKey(&fyne.KeyEvent{Name: fyne.KeyBackspace})
		test.Type(e.entry, e.text)
	}
}

// openMemory opens Profile details at its memory section.
func openMemory(t *testing.T, v *View) *memorySection {
	t.Helper()
	v.commands[cmdMemory].Run()
	if v.Sourced == nil || v.Sourced.Memory == nil {
		t.Fatal("Memory hierarchy… opened no memory section")
	}
	return v.Sourced.Memory
}

// The editor could not give a profile a memory hierarchy or a machine model. The section adds
// one (a built-in ARM core's, cited as taken from it), refuses a malformed geometry with the
// level and part named, and Apply, save and reopen keep every number and source.
func TestMemorySectionAddsAHierarchy(t *testing.T) {
	ed, v := newTestEditor(t)
	s := openMemory(t, v)
	if !strings.Contains(s.Note.Text, controller.NoMemoryHierarchy) || !s.AddL3.Disabled() || !s.RemoveHierarchy.Disabled() {
		t.Fatalf("a profile without a hierarchy: note %q, Add L3 disabled %v", s.Note.Text, s.AddL3.Disabled())
	}
	test.Tap(s.AddHierarchy)
	if len(s.Levels) != 3 || !s.AddHierarchy.Disabled() || s.AddL3.Disabled() {
		t.Fatalf("Add hierarchy shows %d levels", len(s.Levels))
	}
	if v.Window.Canvas().Focused() != s.Levels[0].Size {
		t.Errorf("after Add hierarchy the keyboard is in %T, want L1I's size", v.Window.Canvas().Focused())
	}
	if !strings.HasPrefix(s.Levels[0].Source.Text, "From profile “") || !s.Levels[0].Estimate.Checked {
		t.Errorf("L1I starts citing %q (estimate %v), want a built-in's numbers", s.Levels[0].Source.Text, s.Levels[0].Estimate.Checked)
	}
	fillLevel(s.Levels[0], "32k", "4", "64", "13")
	fillLevel(s.Levels[1], "32k", "4", "48", "13")
	fillLevel(s.Levels[2], "512k", "8", "64", "")
	if !v.Sourced.Apply.Disabled() || !strings.Contains(s.Note.Text, "cache level l1d: line size 48 bytes is not a power of two") {
		t.Fatalf("a 48-byte line: Apply disabled %v, note %q", v.Sourced.Apply.Disabled(), s.Note.Text)
	}
	retype(&s.Levels[1].Line.Entry, "64")
	if s.Levels[1].WriteAllocate.Checked {
		test.Tap(s.Levels[1].WriteAllocate)
	}
	retype(&s.Levels[1].Source.Entry, "Cortex-A8 TRM, 7.1")
	test.Tap(s.Levels[1].Estimate)
	test.Tap(s.AddL3)
	fillLevel(s.Levels[3], "2m", "16", "64", "120")
	s.Levels[0].Replacement.SetSelected("lru")
	s.Levels[1].Replacement.SetSelected("lru")
	s.Levels[2].Replacement.SetSelected("lru")
	for _, i := range []int{0, 2, 3} {
		if !s.Levels[i].WriteAllocate.Checked {
			test.Tap(s.Levels[i].WriteAllocate)
		}
	}
	s.Levels[3].Replacement.SetSelected("plru")
	retype(&s.Levels[3].Energy.Entry, "1.5")
	s.Tool.SetSelected("llvm-mca-19")
	if s.ModelNote.Text != controller.NoMachineModel {
		t.Errorf("with no CPU the model says %q", s.ModelNote.Text)
	}
	test.Type(s.CPU, "cortex a8")
	if !v.Sourced.Apply.Disabled() || !strings.Contains(s.ModelNote.Text, `CPU "cortex a8"`) || s.ModelNote.Importance != widget.DangerImportance {
		t.Errorf("-mcpu \"cortex a8\": Apply disabled %v, the model says %q", v.Sourced.Apply.Disabled(), s.ModelNote.Text)
	}
	retype(&s.CPU.Entry, "cortex-a8")
	test.Type(s.ModelSource, "LLVM's A8 model")
	if v.Sourced.Apply.Disabled() || !strings.Contains(s.Note.Text, "miss cycles unknown at l2") || s.ModelNote.Visible() {
		t.Fatalf("every number valid: Apply disabled %v, note %q", v.Sourced.Apply.Disabled(), s.Note.Text)
	}
	test.Tap(v.Sourced.Apply)
	if v.Sourced != nil || !strings.HasSuffix(v.Window.Title(), "•") {
		t.Fatalf("Apply left the dialog open or the profile unmodified (title %q)", v.Window.Title())
	}

	want := "l1i=32k:4:64:lru:wa,l1d=32k:4:64:lru:nwa,l2=512k:8:64:lru:wa,l3=2m:16:64:plru:wa"
	p := ed.Profile()
	if p.Memory.String() != want || p.Memory.Levels[3].MissCycles != 120 || p.Memory.Levels[3].AccessEnergyNJ != 1.5 || p.Memory.Levels[2].MissCycles != 0 {
		t.Fatalf("applied %s %+v", p.Memory, p.Memory.Levels)
	}
	if p.Pipeline != (cost.PipelineModel{Tool: "llvm-mca-19", CPU: "cortex-a8"}) {
		t.Errorf("machine model %+v", p.Pipeline)
	}
	l1d := ed.Memory().Level(cost.L1D)
	if l1d.Cite != (controller.Cite{Source: "Cortex-A8 TRM, 7.1"}) {
		t.Errorf("L1D cites %+v", l1d.Cite)
	}
	if c := ed.Memory().Level(cost.L1I).Cite; c != (controller.Cite{Source: cost.HandEdited, Estimate: true}) {
		t.Errorf("L1I changed under the built-in's source cites %+v", c)
	}

	path := filepath.Join(t.TempDir(), "a8.xml")
	viewtest.Must(t, ed.SaveAs(path))
	again := controller.NewEditor()
	viewtest.Must(t, again.Open(path))
	if !reflect.DeepEqual(again.Memory(), ed.Memory()) {
		t.Errorf("reopened:\n got %+v\nwant %+v", again.Memory(), ed.Memory())
	}
}

// withMemory gives the test editor's profile a cited three-level hierarchy, saved.
func withMemory(t *testing.T, ed *controller.Editor) {
	t.Helper()
	g, err := cost.ParseCacheGeometry("l1i=16k:4:64,l1d=16k:4:64,l2=256k:8:64")
	viewtest.Must(t, err)
	var m controller.Memory
	for _, l := range g.Levels {
		l.MissCycles = 10
		m.Levels = append(m.Levels, controller.MemoryLevel{CacheLevel: l, Cite: controller.Cite{Source: "TRM " + l.Name}})
	}
	viewtest.Must(t, ed.SetMemory(m))
	viewtest.Must(t, ed.Save())
}

// A number changed in the section under its level's unchanged source no longer cites it; the
// dialog opened again shows "edited by hand"; Remove L3 and Remove hierarchy take the levels away.
func TestMemorySectionChangeAndRemove(t *testing.T) {
	ed, v := newTestEditor(t)
	withMemory(t, ed)
	s := openMemory(t, v)
	if len(s.Levels) != 3 || s.Levels[2].Size.Text != "256k" || s.Levels[2].Miss.Text != "10" || s.Levels[2].Source.Text != "TRM l2" {
		t.Fatalf("the section shows %d levels, L2 %q %q %q", len(s.Levels), s.Levels[2].Size.Text, s.Levels[2].Miss.Text, s.Levels[2].Source.Text)
	}
	if s.Levels[0].Energy.Text != "" || s.Levels[0].Energy.PlaceHolder != "unknown" {
		t.Errorf("an unknown access energy shows %q (placeholder %q)", s.Levels[0].Energy.Text, s.Levels[0].Energy.PlaceHolder)
	}
	retype(&s.Levels[2].Miss.Entry, "25")
	test.Tap(v.Sourced.Apply)
	s = openMemory(t, v)
	if s.Levels[2].Source.Text != cost.HandEdited || !s.Levels[2].Estimate.Checked || s.Levels[0].Source.Text != "TRM l1i" {
		t.Errorf("after changing L2's miss cycles it cites %q (estimate %v), L1I %q", s.Levels[2].Source.Text, s.Levels[2].Estimate.Checked, s.Levels[0].Source.Text)
	}
	test.Tap(s.AddL3)
	test.Tap(s.RemoveL3)
	test.Tap(s.RemoveHierarchy)
	if len(s.Levels) != 0 || !strings.Contains(s.Note.Text, controller.NoMemoryHierarchy) || v.Sourced.Apply.Disabled() {
		t.Fatalf("after Remove hierarchy: %d levels, note %q", len(s.Levels), s.Note.Text)
	}
	test.Tap(v.Sourced.Apply)
	if p := ed.Profile(); !p.Memory.IsZero() || len(cost.CitationsOf(p.Citations, cost.L2)) != 0 {
		t.Errorf("after removing the hierarchy: %s, citations %+v", p.Memory, p.Citations)
	}
}

// Profile details with four levels and two problems at a small laptop's screen and the layout
// sizes: every control reachable, none covering another; Escape in a level's field closes it.
func TestMemorySectionLayout(t *testing.T) {
	ed, v := newTestEditor(t)
	withMemory(t, ed)
	for _, size := range append([]fyne.Size{{Width: 1366, Height: 768}}, viewtest.LayoutSizes...) {
		v.Window.Resize(size)
		t.Run(fmt.Sprintf("%gx%g", size.Width, size.Height), func(t *testing.T) {
			s := openMemory(t, v)
			test.Tap(s.AddL3)
			retype(&s.Levels[1].Line.Entry, "48") // two lines of problems push the rest down
			viewtest.CheckReachable(t, v.Window)
			s.Levels[3].Size.TypedKey(&fyne.KeyEvent{Name: fyne.KeyEscape})
			if v.Window.Canvas().Overlays().Top() != nil {
				t.Fatal("Escape in L3's size left the dialog open")
			}
		})
	}
}

// Apply with nothing changed leaves a built-in profile exactly as it was: every level's
// several citations, the reason it has no machine model, and unmodified.
func TestDetailsApplyUnchangedKeepsTheHierarchy(t *testing.T) {
	ed := controller.NewEditor()
	viewtest.Must(t, ed.OpenBuiltin("cortex-a8"))
	before := ed.Profile().Clone()
	v := openEditor(t, ed, controller.NewWorkspace(nil))
	s := openMemory(t, v)
	if len(s.Levels) != 3 || !strings.Contains(s.ModelSource.Text, "No machine model") {
		t.Fatalf("the A8 shows %d levels, model source %q", len(s.Levels), s.ModelSource.Text)
	}
	test.Tap(v.Sourced.Apply)
	if ed.Dirty() || !reflect.DeepEqual(ed.Profile().Clone(), before) {
		t.Errorf("Apply with nothing changed: dirty %v, citations\n%+v\nwere\n%+v", ed.Dirty(), ed.Profile().Citations, before.Citations)
	}
}
