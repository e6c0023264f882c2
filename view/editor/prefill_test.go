package editor

import (
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/theme"
)

// Typing into New category's Cycles (prefilled 1) and Power (0) used to put the text before
// what was there: typing 3 gave 31, accepted with a ✓. The prefilled text is now selected, so
// what is typed replaces it.
func TestNewCategoryTypingReplacesPrefilledCosts(t *testing.T) {
	ed, v := newTestEditor(t)
	c := v.Window.Canvas()
	v.commands[cmdNewCategory].Run()
	test.Type(c.Focused(), "Loads")
	c.FocusNext()
	typeKeys(c, "3")
	c.FocusNext()
	typeKeys(c, "250")
	pressEnter(t, v.Window)
	cat := ed.Profile().Category("Loads")
	if cat == nil || cat.Cycles != 3 || cat.PowerMW != 250 {
		t.Fatalf("typing 3 and 250 into the prefilled fields made %+v, want 3 cycles and 250 mW", cat)
	}
}

// typeKeys types text into whatever has the keyboard focus, as the keyboard does (test.Type
// would tell the entry it gained the focus again).
func typeKeys(c fyne.Canvas, text string) {
	for _, r := range text {
		c.Focused().TypedRune(r)
	}
}

// An invalid Power value used to show its error beside the ✓ of the value before it: the entry
// keeps its last state while it has the focus. It now shows no ✓ while its value is wrong.
func TestInvalidPowerShowsNoTick(t *testing.T) {
	_, v := newTestEditor(t)
	c := v.Window.Canvas()
	c.Focus(v.Power)
	typeKeys(c, "x")
	if v.Power.Text != "x" || v.CostError.Text == "" {
		t.Fatalf("typing x into Power: text %q, error %q", v.Power.Text, v.CostError.Text)
	}
	if showsTick(v.Power) {
		t.Errorf("Power %q shows a ✓ beside the error %q", v.Power.Text, v.CostError.Text)
	}
	c.Focus(v.Cycles) // leaving it shows the error's own mark
	if showsTick(v.Power) {
		t.Errorf("Power %q shows a ✓ after losing the focus", v.Power.Text)
	}
}

// showsTick tells whether o draws the entry's ✓ (its valid mark).
func showsTick(o fyne.CanvasObject) bool {
	tick := theme.Current().Icon(theme.IconNameConfirm).Name()
	for _, o := range shownObjects(o) {
		if img, ok := o.(*canvas.Image); ok && img.Resource != nil && img.Resource.Name() == tick {
			return true
		}
	}
	return false
}
