// Package fuzzseed keeps a reader's fuzz seed corpus in testdata/fuzz/FuzzReader, in the file
// format of `go test -fuzz`, so every reader package keeps its seeds the same way.
package fuzzseed

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"
)

// Keep writes seeds into testdata/fuzz/FuzzReader when update is set (go test -run
// WriteFuzzSeeds -update), and otherwise checks that each seed is there.
func Keep(t *testing.T, seeds map[string][]byte, update bool) {
	t.Helper()
	dir := filepath.Join("testdata", "fuzz", "FuzzReader")
	if update {
		if err := os.MkdirAll(dir, 0o755); err != nil {
			t.Fatal(err)
		}
		for name, data := range seeds {
			content := fmt.Sprintf("go test fuzz v1\n[]byte(%q)\n", data)
			if err := os.WriteFile(filepath.Join(dir, name), []byte(content), 0o644); err != nil {
				t.Fatal(err)
			}
		}
	}
	for name := range seeds {
		if _, err := os.Stat(filepath.Join(dir, name)); err != nil {
			t.Errorf("seed %s missing: run go test -run WriteFuzzSeeds -update", name)
		}
	}
}
