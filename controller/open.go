package controller

import "io"

// Databases opens workspace files. Package store does it (store/workspacedb hands its opener
// to the commands), so that the front ends under app/ reach the database only through the
// controller and depend on no database package themselves.
type Databases struct {
	DefaultPath string // the workspace opened without --db: the user's data directory
	// Open opens the file at path; write says it may be created and its schema brought up to
	// date, otherwise it must exist and is only read (no migration, nothing written).
	Open func(path string, write bool) (Store, error)
}

// OpenWorkspace opens the workspace database at path for the window or a command. write says
// the caller may change it: the file is created when missing and its schema brought up to date.
// Without write the workspace must exist and is only read, as every reading command wants.
// Errors say what to do (ExplainWorkspace). Close it when done.
func OpenWorkspace(dbs Databases, path string, write bool) (*Workspace, error) {
	db, err := dbs.Open(path, write)
	if err != nil {
		return nil, ExplainWorkspace(path, err)
	}
	w := NewWorkspace(db)
	w.closer, _ = db.(io.Closer)
	return w, nil
}

// Close closes the workspace's database when OpenWorkspace opened it.
func (w *Workspace) Close() error {
	if w.closer == nil {
		return nil
	}
	return w.closer.Close()
}
