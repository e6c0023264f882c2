package editor

import (
	"context"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/widget"

	"androprof/controller"
	"androprof/internal/viewtest"
	"androprof/model/cost"
	"androprof/store"
	"androprof/view/ui"
)

// shownObjects lists o and what it shows, through the renderers the canvas draws with.
// test.LaidOutObjects makes new renderers instead, which detaches a form's error line.
func shownObjects(o fyne.CanvasObject) []fyne.CanvasObject {
	if o == nil || !o.Visible() {
		return nil
	}
	out := []fyne.CanvasObject{o}
	var kids []fyne.CanvasObject
	switch o := o.(type) {
	case fyne.Widget:
		kids = test.WidgetRenderer(o).Objects()
	case *fyne.Container:
		kids = o.Objects
	}
	for _, k := range kids {
		out = append(out, shownObjects(k)...)
	}
	return out
}

// shownButton is the button labelled text that o shows, nil when none.
func shownButton(o fyne.CanvasObject, text string) *widget.Button {
	for _, o := range shownObjects(o) {
		if b, ok := o.(*widget.Button); ok && b.Text == text {
			return b
		}
	}
	return nil
}

// tapMenuItem clicks the item labelled text in the menu the window shows on top.
func tapMenuItem(t *testing.T, w fyne.Window, text string) {
	t.Helper()
	for _, o := range shownObjects(w.Canvas().Overlays().Top()) {
		if tx, ok := o.(*canvas.Text); ok && tx.Text == text {
			at := fyne.CurrentApp().Driver().AbsolutePositionForObject(tx)
			test.TapCanvas(w.Canvas(), at.Add(fyne.NewPos(1, 1)))
			return
		}
	}
	t.Fatalf("no menu item %q on top", text)
}

// pressEnter types Return into the focused widget, as the keyboard does.
func pressEnter(t *testing.T, w fyne.Window) {
	t.Helper()
	f := w.Canvas().Focused()
	if f == nil {
		t.Fatal("nothing has the keyboard focus")
	}
	f.TypedKey(&fyne.KeyEvent{Name: fyne.KeyReturn})
}

// relayout lays o out again as the desktop driver does when a minimum size inside it changed.
func relayout(o fyne.CanvasObject) {
	s := o.Size()
	o.Resize(s.AddWidthHeight(1, 1))
	o.Resize(s)
}

// inWindow says whether o lies wholly within the window's canvas.
func inWindow(w fyne.Window, o fyne.CanvasObject) bool {
	p, s, c := fyne.CurrentApp().Driver().AbsolutePositionForObject(o), o.Size(), w.Canvas().Size()
	return p.X >= 0 && p.Y >= 0 && p.X+s.Width <= c.Width && p.Y+s.Height <= c.Height && s.Width > 0
}

// At 900×600 the toolbar used to run past the window, losing "Add instruction…" and "Analysis".
// Now every action is a button inside the window or an item under More, which runs it.
func TestEditorToolbarFitsAt900(t *testing.T) {
	_, v := newTestEditor(t)
	v.Window.Resize(fyne.NewSize(900, 600))
	var hidden []string
	for _, b := range v.Toolbar.Buttons() {
		if !b.Visible() {
			hidden = append(hidden, b.Text)
		} else if !inWindow(v.Window, b) {
			t.Errorf("toolbar button %q lies outside the 900×600 window", b.Text)
		}
	}
	if len(hidden) > 0 {
		if !v.Toolbar.More.Visible() || !inWindow(v.Window, v.Toolbar.More) {
			t.Fatalf("%v are hidden and More is not in the window", hidden)
		}
		test.Tap(v.Toolbar.More)
		for _, text := range hidden {
			if !slices.ContainsFunc(shownObjects(v.Window.Canvas().Overlays().Top()), func(o fyne.CanvasObject) bool {
				tx, ok := o.(*canvas.Text)
				return ok && tx.Text == text
			}) {
				t.Errorf("%q is neither shown nor under More", text)
			}
		}
		if slices.Contains(hidden, "Add instruction…") {
			tapMenuItem(t, v.Window, "Add instruction…")
			if top := v.Window.Canvas().Overlays().Top(); top == nil || shownButton(top, "Add") == nil {
				t.Error("Add instruction… under More opens no dialog")
			}
		}
	}

	// At the window's first size and on a full HD screen every button shows.
	for _, size := range []fyne.Size{Size, {Width: 1920, Height: 1080}} {
		v.Window.Resize(size)
		for _, b := range v.Toolbar.Buttons() {
			if !b.Visible() || !inWindow(v.Window, b) {
				t.Errorf("at %v %q is not shown in the window", size, b.Text)
			}
		}
		if v.Toolbar.More.Visible() {
			t.Errorf("at %v More is shown with nothing hidden", size)
		}
	}
}

// Tab used to skip the uncategorised list (it came first in the container, before its search
// box) and stop at every row's tick box. It now visits both sides in reading order, each list
// once, and Shift+Tab walks back the same way.
func TestTabVisitsBothListsInReadingOrder(t *testing.T) {
	ed, v := newTestEditor(t)
	viewtest.Must(t, ed.AddCategory("Loads", 1, 1))
	v.reloadCategories("Branch")
	tapRow(t, v.Uncategorized, foo)
	test.Tap(v.Add)
	tapRow(t, v.Members, foo)
	tapRow(t, v.Uncategorized, bar) // Add, Remove and Move to… are enabled, so Tab stops at them
	names := map[fyne.Focusable]string{
		v.Uncategorized.Search: "left search", v.Uncategorized.List: "left list", v.Add: "Add", v.Remove: "Remove",
		v.MoveTo: "Move to", v.Category: "category", v.Cycles: "cycles", v.Power: "power",
		v.Members.Search: "right search", v.Members.List: "right list",
	}
	want := []string{"left search", "left list", "Add", "Remove", "Move to", "category", "cycles", "power", "right search", "right list"}
	walk := func(step func()) []string {
		seen := []string{names[v.Window.Canvas().Focused()]}
		for range 60 {
			step()
			f := v.Window.Canvas().Focused()
			if _, ok := f.(*widget.Check); ok {
				t.Fatal("Tab stops at a row's tick box")
			}
			if n, ok := names[f]; ok && !slices.Contains(seen, n) {
				seen = append(seen, n)
			}
		}
		return seen
	}
	c := v.Window.Canvas()
	c.Focus(v.Uncategorized.Search)
	if got := walk(c.FocusNext); !slices.Equal(got, want) {
		t.Errorf("Tab visits %v, want %v", got, want)
	}
	c.Focus(v.Members.List)
	back := slices.Clone(want)
	slices.Reverse(back)
	if got := walk(c.FocusPrevious); !slices.Equal(got, back) {
		t.Errorf("Shift+Tab visits %v, want %v", got, back)
	}

	// On the focused list, Down and Space tick a row, ready for Alt+Right.
	c.Focus(v.Uncategorized.List)
	before := len(v.Uncategorized.Picked())
	c.Focused().TypedKey(&fyne.KeyEvent{Name: fyne.KeyDown})
	c.Focused().TypedKey(&fyne.KeyEvent{Name: fyne.KeySpace})
	if got := len(v.Uncategorized.Picked()); got != before+1 {
		t.Errorf("Space on the focused list: %d ticked, were %d", got, before)
	}
}

// Enter in a name dialog's entry used to do nothing; now it presses the dialog's confirm
// button, and does nothing while the name is refused.
func TestEnterSubmitsNameDialogs(t *testing.T) {
	ed, v := newTestEditor(t)
	c := v.Window.Canvas()

	v.commands[cmdNewCategory].Run()
	test.Type(focusedEntry(t, c), "branch") // taken: Enter must not submit
	pressEnter(t, v.Window)
	if top := c.Overlays().Top(); top == nil || shownButton(top, "Create") == nil || !shownButton(top, "Create").Disabled() {
		t.Fatal("Enter on a taken name did not keep the dialog with Create disabled")
	}
	entry := focusedEntry(t, c)
	entry.SetText("")
	test.Type(entry, "Loads")
	pressEnter(t, v.Window)
	if ed.Profile().Category("Loads") == nil || c.Overlays().Top() != nil || v.Category.Selected != "Loads" {
		t.Fatalf("Enter in New category: categories %v, chosen %q", ed.Profile().CategoryNames(), v.Category.Selected)
	}

	v.commands[cmdRenameCategory].Run()
	test.Type(c.Focused(), "Memory") // replaces the old name, which the entry selects
	pressEnter(t, v.Window)
	if ed.Profile().Category("Memory") == nil || ed.Profile().Category("Loads") != nil {
		t.Fatalf("Enter in Rename: categories %v", ed.Profile().CategoryNames())
	}

	v.commands[cmdAddInstruction].Run()
	test.Type(focusedEntry(t, c), "zzqux")
	pressEnter(t, v.Window)
	if rowIndex(v.Uncategorized, cost.Instruction{ISA: cost.ARM, Mnemonic: "ZZQUX"}) < 0 {
		t.Fatal("Enter in Add instruction added nothing")
	}

	viewtest.Must(t, ed.Save()) // so New asks nothing about unsaved changes
	v.commands[cmdNew].Run()
	test.Type(focusedEntry(t, c), "My A8")
	pressEnter(t, v.Window)
	if ed.Profile().Name != "My A8" || c.Overlays().Top() != nil {
		t.Fatalf("Enter in New profile: profile %q", ed.Profile().Name)
	}

	v.commands[cmdRenameProfile].Run()
	test.Type(c.Focused(), "My A9") // replaces the old name, which the entry selects
	pressEnter(t, v.Window)
	if ed.Profile().Name != "My A9" || !strings.Contains(v.Window.Title(), "My A9") {
		t.Fatalf("Enter in Rename profile: profile %q, title %q", ed.Profile().Name, v.Window.Title())
	}
}

// The New category dialog used to grow when a validation message appeared, moving its
// buttons under the pointer. Its buttons now stay where they are while the user types.
func TestNewCategoryDialogButtonsStayPut(t *testing.T) {
	_, v := newTestEditor(t)
	v.Window.Resize(fyne.NewSize(900, 600))
	c := v.Window.Canvas()
	v.commands[cmdNewCategory].Run()
	top := c.Overlays().Top()
	create, cancel := shownButton(top, "Create"), shownButton(top, "Cancel")
	if create == nil || cancel == nil {
		t.Fatal("no Create or Cancel button")
	}
	at := func() [2]fyne.Position {
		relayout(top)
		d := fyne.CurrentApp().Driver()
		return [2]fyne.Position{d.AbsolutePositionForObject(create), d.AbsolutePositionForObject(cancel)}
	}
	start := at()
	name := focusedEntry(t, c)
	for _, step := range []struct {
		what string
		do   func()
	}{
		{"a taken name", func() { test.Type(name, "Branch") }},
		{"leaving the entry", func() { c.FocusNext() }}, // the form shows its error now
		{"emptying it", func() { name.SetText("") }},
		{"a new name", func() { c.Focus(name); test.Type(name, "Loads") }},
	} {
		step.do()
		if got := at(); got != start {
			t.Errorf("after %s the buttons moved from %v to %v", step.what, start, got)
		}
	}
	if create.Disabled() {
		t.Error("Create is disabled for a new name")
	}
}

// "Keep in workspace" used to store every profile as "New profile". The New dialog asks for a
// name, Keep asks for one when the profile has none, and the title shows it.
func TestKeepNamedProfileInWorkspace(t *testing.T) {
	db, err := store.Open(filepath.Join(t.TempDir(), "w.db"))
	viewtest.Must(t, err)
	t.Cleanup(func() { db.Close() })
	ed := controller.NewEditor()
	v := openEditor(t, ed, controller.NewWorkspace(db))
	w := v.Window
	stored := func() []string {
		infos, err := db.Profiles(context.Background())
		viewtest.Must(t, err)
		var names []string
		for _, p := range infos {
			names = append(names, p.Name)
		}
		return names
	}

	v.commands[cmdNew].Run()
	if top := w.Canvas().Overlays().Top(); shownButton(top, "Create").Disabled() {
		viewtest.TypeInto(t, w, "e.g.", "My A8")
	} else {
		t.Fatal("New offers Create before the profile has a name")
	}
	viewtest.TapDialogButton(t, w, "Create")
	test.Tap(shownButton(w.Content(), "Keep in workspace"))
	v.Wait() // kept off the UI goroutine
	if names := stored(); !slices.Contains(names, "My A8") {
		t.Fatalf("the workspace holds %v, want My A8", names)
	}
	if !strings.Contains(w.Title(), "My A8") {
		t.Errorf("title %q does not name the profile", w.Title())
	}
	viewtest.TapDialogButton(t, w, "OK") // "Kept in workspace"

	// A profile still unnamed is named before it is kept.
	ed.SetProfile(cost.NewProfile(controller.UnnamedProfile, cost.ARM))
	v.Reload()
	v.commands[cmdKeep].Run()
	if names := stored(); slices.Contains(names, controller.UnnamedProfile) {
		t.Fatalf("kept as %q without asking", controller.UnnamedProfile)
	}
	viewtest.TypeInto(t, w, "e.g.", "Thumb-less A8")
	viewtest.TapDialogButton(t, w, "Keep")
	v.Wait()
	if names := stored(); !slices.Contains(names, "Thumb-less A8") || !strings.Contains(w.Title(), "Thumb-less A8") {
		t.Errorf("after naming: workspace %v, title %q", names, w.Title())
	}
}

// Moving instructions between two categories used to take Remove, switch, Add. Move to… on the
// right list's ticked rows does it in one step.
func TestMoveToAnotherCategoryInOneStep(t *testing.T) {
	ed, v := newTestEditor(t)
	viewtest.Must(t, ed.AddCategory("Loads", 1, 500))
	viewtest.Must(t, ed.Move([]cost.Instruction{foo, bar}, "Branch"))
	viewtest.Must(t, ed.Save())
	v.reloadCategories("Branch")
	if !v.MoveTo.Disabled() {
		t.Error("Move to… is enabled with nothing ticked")
	}
	tapRow(t, v.Members, foo)
	tapRow(t, v.Members, bar)
	test.Tap(v.MoveTo)
	tapMenuItem(t, v.Window, "Loads")
	for _, in := range []cost.Instruction{foo, bar} {
		if got := ed.CategoryOf(in); got != "Loads" {
			t.Errorf("%s is in %q, want Loads", in, got)
		}
		if rowIndex(v.Members, in) >= 0 {
			t.Errorf("%s is still listed in Branch", in)
		}
	}
	if !ed.Dirty() || !strings.HasSuffix(v.Window.Title(), "•") {
		t.Errorf("the move did not mark the profile modified (title %q)", v.Window.Title())
	}
}

// focusedEntry is the text entry with the keyboard focus, whichever kind of entry it is.
func focusedEntry(t *testing.T, c fyne.Canvas) *widget.Entry {
	t.Helper()
	if e := ui.TextEntry(c.Focused()); e != nil {
		return e
	}
	t.Fatalf("the focus is on %T, not an entry", c.Focused())
	return nil
}
