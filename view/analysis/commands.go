package analysis

import (
	"fmt"
	"strings"

	"androprof/view/ui"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/widget"
)

// Analysis window command indexes, so menus and tests can name them.
const (
	acImport = iota
	acRunProgram
	acDelete
	acExport
	acQuit
	acNextTab
	acPrevTab
	acFindSymbol
	acEditor
	acGettingStarted
	acShortcuts
	acAbout
	acTab1 // Ctrl+1 … Ctrl+maxTabKeys select a tab of the tab set shown
)

// maxTabKeys is how many tabs have a number key: the most any tab set has.
const maxTabKeys = 9

func (v *View) buildCommands(openEditor func()) []*ui.Command {
	p := v.Runs
	cmds := []*ui.Command{
		acImport:     {Label: "Import…", Key: fyne.KeyI, Mod: ui.Primary, Run: func() { press(p.Import, "This window has no workspace to import into.", v.Window) }},
		acRunProgram: {Label: "Run program…", Key: fyne.KeyR, Mod: ui.Primary, Run: func() { press(p.RunProgram, "This window has no workspace to add a run to.", v.Window) }},
		acDelete:     {Label: "Delete run…", Run: func() { press(p.Delete, "Choose a run in the list first.", v.Window) }},
		acExport:     {Label: "Export…", Run: func() { v.exportRun() }},
		acQuit:       {Label: "Quit", Key: fyne.KeyQ, Mod: ui.Primary}, // the driver's own Quit, which asks about unsaved changes
		acNextTab:    {Label: "Next tab", Key: fyne.KeyTab, Mod: ui.Primary, Run: func() { v.stepTab(1) }},
		acPrevTab:    {Label: "Previous tab", Key: fyne.KeyTab, Mod: ui.PrimaryShift, Run: func() { v.stepTab(-1) }},
		acFindSymbol: {Label: "Find symbol", Key: fyne.KeyF, Mod: ui.Primary, Run: v.findSymbol},
		acEditor:     {Label: "Instruction categorization editor", Key: fyne.KeyE, Mod: ui.Primary, Run: openEditor},
		acGettingStarted: {Label: "Getting started", Run: func() {
			showText("Getting started", gettingStarted, v.Window)
		}},
		acShortcuts: {Label: "Keyboard shortcuts", Run: func() {
			ui.ShowKeys(v.commands[:acTab1], fmt.Sprintf("%s … %s select a tab by its place, %s the last one.",
				ui.KeyText(fyne.Key1, ui.Primary), ui.KeyText(fyne.KeyName(fmt.Sprint(maxTabKeys-1)), ui.Primary),
				ui.KeyText(fyne.KeyName(fmt.Sprint(maxTabKeys)), ui.Primary)), v.Window)
		}},
		acAbout: {Label: "About AndroProf", Run: v.showAbout},
	}
	for i := range maxTabKeys {
		label := fmt.Sprintf("Tab %d", i+1)
		if i == maxTabKeys-1 {
			label = "Last tab"
		}
		cmds = append(cmds, &ui.Command{Label: label, Key: fyne.KeyName(fmt.Sprint(i + 1)), Mod: ui.Primary,
			Run: func() { v.selectTab(i) }})
	}
	return cmds
}

func (v *View) mainMenu() *fyne.MainMenu {
	c := v.commands
	tabs := fyne.NewMenuItem("Go to tab", nil)
	tabs.ChildMenu = ui.Menu("Go to tab", c[acTab1:]...)
	view := ui.Menu("View", c[acNextTab], c[acPrevTab], c[acFindSymbol])
	view.Items = append(view.Items, tabs)
	return fyne.NewMainMenu(
		ui.Menu("File", c[acImport], c[acRunProgram], c[acDelete], nil, c[acExport], nil, c[acQuit]),
		view,
		ui.Menu("Window", c[acEditor]),
		ui.Menu("Help", c[acGettingStarted], c[acShortcuts], nil, c[acAbout]),
	)
}

// press does what a tap on b does; a disabled b says why instead of doing nothing.
func press(b *widget.Button, why string, parent fyne.Window) {
	if b.Disabled() {
		dialog.ShowInformation(strings.TrimSuffix(b.Text, "…"), why, parent)
		return
	}
	b.OnTapped()
}

// shownTabs are the tabs of the tab set shown.
func (v *View) shownTabs() *container.AppTabs {
	for _, s := range v.tabSets {
		if s[0].Visible() {
			return s[0].(*container.AppTabs)
		}
	}
	return v.Tabs
}

// stepTab selects the next (1) or previous (-1) tab, round the end.
func (v *View) stepTab(by int) {
	t := v.shownTabs()
	if n := len(t.Items); n > 0 {
		t.SelectIndex((t.SelectedIndex() + by + n) % n)
	}
}

// findSymbol focuses the symbol filter of a sampled run's tabs; other runs have no symbols to find.
func (v *View) findSymbol() {
	if !v.Samples.Tabs.Visible() {
		dialog.ShowInformation("Find symbol", "Symbols are found in sampled runs (perf, simpleperf): choose one in the Runs list.", v.Window)
		return
	}
	v.Samples.FindSymbol()
}

// selectTab selects tab i of the tab set shown, if it has one; the last key (Ctrl+9) selects
// the last tab, as in a web browser, however many tabs a kind of run has.
func (v *View) selectTab(i int) {
	t := v.shownTabs()
	if i == maxTabKeys-1 {
		i = len(t.Items) - 1
	}
	if i >= 0 && i < len(t.Items) {
		t.SelectIndex(i)
	}
}

func (v *View) showAbout() {
	name := "AndroProf"
	if ver := fyne.CurrentApp().Metadata().Version; ver != "" {
		name += " " + ver
	}
	showText("About AndroProf", name+"\n\nA desktop workbench for estimating and explaining what a mobile program costs: "+
		"cycles, time and energy from emulator traces priced with ISA cost profiles, and Android method traces, "+
		"heap logs and heap dumps. It re-creates the AndroProf tools of the seed papers.", v.Window)
}

// gettingStarted is Help ▸ Getting started: where to begin.
const gettingStarted = `Runs. The list on the left holds the workspace's runs; click one to analyse it. The demo-… runs are sample data, each worth a look:
• demo-sieve-arm: one prime sieve on ARM; with the ARMv7-A Cortex-A8 profile, Estimate (Ctrl+7) is the seed's figure 5.2.
• demo-sieve-thumb: the same sieve in Thumb code; tick it beside demo-sieve-arm on Compare (Ctrl+8).
• demo-sieve-mips: the same sieve on MIPS; Compare prices each run with a profile of its own instruction set.
• demo-sieve-arm64: the same sieve on AArch64 (64-bit ARM, what phones run today); a Cortex-A55 or A76 profile prices it.
• demo-sieve-x86-64: the same sieve on x86-64; with it, Compare shows one program on ARMv7, AArch64, MIPS and x86-64.
• demo-sieve-arm-cache: demo-sieve-arm with its caches simulated under the Cortex-A8's hierarchy; Estimate shows the memory step, Functions the misses.
• demo-sieve-arm64-cache: demo-sieve-arm64 cache-simulated under the Cortex-A55's hierarchy, priced block by block by llvm-mca's A55 model.
• demo-forker-arm: a program that forks; Processes shows parent and child, click one to drill down to its blocks.
• demo-bzip2-arm: Debian's own bzip2 compressing 1.5 MB on ARM; Images (Ctrl+5) splits its cost into the program, libbz2, glibc and the loader.
• demo-bzip2-mips: the same bzip2 on MIPS; compare it with demo-bzip2-arm, library by library.
• demo-bzip2-arm64: Debian's bzip2 for arm64 on the same text; its cost is in libbz2 as on ARM.
• demo-bzip2-x86-64: Debian's bzip2 for amd64 on the same text; compare the four bzip2 runs library by library.
• demo-methods: a method trace of an Android game; its Profile ranks the methods by CPU time, with their parents and children.
• demo-vertical-phases: a Java program's four phases sampled by perf; Layers shows app, Java library, VM, native code and kernel over time.
• demo-heap-garbage: a heap log of short-lived garbage; Cohorts shows objects dying young.
• demo-heap-cache: a heap log of a growing cache; the live heap climbs cohort after cohort.
• demo-heap-threads: a heap log of many threads; Threads splits the heap by the thread that allocated it.
• demo-heap-mutate: a heap log with every reference store; Pointers opens on figure 5.22, how far stores reach.
• demo-heap-dump: an HPROF dump of the cache; Retained (Ctrl+6) shows what keeps its memory alive and the path from a GC root.

Tabs. Each kind of run has its own tabs above the chart (Ctrl+Tab, Ctrl+1…9). An emulator run has Processes, Basic blocks, Instructions, Functions, Images, System calls, Estimate, Compare, Diff (what changed from another run, function by function) and Profiles; click a process or a bar to drill down. Images splits a program's cost into the program, its libraries and the dynamic loader, and drills from an image to its functions, blocks and instructions; System calls counts the calls each process made. A method trace has its profile, a timeline of every thread and call, hotspots, packages, a comparison, its flame graph (click to zoom, search, focus) and a diff against another trace; a heap run its summary and figures; a sampled run (perf, simpleperf) its layers over time and per thread, the symbol table (Ctrl+F finds a symbol), callers and callees, a flame graph you click to zoom, search and focus, and a diff against another sampled run. File ▸ Export… writes a run for other tools (Chrome and Perfetto traces, speedscope, folded stacks, pprof) or as a self-contained HTML report.

Profile. An emulator run is priced with a cost profile: what each category of instruction costs in cycles and power. Choose it at the top, type a frequency in GHz if the profile's does not fit, and pick what the charts show. The Editor (Ctrl+E) builds and changes profiles.

Your own runs. Import… (Ctrl+I) reads QEMU logs, the emulator plugin's profiles, method traces, heap logs, HPROF dumps and perf script text; Run program… (Ctrl+R) runs an ARM, MIPS, AArch64 or x86-64 Linux program under the emulator.`

// showText shows a few paragraphs in a dialog wide enough to read them.
func showText(title, text string, parent fyne.Window) {
	l := widget.NewLabel(text)
	l.Wrapping = fyne.TextWrapWord
	d := dialog.NewCustom(title, "Close", container.NewVScroll(l), parent)
	size := parent.Canvas().Size()
	d.Resize(fyne.NewSize(min(640, size.Width-40), min(460, size.Height-40)))
	d.Show()
}
