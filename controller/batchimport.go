package controller

import (
	"context"
	"errors"
	"runtime"
	"sync"

	"androprof/model"
	"androprof/model/calls"
	"androprof/model/cost"
	"androprof/model/heap"
	"androprof/model/samples"
)

// BatchOptions say how a batch import runs.
type BatchOptions struct {
	Jobs int // files read at once; below 1: one per core
	// Progress is told how far the batch is, after each run and as files are read; never from
	// two goroutines at once.
	Progress func(BatchProgress)
}

// BatchProgress is how far a batch import is.
type BatchProgress struct {
	Files, FilesDone int   // files in runs to import, and of them read and written or failed
	Bytes, BytesDone int64 // what the files hold (times the passes over them) and read so far
	Runs, Failures   int   // runs stored, runs failed
}

// BatchResult is what a batch import did: every unit is in Runs or Failures, unless cancelled.
type BatchResult struct {
	Runs     []BatchRun
	Failures []BatchFailure
	Skipped  []BatchSkip
	Jobs     int
}

// BatchRun is a run a batch import stored.
type BatchRun struct {
	Run   string
	Kind  model.RunKind
	Files []string
}

// BatchFailure is a run a batch import could not store: the workspace has nothing of it.
type BatchFailure struct {
	Run   string
	Files []string
	Err   error
}

// ImportBatch imports many files, each a run of its own (a folder's QEMU logs together), jobs
// of them read at once while one at a time is written, each in its own transaction: a bad
// file fails alone and the rest are kept. Runs are written in path order whatever finishes
// reading first, so the workspace is the same for any number of jobs. Cancelling ctx keeps the
// runs already written and stops the rest; the error is then ctx's.
func (im Importer) ImportBatch(ctx context.Context, paths []string, opts BatchOptions) (BatchResult, error) {
	res := BatchResult{Jobs: opts.Jobs}
	if res.Jobs < 1 {
		res.Jobs = runtime.NumCPU()
	}
	existing, err := im.runNames(ctx)
	if err != nil {
		return res, err
	}
	units, skipped, err := planBatch(ctx, paths, existing)
	res.Skipped = skipped
	if err != nil {
		return res, err
	}
	b := newBatch(units, opts.Progress, res.Jobs)
	unwatch := context.AfterFunc(ctx, b.wake) // waiters for room see the cancellation
	defer unwatch()
	var wg sync.WaitGroup
	next := make(chan int)
	// Besides the jobs reading, as many again wait with what they read for their turn to
	// write: a file read quickly behind a slow one does not keep a reader idle.
	workers := res.Jobs
	if res.Jobs > 1 {
		workers += res.Jobs * lookahead
	}
	for range min(workers, max(len(units), 1)) {
		wg.Go(func() {
			for i := range next {
				b.finish(i, im.importUnit(ctx, b, i, res.Jobs > 1))
			}
		})
	}
feed:
	for i := range units {
		select {
		case next <- i:
		case <-ctx.Done():
			break feed
		}
	}
	close(next)
	wg.Wait()
	close(b.stop)
	res.Runs, res.Failures = b.results()
	return res, ctx.Err()
}

// runNames are the runs the workspace holds before the batch.
func (im Importer) runNames(ctx context.Context) (map[string]bool, error) {
	runs, err := im.store.Runs(ctx)
	if err != nil {
		return nil, err
	}
	names := map[string]bool{}
	for _, r := range runs {
		names[r.Name] = true
	}
	return names, nil
}

// importUnit reads unit i and writes it when its turn comes. Read alongside others (parallel),
// an emulator run's blocks are recorded first, since the store reads them inside its
// transaction.
func (im Importer) importUnit(ctx context.Context, b *batch, i int, parallel bool) error {
	u := &b.units[i]
	if err := b.startReading(ctx, i); err != nil {
		return err
	}
	defer b.written(u.size)
	if u.err != nil {
		return u.err
	}
	select {
	case b.jobs <- struct{}{}:
	case <-ctx.Done():
		return ctx.Err()
	}
	var read sync.Once
	doneReading := func() { read.Do(func() { <-b.jobs }) }
	defer doneReading()
	im.store = &turnStore{WorkspaceStore: im.store, ctx: ctx, turn: b.turns[i], record: parallel, read: doneReading}
	return im.ImportFiles(ctx, u.run, u.files, func(done, _ int64) { b.read(i, done) })
}

// lookahead is how many files per job may wait, read, for their turn to write.
const lookahead = 2

// pendingBytes bounds what the files read but not yet written may hold (their size on disk,
// passes included), so a batch of big dumps does not keep many in memory at once.
const pendingBytes = 512 << 20

// startReading waits for room among the files read but not yet written, granted in path
// order: a later file never takes the room an earlier one, whose turn comes first, waits for.
func (b *batch) startReading(ctx context.Context, i int) error {
	size := b.units[i].size
	b.mu.Lock()
	defer b.mu.Unlock()
	for b.roomNext != i || (b.pending > 0 && b.pending+size > pendingBytes) {
		if err := ctx.Err(); err != nil {
			return err
		}
		b.room.Wait()
	}
	b.pending += size
	b.roomNext++
	b.room.Broadcast()
	return nil
}

// wake tells those waiting for room to look again.
func (b *batch) wake() {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.room.Broadcast()
}

// written makes room for other files once this one is written (or failed).
func (b *batch) written(size int64) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.pending -= size
	b.room.Broadcast()
}

// turnStore is the workspace for one run of a batch: each import waits for the run's turn to
// write, so runs are written one at a time, in order, while others are read.
type turnStore struct {
	WorkspaceStore
	ctx    context.Context
	turn   <-chan struct{}
	record bool   // emulator runs: read the blocks before the turn
	read   func() // called once the file is read, before waiting for the turn
}

// wait frees the file's job (another file is read meanwhile) and waits for its turn.
func (s *turnStore) wait() error {
	s.read()
	select {
	case <-s.turn:
		return nil
	case <-s.ctx.Done():
		return s.ctx.Err()
	}
}

func (s *turnStore) ImportRun(ctx context.Context, name, source string, feed func(cost.BlockSink) error) error {
	if s.record {
		rec := newBlockRecord()
		if err := feed(rec); err != nil {
			return err
		}
		feed = rec.replay
	}
	if err := s.wait(); err != nil {
		return err
	}
	return s.WorkspaceStore.ImportRun(ctx, name, source, feed)
}

func (s *turnStore) ImportMethodRun(ctx context.Context, name, source string, t *calls.MethodTrace) error {
	if err := s.wait(); err != nil {
		return err
	}
	return s.WorkspaceStore.ImportMethodRun(ctx, name, source, t)
}

func (s *turnStore) ImportHeapRun(ctx context.Context, name, source string, p *heap.HeapProfile) error {
	if err := s.wait(); err != nil {
		return err
	}
	return s.WorkspaceStore.ImportHeapRun(ctx, name, source, p)
}

func (s *turnStore) ImportDumpRun(ctx context.Context, name, source string, d *heap.HeapDump) error {
	if err := s.wait(); err != nil {
		return err
	}
	return s.WorkspaceStore.ImportDumpRun(ctx, name, source, d)
}

func (s *turnStore) ImportSampleRun(ctx context.Context, name, source string, p *samples.SampleProfile) error {
	if err := s.wait(); err != nil {
		return err
	}
	return s.WorkspaceStore.ImportSampleRun(ctx, name, source, p)
}

// batch is the shared state of a batch import: whose turn it is to write, what was read, and
// how each unit ended.
type batch struct {
	units    []batchUnit
	turns    []chan struct{} // turns[i] is closed when unit i may write
	jobs     chan struct{}   // a token for each file being read
	stop     chan struct{}   // closed when the batch is over: a turn that never comes (cancelled) is not waited for
	progress func(BatchProgress)

	mu        sync.Mutex
	room      *sync.Cond // signalled when files read are written
	pending   int64      // bytes of the files being read or waiting to be written
	roomNext  int        // the next unit startReading lets in
	readBytes []int64
	errs      []error
	ended     []bool
	p         BatchProgress
}

func newBatch(units []batchUnit, progress func(BatchProgress), jobs int) *batch {
	b := &batch{units: units, progress: progress, turns: make([]chan struct{}, len(units)+1), stop: make(chan struct{}),
		jobs:      make(chan struct{}, jobs),
		readBytes: make([]int64, len(units)), errs: make([]error, len(units)), ended: make([]bool, len(units))}
	b.room = sync.NewCond(&b.mu)
	for i := range b.turns {
		b.turns[i] = make(chan struct{})
	}
	if len(units) > 0 {
		close(b.turns[0])
	}
	for _, u := range units {
		b.p.Files += len(u.files)
		b.p.Bytes += u.size
	}
	return b
}

// read notes that unit i has read done bytes.
func (b *batch) read(i int, done int64) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.p.BytesDone += done - b.readBytes[i]
	b.readBytes[i] = done
	b.say()
}

// finish notes how unit i ended and passes the turn on once its own has come: a unit that
// failed before writing passes it on when the unit before it is done.
func (b *batch) finish(i int, err error) {
	go func() {
		select {
		case <-b.turns[i]:
			close(b.turns[i+1])
		case <-b.stop:
		}
	}()
	b.mu.Lock()
	defer b.mu.Unlock()
	b.errs[i], b.ended[i] = err, true
	b.p.FilesDone += len(b.units[i].files)
	b.p.BytesDone += b.units[i].size - b.readBytes[i]
	b.readBytes[i] = b.units[i].size
	if err != nil {
		b.p.Failures++
	} else {
		b.p.Runs++
	}
	b.say()
}

func (b *batch) say() {
	if b.progress != nil {
		b.progress(b.p)
	}
}

// results are the runs stored and failed, in path order; a unit never started (cancelled) is
// in neither, nor is one stopped by the cancellation.
func (b *batch) results() ([]BatchRun, []BatchFailure) {
	var runs []BatchRun
	var failed []BatchFailure
	for i, u := range b.units {
		switch err := b.errs[i]; {
		case !b.ended[i] || errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded):
		case err != nil:
			failed = append(failed, BatchFailure{Run: u.run, Files: u.files, Err: err})
		default:
			runs = append(runs, BatchRun{Run: u.run, Kind: u.kind, Files: u.files})
		}
	}
	return runs, failed
}
