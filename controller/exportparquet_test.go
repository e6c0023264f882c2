package controller

import (
	"context"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	pqexport "androprof/export/parquet"
)

// parquetRuns imports three demo files of three kinds into a new workspace, runs named a, b, c
// in the order the workspace lists them.
func parquetRuns(t *testing.T) *Workspace {
	t.Helper()
	w := NewWorkspace(openStore(t))
	for _, r := range []struct{ run, file string }{
		{"a", "demo-sieve-arm.bbprofile.gz"}, {"b", "demo-methods.trace.gz"}, {"c", "demo-heap-threads.heaplog.gz"},
	} {
		importMethodRun(t, w.Importer(), r.run, filepath.Join("..", "assets", "demo", r.file))
	}
	return w
}

// filesUnder lists the files under dir, by path from dir.
func filesUnder(t *testing.T, dir string) []string {
	t.Helper()
	var out []string
	err := filepath.WalkDir(dir, func(p string, e fs.DirEntry, err error) error {
		if err == nil && !e.IsDir() {
			rel, _ := filepath.Rel(dir, p)
			out = append(out, rel)
		}
		return err
	})
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		t.Fatal(err)
	}
	return out
}

// Progress comes after each run with what has been written so far; cancelling stops before
// the next run, and what was written is whole: the first run's files, nothing of the others,
// no temporary file. Each run is let go of by the caches once written.
func TestExportParquetProgressAndCancel(t *testing.T) {
	w := parquetRuns(t)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	dir := filepath.Join(t.TempDir(), "pq")
	var seen []ParquetProgress
	s, err := w.ExportParquet(ctx, dir, ParquetOptions{Progress: func(p ParquetProgress) {
		seen = append(seen, p)
		cancel()
	}})
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("cancelled export: %v", err)
	}
	if len(seen) != 1 || seen[0].Done != 1 || seen[0].Total != 3 || seen[0].Rows == 0 || seen[0].Bytes == 0 {
		t.Fatalf("progress %+v", seen)
	}
	first := seen[0].Run
	if s.Runs != 1 || s.Bytes != seen[0].Bytes {
		t.Errorf("summary %+v after one run", s)
	}
	for _, f := range filesUnder(t, dir) {
		if !strings.HasSuffix(f, "/run="+first+"/"+pqexport.FileName) {
			t.Errorf("after cancelling: %s", f)
		}
	}
	if n := len(w.Costs.runs.kept) + len(w.Methods.traces.kept) + len(w.HeapLogs.logs.kept); n != 0 {
		t.Errorf("%d runs still cached after the export", n)
	}

	all, err := w.ExportParquet(context.Background(), dir, ParquetOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if all.Runs != 3 || all.Files != len(filesUnder(t, dir)) || all.Rows[pqexport.TableRuns] != 3 || all.Rows[pqexport.TableDumpClasses] != 0 {
		t.Errorf("whole export: %+v; files %v", all, filesUnder(t, dir))
	}
}

// A run that fails half-way (its method_times folder cannot be made) writes none of its files,
// leaves its previous ones as they were, and names itself in the error.
func TestExportParquetFailedRunLeavesNoHalfFile(t *testing.T) {
	w := parquetRuns(t)
	dir := filepath.Join(t.TempDir(), "pq")
	if _, err := w.ExportParquet(context.Background(), dir, ParquetOptions{Runs: []string{"b"}}); err != nil {
		t.Fatal(err)
	}
	before := filesUnder(t, dir)
	old := filepath.Join(dir, pqexport.TableMethodTimes, "kind=methods", "run=b", pqexport.FileName)
	if err := os.Rename(filepath.Join(dir, pqexport.TableMethodTimes), filepath.Join(dir, "kept")); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, pqexport.TableMethodTimes), []byte("in the way"), 0o666); err != nil {
		t.Fatal(err)
	}
	_, err := w.ExportParquet(context.Background(), dir, ParquetOptions{Runs: []string{"b"}})
	if err == nil || !strings.Contains(err.Error(), `run "b"`) {
		t.Fatalf("export through a file in the way: %v", err)
	}
	os.Remove(filepath.Join(dir, pqexport.TableMethodTimes))
	if err := os.Rename(filepath.Join(dir, "kept"), filepath.Join(dir, pqexport.TableMethodTimes)); err != nil {
		t.Fatal(err)
	}
	if after := filesUnder(t, dir); strings.Join(after, " ") != strings.Join(before, " ") {
		t.Errorf("after the failed run: %v; before: %v", after, before)
	}
	if _, err := os.Stat(old); err != nil {
		t.Error(err)
	}
	if _, err := w.ExportParquet(context.Background(), dir, ParquetOptions{Runs: []string{"nosuch"}}); err == nil {
		t.Error("an unknown run exported")
	}
}
