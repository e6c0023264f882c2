package controller

import (
	"context"
	"fmt"
	"strconv"
	"strings"
	"sync"

	"androprof/chart"
	"androprof/internal/human"
	"androprof/model"
	heapmodel "androprof/model/heap"
)

// HeapStore is the database as heap logs and dumps need it.
type HeapStore interface {
	ImportHeapRun(ctx context.Context, name, source string, p *heapmodel.HeapProfile) error
	HeapProfile(ctx context.Context, run string) (*heapmodel.HeapProfile, error)
	ImportDumpRun(ctx context.Context, name, source string, d *heapmodel.HeapDump) error
	HeapDump(ctx context.Context, run string) (*heapmodel.HeapDump, error)
	DumpRetention(ctx context.Context, run string) (*heapmodel.DumpRetention, error)
	DumpRecordIndex(ctx context.Context, run string) (*heapmodel.RecordIndex, error) // heapobjects.go
	DumpRecordChunk(ctx context.Context, run string, record uint32) (first uint32, data []byte, err error)
}

// HeapLogs answers the questions of a heap log run (seed 001 chapter 5) from its stored
// profile, kept in memory per run with the cohort sizes asked of it, so switching chart,
// scope or cohort size is instant. The window's heap tabs and the CLI ask it alike.
type HeapLogs struct {
	store HeapStore
	logs  runCache[*heapLog]
}

// heapLog is a heap log run as stored, and the cohort sizes regrouped from it so far: the
// window's tabs draw one cohort size one figure after another.
type heapLog struct {
	imported *heapmodel.HeapProfile

	mu        sync.Mutex
	regrouped map[int]*heapmodel.HeapProfile // by factor
}

// at is the profile at factor times the imported cohort, regrouped once per factor.
func (l *heapLog) at(factor int) *heapmodel.HeapProfile {
	if factor <= 1 {
		return l.imported
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	p, ok := l.regrouped[factor]
	if !ok {
		p = l.imported.Regroup(factor)
		l.regrouped[factor] = p
	}
	return p
}

// Kind is the kind of run HeapLogs answers for.
func (h *HeapLogs) Kind() model.RunKind { return model.RunKindHeap }

// Profile loads a heap run at its imported cohort size times factor (1 keeps it): cohorts
// are regrouped from the stored buckets, never re-imported.
func (h *HeapLogs) Profile(ctx context.Context, run string, factor int) (*heapmodel.HeapProfile, error) {
	l, err := h.logs.get(run, func() (*heapLog, error) {
		p, err := h.store.HeapProfile(ctx, run)
		return &heapLog{imported: p, regrouped: map[int]*heapmodel.HeapProfile{}}, err
	})
	if err != nil {
		return nil, err
	}
	return l.at(factor), nil
}

// Figure draws one figure of a heap log run at factor times its imported cohort: the chart
// the window's figure tabs show and `androprof chart --figure` writes.
func (h *HeapLogs) Figure(ctx context.Context, run string, factor int, fig chart.HeapFigure) (chart.Drawing, error) {
	p, err := h.Profile(ctx, run, factor)
	if err != nil {
		return nil, err
	}
	return fig.Draw(p, run), nil
}

// forget drops a run from the cache after it was re-imported or deleted.
func (h *HeapLogs) forget(run string) { h.logs.forget(run) }

// CohortFactor turns a cohort size the user asks for into a multiple of the run's imported
// one, which is all that regrouping can give.
func CohortFactor(imported, want uint64) (int, error) {
	if want == 0 || want == imported {
		return 1, nil
	}
	if imported == 0 || want < imported || want%imported != 0 {
		return 0, fmt.Errorf("cohort size %s is not a multiple of the run's %s (import again with --cohort to go finer)",
			human.Bytes(want), human.Bytes(imported))
	}
	return int(want / imported), nil
}

// HeapDumps answers the questions of a heap dump run (HPROF): its summary, figures, what keeps
// its memory alive and how it differs from another dump. Loads are kept in memory per run.
type HeapDumps struct {
	store HeapStore

	dumps      runCache[*heapmodel.HeapDump]
	retentions runCache[*heapmodel.DumpRetention]
	objects    runCache[*dumpObjects] // heapobjects.go
}

// Kind is the kind of run HeapDumps answers for.
func (h *HeapDumps) Kind() model.RunKind { return model.RunKindHeapDump }

// Dump loads a dump run's summary.
func (h *HeapDumps) Dump(ctx context.Context, run string) (*heapmodel.HeapDump, error) {
	return h.dumps.get(run, func() (*heapmodel.HeapDump, error) { return h.store.HeapDump(ctx, run) })
}

// Figure draws one figure of a dump run for one heap ("" for every heap): the chart the
// window's dump tabs show and `androprof chart --figure` writes.
func (h *HeapDumps) Figure(ctx context.Context, run, heap string, fig chart.DumpFigure) (chart.Drawing, error) {
	d, err := h.Dump(ctx, run)
	if err != nil {
		return nil, err
	}
	return fig.Draw(d, heap, run), nil
}

// Retention loads what keeps a dump run's memory alive: its dominator tree, retained sizes and
// paths from the GC roots (store.ErrNoRetention for a dump imported before they were kept).
func (h *HeapDumps) Retention(ctx context.Context, run string) (*heapmodel.DumpRetention, error) {
	return h.retentions.get(run, func() (*heapmodel.DumpRetention, error) { return h.store.DumpRetention(ctx, run) })
}

// Diff compares two dump runs class by class, the classes that grew most first, and says how
// much the two have in common (model.DumpDiff.Unrelated).
func (h *HeapDumps) Diff(ctx context.Context, before, after string) (heapmodel.DumpDiff, error) {
	a, err := h.Retention(ctx, before)
	if err != nil {
		return heapmodel.DumpDiff{}, err
	}
	b, err := h.Retention(ctx, after)
	if err != nil {
		return heapmodel.DumpDiff{}, err
	}
	return heapmodel.DiffDumps(a, b), nil
}

// forget drops a run from the caches after it was re-imported or deleted.
func (h *HeapDumps) forget(run string) {
	h.dumps.forget(run)
	h.retentions.forget(run)
	h.objects.forget(run)
}

// FindDumpObject finds a reachable object of run's retention r by its id (0x… or decimal) or,
// for a class name (java.lang.String or HotSpot's java/lang/String), the instance of that
// class nearest a GC root (the largest of those at that depth): what a path or a dominator
// listing starts from, in the window and on the command line.
func FindDumpObject(r *heapmodel.DumpRetention, run, what string) (heapmodel.DumpObject, error) {
	if id, err := strconv.ParseUint(what, 0, 64); err == nil {
		if o, ok := r.Find(id); ok {
			return o, nil
		}
		return heapmodel.DumpObject{}, fmt.Errorf("run %q has no reachable object %#x", run, id)
	}
	for i, c := range r.Classes {
		if c.Name != what && strings.ReplaceAll(c.Name, "/", ".") != what {
			continue
		}
		if o, ok := r.Nearest(int32(i)); ok {
			return o, nil
		}
	}
	return heapmodel.DumpObject{}, fmt.Errorf("run %q has no reachable object of a class named %q, nor an object with that id (0x… or a number)", run, what)
}
