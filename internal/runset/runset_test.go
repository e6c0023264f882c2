package runset_test

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"androprof/controller"
	"androprof/internal/corpus"
	"androprof/internal/runset"
	"androprof/store/workspacedb"
)

func options(n, damaged int) runset.Options {
	o := runset.Options{N: n, Damaged: damaged, Seed: 1, Demo: filepath.Join("..", "..", "assets", "demo")}
	if _, err := os.Stat(corpus.Dir()); err == nil {
		o.Corpus = corpus.Dir()
	}
	return o
}

// A lab of 1,000 runs holds every kind in the proportions the package comment gives, each
// file under a name (and run) of its own.
func TestPlanMix(t *testing.T) {
	o := options(1000, 3)
	o.Corpus = "corpus"
	kinds := map[string]int{}
	paths, runs := map[string]bool{}, map[string]bool{}
	damaged, regressed := 0, 0
	for _, f := range runset.Plan(o) {
		kinds[f.Kind]++
		if paths[f.Path] || runs[f.Run()] {
			t.Errorf("%s (run %s) twice", f.Path, f.Run())
		}
		paths[f.Path], runs[f.Run()] = true, true
		if f.Damaged {
			damaged++
		}
		if f.Regressed {
			regressed++
		}
	}
	want := map[string]int{"bbprofile": 650, "trace": 200, "perfscript": 50, "hprof": 75, "heaplog": 25}
	for k, n := range want {
		if kinds[k] != n {
			t.Errorf("%d %s files, want %d (all: %v)", kinds[k], k, n, kinds)
		}
	}
	if damaged != 3 || regressed != 50 {
		t.Errorf("%d damaged (want 3), %d regressed app traces (want the later 50 commits')", damaged, regressed)
	}
}

// The same seed writes the same bytes; another seed other counts.
func TestGenerateSameBytes(t *testing.T) {
	a, b, c := t.TempDir(), t.TempDir(), t.TempDir()
	o := options(runset.PerCommit, 0)
	files, err := runset.Generate(a, o)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := runset.Generate(b, o); err != nil {
		t.Fatal(err)
	}
	o.Seed = 2
	if _, err := runset.Generate(c, o); err != nil {
		t.Fatal(err)
	}
	for _, f := range files {
		x, y, z := read(t, a, f), read(t, b, f), read(t, c, f)
		if !bytes.Equal(x, y) {
			t.Errorf("%s: two sets of seed 1 differ", f.Path)
		}
		if f.Factor != 1 && bytes.Equal(x, z) {
			t.Errorf("%s: seeds 1 and 2 wrote the same bytes though its factor is %g", f.Path, f.Factor)
		}
	}
}

func read(t *testing.T, dir string, f runset.File) []byte {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(dir, f.Path))
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// Every file of a set imports as its run with the importer `androprof import` uses, except the
// damaged ones, which fail alone with an error that names them.
func TestFilesImport(t *testing.T) {
	n, damaged := 2*runset.PerCommit, 4
	if testing.Short() {
		n, damaged = runset.PerCommit, 2
	}
	dir := t.TempDir()
	files, err := runset.Generate(filepath.Join(dir, "lab"), options(n, damaged))
	if err != nil {
		t.Fatal(err)
	}
	ws, err := controller.OpenWorkspace(workspacedb.Databases(), filepath.Join(dir, "ws.db"), true)
	if err != nil {
		t.Fatal(err)
	}
	defer ws.Close()
	failed := 0
	for _, f := range files {
		path := filepath.Join(dir, "lab", f.Path)
		err := ws.Importer().ImportFiles(context.Background(), f.Run(), []string{path}, nil)
		switch {
		case f.Damaged && err == nil:
			t.Errorf("%s: damaged, and imported", f.Path)
		case f.Damaged && !strings.Contains(err.Error(), filepath.Base(f.Path)):
			t.Errorf("%s: the error does not name the file: %v", f.Path, err)
		case f.Damaged:
			failed++
		case err != nil:
			t.Errorf("%s (%s from %s): %v", f.Path, f.Kind, f.Source, err)
		}
	}
	runs, err := ws.Runs(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if failed != damaged || len(runs) != n-damaged {
		t.Errorf("%d damaged files failed (want %d), %d runs stored (want %d)", failed, damaged, len(runs), n-damaged)
	}
}
