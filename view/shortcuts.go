package view

import (
	"runtime"
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/driver/desktop"
	"fyne.io/fyne/v2/widget"
)

// command is one window action with its menu label and optional key. The menu, the canvas
// shortcuts and the Shortcuts help are all built from one list, so they cannot disagree.
type command struct {
	label string
	key   fyne.KeyName // "" for no shortcut
	mod   fyne.KeyModifier
	run   func() // nil: the driver's Quit, which closes every window as its close button would
}

const (
	primary      = fyne.KeyModifierShortcutDefault // Ctrl, or Cmd on macOS
	primaryShift = fyne.KeyModifierShortcutDefault | fyne.KeyModifierShift
)

func (c command) shortcut() *desktop.CustomShortcut {
	if c.key == "" {
		return nil
	}
	return &desktop.CustomShortcut{KeyName: c.key, Modifier: c.mod}
}

func (c command) menuItem() *fyne.MenuItem {
	item := fyne.NewMenuItem(c.label, c.run)
	item.IsQuit = c.run == nil
	if sc := c.shortcut(); sc != nil {
		item.Shortcut = sc
	}
	return item
}

// menu turns commands into a menu; a nil command becomes a separator.
func menu(title string, cmds ...*command) *fyne.Menu {
	items := make([]*fyne.MenuItem, 0, len(cmds))
	for _, c := range cmds {
		if c == nil {
			items = append(items, fyne.NewMenuItemSeparator())
			continue
		}
		items = append(items, c.menuItem())
	}
	return fyne.NewMenu(title, items...)
}

// addShortcuts registers every command's key on the canvas. The main menu carries the same
// keys, which is what makes them work while a text entry has the focus (the desktop driver
// offers a shortcut to the menu first, then to the focused widget, and only then to the canvas).
func addShortcuts(c fyne.Canvas, cmds []*command) {
	for _, cmd := range cmds {
		if sc := cmd.shortcut(); sc != nil && cmd.run != nil {
			run := cmd.run
			c.AddShortcut(sc, func(fyne.Shortcut) { run() })
		}
	}
}

// showShortcuts lists the editor's keys, with how its lists take the keyboard.
func showShortcuts(cmds []*command, parent fyne.Window) {
	showKeys(cmds, "In a list, click a row or its box to tick it; Space ticks the row under the keyboard focus.", parent)
}

// showKeys lists every key so users need not hunt through menus; note ("" for none) follows.
func showKeys(cmds []*command, note string, parent fyne.Window) {
	grid := container.NewGridWithColumns(2)
	for _, c := range cmds {
		if c.key == "" {
			continue
		}
		grid.Add(widget.NewLabelWithStyle(keyText(c.key, c.mod), fyne.TextAlignLeading, fyne.TextStyle{Monospace: true}))
		grid.Add(widget.NewLabel(strings.TrimSuffix(c.label, "…")))
	}
	content := container.NewVBox(grid)
	if note != "" {
		l := widget.NewLabel(note)
		l.Wrapping = fyne.TextWrapWord
		content.Add(l)
	}
	dialog.ShowCustom("Keyboard shortcuts", "Close", content, parent)
}

func keyText(key fyne.KeyName, mod fyne.KeyModifier) string {
	var parts []string
	if mod&fyne.KeyModifierControl != 0 {
		parts = append(parts, "Ctrl")
	}
	if mod&fyne.KeyModifierSuper != 0 {
		parts = append(parts, map[bool]string{true: "Cmd", false: "Super"}[runtime.GOOS == "darwin"])
	}
	if mod&fyne.KeyModifierAlt != 0 {
		parts = append(parts, "Alt")
	}
	if mod&fyne.KeyModifierShift != 0 {
		parts = append(parts, "Shift")
	}
	return strings.Join(append(parts, string(key)), "+")
}
