package editor

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/widget"

	"androprof/controller"
	"androprof/internal/viewtest"
	"androprof/model/cost"
	"androprof/view/ui"
)

var (
	foo = cost.Instruction{ISA: cost.ARM, Mnemonic: "ZZFOO"}
	bar = cost.Instruction{ISA: cost.ARM, Mnemonic: "ZZBAR"}
)

// newTestEditor opens the editor window on a profile with one user category and two
// hand-added instructions, so tests do not depend on catalogue contents.
func newTestEditor(t *testing.T) (*controller.Editor, *View) {
	t.Helper()
	ed := controller.NewEditor()
	viewtest.Must(t, ed.AddCategory("Branch", 3, 113))
	viewtest.Must(t, ed.AddInstruction(foo))
	viewtest.Must(t, ed.AddInstruction(bar))
	viewtest.Must(t, ed.SaveAs(filepath.Join(t.TempDir(), "start.xml"))) // start clean, as after Open
	v := openEditor(t, ed, controller.NewWorkspace(nil))
	v.Category.SetSelected("Branch")
	return ed, v
}

// openEditor opens the editor window on ed and ws's profiles at its first size, as the
// workbench does, with no analysis window to open.
func openEditor(t *testing.T, ed *controller.Editor, ws *controller.Workspace) *View {
	win := test.NewTempApp(t).NewWindow("AndroProf")
	win.Resize(Size)
	v := New(win, ui.NewQueuedBackground(), ed, ws.Profiles, func() {}, func() {})
	win.Show()
	return v
}

func rowIndex(l *InstructionList, in cost.Instruction) int {
	for i, r := range l.Rows() {
		if r.Instruction == in {
			return i
		}
	}
	return -1
}

// tapRow ticks a row the way a click on it does.
func tapRow(t *testing.T, l *InstructionList, in cost.Instruction) {
	t.Helper()
	i := rowIndex(l, in)
	if i < 0 {
		t.Fatalf("%s is not shown", in)
	}
	l.List.Select(i)
}

func TestSearchNarrowsUncategorized(t *testing.T) {
	_, v := newTestEditor(t)
	all := len(v.Uncategorized.Rows())
	test.Type(v.Uncategorized.Search, "zz")
	if got := len(v.Uncategorized.Rows()); got != 2 {
		t.Fatalf("after typing zz: %d rows of %d, want the 2 ZZ rows", got, all)
	}
	test.Type(v.Uncategorized.Search, "foo")
	rows := v.Uncategorized.Rows()
	if len(rows) != 1 || rows[0].Instruction != foo {
		t.Fatalf("after typing zzfoo: %v", rows)
	}
	if !strings.Contains(v.Uncategorized.Count.Text, "(1 shown") {
		t.Errorf("count label %q does not say 1 shown", v.Uncategorized.Count.Text)
	}
	if rows[0].InCatalogue {
		t.Errorf("a hand-added instruction is marked as catalogued")
	}
}

func TestISAFilterNarrowsUncategorized(t *testing.T) {
	_, v := newTestEditor(t)
	v.Uncategorized.ISA.SetSelected(string(cost.Thumb))
	if rowIndex(v.Uncategorized, foo) >= 0 {
		t.Fatal("an ARM instruction is shown under the Thumb filter")
	}
	for _, r := range v.Uncategorized.Rows() {
		if r.Instruction.ISA != cost.Thumb {
			t.Fatalf("row %s under the Thumb filter", r.Instruction)
		}
	}
}

func TestAddAndRemoveMoveTickedRows(t *testing.T) {
	ed, v := newTestEditor(t)
	if !v.Add.Disabled() {
		t.Error("Add is enabled with nothing ticked")
	}
	tapRow(t, v.Uncategorized, foo)
	tapRow(t, v.Uncategorized, bar)
	test.Tap(v.Add)
	for _, in := range []cost.Instruction{foo, bar} {
		if got := ed.CategoryOf(in); got != "Branch" {
			t.Errorf("%s is in %q after Add, want Branch", in, got)
		}
		if rowIndex(v.Uncategorized, in) >= 0 || rowIndex(v.Members, in) < 0 {
			t.Errorf("%s is not shown on the right only", in)
		}
	}

	tapRow(t, v.Members, bar)
	test.Tap(v.Remove)
	if got := ed.CategoryOf(bar); got != cost.UndefinedCategory {
		t.Errorf("%s is in %q after Remove", bar, got)
	}
	if got := ed.CategoryOf(foo); got != "Branch" {
		t.Errorf("Remove moved the unticked %s too", foo)
	}
}

func TestSelectAllShownAndShortcutMoveOnlyWhatIsShown(t *testing.T) {
	ed, v := newTestEditor(t)
	test.Type(v.Uncategorized.Search, "zzbar")
	test.Tap(v.Uncategorized.SelectAll)
	viewtest.PressShortcut(t, v.Window, fyne.KeyRight, fyne.KeyModifierAlt)
	if ed.CategoryOf(bar) != "Branch" || ed.CategoryOf(foo) != cost.UndefinedCategory {
		t.Fatalf("after Alt+Right: bar in %q, foo in %q", ed.CategoryOf(bar), ed.CategoryOf(foo))
	}
	test.Tap(v.Members.SelectAll)
	viewtest.PressShortcut(t, v.Window, fyne.KeyLeft, fyne.KeyModifierAlt)
	if ed.CategoryOf(bar) != cost.UndefinedCategory {
		t.Fatalf("after Alt+Left bar is still in %q", ed.CategoryOf(bar))
	}
}

func TestInvalidCostLeavesModelAlone(t *testing.T) {
	ed, v := newTestEditor(t)
	if v.Cycles.Text != "3" || v.Power.Text != "113" {
		t.Fatalf("cost entries show %q, %q", v.Cycles.Text, v.Power.Text)
	}
	for _, bad := range []string{"abc", "-2", "NaN", "Inf"} {
		retype(v.Cycles, bad)
		if c := ed.Profile().Category("Branch"); c.Cycles != 3 {
			t.Fatalf("typing %q changed cycles to %v", bad, c.Cycles)
		}
		if v.CostError.Text == "" || v.Cycles.Validate() == nil {
			t.Errorf("typing %q shows no error", bad)
		}
	}
	if ed.Dirty() {
		t.Error("invalid costs made the profile dirty")
	}

	retype(v.Power, "95.5")
	if c := ed.Profile().Category("Branch"); c.PowerMW != 113 {
		t.Fatalf("power changed to %v while cycles is invalid", c.PowerMW)
	}
	retype(v.Cycles, "2.5")
	if c := ed.Profile().Category("Branch"); c.Cycles != 2.5 || c.PowerMW != 95.5 {
		t.Fatalf("valid costs not applied: %v cycles, %v mW", c.Cycles, c.PowerMW)
	}
	if v.CostError.Text != "" {
		t.Errorf("error %q stays after valid input", v.CostError.Text)
	}
}

// The saved start file records ZZFOO and ZZBAR as Undefined; saving after moving one also
// guards against Move leaving it in Undefined too ("in two categories").
func TestDirtyMarkerInTitle(t *testing.T) {
	_, v := newTestEditor(t)
	if title := v.Window.Title(); title != "AndroProf — Instruction categorization: New profile" {
		t.Fatalf("clean title %q", title)
	}
	tapRow(t, v.Uncategorized, foo)
	test.Tap(v.Add)
	if title := v.Window.Title(); !strings.HasSuffix(title, "•") {
		t.Fatalf("title %q has no dirty marker after a move", title)
	}
	viewtest.PressShortcut(t, v.Window, fyne.KeyS, ui.Primary)
	if title := v.Window.Title(); strings.Contains(title, "•") {
		t.Fatalf("title %q keeps the dirty marker after Ctrl+S", title)
	}
}

func TestSaveRefusesInvalidProfile(t *testing.T) {
	ed, v := newTestEditor(t)
	path := filepath.Join(t.TempDir(), "p.xml")
	viewtest.Must(t, ed.SaveAs(path))
	viewtest.Must(t, os.Remove(path))

	ed.Profile().Name = " " // made invalid behind the editor's back: the UI cannot do it
	viewtest.PressShortcut(t, v.Window, fyne.KeyS, ui.Primary)
	if _, err := os.Stat(path); !os.IsNotExist(err) {
		t.Fatalf("an invalid profile was written (stat: %v)", err)
	}
	if v.Window.Canvas().Overlays().Top() == nil {
		t.Error("no dialog shows the problems")
	}

	ed.Profile().Name = "Fixed"
	v.save(nil)
	if _, err := os.Stat(path); err != nil {
		t.Fatalf("a valid profile was not saved: %v", err)
	}
}

func TestImportLogPutsExecutedFirst(t *testing.T) {
	_, v := newTestEditor(t)
	log := filepath.Join(t.TempDir(), "qemu.log")
	text := "IN: main\n0x00010000:  e3a00001      mov      r0, #1\n0x00010004:  e12fff1e      bx       lr\n\n" +
		strings.Repeat("Trace 0x00010000 [00010000] main\n", 3)
	viewtest.Must(t, os.WriteFile(log, []byte(text), 0o644))

	done := make(chan error, 1)
	v.ImportLog(log, func(err error) { done <- err })
	select {
	case err := <-done:
		viewtest.Must(t, err)
	case <-time.After(10 * time.Second):
		t.Fatal("import did not finish")
	}
	rows := v.Uncategorized.Rows()
	if len(rows) < 2 || rows[0].Count != 3 || rows[1].Count != 3 {
		t.Fatalf("the executed instructions are not on top: %+v", rows[:min(len(rows), 3)])
	}
	if v.importing != nil {
		t.Error("the editor still thinks an import runs")
	}
}

func TestFileNameSlug(t *testing.T) {
	for in, want := range map[string]string{"ARMv7-A Cortex-A8": "armv7-a-cortex-a8.xml", "  ": "profile.xml", "MIPS/32": "mips-32.xml"} {
		if got := fileName(in); got != want {
			t.Errorf("fileName(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestMenuCarriesEveryShortcut(t *testing.T) {
	_, v := newTestEditor(t)
	inMenu := map[string]string{}
	for _, m := range v.Window.MainMenu().Items {
		for _, it := range m.Items {
			if it.Shortcut != nil {
				inMenu[it.Shortcut.ShortcutName()] = it.Label
			}
		}
	}
	for _, c := range v.commands {
		if sc := c.Shortcut(); sc != nil && inMenu[sc.ShortcutName()] != c.Label {
			t.Errorf("%s (%s) is not in the menu", c.Label, ui.KeyText(c.Key, c.Mod))
		}
	}
}

func TestFindShortcutFocusesSearch(t *testing.T) {
	_, v := newTestEditor(t)
	viewtest.PressShortcut(t, v.Window, fyne.KeyF, ui.Primary)
	if v.Window.Canvas().Focused() != v.Uncategorized.Search {
		t.Fatal("Ctrl+F did not focus the search box")
	}
}

func TestExecutionsFormat(t *testing.T) {
	for n, want := range map[int64]string{0: "", 7: "7", 999: "999", 1000: "1 000", 257761: "257 761", 1234567: "1 234 567"} {
		if got := executions(n); got != want {
			t.Errorf("executions(%d) = %q, want %q", n, got, want)
		}
	}
}

// retype replaces an entry's text as a person does: select it all, then type.
func retype(e *widget.Entry, text string) {
	e.TypedShortcut(&fyne.ShortcutSelectAll{})
	test.Type(e, text)
}
