package analysis

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"androprof/controller"
	"androprof/internal/human"
	"androprof/model"
	"androprof/model/cost"
	"androprof/view/ui"
)

// runsPanel is the left column: the workspace's runs, and the ways to add and delete them.
type runsPanel struct {
	List       *widget.List
	Filter     *widget.Entry // shows the runs whose names hold its text: a lab's thousand runs
	Empty      *widget.Label // NoRunsText, or why runs could not be read
	Import     *widget.Button
	RunProgram *widget.Button
	Delete     *widget.Button

	v          *View
	runs       []model.RunInfo // the workspace's, newest first
	shown      []int           // the indexes in runs of those the filter lets through, in order
	heading    *widget.Label
	content    fyne.CanvasObject
	Caches     *cacheChoice       // the last Run program dialog's Simulate caches (nil before one opens)
	runProblem dialog.Dialog      // the last program run's failure, closed when the next run starts
	importing  *ui.ProgressDialog // the last import's dialog: what it said (tests read it)
}

func newRunsPanel(v *View) *runsPanel {
	p := &runsPanel{v: v}
	p.List = widget.NewList(func() int { return len(p.shown) }, newRunRow, p.updateRow)
	p.List.OnSelected = func(id widget.ListItemID) {
		if id >= 0 && id < len(p.shown) {
			p.selected(p.runs[p.shown[id]].Name)
		}
	}
	p.Filter = widget.NewEntry()
	p.Filter.SetPlaceHolder("Filter runs")
	p.Filter.OnChanged = func(string) { p.applyFilter() }
	p.Empty = widget.NewLabel(NoRunsText)
	p.Empty.Wrapping = fyne.TextWrapWord
	p.Import = widget.NewButtonWithIcon("Import…", theme.UploadIcon(), p.askImport)
	p.RunProgram = widget.NewButtonWithIcon("Run program…", theme.MediaPlayIcon(), p.askRunProgram)
	p.Delete = widget.NewButtonWithIcon("Delete run…", theme.DeleteIcon(), p.askDelete)
	p.Delete.Disable()
	if v.importer == nil || v.analysis == nil {
		p.Import.Disable()
		p.RunProgram.Disable()
	}
	buttons := container.NewVBox(p.Import, p.RunProgram, p.Delete)
	p.heading = ui.Heading("Runs")
	p.content = container.NewBorder(container.NewVBox(p.heading, p.Filter), buttons, nil, nil, container.NewStack(p.List, container.NewVBox(p.Empty)))
	return p
}

// applyFilter lists the runs whose names hold the filter's text (any case), keeping the
// selected run selected when it is still listed; the heading says how many are shown.
func (p *runsPanel) applyFilter() {
	want := strings.ToLower(strings.TrimSpace(p.Filter.Text))
	p.shown = p.shown[:0]
	for i, r := range p.runs {
		if want == "" || strings.Contains(strings.ToLower(r.Name), want) {
			p.shown = append(p.shown, i)
		}
	}
	p.heading.SetText("Runs")
	if want != "" {
		p.heading.SetText(fmt.Sprintf("Runs (%d of %d)", len(p.shown), len(p.runs)))
	}
	p.List.UnselectAll()
	p.List.Refresh()
	if i := p.shownIndex(p.v.sel.run); i >= 0 {
		p.List.Select(i)
	}
	if len(p.runs) > 0 {
		p.Empty.SetText("")
		if len(p.shown) == 0 {
			p.Empty.SetText(fmt.Sprintf("No run's name holds %q.", p.Filter.Text))
		}
		p.Empty.Refresh()
	}
}

// shownIndex is where the list shows the run name, or -1.
func (p *runsPanel) shownIndex(name string) int {
	return slices.IndexFunc(p.shown, func(i int) bool { return p.runs[i].Name == name })
}

func newRunRow() fyne.CanvasObject {
	name := widget.NewLabelWithStyle("", fyne.TextAlignLeading, fyne.TextStyle{Bold: true})
	info := widget.NewLabel("")
	name.Truncation, info.Truncation = fyne.TextTruncateEllipsis, fyne.TextTruncateEllipsis
	info.SizeName = theme.SizeNameCaptionText
	return container.NewVBox(name, info)
}

func (p *runsPanel) updateRow(id widget.ListItemID, o fyne.CanvasObject) {
	if id < 0 || id >= len(p.shown) {
		return
	}
	r := p.runs[p.shown[id]]
	cells := o.(*fyne.Container).Objects
	folder, base := runFolder(r.Name)
	cells[0].(*widget.Label).SetText(base)
	cells[1].(*widget.Label).SetText(folder + runSummary(r))
}

// runFolder splits a run named by its path (a batch import's "commit-0042/sieve-arm64") into
// the folder, said first on the summary line, and the rest, the row's bold name: cut at the
// end, the whole name would hide what tells a lab's runs apart.
func runFolder(name string) (folder, base string) {
	i := strings.LastIndexByte(name, '/')
	if i <= 0 || i == len(name)-1 {
		return "", name
	}
	return name[:i] + " · ", name[i+1:]
}

// runSummary is the line under a run's name in the runs list.
func runSummary(r model.RunInfo) string {
	if label, ok := kindLabels[r.Kind]; ok {
		return label
	}
	return human.Count(r.Processes, "process", "processes") + " · " + human.Count(r.Instructions, "instruction", "instructions")
}

// Names are the runs listed, in order.
func (p *runsPanel) Names() []string {
	names := make([]string, len(p.runs))
	for i, r := range p.runs {
		names[i] = r.Name
	}
	return names
}

// reload reads the runs again and selects want, else the run selected, else the workspace's
// run of its last session, else the run a first start opens on (SetFirstRun), else the first:
// the window should open on something to look at.
func (p *runsPanel) reload(want string) {
	v := p.v
	if v.analysis == nil {
		p.Empty.SetText("This session has no workspace database.")
		return
	}
	store := v.ws
	v.bg.Run(func() func() {
		runs, err := store.Runs(context.Background())
		return func() {
			p.runs = runs
			p.shown = p.shown[:0]
			for i := range runs {
				p.shown = append(p.shown, i)
			}
			if p.Filter.Text != "" {
				p.Filter.SetText("") // a new or deleted run is shown whatever was typed
			}
			p.List.UnselectAll()
			p.List.Refresh()
			switch {
			case err != nil:
				p.Empty.SetText(ui.ProblemText("read the runs", "", err))
			case len(runs) == 0:
				p.Empty.SetText(NoRunsText)
			default:
				p.Empty.SetText("")
			}
			p.Empty.Refresh()
			v.Compare.loadChoices(runs)
			for _, n := range []string{want, v.sel.run, v.prefs.String(v.lastRun), v.prefs.String(prefFirstRun)} {
				if i := p.shownIndex(n); n != "" && i >= 0 {
					p.List.Select(i)
					return
				}
			}
			if len(runs) > 0 {
				p.List.Select(0)
				return
			}
			p.selected("")
		}
	})
}

// Select chooses a run by name, as a tap on it would; a run the filter hides is shown again.
func (p *runsPanel) Select(name string) {
	if p.shownIndex(name) < 0 && slices.Index(p.Names(), name) >= 0 {
		p.Filter.SetText("")
	}
	if i := p.shownIndex(name); i >= 0 {
		p.List.Select(i)
	}
}

func (p *runsPanel) selected(name string) {
	v := p.v
	ui.Enable(p.Delete, name != "")
	if name != v.sel.run {
		v.sel.run, v.sel.pid, v.sel.explicit = name, 0, false
	}
	if name != "" {
		v.prefs.SetString(v.lastRun, name)
	}
	v.recompute()
}

func (p *runsPanel) askDelete() {
	v := p.v
	name := v.sel.run
	if name == "" || v.analysis == nil {
		return
	}
	dialog.ShowConfirm("Delete run", fmt.Sprintf("Delete run “%s” and everything recorded for it? This cannot be undone.", name),
		func(ok bool) {
			if ok {
				p.deleteRun(name)
			}
		}, v.Window)
}

func (p *runsPanel) deleteRun(name string) {
	v := p.v
	ws := v.ws
	v.bg.Run(func() func() {
		err := ws.DeleteRun(context.Background(), name)
		return func() {
			v.forgetRun(name)
			if err != nil {
				ui.ShowProblem(v.Window, "delete the run", name, err)
			}
			v.sel.run = ""
			p.reload("")
		}
	})
}

// askImport asks for a run name and a file or a folder (Fyne's file dialog picks one file;
// the importer reads a folder, e.g. a translation log beside its exec log, as one run).
func (p *runsPanel) askImport() {
	v := p.v
	name := ui.NewEntry() // Escape in it closes the dialog
	source := ui.NewEntry()
	source.SetPlaceHolder("a QEMU log or a folder of them, a method trace (.trace, DPA, RMP), a heap log or an HPROF dump")
	named := false // typed by the user: a new source no longer renames the run
	name.OnChanged = func(string) { named = true }
	source.OnChanged = func(s string) {
		if !named {
			name.SetText(p.suggest(s))
			named = false
		}
	}
	file := widget.NewButton("File…", func() {
		ui.ShowLarge(dialog.NewFileOpen(ui.ChosenPath[fyne.URIReadCloser](v.Window, source.SetText), v.Window))
	})
	folder := widget.NewButton("Folder…", func() {
		ui.ShowLarge(dialog.NewFolderOpen(func(u fyne.ListableURI, err error) {
			if err != nil {
				ui.ShowProblem(v.Window, "open the folder", "", err)
				return
			}
			if u != nil {
				source.SetText(u.Path())
			}
		}, v.Window))
	})
	items := []*widget.FormItem{
		widget.NewFormItem("Source", container.NewBorder(nil, nil, nil, container.NewHBox(file, folder), source)),
		widget.NewFormItem("Run name", name),
	}
	d := dialog.NewForm("Import a run", "Import", "Cancel", items, func(ok bool) {
		if ok {
			p.ImportFrom(strings.TrimSpace(name.Text), strings.TrimSpace(source.Text), nil)
		}
	}, v.Window)
	ui.ShowForm(v.Window, d, &source.Entry, &name.Entry)
}

// nameFor checks an import's or a run's form: without a source it says what is missing (a form
// that closes doing nothing looks broken), and an empty name becomes one made from the source,
// as on the command line.
func (p *runsPanel) nameFor(name, source, what string) (string, bool) {
	if p.v.importer == nil {
		return "", false
	}
	if source == "" {
		dialog.ShowInformation("Nothing chosen", "Choose "+what+" first.", p.v.Window)
		return "", false
	}
	if name == "" {
		name = p.suggest(source)
	}
	return name, true
}

// suggest names a run after its source file, made unique among the runs.
func (p *runsPanel) suggest(path string) string {
	base := controller.RunNameOf(path)
	name := base
	for i := 2; slices.Contains(p.Names(), name); i++ {
		name = fmt.Sprintf("%s-%d", base, i)
	}
	return name
}

// ImportFrom reads a file or a folder into run name with a progress bar and Cancel, then
// selects the new run. done, when not nil, runs on the UI goroutine at the end.
func (p *runsPanel) ImportFrom(name, source string, done func(error)) {
	v := p.v
	name, ok := p.nameFor(name, source, "a file or folder to import")
	if !ok {
		return
	}
	if _, err := os.Stat(source); err != nil {
		ui.ShowProblem(v.Window, "import", source, err)
		return
	}
	ctx, cancel := context.WithCancel(context.Background())
	progress := ui.NewProgressDialog(v.bg, "Importing run "+name, "Reading "+filepath.Base(source)+"…", cancel, v.Window)
	p.importing = progress
	ctx = controller.SayWaits(ctx, progress.Say)
	imp := v.importer
	v.bg.Run(func() func() {
		err := imp.ImportFiles(ctx, name, []string{source}, progress.Report)
		return func() {
			cancel()
			progress.Close()
			p.finished(name, err)
			if err != nil && !errors.Is(err, context.Canceled) {
				ui.ShowProblem(v.Window, "import into the run", name, err)
			}
			if done != nil {
				done(err)
			}
		}
	})
}

// programPlaceHolder is the Run program dialog's hint in the program's path (tests find the entry by it).
const programPlaceHolder = "an ARM, MIPS, AArch64 or x86-64 Linux program"

func (p *runsPanel) askRunProgram() {
	v := p.v
	name, program, args := ui.NewEntry(), ui.NewEntry(), ui.NewEntry()
	program.SetPlaceHolder(programPlaceHolder)
	program.TabNext = args // Browse… stands between, and the arguments are typed next
	args.SetPlaceHolder("arguments, separated by spaces")
	browse := widget.NewButton("Browse…", func() {
		ui.ShowLarge(dialog.NewFileOpen(ui.ChosenPath[fyne.URIReadCloser](v.Window, func(path string) {
			program.SetText(path)
			name.SetText(p.suggest(path))
		}), v.Window))
	})
	var profile *cost.Profile // the one the run shown is priced with: its hierarchy is offered
	if v.res != nil {
		profile = v.res.profile
	}
	p.Caches = newCacheChoice(profile)
	items := []*widget.FormItem{
		widget.NewFormItem("Program", container.NewBorder(nil, nil, nil, browse, program)),
		widget.NewFormItem("Arguments", args),
		widget.NewFormItem("Run name", name),
		widget.NewFormItem("Caches", p.Caches),
	}
	d := dialog.NewForm("Run a program under the emulator", "Run", "Cancel", items, func(ok bool) {
		if ok {
			g, source := p.Caches.choice()
			p.RunCached(strings.TrimSpace(name.Text), strings.TrimSpace(program.Text), strings.Fields(args.Text), g, source, nil)
		}
	}, v.Window)
	ui.ShowForm(v.Window, d, &program.Entry, &args.Entry, &name.Entry, &p.Caches.Geometry.Entry)
}

// Run runs a program under the emulator into run name, with an endless bar and Cancel, then
// selects the new run. done, when not nil, runs on the UI goroutine at the end.
func (p *runsPanel) Run(name, program string, args []string, done func(error)) {
	p.RunCached(name, program, args, nil, "", done)
}

// RunCached is Run simulating the caches of geometry g (nil: counts only), which came from
// source ("profile NAME", "--cache"), as the run stores it.
func (p *runsPanel) RunCached(name, program string, args []string, g *cost.CacheGeometry, source string, done func(error)) {
	v := p.v
	name, ok := p.nameFor(name, program, "a program to run")
	if !ok {
		return
	}
	if p.runProblem != nil { // the last run's failure is not this one's
		p.runProblem.Hide()
		p.runProblem = nil
	}
	ctx, cancel := context.WithCancel(context.Background())
	activity := ui.NewActivityDialog("Running "+filepath.Base(program), "Starting the emulator…", cancel, v.Window)
	imp := withCache(v.importer, g, source)
	v.bg.Run(func() func() {
		err := imp.RunProgram(ctx, name, program, args, activity.Say)
		return func() {
			cancel()
			activity.Close()
			p.finished(name, err)
			if err != nil && !errors.Is(err, context.Canceled) {
				p.runProblem = ui.ShowProblem(v.Window, "run the program into", name, err)
			}
			if done != nil {
				done(err)
			}
		}
	})
}

// finished shows the new run. The runs are read again even after an error: a program that
// exited non-zero is still imported.
func (p *runsPanel) finished(name string, err error) {
	v := p.v
	v.forgetRun(name) // the importer made the workspace forget it; the tabs let go of it here
	if v.sel.run == name {
		v.sel.run = "" // read the run again even though its name is selected
	}
	p.reload(name)
}
