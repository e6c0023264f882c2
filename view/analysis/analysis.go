// Package analysis is the analysis window: the workspace's runs on the left and, for the run
// chosen, the tabs of its kind. An emulator run has this package's own (processes, blocks,
// instructions, functions, images, system calls, estimate, comparison, profiles); a method trace shows the tabs of
// view/methods, a heap log or dump those of view/heap and a sampled run (perf) those of
// view/samples, which see the window only as a ui.Host.
package analysis

import (
	"context"
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"androprof/chart"
	"androprof/controller"
	"androprof/model"
	"androprof/model/cost"
	"androprof/view/heap"
	"androprof/view/methods"
	"androprof/view/samples"
	"androprof/view/ui"
)

// RunImporter brings runs into the workspace: QEMU logs or plugin output, or a program run
// under the emulator. The view needs only this, so it tests with a fake and the real importer
// lives in controller. Both calls block until done and honour ctx for Cancel.
type RunImporter interface {
	ImportFiles(ctx context.Context, run string, paths []string, progress func(done, total int64)) error
	RunProgram(ctx context.Context, run string, program string, args []string, progress func(msg string)) error
}

// NoRunsText is what the Runs list says while the workspace holds no run.
const NoRunsText = "No runs yet. Import QEMU logs or run a program under the emulator to analyse it."

// allProcesses is the Process chooser's first option.
const allProcesses = "All processes"

// View is the analysis window (seed 000 §4.2.2): runs on the left; for the chosen run,
// profile and frequency, tabs with processes, blocks, instructions, functions, images and
// system calls (seed 004's layers), the figure 5.2 estimate and comparisons. Any change recomputes every tab at once, in the background.
type View struct {
	Window fyne.Window

	Profile       *widget.Select // the cost profile every tab prices with
	Process       *widget.Select // all processes or one; a tap on a process drills here
	Frequency     *widget.Entry  // GHz; empty: the profile's
	FrequencyNote *widget.Label  // says when a frequency was assumed
	Metric        *widget.Select // what the charts show: cycles, time or energy
	Problem       *widget.Label  // why the last computation failed, or what of its numbers is a guess
	Tabs          *container.AppTabs

	Runs      *runsPanel
	Processes *processesTab
	Blocks    *blocksTab
	Insns     *insnsTab
	Functions *functionsTab
	Images    *imagesTab
	Syscalls  *syscallsTab
	Estimate  *estimateTab
	Compare   *compareTab
	Browser   *profileBrowser
	Diff      *ui.DiffPanel  // an emulator run against another, by function or image (diff.go)
	Methods   *methods.View  // the tabs and top bar shown instead while a method run is selected
	Heap      *heap.View     // … while a heap log run is selected
	Dump      *heap.DumpView // … while a heap dump run is selected
	Samples   *samples.View  // … while a sampled run (perf, simpleperf) is selected

	Hint *startHint // where to begin, until dismissed

	emulatorBar fyne.CanvasObject // the top bar's controls for emulator runs
	tabSets     tabSetObjects     // each tab set's tabs and top bar; one is shown
	root        *fyne.Container   // the window's content: top bar above runs and tabs
	commands    []*ui.Command     // the menus' and keys' actions (commands.go)

	analysis *controller.Analysis
	importer RunImporter
	ws       *controller.Workspace // every read and write of runs and profiles
	profiles controller.Profiles
	prefs    fyne.Preferences
	lastRun  string // the preference holding this workspace's last run
	bg       *ui.Background

	infos    []cost.ProfileInfo
	sel      selection
	metric   chart.Metric
	res      *results
	gen      int                // results of older computations are dropped
	ctx      context.Context    // every load for the selection shown; cancelled when it changes
	cancel   context.CancelFunc // cancels ctx: the user moved on
	quiet    bool               // set while the code, not the user, changes a chooser
	procOpts map[string]int     // Process option → pid
	unpriced map[string]bool    // the machine model pricings the user cancelled (unpricedKey)
}

// selection is what the tabs show; the background work gets a copy.
type selection struct {
	run      string
	profile  string // a name in infos; "" lets the run's instruction set choose
	explicit bool   // the user chose profile for this run; else one pricing the run's ISA replaces it
	freq     float64
	pid      int

	missesFirst bool // functions and blocks ordered by their misses (a cache-simulated run)
}

// Preference keys: the window reopens on the workspace's last run (prefRun and the
// workspace's path: preferences are the user's, runs the workspace's) and the last profile, and
// shows the "Start here" hint until it is dismissed.
const (
	prefRun      = "analysis.run:"
	prefFirstRun = "analysis.firstRun"
	prefProfile  = "analysis.profile"
	prefHintDone = "analysis.hintDismissed"
)

// SetFirstRun makes a first start in a workspace, one with no run chosen there before (or with
// that run gone), open on run.
func SetFirstRun(prefs fyne.Preferences, run string) { prefs.SetString(prefFirstRun, run) }

// Size is the window's first size: a runs list beside a chart above a table.
var Size = fyne.NewSize(1200, 760)

// New fills win with the analysis of ws's runs; it takes the window so tests can pass one from
// test.NewTempApp, and bg, which runs its work (tests pass ui.NewQueuedBackground). importer may
// be nil (Import and Run program are then disabled); openEditor and edit open the editor window,
// empty or on a profile.
func New(win fyne.Window, bg *ui.Background, prefs fyne.Preferences, ws *controller.Workspace, importer RunImporter,
	openEditor func(), edit func(*cost.Profile)) *View {
	v := &View{Window: win, prefs: prefs, ws: ws, profiles: ws.Profiles, analysis: ws.Costs, importer: importer,
		bg: bg, metric: chart.Cycles, unpriced: map[string]bool{}}
	v.moveOn()
	v.sel.profile = prefs.String(prefProfile)
	v.lastRun = prefRun + ws.Path()
	v.quiet = true // nothing to recompute until the window is built

	v.Profile = widget.NewSelect(nil, v.profileChosen)
	v.Profile.PlaceHolder = "(choose a profile)"
	v.Process = widget.NewSelect([]string{allProcesses}, v.processChosen)
	v.Process.SetSelected(allProcesses)
	v.Frequency = widget.NewEntry()
	v.Frequency.SetPlaceHolder("profile's")
	v.Frequency.OnChanged = v.frequencyChanged
	v.FrequencyNote = widget.NewLabel("")
	v.FrequencyNote.Importance = widget.WarningImportance
	names := make([]string, len(chart.Metrics))
	for i, m := range chart.Metrics {
		names[i] = string(m)
	}
	v.Metric = widget.NewSelect(names, func(s string) {
		v.metric = chart.Metric(s)
		if !v.quiet {
			v.showCharts()
		}
	})
	v.Metric.SetSelected(string(v.metric))
	v.Problem = widget.NewLabel("")
	v.Problem.Importance = widget.DangerImportance
	v.Problem.Wrapping = fyne.TextWrapWord
	v.Problem.Hide()

	v.Runs = newRunsPanel(v)
	v.Processes = newProcessesTab(v)
	v.Blocks = newBlocksTab(v)
	v.Insns = newInsnsTab(v)
	v.Functions = newFunctionsTab(v)
	v.Images = newImagesTab(v)
	v.Syscalls = newSyscallsTab(v)
	v.Estimate = newEstimateTab(v)
	v.Compare = newCompareTab(v)
	v.Diff = newDiffTab(v)
	v.Browser = newProfileBrowser(win, v.bg, ws.Profiles, edit, v.ReloadProfiles)
	host := tabHost{v}
	v.Methods = methods.New(host, ws.Methods)
	v.Heap = heap.New(host, ws.HeapLogs)
	v.Dump = heap.NewDump(host, ws.HeapDumps)
	v.Samples = samples.New(host, ws.Samples)
	v.Methods.SetDiff(ws.Diff) // their Diff tabs span two runs: the workspace's question
	v.Samples.SetDiff(ws.Diff)
	v.Tabs = container.NewAppTabs(
		container.NewTabItem("Processes", v.Processes.content),
		container.NewTabItem("Basic blocks", v.Blocks.content),
		container.NewTabItem("Instructions", v.Insns.content),
		container.NewTabItem("Functions", v.Functions.content),
		container.NewTabItem("Images", v.Images.content),
		container.NewTabItem("System calls", v.Syscalls.content),
		container.NewTabItem("Estimate", v.Estimate.content),
		container.NewTabItem("Compare", v.Compare.content),
		container.NewTabItem(TabDiff, v.Diff.Content()), // beside Compare: both span two runs
		container.NewTabItem("Profiles", v.Browser.content),
	)

	toEditor := widget.NewButtonWithIcon("Editor", theme.ListIcon(), openEditor)
	h := v.Frequency.MinSize().Height
	sized := func(w float32, o fyne.CanvasObject) fyne.CanvasObject {
		return container.NewGridWrap(fyne.NewSize(w, h), o)
	}
	v.FrequencyNote.Truncation = fyne.TextTruncateEllipsis
	noteWidth := widget.NewLabel("not a frequency in GHz").MinSize().Width // the longest note
	v.emulatorBar = ui.NewBar(
		ui.Group(widget.NewLabel("Profile"), sized(250, v.Profile)), ui.Group(widget.NewLabel("Process"), sized(180, v.Process)),
		ui.Group(widget.NewLabel("GHz"), sized(90, v.Frequency), sized(noteWidth, v.FrequencyNote)),
		ui.Group(widget.NewLabel("Charts"), sized(110, v.Metric)))
	v.tabSets = tabSetObjects{emulatorTabs: {v.Tabs, v.emulatorBar}, methodTabs: {v.Methods.Tabs, v.Methods.Bar},
		heapTabs: {v.Heap.Tabs, v.Heap.Bar}, dumpTabs: {v.Dump.Tabs, v.Dump.Bar}, samplesTabs: {v.Samples.Tabs, v.Samples.Bar}}
	var tabs, bars []fyne.CanvasObject
	for _, s := range v.tabSets {
		tabs, bars = append(tabs, s[0]), append(bars, s[1])
	}
	v.Hint = newStartHint(prefs)
	main := container.NewBorder(v.Hint.content, v.Problem, nil, nil, container.NewStack(tabs...))
	v.Hint.dismissed = func() { main.Layout.Layout(main.Objects, main.Size()) }
	v.showTabSet(emulatorTabs)
	split := container.NewHSplit(v.Runs.content, main)
	split.Offset = 0.15 // at 900 px the runs list keeps its minimum, the tables get the rest
	v.root = container.New(topBarLayout{}, container.NewStack(bars...), toEditor, split)
	win.SetContent(v.root)
	v.commands = v.buildCommands(openEditor)
	win.SetMainMenu(v.mainMenu())
	ui.AddShortcuts(win.Canvas(), v.commands)

	v.quiet = false
	v.ReloadProfiles()
	v.Runs.reload("")
	return v
}

// ReloadProfiles lists the profiles again, e.g. after the editor kept one in the workspace.
func (v *View) ReloadProfiles() {
	profiles := v.profiles
	v.bg.Run(func() func() { // the database is read off the UI goroutine
		infos, err := profiles.List(context.Background())
		return func() { v.showProfiles(infos, err) }
	})
}

// showProfiles offers the profiles read, keeping the one chosen when it is still there.
func (v *View) showProfiles(infos []cost.ProfileInfo, err error) {
	v.infos = infos
	v.Browser.showList(infos, err)
	names := v.ProfileNames()
	v.quiet = true
	v.Profile.Options = names
	if !slices.Contains(names, v.sel.profile) {
		v.sel.profile = ""
		v.Profile.ClearSelected()
	} else {
		v.Profile.SetSelected(v.sel.profile)
	}
	v.quiet = false
	v.Profile.Refresh()
	v.recompute()
}

// ProfileNames lists the profiles offered, in order.
func (v *View) ProfileNames() []string {
	names := make([]string, len(v.infos))
	for i, in := range v.infos {
		names[i] = in.Name
	}
	return names
}

// RunNames lists the runs shown, in order.
func (v *View) RunNames() []string { return v.Runs.Names() }

// SelectRun shows a run, as a tap on it in the Runs list would.
func (v *View) SelectRun(name string) { v.Runs.Select(name) }

// Wait blocks until the window's background work is done, so a test or a screenshot sees
// what a user would after a moment. Never call it on the UI goroutine.
func (v *View) Wait() { v.bg.Wait() }

func (v *View) profileChosen(name string) {
	if v.quiet || name == "" {
		return
	}
	v.sel.profile, v.sel.explicit = name, true
	v.prefs.SetString(prefProfile, name)
	v.recompute()
}

func (v *View) processChosen(opt string) {
	if v.quiet {
		return
	}
	v.sel.pid = v.procOpts[opt]
	v.recompute()
}

func (v *View) frequencyChanged(s string) {
	s = strings.TrimSpace(s)
	f := 0.0
	if s != "" {
		var err error
		f, err = strconv.ParseFloat(s, 64)
		if err != nil || !(f > 0) || f > 1000 {
			v.FrequencyNote.SetText("not a frequency in GHz")
			return
		}
	}
	v.sel.freq = f
	v.recompute()
}

// SelectProcess shows one process (pid 0: all) in every tab but Processes.
func (v *View) SelectProcess(pid int) {
	v.sel.pid = pid
	v.setProcessOption()
	v.recompute()
}

// drill goes from a process to its blocks (seed 4.2.2: which process costs most, then why).
func (v *View) drill(pid int) {
	v.SelectProcess(pid)
	v.Tabs.SelectIndex(1)
}

func (v *View) setProcessOption() {
	v.quiet = true
	defer func() { v.quiet = false }()
	for opt, pid := range v.procOpts {
		if pid == v.sel.pid {
			v.Process.SetSelected(opt)
			return
		}
	}
	v.Process.SetSelected(allProcesses)
}

// recompute starts computing every tab for the current selection; a newer call supersedes it.
func (v *View) recompute() {
	v.gen++
	v.moveOn()
	ui.SetSubject(v.Window, v.sel.run) // files saved from any tab are named after the run
	routed := v.route()
	v.relayout() // the bar shown may need another number of rows
	if routed {
		return
	}
	if v.analysis == nil || v.sel.run == "" || len(v.infos) == 0 {
		v.show(nil)
		return
	}
	gen, sel, infos, a, profiles, ctx := v.gen, v.sel, slices.Clone(v.infos), v.analysis, v.profiles, v.ctx
	pricing, cancelled := &pricingProgress{bg: v.bg, win: v.Window}, maps.Clone(v.unpriced)
	v.bg.Run(func() func() {
		res, err := compute(ctx, a, profiles, infos, sel, pricing, cancelled)
		return func() {
			pricing.close()
			if res != nil && res.unpriced {
				v.unpriced[unpricedKey(sel.run, res.profile.Pipeline)] = true
			}
			if gen != v.gen {
				return
			}
			if err != nil {
				v.setProblem(ui.ProblemText("compute the costs of", sel.run, err))
				return
			}
			v.show(res)
		}
	})
}

// moveOn cancels every load for the selection shown (the user chose another run, process,
// profile or frequency) and starts the context of the next ones.
func (v *View) moveOn() {
	if v.cancel != nil {
		v.cancel()
	}
	v.ctx, v.cancel = context.WithCancel(context.Background())
}

// show fills every tab from res (nil: empty tabs).
func (v *View) show(res *results) {
	prev := v.res
	v.res = res
	v.setProblem(res.fitWarning()) // numbers from a profile that does not fit the run say so
	v.FrequencyNote.SetText("")
	if res != nil {
		if prev == nil || prev.profile.Name != res.profile.Name {
			v.Browser.Select(res.profile.Name) // the Profiles tab opens on the profile in use
		}
		v.sel = res.sel // the user's choice of profile stays for the next run that it prices
		v.quiet = true
		v.Profile.SetSelected(res.profile.Name) // the profile in use, said where the numbers are
		v.quiet = false
		v.procOpts = map[string]int{allProcesses: 0}
		opts := []string{allProcesses}
		for _, p := range res.data.Processes {
			o := processLabel(p.Process)
			v.procOpts[o] = p.PID
			opts = append(opts, o)
		}
		v.Process.Options = opts
		v.setProcessOption()
		switch {
		case res.pids.FrequencyAssumed:
			v.FrequencyNote.SetText(fmt.Sprintf("assumed %g GHz", res.pids.FrequencyGHz))
		case res.sel.freq == 0:
			v.FrequencyNote.SetText(fmt.Sprintf("profile: %g GHz", res.pids.FrequencyGHz))
		case res.pids.ClockNote() != "": // the Estimate tab says why in full
			v.FrequencyNote.SetText("power held")
			if ref := res.pids.ReferenceGHz; ref > 0 {
				v.FrequencyNote.SetText(fmt.Sprintf("power as at %g GHz", ref))
			}
		}
	}
	v.Processes.show(res)
	v.Blocks.show(res)
	v.Insns.show(res)
	v.Functions.show(res)
	v.Images.show(res)
	v.Syscalls.show(res)
	v.Estimate.show(res)
	v.Compare.recompute()
	v.Diff.Show(v.sel.run, nil)
	v.showCharts()
}

// setProblem shows why the tabs are stale, and takes no room when there is no problem.
func (v *View) setProblem(msg string) { ui.SetNote(v.Problem, msg) }

// showCharts redraws the charts for the metric chosen; the tables do not depend on it.
func (v *View) showCharts() {
	v.Processes.chart(v.res, v.metric)
	v.Insns.chart(v.res, v.metric)
	v.Functions.chart(v.res, v.metric)
	v.Images.chart(v.res, v.metric)
	v.Compare.chart(v.metric)
}

// processLabel names a process as the charts do.
func processLabel(p model.Process) string { return controller.ProcessLabel(p) }

// topBarLayout is the window's: the shown tab set's bar (objects[0], a stack of bars) with the
// Editor button (objects[1]) at its right, as tall as the bar needs at the window's width, and
// the runs and tabs (objects[2]) below.
type topBarLayout struct{}

func (topBarLayout) Layout(objects []fyne.CanvasObject, size fyne.Size) {
	bars, right, content := objects[0].(*fyne.Container), objects[1], objects[2]
	pad := theme.Padding()
	rs := right.MinSize()
	width := size.Width - rs.Width - pad
	h := rs.Height
	for _, b := range bars.Objects {
		if b.Visible() {
			h = max(h, ui.BarHeight(b.(*fyne.Container), width))
		}
	}
	bars.Move(fyne.Position{})
	bars.Resize(fyne.NewSize(width, h))
	right.Move(fyne.NewPos(size.Width-rs.Width, 0))
	right.Resize(rs)
	content.Move(fyne.NewPos(0, h+pad))
	content.Resize(fyne.NewSize(size.Width, size.Height-h-pad))
}

// MinSize is at most what a window of narrowestWindow pixels holds: the tabs add up to more
// (the Instructions tab's two charts side by side), but their tables and charts shrink and
// scroll, and TestAnalysisLayoutReachable checks every tab fits at that width. A window
// enforces its content's MinSize, so more would forbid a 900-px window.
func (topBarLayout) MinSize(objects []fyne.CanvasObject) fyne.Size {
	bars, rs, cs := objects[0].MinSize(), objects[1].MinSize(), objects[2].MinSize()
	pad := theme.Padding()
	w := min(max(bars.Width+pad+rs.Width, cs.Width), narrowestWindow-2*pad)
	return fyne.NewSize(w, max(bars.Height, rs.Height)+pad+cs.Height)
}

// narrowestWindow is the narrowest analysis window, in pixels at scale 1, that shows every
// control: a small laptop's.
const narrowestWindow = 900

// relayout lays the window out again after the tab set shown changed, because its bar may need
// another number of rows.
func (v *View) relayout() {
	if v.root != nil {
		v.root.Layout.Layout(v.root.Objects, v.root.Size())
	}
}

// startHintText is the "Start here" hint a first start shows above the tabs.
const startHintText = "Start here: click a run on the left (the demo-… runs are sample data), then the tabs above it. " +
	"For an emulator run, Profile picks the processor it is priced on. Help ▸ Getting started says more."

// startHint tells a first-time user where to begin, until Got it dismisses it for good.
type startHint struct {
	Text      *widget.Label
	Dismiss   *widget.Button
	content   *fyne.Container
	dismissed func() // lays the window out without the hint
}

func newStartHint(prefs fyne.Preferences) *startHint {
	h := &startHint{Text: widget.NewLabel(startHintText)}
	h.Text.Wrapping = fyne.TextWrapWord
	h.Text.Importance = widget.HighImportance
	h.Dismiss = widget.NewButton("Got it", func() {
		prefs.SetBool(prefHintDone, true)
		h.content.Hide()
		if h.dismissed != nil {
			h.dismissed()
		}
	})
	h.content = container.NewBorder(nil, nil, nil, container.NewCenter(h.Dismiss), h.Text)
	if prefs.Bool(prefHintDone) {
		h.content.Hide()
	}
	return h
}
