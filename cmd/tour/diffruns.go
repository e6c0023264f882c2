package main

import (
	"context"
	"os"
	"path/filepath"
	"slices"

	"androprof/controller"
	"androprof/internal/corpus"
	"androprof/model"
	"androprof/view/ui"
)

// The second runs the Diff tabs compare the demo's with: the demo has one method trace and one
// sampled run. The sampled one is the JVM recording of the perf script reader's tests (in the
// repository, always there); the method trace is the shared corpus's perflib-exception.trace,
// imported when ../shared/corpus is beside the project.
const (
	diffSampleRun = "diff-jvm-sort"
	diffMethodRun = "diff-exception"
)

// importDiffRuns imports the runs the Diff tabs take as B, those not in ws yet; a file that is
// not there is left out (its Diff tab then says to import a second run).
func importDiffRuns(ctx context.Context, ws *controller.Workspace) error {
	runs, err := ws.Runs(ctx)
	if err != nil {
		return err
	}
	files := map[string]string{diffMethodRun: filepath.Join(corpus.Dir(), "perflib-exception.trace")}
	if root, ok := moduleRoot(); ok {
		files[diffSampleRun] = filepath.Join(root, "formats", "perfscript", "testdata", "java.perfscript.gz")
	}
	for run, path := range files {
		if _, err := os.Stat(path); err != nil || slices.ContainsFunc(runs, func(r model.RunInfo) bool { return r.Name == run }) {
			continue
		}
		if err := ws.Importer().ImportFiles(ctx, run, []string{path}, nil); err != nil {
			return err
		}
	}
	return nil
}

// moduleRoot is the folder of go.mod above the working directory (`go run ./cmd/tour` runs in
// the module; the screenshot test in cmd/tour).
func moduleRoot() (string, bool) {
	dir, err := os.Getwd()
	for err == nil {
		if _, serr := os.Stat(filepath.Join(dir, "go.mod")); serr == nil {
			return dir, true
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			break
		}
		dir = parent
	}
	return "", false
}

// pickB chooses run B of a Diff tab: prefer when it is offered, else the first run offered.
func pickB(p *ui.DiffPanel, prefer string) {
	switch {
	case slices.Contains(p.Other.Options, prefer):
		p.Other.SetSelected(prefer)
	case len(p.Other.Options) > 0:
		p.Other.SetSelected(p.Other.Options[0])
	}
}
