package controller

import (
	"path/filepath"
	"testing"

	"androprof/model"
	"androprof/model/cost"
	"androprof/store"
)

// Every kind of run has its service, and the service says it reads that kind: the CLI and the
// window find a kind's service through Workspace.Service, and Forget reaches each of them.
func TestWorkspaceHasAServicePerKind(t *testing.T) {
	db, err := store.Open(filepath.Join(t.TempDir(), "w.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	ws := NewWorkspace(db)
	for _, kind := range model.RunKinds {
		if s := ws.Service(kind); s == nil || s.Kind() != kind {
			t.Errorf("Service(%s) = %v, want the service of %s", kind, s, model.RunKindText(kind))
		}
	}
	if len(ws.services) != len(model.RunKinds) {
		t.Errorf("%d services for %d kinds of run", len(ws.services), len(model.RunKinds))
	}
	if s := NewWorkspace(nil).Service(model.RunKindEmulator); s != nil {
		t.Errorf("a session without a database has a service: %v", s)
	}
	ws.Costs.runs.get("r", func() (*cost.RunData, error) { return &cost.RunData{}, nil })
	ws.Forget("r")
	if len(ws.Costs.runs.kept) != 0 {
		t.Error("Forget left the emulator run cached")
	}
}
