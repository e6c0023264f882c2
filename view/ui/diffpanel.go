package ui

import (
	"context"
	"fmt"
	"math"
	"slices"
	"strconv"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/widget"

	"androprof/chart"
	"androprof/controller"
	"androprof/internal/human"
	"androprof/model"
	"androprof/model/calls"
	"androprof/model/flame"
)

// DiffFunc is controller.Workspace.Diff, the one question both the window's Diff tabs and
// `androprof diff` ask, so they show the same rows.
type DiffFunc func(ctx context.Context, runA, runB string, opts controller.DiffOptions) (*controller.DiffResult, error)

// The Clock chooser's options of a method runs' diff.
const (
	DiffClockCPU  = "Thread CPU"
	DiffClockReal = "Real time"
)

// DiffThresholdMax is the slider's end, in points of each run's total: a change of more is no
// noise.
const DiffThresholdMax = 10

// DiffPanel is a Diff tab (issue 28): the run shown (A) against a second run of its kind (B),
// as the differential flame graph (widths from B, red more, blue less; method and sampled runs)
// above the table sorted by change (by function, path or image), both from controller's
// Workspace.Diff with the threshold of the slider. Emulator runs have no stacks: a table only.
type DiffPanel struct {
	Other         *widget.Select // run B
	By            *widget.Select // the table's rows
	Clock         *widget.Select // method runs: the clock both are measured on
	Threshold     *widget.Slider // points of each run's total under which a row is unchanged
	ThresholdText *widget.Label
	Header        *widget.Label // A, B, what the numbers measure, what moved less than the threshold
	Flame         *FlamePanel   // nil for emulator runs
	Table         *SortTable[flame.DiffRow]
	// Clocks, when set (method runs), says which clocks a run has, so the Clock chooser is
	// offered only when both runs have both.
	Clocks func(ctx context.Context, run string) (cpu, wall bool, err error)

	host    Host
	kind    model.RunKind
	diff    DiffFunc
	runA    string
	name    func(calls.MethodInfo) string
	res     *controller.DiffResult // shown; nil before B is chosen
	zoom    []string
	focus   controller.FocusOptions // the flame panel's steps, applied to both runs before the diff
	gen     int
	quiet   bool
	content fyne.CanvasObject
}

// NewDiffPanel makes the Diff tab of runs of kind, shown by host, which asks diff.
func NewDiffPanel(host Host, kind model.RunKind, diff DiffFunc) *DiffPanel {
	p := &DiffPanel{host: host, kind: kind, diff: diff, quiet: true} // nothing to compare until Show
	defer func() { p.quiet = false }()
	again := func(string) {
		if !p.quiet {
			p.recompute()
		}
	}
	p.Other = widget.NewSelect(nil, again)
	p.Other.PlaceHolder = "(choose run B)"
	bys := []string{string(flame.DiffByFunction), string(flame.DiffByPath), string(flame.DiffByOrigin)}
	if kind == model.RunKindEmulator {
		bys = []string{string(flame.DiffByFunction), string(flame.DiffByOrigin)}
	}
	p.By = widget.NewSelect(bys, again)
	p.By.SetSelected(string(flame.DiffByFunction))
	p.Clock = widget.NewSelect([]string{DiffClockCPU, DiffClockReal}, again)
	p.Clock.PlaceHolder = "(default)"
	p.Clock.Disable()
	p.ThresholdText = widget.NewLabel("")
	p.Threshold = widget.NewSlider(0, DiffThresholdMax)
	p.Threshold.Step = 0.1
	p.Threshold.Value = 1 // `androprof diff`'s default
	p.Threshold.OnChanged = func(float64) { p.sayThreshold(); again("") }
	p.sayThreshold()
	p.Header = widget.NewLabel("")
	p.Header.Truncation = fyne.TextTruncateEllipsis // one line: a 900×600 window keeps room for the graph
	p.Table = NewSortTable(host.Window(), "diff", p.columns("", false), nil)
	h := p.Other.MinSize().Height
	sized := func(w float32, o fyne.CanvasObject) fyne.CanvasObject {
		return container.NewGridWrap(fyne.NewSize(w, h), o)
	}
	controls := []fyne.CanvasObject{Group(widget.NewLabel("B"), sized(190, p.Other)), Group(widget.NewLabel("Rows by"), sized(100, p.By))}
	if kind == model.RunKindMethods {
		controls = append(controls, Group(widget.NewLabel("Clock"), sized(120, p.Clock)))
	}
	// The threshold leads the header's line, so each line fits a 900 px window.
	threshold := Group(widget.NewLabel("Threshold"), sized(140, p.Threshold), p.ThresholdText)
	top := container.NewVBox(container.NewHBox(controls...), container.NewBorder(nil, nil, threshold, nil, p.Header))
	body := p.Table.Content()
	if kind != model.RunKindEmulator {
		p.Flame = NewFlamePanel(host.Window(), host.Background())
		p.Flame.OnChange = func(_ chart.Flame, zoom []string) { p.zoom = zoom }
		p.Flame.OnSelect = p.selectRow
		p.Flame.Refocus = func(opts controller.FocusOptions) {
			p.focus = opts
			p.recompute()
		}
		// Each side scrolls when the window is too low for both at their least (900×600).
		split := container.NewVSplit(container.NewVScroll(p.Flame.Content()), container.NewVScroll(p.Table.Content()))
		split.Offset = 0.7
		body = split
	}
	p.content = container.NewBorder(top, nil, nil, nil, body)
	return p
}

// Content is the tab.
func (p *DiffPanel) Content() fyne.CanvasObject { return p.content }

// Result is the diff shown, nil before run B is chosen or while it fails.
func (p *DiffPanel) Result() *controller.DiffResult { return p.res }

// Show compares run A (the run shown) with the B chosen, its methods named by name (method
// runs; nil for others), offering every other run of the kind as B. With no name, showing the
// run and runs shown already does nothing: the tab sets call it on every change of selection.
func (p *DiffPanel) Show(runA string, name func(calls.MethodInfo) string) {
	var others []string
	for _, r := range p.host.RunsOfKind(p.kind) {
		if r != runA {
			others = append(others, r)
		}
	}
	if runA == p.runA && name == nil && p.name == nil && slices.Equal(others, p.Other.Options) && (p.res != nil || p.Other.Selected == "") {
		return // shown already: the diff does not depend on the rest of the selection
	}
	p.runA, p.name = runA, name
	p.quiet = true
	p.Other.Options = others
	if !slices.Contains(others, p.Other.Selected) {
		p.Other.ClearSelected()
	}
	p.Other.Refresh()
	p.quiet = false
	p.recompute()
}

// sayThreshold writes the slider's value beside it.
func (p *DiffPanel) sayThreshold() {
	p.ThresholdText.SetText(pointsWord(p.threshold()))
}

// threshold is the slider's value in points, to a hundredth (the slider's steps add up
// floating-point dust).
func (p *DiffPanel) threshold() float64 { return math.Round(p.Threshold.Value*100) / 100 }

// pointsWord is "1 point", "2.5 points".
func pointsWord(v float64) string {
	s := human.TrimZeros(strconv.FormatFloat(v, 'f', 2, 64))
	if s == "1" {
		return "1 point"
	}
	return s + " points"
}

// options are the controls' question for Workspace.Diff.
func (p *DiffPanel) options() controller.DiffOptions {
	opts := controller.DiffOptions{By: flame.DiffBy(p.By.Selected), Threshold: p.threshold() / 100, Name: p.name, Focus: p.focus}
	switch p.Clock.Selected {
	case DiffClockCPU:
		opts.Clock = "cpu"
	case DiffClockReal:
		opts.Clock = "wall"
	}
	return opts
}

// recompute asks for the diff of A and the B chosen in the background and shows it.
func (p *DiffPanel) recompute() {
	p.gen++
	b := p.Other.Selected
	if p.runA == "" || b == "" || p.diff == nil {
		p.res = nil
		if len(p.Other.Options) == 0 {
			p.Header.SetText(fmt.Sprintf("Import a second %s to compare with.", model.RunKindText(p.kind)))
		} else {
			p.Header.SetText("Choose run B to see what changed from this run (A) to it.")
		}
		p.show(nil)
		return
	}
	gen, a, opts, ctx, clocks := p.gen, p.runA, p.options(), p.host.Context(), p.Clocks
	p.host.Background().Run(func() func() {
		res, err := p.diff(ctx, a, b, opts)
		both := clocks != nil && hasBoth(ctx, clocks, a) && hasBoth(ctx, clocks, b)
		return func() {
			if gen != p.gen {
				return
			}
			Enable(p.Clock, both)
			if err != nil {
				p.res = nil
				p.Header.SetText(ProblemText("compare with", b, err))
				p.show(nil)
				return
			}
			p.res = res
			p.Header.SetText(p.headerText(res))
			p.show(res)
		}
	})
}

// hasBoth says whether run has both clocks.
func hasBoth(ctx context.Context, clocks func(context.Context, string) (bool, bool, error), run string) bool {
	cpu, wall, err := clocks(ctx, run)
	return err == nil && cpu && wall
}

// headerText says what is compared, on what measure, and how many rows moved less than the
// threshold, as `androprof diff` does.
func (p *DiffPanel) headerText(res *controller.DiffResult) string {
	unchanged := 0
	for _, r := range res.Rows {
		if r.Unchanged {
			unchanged++
		}
	}
	return fmt.Sprintf("A %s %s %s, B %s %s %s: %s (%s); changes in points of each run's own total; %s under %s not listed",
		res.RunA, human.Grouped(res.TotalA), res.Unit, res.RunB, human.Grouped(res.TotalB), res.Unit, res.Measure, res.Why,
		human.Count(unchanged, "row", "rows"), pointsWord(100*res.Threshold))
}

// show puts res's changed rows in the table and its graph in the flame panel (nil clears both).
func (p *DiffPanel) show(res *controller.DiffResult) {
	var rows []flame.DiffRow
	unit, by := "", false
	if res != nil {
		unit, by = res.Unit, res.By == flame.DiffByPath
		for _, r := range res.Rows {
			if !r.Unchanged {
				rows = append(rows, r)
			}
		}
	}
	p.Table.SetColumns(p.columns(unit, by))
	p.Table.Set(rows)
	if p.Flame == nil {
		return
	}
	if res == nil || res.Tree == nil {
		p.Flame.Show(chart.Flame{}, nil)
		return
	}
	p.Table.SetSubject(res.RunA + "-vs-" + res.RunB)
	p.Flame.Chart.SetSubject(res.RunA + "-vs-" + res.RunB)
	// The steps were applied to both runs (Refocus); the graph's widths are B's, so B's amounts.
	p.Flame.ShowFocused(DiffFlame(res), res.FocusB, p.zoom)
}

// DiffFlame is the differential flame graph of a diff, in the unit of its measure.
func DiffFlame(res *controller.DiffResult) chart.Flame {
	unit, scope := "", "every sample"
	switch res.Measure {
	case "thread-CPU time":
		unit, scope = chart.FlameCPU, "all threads"
	case "real time":
		unit, scope = chart.FlameReal, "all threads"
	}
	return chart.FromDiff(res.Tree, res.Rows, res.RunA, res.RunB, unit, scope, res.Threshold)
}

// selectRow selects the table's row of the frame clicked: its function or image (path rows
// are the frames' own, found by their last frame's name).
func (p *DiffPanel) selectRow(n *flame.Node) {
	if p.res == nil || n == nil {
		return
	}
	key := n.Name
	if p.res.By == flame.DiffByOrigin {
		key = n.Origin
		if key == "" {
			key = flame.NoOrigin
		}
	}
	i := slices.IndexFunc(p.Table.Rows(), func(r flame.DiffRow) bool {
		if p.res.By == flame.DiffByPath {
			return len(r.Path) > 0 && r.Path[len(r.Path)-1] == key
		}
		return r.Key == key
	})
	if i >= 0 {
		p.Table.Select(i)
	}
}

// columns are the diff table's: A, B and the change of self and total time in unit, and the
// changes in points, as `androprof diff` prints them; path rows named by their last frames.
func (p *DiffPanel) columns(unit string, paths bool) []Column[flame.DiffRow] {
	type row = flame.DiffRow
	u := ""
	if unit != "" {
		u = " (" + unit + ")"
	}
	name := TextCol("Name", 360, func(r row) string { return r.Key })
	if paths {
		name.Text = controller.DiffRowName
		name.Raw = func(r row) string { return r.Key }
	}
	// v is the change as a fraction; the column sorts and saves it in points.
	pts := func(title string, v func(row) float64) Column[row] {
		c := FloatCol(title, 110, 2, func(r row) float64 { return 100 * v(r) })
		c.Text = func(r row) string { return controller.DiffPointsText(v(r)) }
		return c
	}
	delta := IntCol("Self Δ"+u, 110, func(r row) int64 { return r.SelfB - r.SelfA })
	delta.Text = func(r row) string { return signedGrouped(r.SelfB - r.SelfA) }
	cols := []Column[row]{name,
		IntCol("Self A"+u, 110, func(r row) int64 { return r.SelfA }),
		IntCol("Self B"+u, 110, func(r row) int64 { return r.SelfB }),
		delta,
		pts("Self Δ points", func(r row) float64 { return r.SelfChange }),
	}
	if p.kind == model.RunKindEmulator {
		return cols // no stacks: a function's total is its self
	}
	return append(cols,
		IntCol("Total A"+u, 110, func(r row) int64 { return r.TotalA }),
		IntCol("Total B"+u, 110, func(r row) int64 { return r.TotalB }),
		pts("Total Δ points", func(r row) float64 { return r.Change }))
}

// signedGrouped is a difference grouped as counts are, with its sign as the points beside it
// have theirs: "+5 620", "-743 690".
func signedGrouped(v int64) string {
	if v < 0 {
		return "-" + human.Grouped(-v)
	}
	return "+" + human.Grouped(v)
}

// SetDiff sets the question the panel asks; a tab made before the workspace was at hand gets it
// here.
func (p *DiffPanel) SetDiff(diff DiffFunc) { p.diff = diff }
