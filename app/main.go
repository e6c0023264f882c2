// Command androprof is the AndroProf workbench: with no arguments it opens the windows, with a
// subcommand it works from the command line (see app/cli). This package is kept tiny because
// it needs cgo for Fyne's driver.
package main

import (
	"context"
	"fmt"
	"image/png"
	"io"
	"os"
	"os/signal"
	"path/filepath"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/app"

	"androprof/app/cli"
	"androprof/assets"
	"androprof/controller"
	"androprof/store"
	"androprof/view"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	code := cli.Run(ctx, os.Args[1:], cli.Env{Stdout: os.Stdout, Stderr: os.Stderr, GUI: gui{}})
	stop()
	os.Exit(code)
}

type gui struct{}

func newApp() fyne.App {
	a := app.NewWithID("dev.androprof.workbench")
	a.SetIcon(fyne.NewStaticResource("icon.png", assets.Icon))
	return a
}

// Run opens the analysis window; the editor is one menu item away.
func (gui) Run(db *store.DB) error {
	a := newApp()
	wb := view.NewWorkbench(a, controller.NewEditor(), controller.Profiles{Store: db})
	wb.ShowAnalysis()
	a.Run()
	return nil
}

// Screenshot opens both windows with demo data (controller.DemoEditor on a real QEMU log of
// the sieve sample), captures each to a PNG and quits.
func (gui) Screenshot(db *store.DB, dir string) ([]string, error) {
	logPath, err := demoLogFile()
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(filepath.Dir(logPath))
	ed, err := controller.DemoEditor(context.Background(), logPath)
	if err != nil {
		return nil, err
	}

	a := newApp()
	wb := view.NewWorkbench(a, ed, controller.Profiles{Store: db})
	// One window at a time: with no window manager both open at 0,0, and the GL read-back
	// of a covered window is black.
	shows := []struct {
		name string
		show func() fyne.Window
	}{{"editor", wb.ShowEditor}, {"analysis", wb.ShowAnalysis}}
	var files []string
	var capErr error
	go func() {
		defer fyne.Do(a.Quit)
		for _, s := range shows {
			var w fyne.Window
			fyne.DoAndWait(func() { w = s.show() })
			time.Sleep(1500 * time.Millisecond) // let it lay out and paint
			f := filepath.Join(dir, s.name+".png")
			fyne.DoAndWait(func() {
				capErr = writePNG(f, w)
				w.Hide()
			})
			if capErr != nil {
				return
			}
			files = append(files, f)
		}
	}()
	a.Run()
	return files, capErr
}

func writePNG(path string, w fyne.Window) error {
	img, err := captureWindow(w)
	if err != nil {
		return err
	}
	if img == nil {
		return fmt.Errorf("window %q could not be captured", w.Title())
	}
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	if err := png.Encode(f, img); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

// demoLogFile writes the embedded demo log where the log importer can read it by path.
func demoLogFile() (string, error) {
	r, err := assets.DemoLog()
	if err != nil {
		return "", err
	}
	dir, err := os.MkdirTemp("", "androprof-demo")
	if err != nil {
		return "", err
	}
	path := filepath.Join(dir, assets.DemoLogName)
	f, err := os.Create(path)
	if err != nil {
		return "", err
	}
	if _, err := io.Copy(f, r); err != nil {
		f.Close()
		return "", err
	}
	return path, f.Close()
}
