package main

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"

	"fyne.io/fyne/v2"

	"androprof/controller"
	"androprof/isaprofiles"
	"androprof/model"
	"androprof/view/analysis"
)

// cacheRunName is the run `tour screenshot` makes when the workspace has no cache-simulated
// run: the sieve sample under the real QEMU with the Cortex-A8's hierarchy simulated.
const cacheRunName = "sieve-arm-cache"

// simulatedRun is the workspace's first cache-simulated emulator run, else one made by running
// the sieve sample (assets/samples/sieve.c, built with the ARM cross-compiler) with the
// screenshot profile's hierarchy; "" when neither can be had (no cross-compiler, no QEMU), and
// then the tour captures no cache-simulated tabs.
func simulatedRun(ctx context.Context, ws *controller.Workspace) (string, error) {
	runs, err := ws.Runs(ctx)
	if err != nil {
		return "", err
	}
	for _, r := range runs {
		if r.Kind != model.RunKindEmulator {
			continue
		}
		if d, err := ws.Costs.Load(ctx, r.Name); err == nil && d.Cache != nil {
			return r.Name, nil
		}
	}
	return runSieveWithCaches(ctx, ws, slices.ContainsFunc(runs, func(r model.RunInfo) bool { return r.Name == cacheRunName }))
}

// runSieveWithCaches builds the sieve for ARM and runs it under QEMU with the Cortex-A8's
// hierarchy simulated, into cacheRunName (replacing a run of that name that was not simulated).
func runSieveWithCaches(ctx context.Context, ws *controller.Workspace, exists bool) (string, error) {
	src := sieveSource()
	for _, tool := range []string{"arm-linux-gnueabihf-gcc", "qemu-arm"} {
		if _, err := exec.LookPath(tool); err != nil {
			fmt.Fprintf(os.Stderr, "tour: no cache-simulated run captured: %s is not installed\n", tool)
			return "", nil
		}
	}
	if src == "" {
		fmt.Fprintln(os.Stderr, "tour: no cache-simulated run captured: run the tour inside the repository (assets/samples/sieve.c)")
		return "", nil
	}
	dir, err := os.MkdirTemp("", "androprof-tour")
	if err != nil {
		return "", err
	}
	defer os.RemoveAll(dir)
	bin := filepath.Join(dir, "sieve")
	if out, err := exec.CommandContext(ctx, "arm-linux-gnueabihf-gcc", "-O2", "-static", "-marm", "-o", bin, src).CombinedOutput(); err != nil {
		return "", fmt.Errorf("building the sieve: %v\n%s", err, out)
	}
	p, err := isaprofiles.Builtin("cortex-a8")
	if err != nil {
		return "", err
	}
	if exists {
		if err := ws.DeleteRun(ctx, cacheRunName); err != nil {
			return "", err
		}
	}
	g := p.Memory.Geometry()
	im := ws.Importer()
	im.Cache, im.CacheSource = &g, "profile "+p.Name
	if err := im.RunProgram(ctx, cacheRunName, bin, []string{"50000"}, func(string) {}); err != nil {
		return "", err
	}
	return cacheRunName, nil
}

// captureCacheTabs captures the Estimate tab (the waterfall with every step) and the Functions
// tab (misses per function, the chart by source) of a cache-simulated run, and the Basic
// blocks tab with the blocks that miss most first; it reports false when a capture failed.
func captureCacheTabs(v *analysis.View, w fyne.Window, run string, capture func(string, fyne.Window) bool) bool {
	if run == "" {
		return true
	}
	fyne.DoAndWait(func() {
		v.SelectRun(run)
		v.Profile.SetSelected(screenshotProfile)
	})
	v.Wait()
	for _, tab := range []string{"Estimate", "Functions", "Basic blocks"} {
		fyne.DoAndWait(func() {
			for i, item := range v.Tabs.Items {
				if item.Text == tab {
					v.Tabs.SelectIndex(i)
				}
			}
			switch tab {
			case "Functions":
				v.Functions.Show.SetSelected(analysis.ChartSources)
			case "Basic blocks":
				v.Blocks.MissesFirst.SetChecked(true)
			}
		})
		v.Wait()
		if !capture("cache-"+strings.ToLower(strings.Fields(tab)[0]), w) {
			return false
		}
	}
	fyne.DoAndWait(func() {
		v.Functions.Show.SetSelected(analysis.ChartMetric)
		v.Blocks.MissesFirst.SetChecked(false)
	})
	v.Wait()
	return true
}

// sieveSource is assets/samples/sieve.c of the repository the tour runs in (from its root or a
// folder below, as its tests do), or "".
func sieveSource() string {
	dir, err := os.Getwd()
	for err == nil {
		src := filepath.Join(dir, "assets", "samples", "sieve.c")
		if _, e := os.Stat(src); e == nil {
			return src
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			break
		}
		dir = parent
	}
	return ""
}
