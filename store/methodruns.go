package store

import (
	"cmp"
	"context"
	"database/sql"
	"errors"
	"fmt"
	"slices"
	"sort"
	"strings"

	"androprof/model"
	"androprof/model/calls"
	"androprof/model/cost"
)

// Method ids are uint64 in traces (and the synthetic "(toplevel)"/"(unknown)" use the top of the
// range); SQLite integers are signed, so they are stored as their int64 bit pattern.
func dbID(id uint64) int64   { return int64(id) }
func traceID(v int64) uint64 { return uint64(v) }

// ImportMethodRun stores a method trace as a new run of kind model.RunKindMethods, in one
// transaction: its aggregates, its spans, and every call when t.Chunks hands them.
func (db *DB) ImportMethodRun(ctx context.Context, name, source string, t *calls.MethodTrace) error {
	p := t.Profile
	return db.importTx(ctx, func(tx *writeTx) error {
		runID, err := insertRun(ctx, tx.Tx, name, source, model.RunKindMethods)
		if err != nil {
			return err
		}
		h, a := t.Header, p.Anomalies
		if _, err := tx.ExecContext(ctx, `INSERT INTO trace_info(run_id, format, version, clock, vm, pid, start_us, elapsed_us,
			span_min_us, properties, orphans, mismatched, unclosed, backwards, folded, every_call) VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)`,
			runID, h.Format, h.Version, string(p.Clock), h.VM, h.PID, int64(h.StartMicros), int64(h.ElapsedMicro),
			int64(t.SpanMinMicros), encodeProperties(h.Properties), a.Orphans, a.Mismatched, a.Unclosed, a.Backwards, a.FoldedPaths,
			t.Chunks != nil); err != nil {
			return err
		}
		w := &methodWriter{ctx: ctx, tx: tx, runID: runID, threads: map[int]int64{}, methods: map[uint64]int64{}}
		return w.write(t)
	})
}

type methodWriter struct {
	ctx     context.Context
	tx      *writeTx
	runID   int64
	threads map[int]int64    // tid → trace_thread.id
	methods map[uint64]int64 // trace id → trace_method.id
}

// exec runs one prepared statement over n rows; args gives row i's values.
func (w *methodWriter) exec(query string, n int, args func(i int) []any) error {
	return execRows(w.ctx, w.tx, query, n, args)
}

// execRows writes n rows with a one-row insert, many rows to a statement (rowInserter);
// args gives row i's values.
func execRows(ctx context.Context, tx *writeTx, insert string, n int, args func(i int) []any) error {
	r := newRowInserter(ctx, tx, insert)
	defer r.close()
	for i := range n {
		if err := r.add(args(i)...); err != nil {
			return err
		}
	}
	return r.flush()
}

func (w *methodWriter) thread(tid int) (int64, error) {
	if id, ok := w.threads[tid]; ok {
		return id, nil
	}
	res, err := w.tx.ExecContext(w.ctx, `INSERT INTO trace_thread(run_id, tid) VALUES (?, ?)`, w.runID, tid)
	if err != nil {
		return 0, err
	}
	id, _ := res.LastInsertId()
	w.threads[tid] = id
	return id, nil
}

func (w *methodWriter) write(t *calls.MethodTrace) error {
	p := t.Profile
	for _, th := range p.Threads {
		res, err := w.tx.ExecContext(w.ctx, `INSERT INTO trace_thread(run_id, tid, name, events, first_cpu, last_cpu,
			first_wall, last_wall, level1_cpu, level1_wall, max_depth) VALUES (?,?,?,?,?,?,?,?,?,?,?)`,
			w.runID, th.TID, th.Name, th.Events, int64(th.FirstCPU), int64(th.LastCPU), int64(th.FirstWall),
			int64(th.LastWall), int64(th.Level1CPU), int64(th.Level1Wall), th.MaxDepth)
		if err != nil {
			return err
		}
		w.threads[th.TID], _ = res.LastInsertId()
	}
	ids := make([]uint64, 0, len(p.Methods))
	for id := range p.Methods {
		ids = append(ids, id)
	}
	sort.Slice(ids, func(i, j int) bool { return ids[i] < ids[j] })
	st, err := w.tx.PrepareContext(w.ctx, `INSERT INTO trace_method(run_id, trace_id, class, name, signature, file, line) VALUES (?,?,?,?,?,?,?)`)
	if err != nil {
		return err
	}
	defer st.Close()
	for _, id := range ids {
		m := p.Methods[id]
		res, err := st.ExecContext(w.ctx, w.runID, dbID(id), m.Class, m.Name, m.Signature, m.File, m.Line)
		if err != nil {
			return err
		}
		w.methods[id], _ = res.LastInsertId()
	}
	// Threads that only appear in statistics (a reader that declares none) get a row too.
	for k := range p.PerThread {
		if _, err := w.thread(k.TID); err != nil {
			return err
		}
	}
	type statRow struct {
		k calls.ThreadMethod
		t calls.MethodTimes
	}
	var stats []statRow
	for k, mt := range p.PerThread {
		stats = append(stats, statRow{k, mt})
	}
	// Rows go in in the table's key order (insertAll says why).
	slices.SortFunc(stats, func(a, b statRow) int {
		return cmp.Or(cmp.Compare(w.threads[a.k.TID], w.threads[b.k.TID]), cmp.Compare(w.methods[a.k.Method], w.methods[b.k.Method]))
	})
	if err := w.exec(`INSERT INTO method_stat(thread_id, method_id, calls, recursive_calls, incl_cpu, excl_cpu, incl_wall, excl_wall)
		VALUES (?,?,?,?,?,?,?,?)`, len(stats), func(i int) []any {
		s := stats[i]
		return append([]any{w.threads[s.k.TID], w.methods[s.k.Method]}, timesArgs(s.t)...)
	}); err != nil {
		return err
	}
	type groupRow struct {
		kind string
		k    calls.ThreadGroup
		t    calls.MethodTimes
	}
	var groups []groupRow
	for k, mt := range p.Classes {
		groups = append(groups, groupRow{"class", k, mt})
	}
	for k, mt := range p.Packages {
		groups = append(groups, groupRow{"package", k, mt})
	}
	for _, g := range groups {
		if _, err := w.thread(g.k.TID); err != nil {
			return err
		}
	}
	slices.SortFunc(groups, func(a, b groupRow) int {
		return cmp.Or(cmp.Compare(w.threads[a.k.TID], w.threads[b.k.TID]), strings.Compare(a.kind, b.kind), strings.Compare(a.k.Name, b.k.Name))
	})
	if err := w.exec(`INSERT INTO group_stat(thread_id, kind, name, calls, recursive_calls, incl_cpu, excl_cpu, incl_wall, excl_wall)
		VALUES (?,?,?,?,?,?,?,?,?)`, len(groups), func(i int) []any {
		g := groups[i]
		return append([]any{w.threads[g.k.TID], g.kind, g.k.Name}, timesArgs(g.t)...)
	}); err != nil {
		return err
	}
	type edgeRow struct {
		k calls.CallEdge
		e calls.EdgeTimes
	}
	var edges []edgeRow
	for k, e := range p.Edges {
		edges = append(edges, edgeRow{k, e})
	}
	slices.SortFunc(edges, func(a, b edgeRow) int {
		return cmp.Or(cmp.Compare(w.threads[a.k.TID], w.threads[b.k.TID]),
			cmp.Compare(w.methods[a.k.Caller], w.methods[b.k.Caller]), cmp.Compare(w.methods[a.k.Callee], w.methods[b.k.Callee]))
	})
	if err := w.exec(`INSERT INTO call_edge(thread_id, caller_id, callee_id, calls, incl_cpu, incl_wall) VALUES (?,?,?,?,?,?)`,
		len(edges), func(i int) []any {
			e := edges[i]
			return []any{w.threads[e.k.TID], w.methods[e.k.Caller], w.methods[e.k.Callee], e.e.Calls, int64(e.e.InclusiveCPU), int64(e.e.InclusiveWall)}
		}); err != nil {
		return err
	}
	for _, c := range t.Spans {
		if _, err := w.thread(c.TID); err != nil {
			return err
		}
		if _, ok := w.methods[c.Method]; !ok {
			return fmt.Errorf("a call of method %#x, which the trace does not name", c.Method)
		}
	}
	if err := w.exec(`INSERT INTO call_span(thread_id, method_id, depth, start_wall, end_wall, start_cpu, end_cpu) VALUES (?,?,?,?,?,?,?)`,
		len(t.Spans), func(i int) []any {
			c := t.Spans[i]
			return []any{w.threads[c.TID], w.methods[c.Method], c.Depth, int64(c.StartWall), int64(c.EndWall), int64(c.StartCPU), int64(c.EndCPU)}
		}); err != nil {
		return err
	}
	if t.Chunks != nil {
		if err := w.writeChunks(t.Chunks, p.Clock.HasWall()); err != nil {
			return err
		}
	}
	return w.callTree(p.Tree)
}

// callTree stores a call tree as parent pointers: node i gets id base+i, so its parent's id is
// known without asking the database, and parents (earlier nodes) get the smaller ids.
func (w *methodWriter) callTree(tree []calls.CallNode) error {
	if err := calls.CheckCallTree(tree); err != nil {
		return err
	}
	for _, n := range tree {
		if _, err := w.thread(n.TID); err != nil {
			return err
		}
		if _, ok := w.methods[n.Method]; !ok {
			return fmt.Errorf("a call path ends in method %#x, which the trace does not name", n.Method)
		}
	}
	var base int64
	if err := w.tx.QueryRowContext(w.ctx, `SELECT coalesce(max(id), 0) + 1 FROM call_node`).Scan(&base); err != nil {
		return err
	}
	return w.exec(`INSERT INTO call_node(id, thread_id, parent, method_id, calls, excl_cpu, excl_wall) VALUES (?,?,?,?,?,?,?)`,
		len(tree), func(i int) []any {
			n := tree[i]
			var parent any // NULL: a level-1 call
			if n.Parent != calls.NoParent {
				parent = base + int64(n.Parent)
			}
			return []any{base + int64(i), w.threads[n.TID], parent, w.methods[n.Method], n.Calls, int64(n.ExclusiveCPU), int64(n.ExclusiveWall)}
		})
}

// CallTree loads a method run's aggregated call tree, in the order it was stored (by thread,
// parents first), with each node's parent as an index into the result.
func (db *DB) CallTree(ctx context.Context, run string) ([]calls.CallNode, error) {
	runID, err := db.methodRunID(ctx, run)
	if err != nil {
		return nil, err
	}
	var out []calls.CallNode
	index := map[int64]int{} // call_node.id → index in out
	err = db.each(ctx, `SELECT n.id, n.parent, t.tid, m.trace_id, n.calls, n.excl_cpu, n.excl_wall FROM call_node n
		JOIN trace_thread t ON t.id = n.thread_id JOIN trace_method m ON m.id = n.method_id
		WHERE t.run_id = ? ORDER BY t.tid, n.id`, []any{runID}, func(rows *sql.Rows) error {
		var n calls.CallNode
		var id, method, ec, ew int64
		var parent sql.NullInt64
		if err := rows.Scan(&id, &parent, &n.TID, &method, &n.Calls, &ec, &ew); err != nil {
			return err
		}
		n.Parent = calls.NoParent
		if parent.Valid {
			i, ok := index[parent.Int64]
			if !ok {
				return fmt.Errorf("call tree node %d: its parent %d is not an earlier node of the run", id, parent.Int64)
			}
			n.Parent = i
		}
		n.Method, n.ExclusiveCPU, n.ExclusiveWall = traceID(method), uint64(ec), uint64(ew)
		index[id] = len(out)
		out = append(out, n)
		return nil
	})
	if err == nil {
		err = calls.CheckCallTree(out)
	}
	return out, err
}

func timesArgs(t calls.MethodTimes) []any {
	return []any{t.Calls, t.RecursiveCalls, int64(t.InclusiveCPU), int64(t.ExclusiveCPU), int64(t.InclusiveWall), int64(t.ExclusiveWall)}
}

func encodeProperties(m map[string]string) string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	var b strings.Builder
	for _, k := range keys {
		b.WriteString(k + "=" + strings.ReplaceAll(m[k], "\n", " ") + "\n")
	}
	return b.String()
}

func decodeProperties(s string) map[string]string {
	out := map[string]string{}
	for _, line := range strings.Split(s, "\n") {
		if k, v, ok := strings.Cut(line, "="); ok {
			out[k] = v
		}
	}
	return out
}

func (db *DB) methodRunID(ctx context.Context, run string) (int64, error) {
	return db.runIDOfKind(ctx, run, model.RunKindMethods)
}

// runIDOfKind finds a run, saying so when it is of another kind than the caller reads.
func (db *DB) runIDOfKind(ctx context.Context, run string, want model.RunKind) (int64, error) {
	var id int64
	var kind model.RunKind
	err := db.read.QueryRowContext(ctx, `SELECT id, kind FROM run WHERE name = ?`, run).Scan(&id, &kind)
	if errors.Is(err, sql.ErrNoRows) {
		return 0, fmt.Errorf("run %q: %w", run, cost.ErrNotFound)
	}
	if err == nil && kind != want {
		err = fmt.Errorf("run %q is %s, not %s", run, model.RunKindText(kind), model.RunKindText(want))
	}
	return id, err
}

// insertRun adds the run row of an import; runs are never merged, so a taken name is an error.
func insertRun(ctx context.Context, tx *sql.Tx, name, source string, kind model.RunKind) (int64, error) {
	if err := model.CheckRunName(name); err != nil {
		return 0, err
	}
	res, err := tx.ExecContext(ctx, `INSERT INTO run(name, source, kind) VALUES (?, ?, ?)`, name, source, kind)
	if err != nil {
		if isUniqueViolation(err) {
			return 0, fmt.Errorf("a run named %q exists already: %s is imported into a new run", name, model.RunKindText(kind))
		}
		return 0, err
	}
	return res.LastInsertId()
}

// MethodTrace loads a method run's header and aggregates: what the profile table needs. Edges,
// spans and the call tree are read on demand (CallEdges, CallSpans, CallTree).
func (db *DB) MethodTrace(ctx context.Context, run string) (*calls.MethodTrace, error) {
	runID, err := db.methodRunID(ctx, run)
	if err != nil {
		return nil, err
	}
	t := &calls.MethodTrace{Profile: &calls.CallProfile{Methods: map[uint64]calls.MethodInfo{},
		PerThread: map[calls.ThreadMethod]calls.MethodTimes{}, Classes: map[calls.ThreadGroup]calls.MethodTimes{},
		Packages: map[calls.ThreadGroup]calls.MethodTimes{}, Edges: map[calls.CallEdge]calls.EdgeTimes{}}}
	p, h := t.Profile, &t.Header
	var start, elapsed, spanMin int64
	var props, clock string
	if err := db.read.QueryRowContext(ctx, `SELECT format, version, clock, vm, pid, start_us, elapsed_us, span_min_us, properties,
		orphans, mismatched, unclosed, backwards, folded FROM trace_info WHERE run_id = ?`, runID).Scan(&h.Format, &h.Version, &clock, &h.VM,
		&h.PID, &start, &elapsed, &spanMin, &props, &p.Anomalies.Orphans, &p.Anomalies.Mismatched, &p.Anomalies.Unclosed,
		&p.Anomalies.Backwards, &p.Anomalies.FoldedPaths); err != nil {
		return nil, err
	}
	h.Clock, p.Clock = calls.Clock(clock), calls.Clock(clock)
	h.StartMicros, h.ElapsedMicro, t.SpanMinMicros, h.Properties = uint64(start), uint64(elapsed), uint64(spanMin), decodeProperties(props)

	tids := map[int64]int{}
	if err := db.each(ctx, `SELECT id, tid, name, events, first_cpu, last_cpu, first_wall, last_wall, level1_cpu, level1_wall, max_depth
		FROM trace_thread WHERE run_id = ? ORDER BY tid`, []any{runID}, func(rows *sql.Rows) error {
		var id int64
		var th calls.ThreadTimes
		var fc, lc, fw, lw, l1c, l1w int64
		if err := rows.Scan(&id, &th.TID, &th.Name, &th.Events, &fc, &lc, &fw, &lw, &l1c, &l1w, &th.MaxDepth); err != nil {
			return err
		}
		th.FirstCPU, th.LastCPU, th.FirstWall, th.LastWall = uint64(fc), uint64(lc), uint64(fw), uint64(lw)
		th.Level1CPU, th.Level1Wall = uint64(l1c), uint64(l1w)
		tids[id] = th.TID
		p.Threads = append(p.Threads, th)
		return nil
	}); err != nil {
		return nil, err
	}
	methods := map[int64]uint64{}
	if err := db.each(ctx, `SELECT id, trace_id, class, name, signature, file, line FROM trace_method WHERE run_id = ?`, []any{runID},
		func(rows *sql.Rows) error {
			var id, tid int64
			var m calls.MethodInfo
			if err := rows.Scan(&id, &tid, &m.Class, &m.Name, &m.Signature, &m.File, &m.Line); err != nil {
				return err
			}
			m.ID = traceID(tid)
			methods[id] = m.ID
			p.Methods[m.ID] = m
			return nil
		}); err != nil {
		return nil, err
	}
	if err := db.each(ctx, `SELECT s.thread_id, s.method_id, s.calls, s.recursive_calls, s.incl_cpu, s.excl_cpu, s.incl_wall, s.excl_wall
		FROM method_stat s JOIN trace_thread t ON t.id = s.thread_id WHERE t.run_id = ?`, []any{runID}, func(rows *sql.Rows) error {
		var th, m int64
		mt, err := scanTimes(rows, &th, &m)
		if err != nil {
			return err
		}
		p.PerThread[calls.ThreadMethod{TID: tids[th], Method: methods[m]}] = mt
		return nil
	}); err != nil {
		return nil, err
	}
	if err := db.each(ctx, `SELECT g.thread_id, g.kind, g.name, g.calls, g.recursive_calls, g.incl_cpu, g.excl_cpu, g.incl_wall, g.excl_wall
		FROM group_stat g JOIN trace_thread t ON t.id = g.thread_id WHERE t.run_id = ?`, []any{runID}, func(rows *sql.Rows) error {
		var th int64
		var kind, name string
		mt, err := scanTimes(rows, &th, &kind, &name)
		if err != nil {
			return err
		}
		target := p.Classes
		if kind == "package" {
			target = p.Packages
		}
		target[calls.ThreadGroup{TID: tids[th], Name: name}] = mt
		return nil
	}); err != nil {
		return nil, err
	}
	return t, nil
}

// CallEdges loads a method run's caller→callee edges (Traceview's parents and children). They
// are read apart from MethodTrace because the profile table does not need them, and a trace
// can have many.
func (db *DB) CallEdges(ctx context.Context, run string) (map[calls.CallEdge]calls.EdgeTimes, error) {
	runID, err := db.methodRunID(ctx, run)
	if err != nil {
		return nil, err
	}
	out := map[calls.CallEdge]calls.EdgeTimes{}
	err = db.each(ctx, `SELECT t.tid, mc.trace_id, me.trace_id, e.calls, e.incl_cpu, e.incl_wall
		FROM call_edge e JOIN trace_thread t ON t.id = e.thread_id
		JOIN trace_method mc ON mc.id = e.caller_id JOIN trace_method me ON me.id = e.callee_id
		WHERE t.run_id = ?`, []any{runID}, func(rows *sql.Rows) error {
		var tid int
		var caller, callee, ic, iw int64
		var e calls.EdgeTimes
		if err := rows.Scan(&tid, &caller, &callee, &e.Calls, &ic, &iw); err != nil {
			return err
		}
		e.InclusiveCPU, e.InclusiveWall = uint64(ic), uint64(iw)
		out[calls.CallEdge{TID: tid, Caller: traceID(caller), Callee: traceID(callee)}] = e
		return nil
	})
	return out, err
}

// scanTimes scans the leading columns into keys, then the six MethodTimes columns.
func scanTimes(rows *sql.Rows, keys ...any) (calls.MethodTimes, error) {
	var mt calls.MethodTimes
	var ic, ec, iw, ew int64
	if err := rows.Scan(append(keys, &mt.Calls, &mt.RecursiveCalls, &ic, &ec, &iw, &ew)...); err != nil {
		return mt, err
	}
	mt.InclusiveCPU, mt.ExclusiveCPU, mt.InclusiveWall, mt.ExclusiveWall = uint64(ic), uint64(ec), uint64(iw), uint64(ew)
	return mt, nil
}

// each runs a query on the reader pool and calls fn for every row.
func (db *DB) each(ctx context.Context, query string, args []any, fn func(*sql.Rows) error) error {
	rows, err := db.read.QueryContext(ctx, query, args...)
	if err != nil {
		return err
	}
	defer rows.Close()
	for rows.Next() {
		if err := fn(rows); err != nil {
			return err
		}
	}
	return rows.Err()
}

// CallSpans lists one thread's stored calls overlapping [from, to), by start: on the wall clock,
// or on the thread-CPU clock for traces that have no wall clock. to = 0 means no upper bound;
// limit ≤ 0 means no limit.
func (db *DB) CallSpans(ctx context.Context, run string, tid int, from, to uint64, limit int) ([]calls.Call, error) {
	runID, err := db.methodRunID(ctx, run)
	if err != nil {
		return nil, err
	}
	var clock string
	if err := db.read.QueryRowContext(ctx, `SELECT clock FROM trace_info WHERE run_id = ?`, runID).Scan(&clock); err != nil {
		return nil, err
	}
	start, end := "s.start_wall", "s.end_wall"
	if !calls.Clock(clock).HasWall() {
		start, end = "s.start_cpu", "s.end_cpu"
	}
	upper := int64(to)
	if to == 0 || upper < 0 {
		upper = 1<<63 - 1
	}
	if limit <= 0 {
		limit = -1
	}
	var out []calls.Call
	err = db.each(ctx, `SELECT m.trace_id, s.depth, s.start_wall, s.end_wall, s.start_cpu, s.end_cpu
		FROM call_span s JOIN trace_thread t ON t.id = s.thread_id JOIN trace_method m ON m.id = s.method_id
		WHERE t.run_id = ? AND t.tid = ? AND `+start+` < ? AND `+end+` > ? ORDER BY `+start+` LIMIT ?`,
		[]any{runID, tid, upper, int64(from), limit}, func(rows *sql.Rows) error {
			var m, sw, ew, sc, ec int64
			c := calls.Call{TID: tid}
			if err := rows.Scan(&m, &c.Depth, &sw, &ew, &sc, &ec); err != nil {
				return err
			}
			c.Method, c.StartWall, c.EndWall, c.StartCPU, c.EndCPU = traceID(m), uint64(sw), uint64(ew), uint64(sc), uint64(ec)
			out = append(out, c)
			return nil
		})
	return out, err
}
