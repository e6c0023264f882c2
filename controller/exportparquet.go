package controller

import (
	"context"
	"fmt"
	"maps"
	"slices"

	pqexport "androprof/export/parquet"
	"androprof/model"
	"androprof/model/cost"
)

// ParquetOptions are the choices of a Parquet export (docs/parquet.md).
type ParquetOptions struct {
	Runs []string // the runs to export; nil: every run of the workspace
	// Profile prices every emulator run (a name or a file, as report's --profile); "": each
	// run under its default, as report prices it.
	Profile  string
	Progress func(ParquetProgress) // after each run; nil: none
}

// ParquetProgress is how far an export has come: runs done of Total, and what they wrote.
type ParquetProgress struct {
	Done, Total int
	Rows, Bytes int64
	Run         string // the run just written
}

// ParquetSummary says what an export wrote: for the command's output.
type ParquetSummary struct {
	Out   string
	Runs  int
	Files int
	Rows  map[string]int64 // by table; every table is there, 0 when no run had rows for it
	Bytes int64
}

// ExportParquet writes runs' aggregates into dir as Hive-partitioned Parquet, one run at a
// time through the services `androprof report` reads (so the rows are the reports' rows), each
// run's files put in place only when all of them are whole. A cancelled ctx stops between
// runs, or within one, leaving the runs done in place. Each run is forgotten by the caches
// after it is written, so memory stays that of the largest run however many are exported.
func (w *Workspace) ExportParquet(ctx context.Context, dir string, opts ParquetOptions) (ParquetSummary, error) {
	runs, err := w.parquetRuns(ctx, opts.Runs)
	if err != nil {
		return ParquetSummary{}, err
	}
	x, err := w.newParquetExport(ctx, dir, opts.Profile)
	if err != nil {
		return ParquetSummary{}, err
	}
	for i, r := range runs {
		if err := ctx.Err(); err != nil {
			return x.summary(i), err
		}
		err := x.run(ctx, r)
		w.Forget(r.Name)
		if err != nil {
			return x.summary(i), fmt.Errorf("run %s: %w", RunText(r.Name), err)
		}
		if opts.Progress != nil {
			opts.Progress(ParquetProgress{Done: i + 1, Total: len(runs), Rows: x.rows(), Bytes: x.dir.Bytes, Run: r.Name})
		}
	}
	return x.summary(len(runs)), nil
}

// parquetRuns are the runs named (each must be there), or every run.
func (w *Workspace) parquetRuns(ctx context.Context, names []string) ([]model.RunInfo, error) {
	all, err := w.Runs(ctx)
	if err != nil {
		return nil, err
	}
	if names == nil {
		return all, nil
	}
	var out []model.RunInfo
	for _, n := range names {
		i := slices.IndexFunc(all, func(r model.RunInfo) bool { return r.Name == n })
		if i < 0 {
			_, err := w.RunKind(ctx, n) // says the name as report does, with what is near it
			return nil, err
		}
		out = append(out, all[i])
	}
	return out, nil
}

// parquetExport is one export under way: its folder and how emulator runs are priced.
type parquetExport struct {
	w       *Workspace
	dir     *pqexport.Dir
	profile *cost.Profile      // --profile; nil: each run's default
	infos   []cost.ProfileInfo // the profiles a default is chosen among
}

func (w *Workspace) newParquetExport(ctx context.Context, dir, profile string) (*parquetExport, error) {
	x := &parquetExport{w: w}
	var err error
	if profile != "" {
		if x.profile, err = w.Profiles.Resolve(ctx, profile); err != nil {
			return nil, err
		}
	} else if x.infos, err = w.Profiles.List(ctx); err != nil {
		return nil, err
	}
	if x.dir, err = pqexport.NewDir(dir); err != nil {
		return nil, err
	}
	return x, nil
}

// parquetKinds writes a kind's own tables of a run into its files.
var parquetKinds = map[model.RunKind]func(ctx context.Context, x *parquetExport, rf *pqexport.RunFiles, h pqexport.Head) error{
	model.RunKindEmulator: emulatorParquet,
	model.RunKindMethods:  methodParquet,
	model.RunKindHeap:     heapLogParquet,
	model.RunKindHeapDump: dumpParquet,
	model.RunKindSamples:  sampleParquet,
}

// run writes one run's files: its row of runs and its kind's tables.
func (x *parquetExport) run(ctx context.Context, r model.RunInfo) error {
	kind, ok := parquetKinds[r.Kind]
	if !ok {
		return fmt.Errorf("it is %s: this androprof cannot read it", model.RunKindText(r.Kind))
	}
	h := pqexport.NewHead(r.Name, string(r.Kind))
	rf := x.dir.BeginRun(string(r.Kind), r.Name)
	row := pqexport.RunRow{Head: h, Source: r.Source, ImportedAt: r.CreatedAt}
	if r.Kind == model.RunKindEmulator {
		row.Processes, row.Blocks, row.Instructions = ptr(int64(r.Processes)), ptr(int64(r.Blocks)), ptr(r.Instructions)
	}
	if err := pqexport.NewPart[pqexport.RunRow](rf, pqexport.TableRuns).Add(row); err != nil {
		rf.Abort()
		return err
	}
	if err := kind(ctx, x, rf, h); err != nil {
		rf.Abort()
		return err
	}
	return rf.Commit()
}

// rows counts the rows written so far.
func (x *parquetExport) rows() int64 {
	var n int64
	for _, v := range x.dir.Rows {
		n += v
	}
	return n
}

func (x *parquetExport) summary(runs int) ParquetSummary {
	rows := maps.Clone(x.dir.Rows)
	for _, t := range pqexport.Tables() {
		if _, ok := rows[t.Name]; !ok {
			rows[t.Name] = 0 // every table is said, with no rows too
		}
	}
	return ParquetSummary{Out: x.dir.Root, Runs: runs, Files: x.dir.Files, Rows: rows, Bytes: x.dir.Bytes}
}

// ptr is v's address, for a column that is NULL where a value is unknown.
func ptr[T any](v T) *T { return &v }
