package ui

import (
	"runtime"
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/driver/desktop"
	"fyne.io/fyne/v2/widget"
)

// Command is one window action with its menu label and optional key. The menu, the canvas
// shortcuts and the Shortcuts help are all built from one list, so they cannot disagree.
type Command struct {
	Label string
	Key   fyne.KeyName // "" for no shortcut
	Mod   fyne.KeyModifier
	Run   func() // nil: the driver's Quit, which closes every window as its close button would
}

// The modifiers of the windows' shortcuts, the platform's own.
const (
	Primary      = fyne.KeyModifierShortcutDefault // Ctrl, or Cmd on macOS
	PrimaryShift = fyne.KeyModifierShortcutDefault | fyne.KeyModifierShift
)

// Shortcut is the command's key as the canvas and the menus take it, nil for none.
func (c Command) Shortcut() *desktop.CustomShortcut {
	if c.Key == "" {
		return nil
	}
	return &desktop.CustomShortcut{KeyName: c.Key, Modifier: c.Mod}
}

func (c Command) menuItem() *fyne.MenuItem {
	item := fyne.NewMenuItem(c.Label, c.Run)
	item.IsQuit = c.Run == nil
	if sc := c.Shortcut(); sc != nil {
		item.Shortcut = sc
	}
	return item
}

// Menu turns commands into a menu; a nil command becomes a separator.
func Menu(title string, cmds ...*Command) *fyne.Menu {
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

// AddShortcuts registers every command's key on the canvas, and Escape to close the dialog on
// top (DismissDialog). The main menu carries the same keys, which is what makes them work while
// a text entry has the focus (the desktop driver offers a shortcut to the menu first, then to the
// focused widget, and only then to the canvas).
func AddShortcuts(c fyne.Canvas, cmds []*Command) {
	closeDialogsOnEscape(c)
	for _, cmd := range cmds {
		if sc := cmd.Shortcut(); sc != nil && cmd.Run != nil {
			run := cmd.Run
			c.AddShortcut(sc, func(fyne.Shortcut) { run() })
		}
	}
}

// ShowKeys lists every key so users need not hunt through menus; note ("" for none) follows.
func ShowKeys(cmds []*Command, note string, parent fyne.Window) {
	grid := container.NewGridWithColumns(2)
	for _, c := range cmds {
		if c.Key == "" {
			continue
		}
		grid.Add(widget.NewLabelWithStyle(KeyText(c.Key, c.Mod), fyne.TextAlignLeading, fyne.TextStyle{Monospace: true}))
		grid.Add(widget.NewLabel(strings.TrimSuffix(c.Label, "…")))
	}
	content := container.NewVBox(grid)
	if note != "" {
		l := widget.NewLabel(note)
		l.Wrapping = fyne.TextWrapWord
		content.Add(l)
	}
	dialog.ShowCustom("Keyboard shortcuts", "Close", content, parent)
	closeDialogsOnEscape(parent.Canvas())
}

// KeyText names a key as the Shortcuts help shows it: "Ctrl+Shift+S".
func KeyText(key fyne.KeyName, mod fyne.KeyModifier) string {
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
