package controller

import (
	"androprof/store"
)

// DefaultWorkspacePath is the workspace a command or the window opens without --db: the
// user's data directory ($XDG_DATA_HOME or ~/.local/share).
func DefaultWorkspacePath() string { return store.DefaultPath() }

// OpenWorkspace opens the workspace database at path for the window or a command. write says
// the caller may change it: the file is created when missing and its schema brought up to date.
// Without write the workspace must exist and is only read (no migration, nothing written), as
// every reading command wants. Errors say what to do (ExplainWorkspace). Close it when done.
func OpenWorkspace(path string, write bool) (*Workspace, error) {
	open := store.OpenExisting
	if write {
		open = store.Open
	}
	db, err := open(path)
	if err != nil {
		return nil, ExplainWorkspace(path, err)
	}
	w := NewWorkspace(db)
	w.closer = db
	return w, nil
}

// Close closes the workspace's database when OpenWorkspace opened it.
func (w *Workspace) Close() error {
	if w.closer == nil {
		return nil
	}
	return w.closer.Close()
}
