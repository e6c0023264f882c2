package controller

import (
	"context"
	"fmt"

	"androprof/model"
)

// HeapStore is the database as heap logs and dumps need it.
type HeapStore interface {
	ImportHeapRun(ctx context.Context, name, source string, p *model.HeapProfile) error
	HeapProfile(ctx context.Context, run string) (*model.HeapProfile, error)
	ImportDumpRun(ctx context.Context, name, source string, d *model.HeapDump) error
	HeapDump(ctx context.Context, run string) (*model.HeapDump, error)
	DumpRetention(ctx context.Context, run string) (*model.DumpRetention, error)
}

// HeapAnalysis answers the heap tabs' questions (seed 001 chapter 5) from a run's stored
// profile, kept in memory per run so switching chart, scope or cohort size is instant.
type HeapAnalysis struct {
	store HeapStore

	profiles   runCache[*model.HeapProfile]
	dumps      runCache[*model.HeapDump]
	retentions runCache[*model.DumpRetention]
}

// Profile loads a heap run at its imported cohort size times factor (1 keeps it): cohorts
// are regrouped from the stored buckets, never re-imported.
func (h *HeapAnalysis) Profile(ctx context.Context, run string, factor int) (*model.HeapProfile, error) {
	p, err := h.profiles.get(run, func() (*model.HeapProfile, error) { return h.store.HeapProfile(ctx, run) })
	if err != nil || factor <= 1 {
		return p, err
	}
	return p.Regroup(factor), nil
}

// Dump loads a dump run's summary.
func (h *HeapAnalysis) Dump(ctx context.Context, run string) (*model.HeapDump, error) {
	return h.dumps.get(run, func() (*model.HeapDump, error) { return h.store.HeapDump(ctx, run) })
}

// Retention loads what keeps a dump run's memory alive: its dominator tree, retained sizes and
// paths from the GC roots (store.ErrNoRetention for a dump imported before they were kept).
func (h *HeapAnalysis) Retention(ctx context.Context, run string) (*model.DumpRetention, error) {
	return h.retentions.get(run, func() (*model.DumpRetention, error) { return h.store.DumpRetention(ctx, run) })
}

// Diff compares two dump runs class by class, the classes that grew most first, and says how
// much the two have in common (model.DumpDiff.Unrelated).
func (h *HeapAnalysis) Diff(ctx context.Context, before, after string) (model.DumpDiff, error) {
	a, err := h.Retention(ctx, before)
	if err != nil {
		return model.DumpDiff{}, err
	}
	b, err := h.Retention(ctx, after)
	if err != nil {
		return model.DumpDiff{}, err
	}
	return model.DiffDumps(a, b), nil
}

// forget drops a run from the caches after it was re-imported or deleted.
func (h *HeapAnalysis) forget(run string) {
	h.profiles.forget(run)
	h.dumps.forget(run)
	h.retentions.forget(run)
}

// CohortFactor turns a cohort size the user asks for into a multiple of the run's imported
// one, which is all that regrouping can give.
func CohortFactor(imported, want uint64) (int, error) {
	if want == 0 || want == imported {
		return 1, nil
	}
	if imported == 0 || want < imported || want%imported != 0 {
		return 0, fmt.Errorf("cohort size %s is not a multiple of the run's %s (import again with --cohort to go finer)",
			model.HumanBytes(want), model.HumanBytes(imported))
	}
	return int(want / imported), nil
}
