package formats

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"
)

// A directory stands for its regular files in name order, and holds nothing else; a file
// stands for itself.
func TestExpandDirs(t *testing.T) {
	dir := t.TempDir()
	for _, name := range []string{"run_200.log", "run_100.log"} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte("x\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	single := filepath.Join(t.TempDir(), "one.log")
	os.WriteFile(single, nil, 0o644)
	got, err := ExpandDirs([]string{single, dir})
	want := []string{single, filepath.Join(dir, "run_100.log"), filepath.Join(dir, "run_200.log")}
	if err != nil || !slices.Equal(got, want) {
		t.Errorf("ExpandDirs = %v, %v; want %v", got, err, want)
	}

	fifoDir := t.TempDir()
	fifo := filepath.Join(fifoDir, "pipe")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Fatal(err)
	}
	if got, err := ExpandDirs([]string{fifo}); err != nil || !slices.Equal(got, []string{fifo}) {
		t.Errorf("a pipe given by name: %v, %v", got, err)
	}

	sub := t.TempDir()
	os.Mkdir(filepath.Join(sub, "old"), 0o755)
	for _, tc := range []struct {
		paths []string
		want  string // in the error
	}{
		{[]string{sub}, filepath.Join(sub, "old") + ": a directory inside"},
		{[]string{fifoDir}, fifo + ": not a regular file"},
		{[]string{t.TempDir()}, "no files in the directory"},
		{nil, "no files given"},
		{[]string{filepath.Join(dir, "missing")}, "no such file"},
	} {
		if _, err := ExpandDirs(tc.paths); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("ExpandDirs(%q) = %v, want an error with %q", tc.paths, err, tc.want)
		}
	}
}
