package store

import (
	"context"
	"database/sql"
	"fmt"
	"path/filepath"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"testing"

	"androprof/model"
	"androprof/model/calls"
)

// callTreeFixture is a small trace whose call tree has what the migration to parent pointers
// must get right: recursion (RecursiveEdges), two threads, an orphan, an undeclared method
// ((unknown), the top of the id range), and ids whose hex spellings differ in length, so that
// the old paths sort as strings ("10/8" before "1000").
func callTreeFixture(t *testing.T) *calls.CallProfile {
	t.Helper()
	b := calls.NewCallBuilder()
	b.Header(calls.TraceHeader{Clock: calls.ClockDual})
	for _, id := range []uint64{0x8, 0x10, 0x1000, 0xabc0} {
		b.Method(calls.MethodInfo{ID: id, Class: "C", Name: fmt.Sprintf("m%x", id)})
	}
	var clock uint64
	ev := func(tid int, m uint64, a calls.MethodAction) {
		clock += 3
		if err := b.Event(calls.MethodEvent{TID: tid, Method: m, Action: a, ThreadCPU: clock, Wall: 2 * clock}); err != nil {
			t.Fatal(err)
		}
	}
	call := func(tid int, ms ...uint64) { // nested calls, then their exits
		for _, m := range ms {
			ev(tid, m, calls.Enter)
		}
		for i := len(ms) - 1; i >= 0; i-- {
			ev(tid, ms[i], calls.Exit)
		}
	}
	call(1, 0x10, 0x8, 0x10, 0x8, 0x1000)
	call(1, 0x10, 0x1000, 0xabc0, 0x1000)
	call(1, 0x1000, 0x10, 0x777) // 0x777 is never declared: (unknown)
	call(1, 0x10, 0x8, 0x10)
	ev(2, 0xabc0, calls.Exit) // an orphan
	call(2, 0xabc0, 0xabc0, 0xabc0)
	return b.Finish()
}

// oldPathKey is how schema 7 (migration 003) stored a call path: hex ids, root first, '/'-joined.
func oldPathKey(path []uint64) string {
	parts := make([]string, len(path))
	for i, id := range path {
		parts[i] = strconv.FormatUint(id, 16)
	}
	return strings.Join(parts, "/")
}

// writeOldWorkspace makes a workspace of schema 7, as androprof wrote it before call trees were
// parent pointers, holding p's call tree as run "old" with whole paths.
func writeOldWorkspace(t *testing.T, path string, p *calls.CallProfile) {
	t.Helper()
	raw := openAtVersion(t, path, 7)
	defer raw.Close()
	exec := func(q string, args ...any) int64 {
		t.Helper()
		res, err := raw.Exec(q, args...)
		if err != nil {
			t.Fatalf("%s: %v", q, err)
		}
		id, _ := res.LastInsertId()
		return id
	}
	run := exec(`INSERT INTO run(name, source, kind) VALUES ('old', 'fixture', ?)`, model.RunKindMethods)
	exec(`INSERT INTO trace_info(run_id, format, version, clock) VALUES (?, 'traceview', 3, 'dual')`, run)
	threads, methods := map[int]int64{}, map[uint64]int64{}
	for _, th := range p.Threads {
		threads[th.TID] = exec(`INSERT INTO trace_thread(run_id, tid) VALUES (?, ?)`, run, th.TID)
	}
	for id, m := range p.Methods {
		methods[id] = exec(`INSERT INTO trace_method(run_id, trace_id, class, name) VALUES (?, ?, ?, ?)`, run, dbID(id), m.Class, m.Name)
	}
	for i, n := range p.Tree {
		path := calls.CallPath(p.Tree, i)
		exec(`INSERT INTO call_node(thread_id, path, method_id, depth, calls, excl_cpu, excl_wall) VALUES (?,?,?,?,?,?,?)`,
			threads[n.TID], oldPathKey(path), methods[n.Method], len(path)-1, n.Calls, int64(n.ExclusiveCPU), int64(n.ExclusiveWall))
	}
}

// pathRow is a call-tree node as the old schema read it back.
type pathRow struct {
	TID       int
	Path      string
	Calls     int64
	CPU, Wall uint64
	Last      uint64
}

// pathRows lists a tree's nodes with their whole paths, in the old schema's reading order
// (thread, then path as a string).
func pathRows(tree []calls.CallNode, ordered bool) []pathRow {
	var out []pathRow
	for i, n := range tree {
		out = append(out, pathRow{TID: n.TID, Path: oldPathKey(calls.CallPath(tree, i)), Calls: n.Calls,
			CPU: n.ExclusiveCPU, Wall: n.ExclusiveWall, Last: n.Method})
	}
	if !ordered {
		slices.SortFunc(out, func(a, b pathRow) int {
			if a.TID != b.TID {
				return a.TID - b.TID
			}
			return strings.Compare(a.Path, b.Path)
		})
	}
	return out
}

// A workspace written before call trees were parent pointers (schema 7, whole paths) reads,
// once migrated, the same call tree as before, in the order it was read before: the same
// paths, calls and times, and the same recursive edges.
func TestCallTreeMigrationKeepsOldTrees(t *testing.T) {
	ctx := context.Background()
	p := callTreeFixture(t)
	path := filepath.Join(t.TempDir(), "old.db")
	writeOldWorkspace(t, path, p)

	db, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	got, err := db.CallTree(ctx, "old")
	if err != nil {
		t.Fatal(err)
	}
	if err := calls.CheckCallTree(got); err != nil {
		t.Fatal(err)
	}
	if g, w := pathRows(got, true), pathRows(p.Tree, false); !reflect.DeepEqual(g, w) {
		t.Errorf("migrated call tree:\n%v\nwant the old one:\n%v", g, w)
	}
	if g, w := calls.RecursiveEdges(got), calls.RecursiveEdges(p.Tree); !reflect.DeepEqual(g, w) || len(w) == 0 {
		t.Errorf("recursive edges after migration %v, before %v", g, w)
	}
	// A run imported after the migration sits beside the migrated one and reads as built.
	if err := db.ImportMethodRun(ctx, "new", "fixture", &calls.MethodTrace{Header: calls.TraceHeader{Format: "traceview"}, Profile: p}); err != nil {
		t.Fatal(err)
	}
	fresh, err := db.CallTree(ctx, "new")
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(fresh, p.Tree) {
		t.Errorf("imported call tree:\n%v\nwant\n%v", fresh, p.Tree)
	}
	// Deleting a run deletes its nodes (through their threads), however the tree nests.
	if err := db.DeleteRun(ctx, "old"); err != nil {
		t.Fatal(err)
	}
	var left int
	if err := db.read.QueryRowContext(ctx, `SELECT count(*) FROM call_node`).Scan(&left); err != nil || left != len(p.Tree) {
		t.Errorf("after deleting the migrated run, %d call nodes are left (want the new run's %d): %v", left, len(p.Tree), err)
	}
}

// openAtVersion makes (or opens) the workspace at path with the migrations up to version only,
// as an older androprof left it, and returns a raw connection to it.
func openAtVersion(t *testing.T, path string, version int) *sql.DB {
	t.Helper()
	ctx := context.Background()
	raw, err := sql.Open("sqlite", dsn(path, false, false))
	if err != nil {
		t.Fatal(err)
	}
	raw.SetMaxOpenConns(1)
	ms, err := migrations()
	if err != nil {
		t.Fatal(err)
	}
	for _, m := range ms {
		if m.version > version {
			break
		}
		tx, err := raw.BeginTx(ctx, nil)
		if err != nil {
			t.Fatal(err)
		}
		if err := applyMigration(ctx, tx, m); err != nil {
			t.Fatal(err)
		}
		if err := tx.Commit(); err != nil {
			t.Fatal(err)
		}
	}
	return raw
}
