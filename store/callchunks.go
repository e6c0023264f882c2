package store

import (
	"context"
	"database/sql"
	"fmt"
	"slices"

	"androprof/model/calls"
)

// timelineDecodeBudget is how many calls a timeline window may decode to find out whether it
// holds at most its limit, or to pick its longest: past it, the window is wide and the run's
// longest calls (call_span) stand for it. About 50 ms of decoding on the development machine.
const timelineDecodeBudget = 1 << 20

// writeChunks copies an import's chunks into call_chunk, bounded on the run's timeline clock.
func (w *methodWriter) writeChunks(src calls.ChunkSource, wall bool) error {
	st, err := w.tx.PrepareContext(w.ctx, `INSERT INTO call_chunk(thread_id, seq, n_calls, min_start, max_end, data) VALUES (?,?,?,?,?,?)`)
	if err != nil {
		return err
	}
	defer st.Close()
	// A trace without a call has no methods: an empty blob, never NULL (the column is NOT NULL).
	if _, err := w.tx.ExecContext(w.ctx, `UPDATE trace_info SET call_methods = ? WHERE run_id = ?`,
		calls.AppendMethods([]byte{}, src.Methods()), w.runID); err != nil {
		return err
	}
	return src.EachChunk(func(c calls.CallChunk) error {
		if err := w.ctx.Err(); err != nil {
			return err
		}
		th, err := w.thread(c.TID)
		if err != nil {
			return err
		}
		lo, hi := c.MinStartCPU, c.MaxEndCPU
		if wall {
			lo, hi = c.MinStartWall, c.MaxEndWall
		}
		_, err = st.ExecContext(w.ctx, th, c.Seq, c.Calls, clampInt(lo), clampInt(hi), c.Data)
		return err
	})
}

// clampInt stores a time as SQLite's signed integer; times past 2⁶³ µs are no real clock's.
func clampInt(v uint64) int64 { return int64(min(v, 1<<63-1)) }

// callRun is what reading a method run's calls needs of it.
type callRun struct {
	name     string
	id       int64
	wall     bool // the timeline clock is the wall clock
	every    bool // call_chunk holds every call
	spanMin  uint64
	methods  []uint64      // what the chunks index
	threadBy map[int]int64 // tid → trace_thread.id, of the threads asked for
	tids     []int         // the threads asked for, by id
}

// callRun reads what reading calls needs of a run, for one thread or every thread (tid 0).
func (db *DB) callRun(ctx context.Context, run string, tid int) (*callRun, error) {
	id, err := db.methodRunID(ctx, run)
	if err != nil {
		return nil, err
	}
	r := &callRun{name: run, id: id, threadBy: map[int]int64{}}
	var clock string
	var spanMin int64
	var methods []byte
	if err := db.read.QueryRowContext(ctx, `SELECT clock, every_call, span_min_us, call_methods FROM trace_info WHERE run_id = ?`, id).
		Scan(&clock, &r.every, &spanMin, &methods); err != nil {
		return nil, fmt.Errorf("run %q: %w", run, err)
	}
	if r.methods, err = calls.ParseMethods(methods); err != nil {
		return nil, fmt.Errorf("run %q: the methods its calls name: %w", run, err)
	}
	r.wall, r.spanMin = calls.Clock(clock).HasWall(), uint64(spanMin)
	query, args := `SELECT id, tid FROM trace_thread WHERE run_id = ? ORDER BY tid`, []any{id}
	if tid != 0 {
		query, args = `SELECT id, tid FROM trace_thread WHERE run_id = ? AND tid = ?`, []any{id, tid}
	}
	err = db.each(ctx, query, args, func(rows *sql.Rows) error {
		var th int64
		var tid int
		if err := rows.Scan(&th, &tid); err != nil {
			return err
		}
		r.threadBy[tid] = th
		r.tids = append(r.tids, tid)
		return nil
	})
	return r, err
}

// threads is tid, or every thread of the run by id when tid is 0: for the spans, which a
// thread the run lacks simply does not have.
func (r *callRun) threads(tid int) []int {
	if tid == 0 {
		return r.tids
	}
	return []int{tid}
}

// chunkRef is one chunk of call_chunk without its data.
type chunkRef struct {
	id       int64
	tid, seq int
	n        int
}

// window is [from, to) on the timeline clock, to = 0 meaning no bound. A call overlaps it when
// it starts before to and ends at or after from (a call of no length at from is in it).
type window struct{ from, to uint64 }

// lastStart is the latest start, as stored (clampInt), of a chunk that may overlap w.
func (w window) lastStart() int64 {
	if w.to == 0 || w.to > 1<<63-1 {
		return 1<<63 - 1
	}
	return int64(w.to) - 1
}

func (w window) holds(c calls.Call, wall bool) bool {
	start, end := c.StartCPU, c.EndCPU
	if wall {
		start, end = c.StartWall, c.EndWall
	}
	return (w.to == 0 || start < w.to) && end >= w.from
}

// chunks lists the chunks of the threads that may hold calls overlapping w, by thread and seq.
func (db *DB) chunks(ctx context.Context, r *callRun, tid int, w window) ([]chunkRef, error) {
	var out []chunkRef
	for _, t := range r.threads(tid) {
		th, ok := r.threadBy[t]
		if !ok {
			continue
		}
		first := len(out)
		err := db.each(ctx, `SELECT id, seq, n_calls FROM call_chunk WHERE thread_id = ? AND max_end >= ? AND min_start <= ?`,
			[]any{th, clampInt(w.from), w.lastStart()}, func(rows *sql.Rows) error {
				c := chunkRef{tid: t}
				if err := rows.Scan(&c.id, &c.seq, &c.n); err != nil {
					return err
				}
				out = append(out, c)
				return nil
			})
		if err != nil {
			return nil, err
		}
		slices.SortFunc(out[first:], func(a, b chunkRef) int { return a.seq - b.seq })
	}
	return out, nil
}

// eachInChunks decodes chunks in order and hands fn their calls that overlap w.
func (db *DB) eachInChunks(ctx context.Context, r *callRun, refs []chunkRef, w window, fn func(calls.Call) error) error {
	st, err := db.read.PrepareContext(ctx, `SELECT data FROM call_chunk WHERE id = ?`)
	if err != nil {
		return err
	}
	defer st.Close()
	var data []byte
	for _, c := range refs {
		if err := st.QueryRowContext(ctx, c.id).Scan(&data); err != nil {
			return fmt.Errorf("run %q, thread %d, chunk %d of its calls: %w", r.name, c.tid, c.seq, err)
		}
		var stop error // fn's error, returned as it is
		err := calls.DecodeChunk(data, c.tid, c.n, r.methods, func(call calls.Call) error {
			if !w.holds(call, r.wall) {
				return nil
			}
			stop = fn(call)
			return stop
		})
		if stop != nil {
			return stop
		}
		if err != nil {
			return &calls.ChunkError{Run: r.name, TID: c.tid, Seq: c.seq, Msg: err.Error()}
		}
	}
	return nil
}

// EachCall hands fn every call of one thread (tid 0: every thread, by id) that overlaps
// [from, to) on the run's timeline clock (wall, else thread-CPU; to = 0: no bound), each
// thread's in the order they ended (a callee before its caller). A run imported before every
// call was kept hands its longest calls (call_span), by thread and start, then returns an
// error wrapping calls.ErrOnlySpans.
func (db *DB) EachCall(ctx context.Context, run string, tid int, from, to uint64, fn func(calls.Call) error) error {
	r, err := db.callRun(ctx, run, tid)
	if err != nil {
		return err
	}
	w := window{from, to}
	if !r.every {
		for _, t := range r.threads(tid) {
			cs, err := db.spans(ctx, r, t, w)
			if err != nil {
				return err
			}
			for _, c := range cs {
				if err := fn(c); err != nil {
					return err
				}
			}
		}
		return fmt.Errorf("run %q: %w", run, calls.ErrOnlySpans)
	}
	refs, err := db.chunks(ctx, r, tid, w)
	if err != nil {
		return err
	}
	return db.eachInChunks(ctx, r, refs, w, fn)
}

// spans lists one thread's call_span rows overlapping w, by start.
func (db *DB) spans(ctx context.Context, r *callRun, tid int, w window) ([]calls.Call, error) {
	return db.CallSpans(ctx, r.name, tid, w.from, w.to, 0)
}

// Timeline reads what a timeline draws of [from, to) (timeline clock; to = 0: no bound) for one
// thread, or every thread (tid 0): every call when the window holds at most limit (limit ≤ 0:
// no limit), else the limit's longest. The chunk index bounds the work: a window decodes only
// the chunks that overlap it, and one whose chunks hold more than timelineDecodeBudget calls
// shows the longest of the run's spans in it.
func (db *DB) Timeline(ctx context.Context, run string, tid int, from, to uint64, limit int) (calls.TimelineWindow, error) {
	r, err := db.callRun(ctx, run, tid)
	if err != nil {
		return calls.TimelineWindow{}, err
	}
	w := window{from, to}
	if !r.every {
		tw, err := db.spanWindow(ctx, r, tid, w, limit)
		tw.OnlySpans = true
		return tw, err
	}
	refs, err := db.chunks(ctx, r, tid, w)
	if err != nil {
		return calls.TimelineWindow{}, err
	}
	n := 0
	for _, c := range refs {
		n += c.n
	}
	if limit > 0 && n > max(limit, timelineDecodeBudget) {
		return db.spanWindow(ctx, r, tid, w, limit)
	}
	k := &calls.WindowKeeper{Limit: limit}
	if err := db.eachInChunks(ctx, r, refs, w, func(c calls.Call) error {
		k.Add(c)
		return nil
	}); err != nil {
		return calls.TimelineWindow{}, err
	}
	return k.Window(r.wall), nil
}

// spanWindow is a timeline window from the run's spans alone: the longest calls of the run.
func (db *DB) spanWindow(ctx context.Context, r *callRun, tid int, w window, limit int) (calls.TimelineWindow, error) {
	k := &calls.WindowKeeper{Limit: limit, Min: r.spanMin}
	for _, t := range r.threads(tid) {
		cs, err := db.spans(ctx, r, t, w)
		if err != nil {
			return calls.TimelineWindow{}, err
		}
		for _, c := range cs {
			k.Add(c)
		}
	}
	tw := k.Window(r.wall)
	tw.Every = false // spans leave out calls of no length, and shorter ones when the run had many
	return tw, nil
}
