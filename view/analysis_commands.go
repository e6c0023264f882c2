package view

import (
	"fmt"
	"strings"

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
	acQuit
	acNextTab
	acPrevTab
	acEditor
	acGettingStarted
	acShortcuts
	acAbout
	acTab1 // Ctrl+1 … Ctrl+maxTabKeys select a tab of the tab set shown
)

// maxTabKeys is how many tabs have a number key: the most any tab set has.
const maxTabKeys = 7

func (v *AnalysisView) buildCommands(openEditor func()) []*command {
	p := v.Runs
	cmds := []*command{
		acImport:     {label: "Import…", key: fyne.KeyI, mod: primary, run: func() { press(p.Import, "This window has no workspace to import into.", v.Window) }},
		acRunProgram: {label: "Run program…", key: fyne.KeyR, mod: primary, run: func() { press(p.RunProgram, "This window has no workspace to add a run to.", v.Window) }},
		acDelete:     {label: "Delete run…", run: func() { press(p.Delete, "Choose a run in the list first.", v.Window) }},
		acQuit:       {label: "Quit", key: fyne.KeyQ, mod: primary}, // the driver's own Quit, which asks about unsaved changes
		acNextTab:    {label: "Next tab", key: fyne.KeyTab, mod: primary, run: func() { v.stepTab(1) }},
		acPrevTab:    {label: "Previous tab", key: fyne.KeyTab, mod: primaryShift, run: func() { v.stepTab(-1) }},
		acEditor:     {label: "Instruction categorization editor", key: fyne.KeyE, mod: primary, run: openEditor},
		acGettingStarted: {label: "Getting started", run: func() {
			showText("Getting started", gettingStarted, v.Window)
		}},
		acShortcuts: {label: "Keyboard shortcuts", run: func() {
			showKeys(v.commands[:acTab1], fmt.Sprintf("%s … %s select a tab by its place.",
				keyText(fyne.Key1, primary), keyText(fyne.KeyName(fmt.Sprint(maxTabKeys)), primary)), v.Window)
		}},
		acAbout: {label: "About AndroProf", run: v.showAbout},
	}
	for i := range maxTabKeys {
		cmds = append(cmds, &command{label: fmt.Sprintf("Tab %d", i+1), key: fyne.KeyName(fmt.Sprint(i + 1)), mod: primary,
			run: func() { v.selectTab(i) }})
	}
	return cmds
}

func (v *AnalysisView) mainMenu() *fyne.MainMenu {
	c := v.commands
	tabs := fyne.NewMenuItem("Go to tab", nil)
	tabs.ChildMenu = menu("Go to tab", c[acTab1:]...)
	view := menu("View", c[acNextTab], c[acPrevTab])
	view.Items = append(view.Items, tabs)
	return fyne.NewMainMenu(
		menu("File", c[acImport], c[acRunProgram], c[acDelete], nil, c[acQuit]),
		view,
		menu("Window", c[acEditor]),
		menu("Help", c[acGettingStarted], c[acShortcuts], nil, c[acAbout]),
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
func (v *AnalysisView) shownTabs() *container.AppTabs {
	for _, s := range v.tabSets {
		if s[0].Visible() {
			return s[0].(*container.AppTabs)
		}
	}
	return v.Tabs
}

// stepTab selects the next (1) or previous (-1) tab, round the end.
func (v *AnalysisView) stepTab(by int) {
	t := v.shownTabs()
	if n := len(t.Items); n > 0 {
		t.SelectIndex((t.SelectedIndex() + by + n) % n)
	}
}

// selectTab selects tab i of the tab set shown, if it has one.
func (v *AnalysisView) selectTab(i int) {
	if t := v.shownTabs(); i < len(t.Items) {
		t.SelectIndex(i)
	}
}

func (v *AnalysisView) showAbout() {
	name := "AndroProf"
	if ver := fyne.CurrentApp().Metadata().Version; ver != "" {
		name += " " + ver
	}
	showText("About AndroProf", name+"\n\nA desktop workbench for estimating and explaining what a mobile program costs: "+
		"cycles, time and energy from emulator traces priced with ISA cost profiles, and Android method traces, "+
		"heap logs and heap dumps. It re-creates the AndroProf tools of the seed papers.", v.Window)
}

// gettingStarted is Help ▸ Getting started: where to begin.
const gettingStarted = `Runs. The list on the left holds the workspace's runs; click one to analyse it. The demo-… runs are sample data: demo-sieve-arm, -thumb and -mips run one prime sieve on three instruction sets, demo-forker-arm forks a child process, demo-methods is a method trace of an Android game, the demo-heap-… runs are heap logs of Java samples and demo-heap-dump is an HPROF heap dump.

Tabs. Each kind of run has its own tabs above the chart (Ctrl+Tab, Ctrl+1…7). An emulator run has Processes, Basic blocks, Instructions, Functions, Estimate, Compare and Profiles; click a process or a bar to drill down. A method trace has its profile, timeline, hotspots and packages; a heap run its summary and figures.

Profile. An emulator run is priced with a cost profile: what each category of instruction costs in cycles and power. Choose it at the top, type a frequency in GHz if the profile's does not fit, and pick what the charts show. The Editor (Ctrl+E) builds and changes profiles.

Your own runs. Import… (Ctrl+I) reads QEMU logs, the emulator plugin's profiles, method traces, heap logs and HPROF dumps; Run program… (Ctrl+R) runs a static ARM or MIPS Linux program under the emulator.`

// showText shows a few paragraphs in a dialog wide enough to read them.
func showText(title, text string, parent fyne.Window) {
	l := widget.NewLabel(text)
	l.Wrapping = fyne.TextWrapWord
	d := dialog.NewCustom(title, "Close", container.NewVScroll(l), parent)
	size := parent.Canvas().Size()
	d.Resize(fyne.NewSize(min(640, size.Width-40), min(460, size.Height-40)))
	d.Show()
}
