package controller

import (
	"context"

	"androprof/model"
	"androprof/model/cost"
)

// RunStore is what the analysis needs from the database.
type RunStore interface {
	ImportRun(ctx context.Context, name, source string, feed func(cost.BlockSink) error) error
	Runs(ctx context.Context) ([]model.RunInfo, error)
	DeleteRun(ctx context.Context, name string) error
	Processes(ctx context.Context, run string) ([]cost.ProcessSummary, error)
	Blocks(ctx context.Context, run string) ([]cost.BlockSummary, error)
	BlockInstructions(ctx context.Context, blockID int64) ([]cost.BlockInstruction, error)
	Images(ctx context.Context, run string) ([]cost.Image, error)
	Syscalls(ctx context.Context, run string) ([]cost.Syscall, error)
	RunCache(ctx context.Context, run string) (cost.CacheGeometry, string, map[int64]cost.CacheCounts, error)
	PipelineStore
}

// Analysis answers the analysis window's and `androprof report`'s questions about emulator
// runs' costs. It keeps the runCacheSize runs it used most recently, so switching profile or
// grouping recomputes without touching the disk.
type Analysis struct {
	store RunStore

	runs      runCache[*cost.RunData]
	pipelines runCache[*runPricings] // each run's blocks priced by a machine model (PreparePipeline)
	price     priceFunc              // nil: pipeline.Price
}

// Load reads a run, or returns the cached copy.
func (a *Analysis) Load(ctx context.Context, run string) (*cost.RunData, error) {
	return a.runs.get(run, func() (*cost.RunData, error) {
		procs, err := a.store.Processes(ctx, run)
		if err != nil {
			return nil, err
		}
		blocks, err := a.store.Blocks(ctx, run)
		if err != nil {
			return nil, err
		}
		d := cost.NewRunData(run, procs, blocks)
		if d.Images, err = a.store.Images(ctx, run); err != nil {
			return nil, err
		}
		if d.Syscalls, err = a.store.Syscalls(ctx, run); err != nil {
			return nil, err
		}
		if err := a.loadCache(ctx, d); err != nil {
			return nil, err
		}
		return d, nil
	})
}

// Kind is the kind of run Analysis reads: emulator runs.
func (a *Analysis) Kind() model.RunKind { return model.RunKindEmulator }

// forget drops a cached run after it changed (an import into it, or its deletion).
func (a *Analysis) forget(run string) {
	a.runs.forget(run)
	a.pipelines.forget(run)
}

// Report groups a run's costs under a profile; see model.RunData.Report. When the profile
// names a machine model and opts carries no block cycles, its hottest blocks are priced by it
// (PreparePipeline, without progress: cached after the first time).
func (a *Analysis) Report(ctx context.Context, opts cost.ReportOptions) (*cost.Report, error) {
	if err := opts.Check(); err != nil {
		return nil, err
	}
	d, err := a.Load(ctx, opts.Run)
	if err != nil {
		return nil, err
	}
	if opts, err = a.withPipeline(ctx, opts); err != nil {
		return nil, err
	}
	return d.Report(opts)
}

// InstructionCounts sums a run's (or one process's) dynamic instruction counts, for the
// per-category estimate and the calculator.
func (a *Analysis) InstructionCounts(ctx context.Context, run string, pid int) ([]cost.InstructionCount, error) {
	d, err := a.Load(ctx, run)
	if err != nil {
		return nil, err
	}
	return d.InstructionCounts(pid), nil
}

// Compare puts runs or processes side by side, each priced with the profile profileFor gives
// for the instruction set it executed most: an ARM, an AArch64, a MIPS and an x86-64 run are
// each priced by a core of their own architecture, each row names its profile and carries
// figure 5.2's estimate where that profile has the reference data for it.
func (a *Analysis) Compare(ctx context.Context, items []cost.CompareItem, profileFor ProfileFor, frequencyGHz float64) ([]cost.CompareRow, error) {
	reps, refs, err := a.compared(ctx, items, profileFor, frequencyGHz, cost.ByCategory)
	if err != nil {
		return nil, err
	}
	rows := cost.CompareRows(items, reps)
	for i := range rows {
		if e, ok := cost.ReferenceEstimate(refs[i], rows[i].Instructions, rows[i].FrequencyGHz); ok {
			rows[i].CPIEstimate = &e
		}
	}
	return rows, nil
}

// CompareImages is Compare image by image: the program, each library, the loader and code
// with no file of each item side by side (model.CompareImages; a run's processes add up).
func (a *Analysis) CompareImages(ctx context.Context, items []cost.CompareItem, profileFor ProfileFor, frequencyGHz float64) ([]cost.ImageCompareRow, error) {
	reps, _, err := a.compared(ctx, items, profileFor, frequencyGHz, cost.ByImage)
	if err != nil {
		return nil, err
	}
	return cost.CompareImages(reps), nil
}

// compared reports each item grouped by, priced by the profile of the instruction set it ran
// most. It gives each item's reference data too, for figure 5.2: its profile's, none (zero)
// when that profile does not price the set, whose CPI was measured on another processor.
func (a *Analysis) compared(ctx context.Context, items []cost.CompareItem, profileFor ProfileFor, frequencyGHz float64, by cost.Grouping) ([]*cost.Report, []cost.Reference, error) {
	reps := make([]*cost.Report, 0, len(items))
	refs := make([]cost.Reference, 0, len(items))
	for _, it := range items {
		d, err := a.Load(ctx, it.Run)
		if err != nil {
			return nil, nil, err
		}
		isa := d.MainISA(it.PID)
		p, err := profileFor(ctx, isa)
		if err != nil {
			return nil, nil, err
		}
		rep, err := d.Report(cost.ReportOptions{Run: it.Run, Profile: p, By: by, PID: it.PID, FrequencyGHz: frequencyGHz})
		if err != nil {
			return nil, nil, err
		}
		var ref cost.Reference
		if isa == "" || p.HasISA(isa) {
			ref = p.Reference
		}
		reps, refs = append(reps, rep), append(refs, ref)
	}
	return reps, refs, nil
}

// Images lists a run's images per process, with where their function names came from.
func (a *Analysis) Images(ctx context.Context, run string) ([]cost.Image, error) {
	d, err := a.Load(ctx, run)
	if err != nil {
		return nil, err
	}
	return d.Images, nil
}

// Syscalls sums a run's system calls per process (and thread, with byThread); pid 0 is every process.
func (a *Analysis) Syscalls(ctx context.Context, run string, pid int, byThread bool) ([]cost.SyscallRow, error) {
	d, err := a.Load(ctx, run)
	if err != nil {
		return nil, err
	}
	return cost.SummarizeSyscalls(d.Syscalls, pid, byThread), nil
}
