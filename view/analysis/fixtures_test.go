package analysis

import (
	"os"
	"path/filepath"
	"sync"
	"testing"

	"androprof/internal/viewtest"
	"androprof/store"
)

// sharedWorkspace is a workspace built once per test binary and copied for each test that opens
// it: importing the demo's sieves or a real program's profile takes seconds under the race
// detector, and a copy per test keeps each test's imports, deletions and settings its own.
type sharedWorkspace struct {
	build func(*store.DB) error
	once  sync.Once
	data  []byte // the database file, written by build and closed
	err   error
}

// open opens a copy of the workspace for t; it is closed when t ends.
func (w *sharedWorkspace) open(t *testing.T) *store.DB {
	t.Helper()
	w.once.Do(func() { w.data, w.err = buildWorkspace(t.TempDir(), w.build) })
	if w.err != nil {
		t.Fatal(w.err)
	}
	path := filepath.Join(t.TempDir(), "w.db")
	if err := os.WriteFile(path, w.data, 0o644); err != nil {
		t.Fatal(err)
	}
	return viewtest.OpenDB(t, path)
}

// buildWorkspace runs build on a new workspace in dir and returns its file once closed, so
// nothing of it is left in a write-ahead log.
func buildWorkspace(dir string, build func(*store.DB) error) ([]byte, error) {
	path := filepath.Join(dir, "w.db")
	db, err := store.Open(path)
	if err != nil {
		return nil, err
	}
	if err := build(db); err != nil {
		db.Close()
		return nil, err
	}
	if err := db.Close(); err != nil {
		return nil, err
	}
	return os.ReadFile(path)
}
