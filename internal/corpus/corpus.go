// Package corpus finds the real files of ../shared/corpus (files other tools wrote) for tests,
// from any package directory, and skips a test when the folder is not beside the project (a
// clone of the project alone); CI always has it.
package corpus

import (
	"os"
	"path/filepath"
	"testing"
)

// Dir is the corpus folder: ../shared/corpus of the module root, found from the working
// directory (a test runs in its package's directory).
func Dir() string {
	dir, err := os.Getwd()
	if err != nil {
		return filepath.Join("..", "shared", "corpus")
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return filepath.Join(dir, "..", "shared", "corpus")
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return filepath.Join("..", "shared", "corpus")
		}
		dir = parent
	}
}

// File returns the path of a corpus file, skipping the test when it is absent.
func File(t testing.TB, name string) string {
	t.Helper()
	p := filepath.Join(Dir(), name)
	if _, err := os.Stat(p); err != nil {
		t.Skipf("%s is absent: the real-file tests need ../shared/corpus next to the project (CI has it)", p)
	}
	return p
}
