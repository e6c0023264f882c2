package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"fyne.io/fyne/v2"

	"androprof/view/ui"
)

// widgetsEnv names a folder: while it is set, the program writes there, about every 300 ms,
// one JSON file per window (windowWidgets, named by ui.WidgetMapFile) saying where its controls
// and texts are, so end-to-end tests find a control by its text and click it, and check the
// real window's layout.
const widgetsEnv = "ANDROPROF_WIDGETS"

// windowWidgets is one window's file.
type windowWidgets struct {
	Title   string         `json:"title"`
	Width   float32        `json:"width"` // the canvas, in canvas units
	Height  float32        `json:"height"`
	Scale   float32        `json:"scale"` // pixels per canvas unit
	Widgets []ui.WidgetPos `json:"widgets"`
}

// startWidgetReports writes the widget files of a's windows while widgetsEnv is set; a
// window's file goes when the window does (or when its title changes).
func startWidgetReports(a fyne.App) {
	dir := os.Getenv(widgetsEnv)
	if dir == "" {
		return
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		fmt.Fprintln(os.Stderr, widgetsEnv+":", err)
		return
	}
	go func() {
		written := map[string]bool{}
		for range time.Tick(300 * time.Millisecond) {
			var all []windowWidgets
			fyne.DoAndWait(func() {
				for _, w := range a.Driver().AllWindows() {
					c := w.Canvas()
					all = append(all, windowWidgets{Title: w.Title(), Width: c.Size().Width, Height: c.Size().Height,
						Scale: c.Scale(), Widgets: ui.WidgetMap(c)})
				}
			})
			now := map[string]bool{}
			for _, ww := range all {
				name := ui.WidgetMapFile(ww.Title)
				now[name] = true
				if err := writeAtomically(filepath.Join(dir, name), ww); err != nil {
					fmt.Fprintln(os.Stderr, widgetsEnv+":", err)
				}
			}
			for name := range written {
				if !now[name] {
					os.Remove(filepath.Join(dir, name))
				}
			}
			written = now
		}
	}()
}

// writeAtomically writes v as JSON through a temporary file and a rename, so a reader never
// sees half a file.
func writeAtomically(path string, v any) error {
	data, err := json.Marshal(v)
	if err != nil {
		return err
	}
	tmp, err := os.CreateTemp(filepath.Dir(path), ".widgets-*")
	if err != nil {
		return err
	}
	if _, err := tmp.Write(data); err != nil {
		tmp.Close()
		os.Remove(tmp.Name())
		return err
	}
	if err := tmp.Close(); err != nil {
		os.Remove(tmp.Name())
		return err
	}
	return os.Rename(tmp.Name(), path)
}
