// Package desktop opens the workbench's windows: the Fyne app with its metadata, the demo runs
// on a first start, the analysis window. The androprof command runs it; the developer tour
// (cmd/tour) opens the same windows the same way. It needs cgo for Fyne's driver.
package desktop

import (
	"context"
	"errors"
	"os"
	"runtime"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/app"

	"androprof/assets"
	"androprof/controller"
	"androprof/view"
	"androprof/view/ui"
)

// GUI is the window side of cli.GUI.
type GUI struct {
	// Shown, when not nil, is called once the analysis window shows, before the app runs: the
	// tour hangs its widget reports here. The androprof command leaves it nil.
	Shown func(fyne.App)
}

// Run opens the analysis window; the editor is one menu item away.
func (g GUI) Run(ws *controller.Workspace) error {
	if err := needDisplay(); err != nil {
		return err
	}
	a := NewApp()
	wb, err := NewWorkbench(a, ws, controller.NewEditor())
	if err != nil {
		return err
	}
	wb.ShowAnalysis()
	if g.Shown != nil {
		g.Shown(a)
	}
	a.Run()
	return nil
}

// DemoRuns are the demo runs the binary carries, by name.
func DemoRuns() map[string]controller.DemoRun {
	out := map[string]controller.DemoRun{}
	for _, d := range assets.DemoRuns() {
		out[d.Name] = d
	}
	return out
}

// NewApp declares FyneApp.toml's metadata in code, so a plain `go build ./app` makes the same
// program as `fyne build`: above all the fyneDo migration (UI work from other goroutines goes
// through fyne.Do), which otherwise only the migrated_fynedo build tag declares.
func NewApp() fyne.App {
	app.SetMetadata(fyne.AppMetadata{ID: "dev.androprof.workbench", Name: "AndroProf", Version: "0.1.0", Build: 1,
		Migrations: map[string]bool{"fyneDo": true}})
	a := app.NewWithID("dev.androprof.workbench")
	a.SetIcon(fyne.NewStaticResource("icon.png", assets.Icon))
	return a
}

// needDisplay refuses to open the window where there is no display to open it on: GLFW would
// panic ("NotInitialized") instead of saying what is missing.
func needDisplay() error {
	if runtime.GOOS != "linux" || os.Getenv("DISPLAY") != "" || os.Getenv("WAYLAND_DISPLAY") != "" {
		return nil
	}
	return errors.New("no display to open the window on (neither DISPLAY nor WAYLAND_DISPLAY is set): " +
		"start androprof in a desktop session or under xvfb-run; the command line works without one (androprof help)")
}

// NewWorkbench wires the windows to the workspace. A workspace without runs gets the demo
// runs, so a first start shows real data rather than empty charts.
func NewWorkbench(a fyne.App, ws *controller.Workspace, ed *controller.Editor) (*view.Workbench, error) {
	ctx := context.Background()
	im := ws.Importer()
	if runs, err := ws.Runs(ctx); err != nil {
		return nil, err
	} else if len(runs) == 0 && ws.ReadOnly() == nil {
		if _, err := im.ImportDemo(ctx, DemoRuns()); err != nil {
			return nil, err
		}
	}
	wb := view.NewWorkbench(a, ed, ws, im, ui.NewBackground)
	wb.SetFirstRun("demo-sieve-arm") // a first start opens on a priced emulator run, not a raw heap dump
	return wb, nil
}
