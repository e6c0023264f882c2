package controller

import (
	"context"
	"io"

	"androprof/model"
	"androprof/model/cost"
)

// Store is the workspace database as the controllers use it; *store.DB implements it.
type Store interface {
	RunStore
	MethodStore
	HeapStore
	SampleStore
	ProfileStore
	ReadOnly() error // why the workspace cannot be changed (a newer schema, no permission), or nil
}

// Workspace is the one door the windows and the command line have to the workspace: every
// read and write of runs and profiles goes through it and the services it hands out, one per
// kind of run, and it forgets a run's cached analyses in one place when the run is
// re-imported or deleted.
type Workspace struct {
	Costs     *Analysis       // emulator runs' costs; nil without a database
	Methods   *MethodAnalysis // method traces; nil without a database
	HeapLogs  *HeapLogs       // heap log runs; nil without a database
	HeapDumps *HeapDumps      // heap dump runs; nil without a database
	Samples   *SampleAnalysis // sampled runs (perf, simpleperf); nil without a database
	Profiles  Profiles        // built-in profiles, and the database's when there is one

	services map[model.RunKind]RunService // the services above by the kind they read
	store    Store
	closer   io.Closer // the database OpenWorkspace opened, nil otherwise
}

// NewWorkspace opens the analyses of db. A nil db is a session without a database: built-in
// profiles only, no runs.
func NewWorkspace(db Store) *Workspace {
	if db == nil {
		return &Workspace{}
	}
	w := &Workspace{Costs: &Analysis{store: db}, Methods: &MethodAnalysis{store: db}, HeapLogs: &HeapLogs{store: db},
		HeapDumps: &HeapDumps{store: db}, Samples: &SampleAnalysis{store: db}, Profiles: Profiles{store: db}, store: db}
	w.services = map[model.RunKind]RunService{}
	for _, s := range []RunService{w.Costs, w.Methods, w.HeapLogs, w.HeapDumps, w.Samples} {
		w.services[s.Kind()] = s
	}
	return w
}

// Importer brings runs into the workspace; what it replaces is forgotten by the analyses.
// Set its options (ISAs, Cohort, …) on the returned value.
func (w *Workspace) Importer() Importer {
	return Importer{store: w.store, forget: w.Forget}
}

// ReadOnly says why the workspace cannot be changed, or nil when it can (or has no database).
func (w *Workspace) ReadOnly() error {
	if w.store == nil {
		return nil
	}
	return w.store.ReadOnly()
}

// Runs lists the runs, newest first as the store keeps them.
func (w *Workspace) Runs(ctx context.Context) ([]model.RunInfo, error) { return w.store.Runs(ctx) }

// Processes lists an emulator run's processes with their totals.
func (w *Workspace) Processes(ctx context.Context, run string) ([]cost.ProcessSummary, error) {
	return w.store.Processes(ctx, run)
}

// BlockInstructions lists one block's instructions as translated.
func (w *Workspace) BlockInstructions(ctx context.Context, blockID int64) ([]cost.BlockInstruction, error) {
	return w.store.BlockInstructions(ctx, blockID)
}

// DeleteRun removes a run and everything cached about it.
func (w *Workspace) DeleteRun(ctx context.Context, run string) error {
	err := w.store.DeleteRun(ctx, run)
	w.Forget(run)
	return err
}

// Forget drops what the analyses cached of run, after it changed outside the workspace's own
// imports and deletes (another process wrote the database).
func (w *Workspace) Forget(run string) {
	for _, s := range w.services {
		s.forget(run)
	}
}
