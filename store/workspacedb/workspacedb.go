// Package workspacedb wires the SQLite store into the controller: the commands (cmd/androprof,
// cmd/androprof-tour) and tests hand Databases() to controller.OpenWorkspace, so nothing under
// app/ imports the store.
package workspacedb

import (
	"androprof/controller"
	"androprof/store"
)

// Databases opens workspaces as SQLite files (store.Open to write, store.OpenExisting to read).
func Databases() controller.Databases {
	return controller.Databases{DefaultPath: store.DefaultPath(), Open: open}
}

func open(path string, write bool) (controller.Store, error) {
	openFile := store.OpenExisting
	if write {
		openFile = store.Open
	}
	db, err := openFile(path)
	if err != nil {
		return nil, err // never a nil *DB inside a non-nil interface
	}
	return db, nil
}
