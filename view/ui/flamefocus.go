package ui

// The flame panel's focus (issue 28, item 3): "Focus on this", "Hide this subtree" and "Merge
// into callers" on the frame clicked (buttons, or a right-click's menu), a field for "Only frames
// matching", the steps as removable chips with Clear, and a line that says what they hid, all
// through controller.FocusFlame, the door `chart --by flame --focus …` goes through.

import (
	"regexp"
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"androprof/controller"
	"androprof/model/flame"
)

// FlameFocus is a flame panel's focus steps and their widgets, kept per panel (so per tab), and
// re-applied to each new graph the tab shows (another thread, clock or selection).
type FlameFocus struct {
	FocusOn, Hide, Merge *widget.Button // act on the frame clicked
	Only                 *widget.Entry  // "only frames matching" REGEX, applied after the steps
	Clear                *widget.Button
	Hidden               *widget.Label // what the steps hid or moved, with numbers; or why Only is refused

	steps []controller.FocusStep // in the order clicked
	chips *fyne.Container
	row   fyne.CanvasObject // the actions, the steps and what they hid
	only  fyne.CanvasObject // the Only field with its label, for the search row
}

func newFlameFocus(p *FlamePanel) *FlameFocus {
	f := &FlameFocus{}
	f.FocusOn = widget.NewButtonWithIcon("Focus on this", theme.ZoomInIcon(), func() { p.focusFrame(flame.OpKeep, p.selected) })
	f.Hide = widget.NewButtonWithIcon("Hide this subtree", theme.VisibilityOffIcon(), func() { p.focusFrame(flame.OpHide, p.selected) })
	f.Merge = widget.NewButtonWithIcon("Merge into callers", theme.MoveUpIcon(), func() { p.focusFrame(flame.OpMerge, p.selected) })
	f.Only = widget.NewEntry()
	f.Only.SetPlaceHolder("only frames matching, e.g. ^com\\.jag")
	f.Only.OnChanged = func(string) { p.refocus() }
	f.Only.OnSubmitted = func(string) {
		if opts, err := f.options(); err == nil && f.Only.Text != "" {
			f.steps = opts.Steps
			f.Only.SetText("") // refocuses
		}
	}
	f.Clear = widget.NewButtonWithIcon("Clear", theme.ContentClearIcon(), func() {
		f.steps = nil
		f.Only.SetText("") // refocuses
		p.refocus()
	})
	f.Hidden = widget.NewLabel("")
	f.Hidden.Truncation = fyne.TextTruncateEllipsis
	f.chips = container.NewHBox()
	only := container.NewBorder(nil, nil, widget.NewLabel("Only"), nil, f.Only)
	f.only = container.NewGridWrap(fyne.NewSize(190, f.Only.MinSize().Height), only)
	buttons := container.NewHBox(f.FocusOn, f.Hide, f.Merge)
	chips := container.NewHBox(widget.NewLabel("Focus:"), f.chips, f.Clear)
	// One row: the actions on the frame clicked, then the steps and what they hid (the Only
	// field sits beside Search), so the graph keeps its height at 1366×768.
	f.row = container.NewBorder(nil, nil, container.NewHBox(buttons, chips), nil, f.Hidden)
	f.enable(nil, nil)
	return f
}

// options are the steps, then Only when its expression compiles (else the reason it does not).
func (f *FlameFocus) options() (controller.FocusOptions, error) {
	opts := controller.FocusOptions{Steps: append([]controller.FocusStep(nil), f.steps...)}
	if expr := f.Only.Text; expr != "" {
		if _, err := regexp.Compile(expr); err != nil {
			return opts, &controller.FocusError{Step: controller.FocusStep{Op: flame.OpOnly, Arg: expr}, Msg: "not a regular expression: " + err.Error()}
		}
		opts.Steps = append(opts.Steps, controller.FocusStep{Op: flame.OpOnly, Arg: expr})
	}
	return opts, nil
}

// enable turns the frame buttons on for a frame below top, and Clear on when there is a step.
func (f *FlameFocus) enable(selected, top *flame.Node) {
	on := selected != nil && selected != top
	Enable(f.FocusOn, on)
	Enable(f.Hide, on)
	Enable(f.Merge, on)
	Enable(f.Clear, len(f.steps) > 0 || f.Only.Text != "")
}

// showSteps makes a chip per step, its ✕ removing it.
func (f *FlameFocus) showSteps(p *FlamePanel) {
	f.chips.Objects = nil
	for i, s := range f.steps {
		chip := widget.NewButtonWithIcon(controller.FocusStepText(s), theme.CancelIcon(), func() {
			f.steps = append(f.steps[:i:i], f.steps[i+1:]...)
			p.refocus()
		})
		chip.IconPlacement = widget.ButtonIconTrailingText
		f.chips.Objects = append(f.chips.Objects, chip)
	}
	if len(f.steps) == 0 {
		f.chips.Objects = append(f.chips.Objects, widget.NewLabel("none"))
	}
	f.chips.Refresh()
}

// stepFor is the step an action makes of frame n of the graph whose root is top: Focus keeps
// the frames of n's name exactly, Hide the path to n, Merge n's name.
func stepFor(op flame.FocusOp, top, n *flame.Node) (controller.FocusStep, bool) {
	switch op {
	case flame.OpKeep:
		return controller.FocusStep{Op: op, Arg: "^" + regexp.QuoteMeta(n.Name) + "$"}, true
	case flame.OpHide:
		path := flame.PathOf(top, n)
		return controller.FocusStep{Op: op, Arg: strings.Join(path, ";")}, path != nil
	case flame.OpMerge:
		return controller.FocusStep{Op: op, Arg: n.Name}, true
	}
	return controller.FocusStep{}, false
}

// focusFrame adds op on frame n (the frame clicked, or right-clicked) as a step.
func (p *FlamePanel) focusFrame(op flame.FocusOp, n *flame.Node) {
	top := p.flame.Top()
	if n == nil || n == top {
		return
	}
	s, ok := stepFor(op, top, n)
	if !ok {
		return
	}
	f := p.Focus
	if opts, err := f.options(); err == nil && f.Only.Text != "" {
		f.steps = opts.Steps // Only as typed becomes a step, so the new step's path is of this graph
		f.Only.OnChanged = nil
		f.Only.SetText("")
		f.Only.OnChanged = func(string) { p.refocus() }
	}
	p.AddFocus(s)
}

// frameMenu is a right-click's menu on frame n.
func (p *FlamePanel) frameMenu(n *flame.Node) *fyne.Menu {
	item := func(label string, op flame.FocusOp) *fyne.MenuItem {
		return fyne.NewMenuItem(label, func() { p.focusFrame(op, n) })
	}
	return fyne.NewMenu("", item("Focus on this", flame.OpKeep), item("Hide this subtree", flame.OpHide),
		item("Merge into callers", flame.OpMerge))
}

// AddFocus adds a focus step as the frame buttons do, for a tab's own actions (a method chosen
// elsewhere) and the tour's screenshots.
func (p *FlamePanel) AddFocus(s controller.FocusStep) {
	p.Focus.steps = append(p.Focus.steps, s)
	p.refocus()
}
