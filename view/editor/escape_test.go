package editor

import (
	"testing"

	"fyne.io/fyne/v2"
)

// Escape in a dialog's entry did nothing in the editor: a widget.Entry takes every key while
// it has the keyboard. Each dialog that opens with the keyboard in an entry now closes on it.
func TestEscapeClosesEditorDialogs(t *testing.T) {
	_, v := newTestEditor(t)
	c := v.Window.Canvas()
	for _, cmd := range []struct {
		name string
		id   int
	}{
		{"New category", cmdNewCategory}, {"Rename category", cmdRenameCategory},
		{"Rename profile", cmdRenameProfile}, {"Add instruction", cmdAddInstruction},
		{"Profile details", cmdDetails},
	} {
		v.commands[cmd.id].Run()
		if c.Overlays().Top() == nil {
			t.Fatalf("%s opened no dialog", cmd.name)
		}
		f := c.Focused()
		if f == nil {
			t.Fatalf("%s: no field has the keyboard", cmd.name)
		}
		f.TypedKey(&fyne.KeyEvent{Name: fyne.KeyEscape})
		if c.Overlays().Top() != nil {
			t.Errorf("Escape in %s's %T left the dialog open", cmd.name, f)
			c.Overlays().Top().Hide()
			c.Overlays().Remove(c.Overlays().Top())
		}
	}
}
