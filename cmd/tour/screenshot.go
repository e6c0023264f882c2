package main

import (
	"context"
	"fmt"
	"image/png"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"

	"androprof/app/desktop"
	"androprof/assets"
	"androprof/controller"
	"androprof/model"
	"androprof/model/cost"
	heapmodel "androprof/model/heap"
	"androprof/store/workspacedb"
	"androprof/view/analysis"
	"androprof/view/heap"
	"androprof/view/methods"
	"androprof/view/samples"
	"androprof/view/ui"
)

// screenshotRun is the demo run the analysis screenshots show: two processes (a fork), ARM
// and Thumb code, priced with the profile that has the seed's reference data.
const (
	screenshotRun     = "demo-forker-arm"
	screenshotProfile = "ARMv7-A Cortex-A8"
)

// screenshotMethodRun is the demo method trace (a real Dalvik app trace) the method tabs show.
const screenshotMethodRun = "demo-methods"

// screenshotHeapRun is the demo heap log the heap tabs show when the workspace has it;
// otherwise the first heap log run, and the first heap dump run for the dump tabs.
const screenshotHeapRun = "demo-heap-cache"

// screenshot opens the workspace at dbPath (creating it) and captures its windows into dir
// (creating it): see takeScreenshots.
func screenshot(dbPath, dir string) ([]string, error) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, err
	}
	ws, err := controller.OpenWorkspace(workspacedb.Databases(), dbPath, true)
	if err != nil {
		return nil, err
	}
	defer ws.Close()
	return takeScreenshots(ws, dir)
}

// takeScreenshots captures the editor (controller.DemoEditor on a real QEMU log of the sieve
// sample), every tab of the analysis window on the demo data, the Estimate, Functions and Basic
// blocks tabs of a cache-simulated run (simulatedRun) and, when the demo data has a
// method trace, a heap log or a heap dump, every tab (and every heap figure) on it, one PNG
// each, and quits.
func takeScreenshots(ws *controller.Workspace, dir string) ([]string, error) {
	logPath, err := demoLogFile()
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(filepath.Dir(logPath))
	ed, err := controller.DemoEditor(context.Background(), logPath)
	if err != nil {
		return nil, err
	}
	if _, err := ws.Importer().ImportDemo(context.Background(), desktop.DemoRuns()); err != nil {
		return nil, err
	}
	if err := importDiffRuns(context.Background(), ws); err != nil {
		return nil, err
	}
	cacheRun, err := simulatedRun(context.Background(), ws)
	if err != nil {
		return nil, err
	}
	a := desktop.NewApp()
	wb, err := desktop.NewWorkbench(a, ws, ed)
	if err != nil {
		return nil, err
	}
	var files []string
	var capErr error
	capture := func(name string, w fyne.Window) bool {
		time.Sleep(700 * time.Millisecond) // let it lay out and paint
		f := filepath.Join(dir, name+".png")
		fyne.DoAndWait(func() { capErr = writePNG(f, w) })
		if capErr == nil {
			files = append(files, f)
		}
		return capErr == nil
	}
	go func() {
		defer fyne.Do(a.Quit)
		// One window at a time: with no window manager both open at 0,0, and the GL
		// read-back of a covered window is black.
		var w fyne.Window
		fyne.DoAndWait(func() { w = wb.ShowEditor() })
		if !capture("editor", w) {
			return
		}
		fyne.DoAndWait(func() { resizeForScreenshot(w); wb.EditorView().ShowMemoryHierarchy() })
		if !capture("editor-memory", w) {
			return
		}
		fyne.DoAndWait(func() { w.Canvas().Overlays().Top().Hide(); w.Hide(); w = wb.ShowAnalysis(); resizeForScreenshot(w) })
		v := wb.AnalysisView()
		v.Wait() // the runs list is read in the background
		fyne.DoAndWait(func() {
			v.SelectRun(screenshotRun)
			v.Profile.SetSelected(screenshotProfile)
			for _, r := range v.RunNames() {
				if strings.HasPrefix(r, "demo-sieve-") {
					v.Compare.Pick(cost.CompareItem{Run: r}, true)
				}
			}
		})
		v.Wait()
		for i, tab := range v.Tabs.Items {
			fyne.DoAndWait(func() {
				v.Tabs.SelectIndex(i)
				if tab.Text == analysis.TabDiff {
					pickB(v.Diff, "demo-sieve-arm")
				}
			})
			v.Wait()
			name := "analysis-" + strings.ToLower(strings.Fields(tab.Text)[0])
			if !capture(name, w) {
				return
			}
		}
		if !captureCacheTabs(v, w, cacheRun, capture) {
			return
		}
		if slices.Contains(v.RunNames(), screenshotMethodRun) {
			fyne.DoAndWait(func() { v.SelectRun(screenshotMethodRun) })
			v.Wait()
			m := v.Methods
			for i, tab := range m.Tabs.Items {
				fyne.DoAndWait(func() {
					m.Tabs.SelectIndex(i)
					if i == 0 {
						m.Profile.Table.Select(1) // the busiest method, with its parents and children
					}
					if tab.Text == methods.TabDiff {
						pickB(m.Diff.DiffPanel, diffMethodRun)
					}
				})
				v.Wait()
				if !capture("methods-"+strings.ToLower(tab.Text), w) {
					return
				}
			}
		}
		if !captureHeapTabs(v, w, capture) {
			return
		}
		if !captureDumpTabs(v, w, capture) {
			return
		}
		captureSampleTabs(v, w, capture)
	}()
	a.Run()
	return files, capErr
}

// screenshotSizeEnv, set to WxH (1366x768: a small laptop's screen), sizes the analysis window
// of `tour screenshot` instead of its first size.
const screenshotSizeEnv = "ANDROPROF_SCREENSHOT_SIZE"

// resizeForScreenshot gives w the size screenshotSizeEnv asks for, if any.
func resizeForScreenshot(w fyne.Window) {
	var width, height float32
	if _, err := fmt.Sscanf(os.Getenv(screenshotSizeEnv), "%gx%g", &width, &height); err == nil {
		w.Resize(fyne.NewSize(width, height))
	}
}

// captureHeapTabs captures every tab of a heap log run, and every figure of the tabs with a
// figure chooser (heap-5.1 … heap-5.23); it reports false when a capture failed.
func captureHeapTabs(v *analysis.View, w fyne.Window, capture func(string, fyne.Window) bool) bool {
	if !showRun(v, model.RunKindHeap, screenshotHeapRun) {
		return true
	}
	h := v.Heap
	for i, tab := range h.Tabs.Items {
		fyne.DoAndWait(func() { h.Tabs.SelectIndex(i) })
		v.Wait()
		figures := h.FigureChooser(i)
		if figures == nil {
			if !capture("heap-"+strings.ToLower(tab.Text), w) {
				return false
			}
			continue
		}
		for j, opt := range figures.Options {
			fyne.DoAndWait(func() { figures.SetSelectedIndex(j) })
			v.Wait()
			if !capture("heap-"+strings.Fields(opt)[0], w) {
				return false
			}
		}
		fyne.DoAndWait(func() { figures.SetSelectedIndex(0) })
	}
	return true
}

// screenshotDumpClass is the class whose instances and first instance the object-level tabs
// show: the demo dump's cache entries, each with a counter, a byte array and a String key.
const screenshotDumpClass = "demo/Cache$Blob"

// captureDumpTabs captures every tab of the first heap dump run; it reports false when a
// capture failed. Instances lists a class's (screenshotDumpClass, or the largest retainer that
// is no array), Object shows its largest instance, and Leaks the first suspect's leak trace.
func captureDumpTabs(v *analysis.View, w fyne.Window, capture func(string, fyne.Window) bool) bool {
	if !showRun(v, model.RunKindHeapDump, "") {
		return true
	}
	d := v.Dump
	fyne.DoAndWait(func() {
		classes := d.Retained.Classes.Rows()
		i := slices.IndexFunc(classes, func(c heapmodel.RetainedClass) bool { return c.Name == screenshotDumpClass })
		if i < 0 {
			i = slices.IndexFunc(classes, func(c heapmodel.RetainedClass) bool {
				return c.Instances > 1 && !strings.HasPrefix(c.Name, "[") && !strings.HasSuffix(c.Name, "[]")
			})
		}
		if i >= 0 {
			d.Retained.Classes.Select(i) // lists its instances
		}
	})
	v.Wait()
	fyne.DoAndWait(func() {
		if len(d.Instances.Table.Rows()) > 0 {
			d.Instances.Table.Select(0) // opens it in the object view
		}
		d.Tabs.SelectIndex(slices.IndexFunc(d.Tabs.Items, func(it *container.TabItem) bool { return it.Text == heap.TabLeaks })) // runs the leak rules
	})
	v.Wait()
	fyne.DoAndWait(func() {
		if len(d.Leaks.Suspects.Rows()) > 0 {
			d.Leaks.Suspects.Select(0) // shows its leak trace
		}
	})
	v.Wait()
	for i, tab := range d.Tabs.Items {
		fyne.DoAndWait(func() { d.Tabs.SelectIndex(i) })
		v.Wait()
		if !capture("dump-"+strings.ToLower(tab.Text), w) {
			return false
		}
	}
	return true
}

// showRun selects the run preferred when the workspace has it, else the first run of its kind,
// and waits for it to load; false when there is no run of that kind.
func showRun(v *analysis.View, kind model.RunKind, preferred string) bool {
	runs := v.RunsOfKind(kind)
	if len(runs) == 0 {
		return false
	}
	run := runs[0]
	if slices.Contains(runs, preferred) {
		run = preferred
	}
	fyne.DoAndWait(func() { v.SelectRun(run) })
	v.Wait()
	return true
}

// screenshotSampleRun is the demo vertical profile the sampled-run tabs show when the workspace
// has it; otherwise the first sampled run.
const screenshotSampleRun = "demo-vertical-phases"

// captureSampleTabs captures every tab of a sampled run (samples-layers, samples-symbols, …),
// the Callers/callees tab with the busiest symbol picked.
func captureSampleTabs(v *analysis.View, w fyne.Window, capture func(string, fyne.Window) bool) {
	if !showRun(v, model.RunKindSamples, screenshotSampleRun) {
		return
	}
	s := v.Samples
	for i, tab := range s.Tabs.Items {
		fyne.DoAndWait(func() {
			s.Tabs.SelectIndex(i)
			if tab.Text == samples.TabSymbols {
				s.Symbols.Table.Select(0) // the busiest symbol, which also fills Callers/callees
				s.Tabs.SelectIndex(i)
			}
			if tab.Text == samples.TabDiff {
				pickB(s.Diff, diffSampleRun)
			}
		})
		v.Wait()
		if !capture("samples-"+ui.Slug(tab.Text, "tab"), w) { // "Callers/callees": samples-callers-callees.png
			return
		}
	}
}

func writePNG(path string, w fyne.Window) error {
	img, err := captureWindow(w)
	if err != nil {
		return err
	}
	if img == nil {
		return fmt.Errorf("window %q could not be captured", w.Title())
	}
	return ui.WriteFile(path, func(w io.Writer) error { return png.Encode(w, img) }) // never through a link
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
