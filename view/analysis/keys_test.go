package analysis

import (
	"context"
	"path/filepath"
	"strings"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/widget"

	"androprof/controller"
	"androprof/internal/fastlane"
	"androprof/internal/viewtest"
	"androprof/store"
	"androprof/store/storetest"
	"androprof/view/ui"
)

// menuShortcuts maps every shortcut in a main menu, submenus too, to its item.
func menuShortcuts(items []*fyne.MenuItem, out map[string]*fyne.MenuItem) {
	for _, it := range items {
		if it.Shortcut != nil {
			out[it.Shortcut.ShortcutName()] = it
		}
		if it.ChildMenu != nil {
			menuShortcuts(it.ChildMenu.Items, out)
		}
	}
}

// dialogTexts is every text of the dialog shown, "" when none is.
func dialogTexts(w fyne.Window) string {
	top := w.Canvas().Overlays().Top()
	if top == nil {
		return ""
	}
	var texts []string
	for _, o := range test.LaidOutObjects(top) {
		if l, ok := o.(*widget.Label); ok {
			texts = append(texts, l.Text)
		}
	}
	return strings.Join(texts, "\n")
}

// The analysis window had no File or Help menu and no keys: now the menu carries every key,
// Quit is the driver's (which asks about unsaved edits), Import and Run program open their
// dialogs from the keyboard, and keys switch tabs.
func TestAnalysisMenusAndShortcuts(t *testing.T) {
	fastlane.Slow(t, "runs every menu item and shortcut")
	editorOpened := false
	v, _ := openAnalysisWith(t, func() { editorOpened = true })
	menu := v.Window.MainMenu()
	var titles []string
	for _, m := range menu.Items {
		titles = append(titles, m.Label)
	}
	if strings.Join(titles, " ") != "File View Window Help" {
		t.Fatalf("menus %v", titles)
	}
	inMenu := map[string]*fyne.MenuItem{}
	for _, m := range menu.Items {
		menuShortcuts(m.Items, inMenu)
	}
	for _, c := range v.commands {
		if sc := c.Shortcut(); sc != nil && (inMenu[sc.ShortcutName()] == nil || inMenu[sc.ShortcutName()].Label != c.Label) {
			t.Errorf("%s (%s) is not in the menu", c.Label, ui.KeyText(c.Key, c.Mod))
		}
	}
	file := menu.Items[0].Items
	if quit := file[len(file)-1]; !quit.IsQuit || quit.Action != nil || quit.Shortcut == nil || ui.KeyText(fyne.KeyQ, ui.Primary) != "Ctrl+Q" {
		t.Errorf("File ends with %+v, not the driver's Quit on Ctrl+Q", quit)
	}

	for key, title := range map[fyne.KeyName]string{fyne.KeyI: "Import a run", fyne.KeyR: "Run a program under the emulator"} {
		viewtest.PressShortcut(t, v.Window, key, ui.Primary)
		if !strings.Contains(dialogTexts(v.Window), title) {
			t.Errorf("%s opened %q, want %q", ui.KeyText(key, ui.Primary), dialogTexts(v.Window), title)
		}
		viewtest.TapDialogButton(t, v.Window, "Cancel")
	}

	viewtest.PressShortcut(t, v.Window, fyne.Key3, ui.Primary)
	if v.Tabs.SelectedIndex() != 2 {
		t.Errorf("Ctrl+3 selected tab %d", v.Tabs.SelectedIndex())
	}
	viewtest.PressShortcut(t, v.Window, fyne.KeyTab, ui.Primary)
	viewtest.PressShortcut(t, v.Window, fyne.KeyTab, ui.PrimaryShift)
	viewtest.PressShortcut(t, v.Window, fyne.KeyTab, ui.PrimaryShift)
	if v.Tabs.SelectedIndex() != 1 {
		t.Errorf("Ctrl+Tab, then Ctrl+Shift+Tab twice from tab 2 selected tab %d", v.Tabs.SelectedIndex())
	}
	viewtest.PressShortcut(t, v.Window, fyne.Key9, ui.Primary)
	viewtest.PressShortcut(t, v.Window, fyne.KeyTab, ui.Primary)
	if v.Tabs.SelectedIndex() != 0 {
		t.Errorf("Ctrl+Tab from the last tab selected tab %d", v.Tabs.SelectedIndex())
	}

	viewtest.PressShortcut(t, v.Window, fyne.KeyE, ui.Primary)
	if !editorOpened {
		t.Error("Ctrl+E opened no editor")
	}
}

// Keys switch the tabs of the tab set shown, not the emulator's.
func TestTabKeysFollowTheRunKind(t *testing.T) {
	v, _ := openHeapWindow(t) // on the heap log run
	viewtest.PressShortcut(t, v.Window, fyne.Key4, ui.Primary)
	if v.Heap.Tabs.SelectedIndex() != 3 || v.Tabs.SelectedIndex() != 0 {
		t.Errorf("Ctrl+4 on a heap run: heap tab %d, emulator tab %d", v.Heap.Tabs.SelectedIndex(), v.Tabs.SelectedIndex())
	}
}

// Help's dialogs say where to begin and list the keys, and fit a 900×600 window.
func TestAnalysisHelp(t *testing.T) {
	v, _ := openAnalysis(t)
	v.Window.Resize(viewtest.LayoutSizes[0])
	for _, c := range []struct {
		cmd  int
		want []string
	}{{acGettingStarted, []string{"demo-sieve-arm", "Profile", "Import…"}},
		{acShortcuts, []string{"Import", "Next tab", "Ctrl+1 … Ctrl+8", "Ctrl+9 the last one"}},
		{acAbout, []string{"AndroProf", "cost profiles"}}} {
		v.commands[c.cmd].Run()
		got := dialogTexts(v.Window)
		for _, w := range c.want {
			if !strings.Contains(got, w) {
				t.Errorf("%s lacks %q:\n%s", v.commands[c.cmd].Label, w, got)
			}
		}
		viewtest.CheckReachable(t, v.Window)
		viewtest.TapDialogButton(t, v.Window, "Close")
		if dialogTexts(v.Window) != "" {
			t.Errorf("%s stays open after Close", v.commands[c.cmd].Label)
		}
	}
}

// A key whose button is disabled says why rather than doing nothing.
func TestDisabledCommandSaysWhy(t *testing.T) {
	v := openWindow(test.NewTempApp(t), controller.NewWorkspace(nil), nil)
	v.Wait()
	viewtest.PressShortcut(t, v.Window, fyne.KeyI, ui.Primary)
	if got := dialogTexts(v.Window); !strings.Contains(got, "no workspace") {
		t.Errorf("Ctrl+I without a workspace shows %q", got)
	}
}

// The first start used to open on whichever run came first (a raw heap dump), with no word on
// where to begin. It opens on the run the app names, under a "Start here" hint that stays
// away once dismissed; later starts reopen on the last run.
func TestFirstStartOpensOnNamedRunWithHint(t *testing.T) {
	db, err := store.Open(filepath.Join(t.TempDir(), "w.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	for _, run := range []string{"first-listed", "demo-sieve-arm", "other"} {
		if err := db.ImportRun(context.Background(), run, "test", storetest.SmallRun); err != nil {
			t.Fatal(err)
		}
	}
	a := test.NewTempApp(t)
	open := func() *View {
		SetFirstRun(a.Preferences(), "demo-sieve-arm")
		v := openWindow(a, controller.NewWorkspace(db), nil)
		v.Window.Resize(viewtest.LayoutSizes[0])
		v.Wait()
		return v
	}
	v := open()
	if v.sel.run != "demo-sieve-arm" || !v.Hint.content.Visible() || !strings.HasPrefix(v.Hint.Text.Text, "Start here") {
		t.Fatalf("first start on %q, hint shown %v", v.sel.run, v.Hint.content.Visible())
	}
	viewtest.CheckReachable(t, v.Window)
	pos := func() float32 { return fyne.CurrentApp().Driver().AbsolutePositionForObject(v.Tabs).Y }
	before := pos()
	test.Tap(v.Hint.Dismiss)
	if v.Hint.content.Visible() || pos() >= before {
		t.Errorf("Got it leaves the hint (shown %v), tabs at %g, were at %g", v.Hint.content.Visible(), pos(), before)
	}
	v.SelectRun("other")
	v.Wait()
	v.Window.Close()

	v = open()
	if v.sel.run != "other" || v.Hint.content.Visible() {
		t.Errorf("second start on %q, hint shown %v", v.sel.run, v.Hint.content.Visible())
	}
}
