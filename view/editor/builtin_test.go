package editor

import (
	"slices"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"
)

// The built-in chooser used to cut "ARMv7-A Cortex-A15" to "ARMv7-A Cor…". Every name now fits.
func TestBuiltinChooserShowsWholeNames(t *testing.T) {
	_, v := newTestEditor(t)
	v.commands[cmdBuiltin].Run()
	var sel *widget.Select
	for _, o := range shownObjects(v.Window.Canvas().Overlays().Top()) {
		if s, ok := o.(*widget.Select); ok {
			sel = s
		}
	}
	if sel == nil {
		t.Fatal("the chooser shows no list of profiles")
	}
	for _, name := range sel.Options {
		need := fyne.MeasureText(name, theme.TextSize(), fyne.TextStyle{}).Width + 3*theme.InnerPadding() +
			theme.IconInlineSize() + theme.InnerPadding()
		if sel.Size().Width < need {
			t.Errorf("the chooser is %g wide; %q needs %g", sel.Size().Width, name, need)
		}
	}
}

// Ctrl+N used to ask for the new profile's name first and only then about unsaved changes.
// It now asks about the unsaved changes first, as every other command that replaces the profile.
func TestNewProfileAsksAboutUnsavedChangesFirst(t *testing.T) {
	ed, v := newTestEditor(t)
	c := v.Window.Canvas()
	if err := ed.AddCategory("Unsaved", 1, 1); err != nil {
		t.Fatal(err)
	}
	v.commands[cmdNew].Run()
	top := c.Overlays().Top()
	if top == nil || shownButton(top, "Discard") == nil {
		t.Fatal("New on an unsaved profile did not ask about the changes first")
	}
	test.Tap(shownButton(top, "Discard"))
	top = c.Overlays().Top()
	if top == nil || shownButton(top, "Create") == nil {
		t.Fatal("after Discard New asks for no name")
	}
	if !slices.Contains(ed.Profile().CategoryNames(), "Unsaved") {
		t.Error("the profile was replaced before the new one was named")
	}
}
