package analysis

import (
	"testing"

	"androprof/internal/viewtest"
	"androprof/store"
)

// sharedWorkspace is a workspace that build fills once per test binary (viewtest.Shared); each
// test that opens it gets a copy of its own.
type sharedWorkspace struct {
	viewtest.Shared
	build func(*store.DB) error
}

// open opens a copy of the workspace for t; it is closed when t ends.
func (w *sharedWorkspace) open(t *testing.T) *store.DB {
	t.Helper()
	return viewtest.OpenDB(t, w.Copy(t, func(path string) error {
		db, err := store.Open(path)
		if err != nil {
			return err
		}
		if err := w.build(db); err != nil {
			db.Close()
			return err
		}
		return db.Close() // nothing of it left in a write-ahead log
	}))
}
