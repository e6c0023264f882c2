package parquet

import (
	"errors"
	"os"
	"path/filepath"
	"slices"
	"testing"

	pq "github.com/parquet-go/parquet-go"
)

// Names that a path cannot hold are escaped as Hive and Spark escape a partition value; the
// rest, UTF-8 included, stays.
func TestEscapeRun(t *testing.T) {
	for in, want := range map[string]string{
		"sieve-arm":             "sieve-arm",
		"commit-0042/sieve-arm": "commit-0042%2Fsieve-arm",
		"a=b%c":                 "a%3Db%25c",
		"tab\there\x7f":         "tab%09here%7F",
		`q"#'*:?\{[]^`:          "q%22%23%27%2A%3A%3F%5C%7B%5B%5D%5E",
		"größe .. x":            "größe .. x",
	} {
		if got := EscapeRun(in); got != want {
			t.Errorf("EscapeRun(%q) = %q, want %q", in, got, want)
		}
	}
}

// writeRun writes n runs rows of run into d, one batch past the first so the file has
// more than one write.
func writeRun(t *testing.T, d *Dir, kind, run string, n int) {
	t.Helper()
	rf := d.BeginRun(kind, run)
	runs := NewPart[RunRow](rf, TableRuns)
	NewPart[SampleStackRow](rf, TableSampleStacks) // no rows: no file
	for i := range n {
		blocks := int64(i)
		if err := runs.Add(RunRow{Head: NewHead(run, kind), Source: "src", Blocks: &blocks}); err != nil {
			t.Fatal(err)
		}
	}
	if err := rf.Commit(); err != nil {
		t.Fatal(err)
	}
}

// A run's rows read back as written, NULL where nil, in the partition folder of its kind and
// escaped name; a table it has no rows in has no file; writing the run again replaces its
// files, in whatever kind's folder they were.
func TestRunFilesWriteAndReplace(t *testing.T) {
	root := t.TempDir()
	d, err := NewDir(root)
	if err != nil {
		t.Fatal(err)
	}
	n := batchRows + 10
	writeRun(t, d, "heap", "a/b", n)
	path := filepath.Join(root, TableRuns, "kind=heap", "run=a%2Fb", FileName)
	rows, err := pq.ReadFile[RunRow](path)
	if err != nil {
		t.Fatal(err)
	}
	if len(rows) != n || rows[0].Run != "a/b" || rows[0].SchemaVersion != 1 || *rows[n-1].Blocks != int64(n-1) || rows[0].Processes != nil {
		t.Fatalf("read back %d rows, first %+v", len(rows), rows[0])
	}
	if d.Files != 1 || d.Rows[TableRuns] != int64(n) || d.Bytes <= 0 {
		t.Errorf("Dir says %d files, %v rows, %d bytes", d.Files, d.Rows, d.Bytes)
	}
	if _, err := os.Stat(filepath.Join(root, TableSampleStacks)); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("a table with no rows has a folder: %v", err)
	}

	writeRun(t, d, "methods", "a/b", 3) // re-imported as another kind
	if _, err := os.Stat(path); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("the run's file of its old kind is still there: %v", err)
	}
	writeRun(t, d, "methods", "a/b", 2)
	again := filepath.Join(root, TableRuns, "kind=methods", "run=a%2Fb", FileName)
	rows, err = pq.ReadFile[RunRow](again)
	if err != nil || len(rows) != 2 {
		t.Fatalf("re-export: %d rows, %v", len(rows), err)
	}
	if left := leftovers(t, root); len(left) != 1 {
		t.Errorf("files under DIR: %v, want only %s", left, again)
	}
}

// An aborted run leaves its previous files whole and no temporary file behind.
func TestAbortLeavesPreviousFiles(t *testing.T) {
	root := t.TempDir()
	d, err := NewDir(root)
	if err != nil {
		t.Fatal(err)
	}
	writeRun(t, d, "heap", "r", 5)
	before := leftovers(t, root)
	rf := d.BeginRun("heap", "r")
	p := NewPart[RunRow](rf, TableRuns)
	for range batchRows + 1 { // past a batch: the temporary file exists
		if err := p.Add(RunRow{Head: NewHead("r", "heap")}); err != nil {
			t.Fatal(err)
		}
	}
	rf.Abort()
	if after := leftovers(t, root); !slices.Equal(before, after) {
		t.Errorf("after Abort: %v, before: %v", after, before)
	}
	rows, err := pq.ReadFile[RunRow](before[0])
	if err != nil || len(rows) != 5 {
		t.Errorf("the previous file reads %d rows, %v", len(rows), err)
	}
}

// leftovers lists every file under root.
func leftovers(t *testing.T, root string) []string {
	t.Helper()
	var out []string
	err := filepath.WalkDir(root, func(p string, e os.DirEntry, err error) error {
		if err == nil && !e.IsDir() {
			out = append(out, p)
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}
