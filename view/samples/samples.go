// Package samples is the analysis window's tabs for a sampled run (perf, simpleperf; seed 004,
// VARI): the layers over time and per thread, the image and symbol table, a symbol's callers
// and callees, and a mixed-mode flame graph. It sees the window that shows it only as a ui.Host.
package samples

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/widget"

	"androprof/chart"
	"androprof/controller"
	"androprof/internal/human"
	samplesmodel "androprof/model/samples"
	"androprof/view/ui"
)

// allThreads is the Thread chooser's first option.
const allThreads = "All threads"

// The tabs, in order; their number keys are Ctrl+1 … Ctrl+4.
const (
	TabLayers     = "Layers"
	TabSymbols    = "Symbols"
	TabNeighbours = "Callers/callees"
	TabFlame      = "Flame graph"
)

// View is what the analysis window shows for a sampled run: where the time goes, layer by
// layer (the application's Java methods, Java libraries, the VM, native libraries, the kernel),
// for all threads or one, in a window of time, and for chosen packages or methods (VARI's
// application-, service- and method-specific levels). It replaces the emulator tabs and their
// top bar while a sampled run is selected.
type View struct {
	Thread *widget.Select // all threads or one
	Focus  *widget.Entry  // Java packages, classes or methods, comma-separated: samples through them
	App    *widget.Entry  // the application's Java packages, comma-separated; re-classifies the run
	From   *widget.Entry  // the time window's start, seconds from the recording's first sample
	To     *widget.Entry  // … and its end; empty: the recording's
	Kept   *widget.Label  // how many samples the selection keeps and what it left out
	Tabs   *container.AppTabs
	Bar    *fyne.Container // the top bar's controls for sampled runs

	Layers     *layersTab
	Symbols    *symbolsTab
	Neighbours *neighboursTab
	Flame      *flameTab
	Diff       *ui.DiffPanel

	host    ui.Host
	a       *controller.SampleAnalysis
	run     string                      // the run shown, or being loaded
	profile *samplesmodel.SampleProfile // of run; nil until loaded
	threads map[string]int              // Thread option → tid
	sel     samplesmodel.SampleSelection
	app     []string // nil: the run's own application packages
	res     *result  // of the selection shown; nil until computed
	loadGen int
	busy    bool   // a selection is being computed…
	stale   bool   // …and another is wanted when it is done (typing does not queue one per key)
	quiet   bool   // set while the code, not the user, changes a control
	warning string // why the controls are not applied; the Kept line says it until they are
}

// result is everything the tabs show of one selection, computed together off the UI goroutine
// so the tabs always agree.
type result struct {
	run     string
	profile *samplesmodel.SampleProfile
	set     *samplesmodel.SampleSet
	layers  []samplesmodel.SampleRow
	threads []samplesmodel.ThreadRow
	symbols []samplesmodel.SampleRow
	charts  map[string]chart.Drawing // the Layers tab's, by its Show option
	flame   chart.Flame              // not zoomed
}

// newResult computes a selection's tables and charts. The charts are the controller's
// (controller.SampleDrawing), so they are the ones `androprof chart` writes.
func newResult(run string, p *samplesmodel.SampleProfile, set *samplesmodel.SampleSet) (*result, error) {
	res := &result{run: run, profile: p, set: set, layers: set.ByLayer(), threads: set.ByThread(), symbols: set.BySymbol(),
		charts: map[string]chart.Drawing{}}
	for show, spec := range layerCharts {
		d, err := controller.SampleDrawing(set, run, spec)
		if err != nil {
			return nil, err
		}
		res.charts[show] = d
	}
	d, err := controller.SampleDrawing(set, run, controller.SampleChartSpec{By: controller.SampleByFlame})
	if err != nil {
		return nil, err
	}
	res.flame = d.(chart.Flame)
	return res, nil
}

// New makes the sampled-run tabs, shown by host, which read runs through a.
func New(host ui.Host, a *controller.SampleAnalysis) *View {
	v := &View{host: host, a: a, threads: map[string]int{allThreads: 0}}
	v.quiet = true // nothing to select until a run is open
	defer func() { v.quiet = false }()
	v.Thread = widget.NewSelect([]string{allThreads}, func(string) { v.changed() })
	v.Thread.SetSelected(allThreads)
	v.Focus = widget.NewEntry()
	v.Focus.SetPlaceHolder("all code (com.example, …Phases.sort)")
	v.App = widget.NewEntry()
	v.App.SetPlaceHolder("all but java.*, jdk.*, …")
	v.From = widget.NewEntry()
	v.From.SetPlaceHolder("start")
	v.To = widget.NewEntry()
	v.To.SetPlaceHolder("end")
	for _, e := range []*widget.Entry{v.Focus, v.App, v.From, v.To} {
		e.OnChanged = func(string) { v.changed() }
	}
	v.Kept = widget.NewLabel("")
	v.Kept.Truncation = fyne.TextTruncateEllipsis

	v.Layers = newLayersTab(v)
	v.Symbols = newSymbolsTab(v)
	v.Neighbours = newNeighboursTab(v)
	v.Flame = newFlameTab(v)
	v.Diff = newDiffPanel(v)
	v.Tabs = container.NewAppTabs(
		container.NewTabItem(TabLayers, v.Layers.content),
		container.NewTabItem(TabSymbols, v.Symbols.content),
		container.NewTabItem(TabNeighbours, v.Neighbours.content),
		container.NewTabItem(TabFlame, v.Flame.content),
		container.NewTabItem(TabDiff, v.Diff.Content()),
	)
	h := v.Thread.MinSize().Height
	sized := func(w float32, o fyne.CanvasObject) fyne.CanvasObject {
		return container.NewGridWrap(fyne.NewSize(w, h), o)
	}
	v.Bar = ui.NewBar(ui.Group(widget.NewLabel("Thread"), sized(240, v.Thread)),
		ui.Group(widget.NewLabel("Focus"), sized(210, v.Focus)),
		ui.Group(widget.NewLabel("App packages"), sized(170, v.App)),
		ui.Group(widget.NewLabel("Time (s)"), sized(64, v.From), widget.NewLabel("to"), sized(64, v.To)),
		sized(560, v.Kept))
	return v
}

// Open shows a sampled run, unless it is shown already.
func (v *View) Open(run string) {
	if run == v.run && v.profile != nil {
		v.host.SetProblem("") // a problem of the run shown before is not this one's
		v.Diff.Show(run, nil) // the runs to compare with may have changed
		return
	}
	v.run, v.profile, v.res = run, nil, nil
	a := v.a
	ui.LoadRun(v.host, &v.loadGen, run, func(ctx context.Context) (*samplesmodel.SampleProfile, error) { return a.Profile(ctx, run) },
		func(p *samplesmodel.SampleProfile) {
			v.profile = p
			v.reset()
			v.recompute()
			v.Diff.Show(run, nil)
		})
}

// Run is the sampled run shown, or being loaded.
func (v *View) Run() string { return v.run }

// Forget drops a run's profile after it was imported again or deleted.
func (v *View) Forget(run string) {
	if v.run == run {
		v.run, v.profile, v.res = "", nil, nil
	}
}

// Set is the selection shown, nil until one is computed.
func (v *View) Set() *samplesmodel.SampleSet {
	if v.res == nil {
		return nil
	}
	return v.res.set
}

// reset offers the run's threads, busiest first, and clears what was chosen for another run:
// its threads, times and packages mean nothing here.
func (v *View) reset() {
	v.quiet = true
	defer func() { v.quiet = false }()
	p := v.profile
	counts := make([]int, len(p.Threads))
	for _, s := range p.Samples {
		counts[s.Thread]++
	}
	order := make([]int, len(p.Threads))
	for i := range order {
		order[i] = i
	}
	slices.SortStableFunc(order, func(a, b int) int { return cmp.Compare(counts[b], counts[a]) })
	v.threads = map[string]int{allThreads: 0}
	opts := []string{allThreads}
	for _, i := range order {
		if counts[i] == 0 {
			continue
		}
		t := p.Threads[i]
		o := chart.ThreadLabel(t.TID, t.Comm) + " (" + human.Count(counts[i], "sample", "samples") + ")"
		v.threads[o] = t.TID
		opts = append(opts, o)
	}
	v.Thread.Options = opts
	v.Thread.SetSelected(allThreads)
	v.Focus.SetText("")
	v.From.SetText("")
	v.To.SetText("")
	v.App.SetText(strings.Join(p.AppPackages, ", "))
	v.sel, v.app, v.warning = samplesmodel.SampleSelection{}, nil, ""
	v.Flame.zoom = nil
}

// SelectThread chooses a thread by id (0: all), as the Thread chooser does.
func (v *View) SelectThread(tid int) {
	for o, id := range v.threads {
		if id == tid {
			v.Thread.SetSelected(o)
			return
		}
	}
}

// changed reads the bar's controls into the selection and recomputes; a time that is not a
// number says so in the Kept line instead.
func (v *View) changed() {
	if v.quiet {
		return
	}
	sel := samplesmodel.SampleSelection{Focus: splitList(v.Focus.Text)}
	if tid := v.threads[v.Thread.Selected]; tid != 0 {
		sel.TIDs = []int{tid}
	}
	from, errFrom := parseSeconds(v.From.Text)
	to, errTo := parseSeconds(v.To.Text)
	err := errors.Join(errFrom, errTo)
	if err == nil {
		sel.FromNS, sel.ToNS, err = controller.SampleTimeWindow(from, to)
	}
	if err != nil {
		v.warn(err.Error())
		return
	}
	v.warning = ""
	v.sel = sel
	v.app = nil
	if v.profile != nil && v.App.Text != strings.Join(v.profile.AppPackages, ", ") {
		v.app = splitList(v.App.Text)
		if v.app == nil {
			v.app = []string{} // every class outside the libraries, not the run's own packages
		}
	}
	v.recompute()
}

// splitList reads a comma-separated list, nil for none.
func splitList(s string) []string {
	var out []string
	for _, f := range strings.Split(s, ",") {
		if f = strings.TrimSpace(f); f != "" {
			out = append(out, f)
		}
	}
	return out
}

// parseSeconds reads a time in seconds ("1.5", "1.5 s"); empty is 0, the open end.
// controller.SampleTimeWindow says whether it is a time a recording can have.
func parseSeconds(s string) (float64, error) {
	s = strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(s), "s"))
	if s == "" {
		return 0, nil
	}
	f, err := strconv.ParseFloat(s, 64)
	if err != nil {
		return 0, fmt.Errorf("%q is not a time in seconds", s)
	}
	return f, nil
}

// recompute selects the samples and computes every tab's rows and charts in the background.
// While one selection is being computed, further changes only ask for one more.
func (v *View) recompute() {
	if v.profile == nil {
		return
	}
	if v.busy {
		v.stale = true
		return
	}
	v.busy = true
	a, ctx, run, p, sel, app := v.a, v.host.Context(), v.run, v.profile, v.sel, v.app
	v.host.Background().Run(func() func() {
		set, err := a.Select(ctx, run, sel, app)
		var res *result
		if err == nil {
			res, err = newResult(run, p, set)
		}
		return func() {
			v.busy = false
			if v.stale {
				v.stale = false
				v.recompute()
				return
			}
			if run != v.run || p != v.profile {
				return // another run was chosen meanwhile
			}
			if err != nil {
				v.host.SetProblem(ui.ProblemText("select the samples of", run, err))
				return
			}
			v.show(res)
		}
	})
}

// warn says in the Kept line why the controls are not applied. A result that arrives later,
// of what earlier keystrokes selected, leaves it there (see show).
func (v *View) warn(msg string) {
	v.warning = msg
	v.Kept.Importance = widget.WarningImportance
	v.Kept.SetText(msg)
}

// show hands a selection's result to every tab; the Kept line keeps a warning about the
// controls, which the result does not answer.
func (v *View) show(res *result) {
	v.res = res
	if v.warning != "" {
		v.warn(v.warning)
	} else {
		v.Kept.Importance = widget.MediumImportance
		v.Kept.SetText(keptText(res.set))
	}
	v.Layers.show(res)
	v.Symbols.show(res)
	v.Neighbours.show(res)
	v.Flame.show(res)
}

// keptText says how many samples the selection keeps and what it, and the recording, left out.
func keptText(set *samplesmodel.SampleSet) string {
	s := fmt.Sprintf("%s of %s", human.Grouped(int64(set.Kept)), human.Count(set.Total, "sample", "samples"))
	if set.LeftOut > 0 {
		s += fmt.Sprintf("; %s left out (kept: %s)", human.Grouped(int64(set.LeftOut)), set.LeftOutWhy)
	}
	if p := set.Profile; p.LeftOut > 0 {
		s += fmt.Sprintf("; %s not recorded (recorded: %s)", human.Grouped(int64(p.LeftOut)), p.LeftOutWhy)
	}
	return s
}

// FindSymbol shows the Symbols tab with its filter focused, for the window's Find key.
func (v *View) FindSymbol() {
	v.Tabs.Select(v.Tabs.Items[1])
	v.host.Window().Canvas().Focus(v.Symbols.Filter)
}

// ShowNeighbours shows a symbol's callers and callees, from a tap on it anywhere.
func (v *View) ShowNeighbours(symbol int32) {
	v.Tabs.Select(v.Tabs.Items[2])
	v.Neighbours.pick(symbol)
}
