package controller

import (
	"context"
	"errors"
	"runtime"
	"runtime/debug"
	"runtime/pprof"
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
	b := newBatch(units, opts.Progress, res.Jobs, res.Jobs > 1)
	defer batchGC()()
	if c, ok := im.store.(asideCheckpointer); ok && res.Jobs > 1 { // one job keeps to one core
		defer c.CheckpointAside(ctx)()
	}
	unwatch := context.AfterFunc(ctx, b.wake) // waiters for room see the cancellation
	defer unwatch()
	var wg sync.WaitGroup
	// The label tells the writer's CPU in a profile (pprof -tagfocus=batch=writer): the bound.
	wg.Go(func() { pprof.Do(ctx, pprof.Labels("batch", "writer"), b.write) })
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
	for _, i := range b.rooms[aheadLane].order { // each waits for its room, in path order
		wg.Go(func() { b.finish(i, im.importUnit(ctx, b, i, true)) })
	}
feed:
	for i := range units {
		if b.lane[i] == aheadLane {
			continue
		}
		select {
		case next <- i:
		case <-ctx.Done():
			break feed
		}
	}
	close(next)
	wg.Wait()
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
	defer b.written(i)
	if u.err != nil {
		return u.err
	}
	jobs := b.jobs[b.lane[i]]
	select {
	case jobs <- struct{}{}:
	case <-ctx.Done():
		return ctx.Err()
	}
	b.reading(i, true)
	var read sync.Once
	doneReading := func() { read.Do(func() { b.reading(i, false); <-jobs }) }
	defer doneReading()
	im.store = &turnStore{WorkspaceStore: im.store, ctx: ctx, writes: b.writes[i], record: parallel, read: doneReading}
	return im.ImportFiles(ctx, u.run, u.files, func(done, _ int64) { b.read(ctx, i, done, parallel) })
}

// batchGC lets the collector run less often during a batch until the function it returns is
// called: reading is mostly short-lived garbage, and the one writer, every batch's bottleneck,
// paid for the collections (two jobs on the 1,000-run set: 43.6 s at the default, 37.3 s at
// 400 %). A soft limit keeps the heap from growing past what a batch of big files needs: the
// dumps read ahead are long-lived, and at 400 % the 1,000-run set's peak was 850 MB with a
// 1 GiB limit, 560 MB with 512 MiB, in the same time.
func batchGC() (restore func()) {
	percent := debug.SetGCPercent(batchGCPercent)
	limit := debug.SetMemoryLimit(-1)
	debug.SetMemoryLimit(min(limit, batchMemoryLimit))
	return func() {
		debug.SetGCPercent(percent)
		debug.SetMemoryLimit(limit)
	}
}

const (
	batchGCPercent   = 400
	batchMemoryLimit = 512 << 20
)

// asideCheckpointer is a store that copies its WAL into the database on a connection of its own
// (store.DB): the batch's one writer then only writes.
type asideCheckpointer interface {
	CheckpointAside(context.Context) (stop func())
}

// lookahead is how many files per job may wait, read, for their turn to write.
const lookahead = 2

// pendingBytes bounds what the files read but not yet written may hold (their size on disk,
// passes included), so a batch of big dumps does not keep many in memory at once.
const pendingBytes = 512 << 20

// Read ahead: with more than one job, heap dumps are read as soon as there is room for them,
// however far their turn is, by readers of their own (aheadLane). Reading a dump (its object
// graph, dominators and retained sizes) costs three times writing it, so a set's dumps read in
// their turn left the writer waiting: the 1,000-run set's 75 dumps, last in path order, took
// its last 10 s, the writer idle half of it. Read ahead, they take the cores the writer, the
// bound until then, leaves: a reader ahead goes on only while fewer readers of earlier files
// are reading than there are jobs (mayRead). A dump read ahead holds about 1.2 times its size
// on disk until its turn, so what the dumps ahead hold is bounded on its own (aheadBytes).
const (
	pathLane  = 0
	aheadLane = 1
)

// aheadBytes bounds what the files read ahead hold, read or being read (their size on disk,
// passes included): about 14 of the run set's compressed dumps.
const aheadBytes = 96 << 20

// readsAhead says whether unit u is read ahead of its turn: a dump small enough that eight fit
// in the room. A bigger one is read in its turn, where the room is larger (pendingBytes), so a
// batch of big dumps still reads as many at once as before.
func readsAhead(u batchUnit, parallel bool) bool {
	return parallel && u.kind == model.RunKindHeapDump && u.err == nil && u.size <= aheadBytes/8
}

// room lets a lane's files in to be read, in path order, while what they hold (read or being
// read, until written) stays within limit: a later file never takes the room an earlier one,
// whose turn comes first, waits for. The lanes' rooms are apart, so a file read ahead never
// keeps one in its turn waiting.
type room struct {
	order   []int // the lane's units, in path order
	next    int   // order[next] is the next let in
	pending int64
	limit   int64
}

// startReading waits for room among the files of unit i's lane read but not yet written.
func (b *batch) startReading(ctx context.Context, i int) error {
	size := b.units[i].size
	b.mu.Lock()
	defer b.mu.Unlock()
	r := &b.rooms[b.lane[i]]
	for r.order[r.next] != i || (r.pending > 0 && r.pending+size > r.limit) {
		if err := ctx.Err(); err != nil {
			return err
		}
		b.room.Wait()
	}
	r.pending += size
	r.next++
	b.room.Broadcast()
	return nil
}

// wake tells those waiting for room to look again.
func (b *batch) wake() {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.room.Broadcast()
}

// written makes room for other files once unit i is written (or failed).
func (b *batch) written(i int) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.rooms[b.lane[i]].pending -= b.units[i].size
	b.room.Broadcast()
}

// turnStore is the workspace for one run of a batch: its writes are handed to the batch's
// writer, which writes the runs one at a time, in order, while others are read.
type turnStore struct {
	WorkspaceStore
	ctx    context.Context
	writes chan<- writeRequest
	record bool   // emulator runs: read the blocks before the turn
	read   func() // called once the file is read, before its write is handed over
	wrote  bool
}

type writeRequest struct {
	write func() error
	done  chan error
}

// write frees the file's job (another file is read meanwhile) and has the batch's writer
// write, in the run's turn.
func (s *turnStore) write(write func() error) error {
	if s.wrote {
		return errors.New("a batch import's run is written once") // the writer has gone on
	}
	s.wrote = true
	s.read()
	req := writeRequest{write, make(chan error, 1)}
	select {
	case s.writes <- req:
		return <-req.done // taken: the writer answers, even when cancelled
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
	return s.write(func() error { return s.WorkspaceStore.ImportRun(ctx, name, source, feed) })
}

func (s *turnStore) ImportMethodRun(ctx context.Context, name, source string, t *calls.MethodTrace) error {
	return s.write(func() error { return s.WorkspaceStore.ImportMethodRun(ctx, name, source, t) })
}

func (s *turnStore) ImportHeapRun(ctx context.Context, name, source string, p *heap.HeapProfile) error {
	return s.write(func() error { return s.WorkspaceStore.ImportHeapRun(ctx, name, source, p) })
}

func (s *turnStore) ImportDumpRun(ctx context.Context, name, source string, d *heap.HeapDump) error {
	return s.write(func() error { return s.WorkspaceStore.ImportDumpRun(ctx, name, source, d) })
}

func (s *turnStore) ImportSampleRun(ctx context.Context, name, source string, p *samples.SampleProfile) error {
	return s.write(func() error { return s.WorkspaceStore.ImportSampleRun(ctx, name, source, p) })
}

// batch is the shared state of a batch import: whose turn it is to write, what was read, and
// how each unit ended.
type batch struct {
	units    []batchUnit
	writes   []chan writeRequest // unit i's write; closed when the unit is done
	lane     []int               // unit i's: pathLane or aheadLane
	jobs     [2]chan struct{}    // a lane's token for each of its files being read
	progress func(BatchProgress)

	mu        sync.Mutex
	room      *sync.Cond   // signalled when files read are written, and when the writer stops
	rooms     [2]room      // each lane's
	readers   map[int]bool // the units being read and not paused
	busy      bool         // a run is being written
	readBytes []int64
	errs      []error
	ended     []bool
	p         BatchProgress
}

func newBatch(units []batchUnit, progress func(BatchProgress), jobs int, parallel bool) *batch {
	b := &batch{units: units, progress: progress, writes: make([]chan writeRequest, len(units)),
		lane: make([]int, len(units)), jobs: [2]chan struct{}{make(chan struct{}, jobs), make(chan struct{}, jobs)},
		readers: map[int]bool{}, rooms: [2]room{{limit: pendingBytes}, {limit: aheadBytes}},
		readBytes: make([]int64, len(units)), errs: make([]error, len(units)), ended: make([]bool, len(units))}
	b.room = sync.NewCond(&b.mu)
	for i := range b.writes {
		b.writes[i] = make(chan writeRequest)
		if readsAhead(units[i], parallel) {
			b.lane[i] = aheadLane
		}
		b.rooms[b.lane[i]].order = append(b.rooms[b.lane[i]].order, i)
	}
	for _, u := range units {
		b.p.Files += len(u.files)
		b.p.Bytes += u.size
	}
	return b
}

// read notes that unit i has read done bytes. Read alongside others (parallel), it also pauses
// while a run is written and files before it keep the other cores busy: the writer is the
// batch's bottleneck, and a third busy thread on two cores took a fifth of its time.
func (b *batch) read(ctx context.Context, i int, done int64, parallel bool) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.p.BytesDone += done - b.readBytes[i]
	b.readBytes[i] = done
	b.say()
	if !parallel || !b.readers[i] { // a report after the reading (Finish) pauses nothing
		return
	}
	delete(b.readers, i)
	for !b.mayRead(i) && ctx.Err() == nil {
		b.room.Wait()
	}
	b.readers[i] = true
}

// mayRead says whether unit i may go on reading: the files whose turn comes first read, as
// many as there are jobs, one fewer while a run is written.
func (b *batch) mayRead(i int) bool {
	limit := cap(b.jobs[pathLane])
	if b.busy {
		limit--
	}
	earlier := 0
	for j := range b.readers {
		if j < i {
			earlier++
		}
	}
	return earlier < limit
}

// reading says unit i begins or ends reading.
func (b *batch) reading(i int, on bool) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if on {
		b.readers[i] = true
	} else {
		delete(b.readers, i)
	}
	b.room.Broadcast()
}

// write is the batch's one writer: it writes each unit's run, in path order, as they are read.
// A goroutine of its own, so a run's turn passes without waiting for a core.
// A unit writes once, so the writer goes on to the next without waiting for the unit's end.
func (b *batch) write(ctx context.Context) {
	for _, writes := range b.writes {
		select {
		case req, ok := <-writes:
			if ok {
				b.writing(true)
				req.done <- req.write()
				b.writing(false)
			}
		case <-ctx.Done():
			return
		}
	}
}

// writing says a run's write begins or ends.
func (b *batch) writing(busy bool) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.busy = busy
	b.room.Broadcast()
}

// finish notes how unit i ended: the writer goes on to the next unit.
func (b *batch) finish(i int, err error) {
	close(b.writes[i])
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
