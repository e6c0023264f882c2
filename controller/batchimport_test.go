package controller

import (
	"context"
	"crypto/sha256"
	"database/sql"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"

	"androprof/internal/corpus"
	"androprof/model"
)

// labDir is a small lab: the demo data set's files of every kind under two "commits", the
// corpus's Traceview traces and dumps beside them, and bad the damaged files named.
func labDir(t testing.TB, short bool, bad map[string]string) string {
	t.Helper()
	dir := t.TempDir()
	demos, err := filepath.Glob("../assets/demo/*.gz")
	if err != nil || len(demos) == 0 {
		t.Fatalf("no demo files: %v", err)
	}
	if short { // one of each kind keeps the fast lane fast
		demos = slices.DeleteFunc(demos, func(p string) bool {
			return !strings.Contains(p, "sieve-arm.") && !strings.Contains(p, "methods") &&
				!strings.Contains(p, "heap-threads") && !strings.Contains(p, "vertical")
		})
	}
	for _, c := range []string{"c1", "c2"} {
		for _, d := range demos {
			place(t, d, filepath.Join(dir, c, filepath.Base(d)))
		}
	}
	if !short {
		for _, name := range []string{"sns-logout.trace", "perflib-basic.trace", "ahat-RI.hprof"} {
			place(t, corpus.File(t, name), filepath.Join(dir, "corpus", name))
		}
	}
	for name, text := range bad {
		write(t, filepath.Join(dir, name), text)
	}
	return dir
}

// place copies a file into the lab, making its folders.
func place(t testing.TB, from, to string) {
	t.Helper()
	b, err := os.ReadFile(from)
	if err != nil {
		t.Fatal(err)
	}
	write(t, to, string(b))
}

func write(t testing.TB, path, text string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
}

// TestBatchImportSameWorkspace: one job or three, the workspace holds the same rows, and a
// damaged file fails alone, named with its line.
func TestBatchImportSameWorkspace(t *testing.T) {
	bad := map[string]string{"c2/broken.trace": "*version\n3\nclock=dual\n*threads\n1\tmain\n*methods\n0x1\tA\tb\t()V\n*end\nSLOW"}
	dir := labDir(t, testing.Short() || raceDetector, bad) // the whole lab takes 200 s under -race
	var dumps [2]string
	for i, jobs := range []int{1, 3} {
		path := filepath.Join(t.TempDir(), "w.db")
		db := openAt(t, path)
		res, err := NewWorkspace(db).Importer().ImportBatch(context.Background(), []string{dir}, BatchOptions{Jobs: jobs})
		if err != nil {
			t.Fatal(err)
		}
		if len(res.Failures) != 1 || res.Failures[0].Run != "c2/broken" {
			t.Fatalf("jobs %d: failures %+v, want c2/broken alone", jobs, res.Failures)
		}
		if msg := res.Failures[0].Err.Error(); !strings.Contains(msg, "broken.trace") {
			t.Errorf("jobs %d: the failure does not name its file: %s", jobs, msg)
		}
		files, _, _ := batchFiles(dir)
		if len(res.Runs) != len(files)-1 {
			t.Errorf("jobs %d: %d runs stored of %d files", jobs, len(res.Runs), len(files))
		}
		db.Close()
		dumps[i] = dumpWorkspace(t, path)
	}
	if dumps[0] != dumps[1] {
		a, b := strings.Split(dumps[0], "\n"), strings.Split(dumps[1], "\n")
		for i := range min(len(a), len(b)) {
			if a[i] != b[i] {
				t.Fatalf("the workspaces differ (%d and %d lines); first at line %d:\n1 job:  %.300s\n3 jobs: %.300s", len(a), len(b), i, a[i], b[i])
			}
		}
		t.Fatalf("the workspaces differ: %d and %d lines", len(a), len(b))
	}
	t.Logf("the same %d lines of rows", strings.Count(dumps[0], "\n"))
}

// dumpWorkspace is every table's rows, sorted, but the time each run was imported (and the
// migrations applied when it was made).
func dumpWorkspace(t testing.TB, path string) string {
	var b strings.Builder
	eachWorkspaceRow(t, path, func(table, row string) { fmt.Fprintf(&b, "%s: %s\n", table, row) })
	return b.String()
}

// workspaceDigest is a hash of what dumpWorkspace shows, for workspaces too big to hold so.
func workspaceDigest(t testing.TB, path string) string {
	h := sha256.New()
	eachWorkspaceRow(t, path, func(table, row string) { fmt.Fprintf(h, "%s: %s\n", table, row) })
	return hex.EncodeToString(h.Sum(nil))
}

func eachWorkspaceRow(t testing.TB, path string, fn func(table, row string)) {
	t.Helper()
	q, err := sql.Open("sqlite", path)
	if err != nil {
		t.Fatal(err)
	}
	defer q.Close()
	tables := queryStrings(t, q, `SELECT name FROM sqlite_schema WHERE type = 'table' AND name NOT LIKE 'sqlite_%' AND name != 'schema_migration' ORDER BY name`)
	for _, table := range tables {
		cols := queryStrings(t, q, `SELECT name FROM pragma_table_info(?) WHERE name != 'created_at' ORDER BY cid`, table)
		rows, err := q.Query(fmt.Sprintf(`SELECT quote(%s) FROM %q ORDER BY 1`, strings.Join(cols, ")||','||quote("), table))
		if err != nil {
			t.Fatal(err)
		}
		for rows.Next() {
			var r string
			if err := rows.Scan(&r); err != nil {
				t.Fatal(err)
			}
			fn(table, r)
		}
		if err := rows.Close(); err != nil {
			t.Fatal(err)
		}
	}
}

func queryStrings(t testing.TB, q *sql.DB, query string, args ...any) []string {
	t.Helper()
	rows, err := q.Query(query, args...)
	if err != nil {
		t.Fatalf("%s: %v", query, err)
	}
	defer rows.Close()
	var out []string
	for rows.Next() {
		var s string
		if err := rows.Scan(&s); err != nil {
			t.Fatal(err)
		}
		out = append(out, s)
	}
	return out
}

// TestBatchPlan: runs are named by their path below the folder given, made distinct, those
// in the workspace skipped, hidden files said, and a folder's QEMU logs one run.
func TestBatchPlan(t *testing.T) {
	dir := t.TempDir()
	trace := "*version\n3\nclock=dual\n*threads\n1\tmain\n*methods\n0x1\tA\tb\t()V\n*end\n"
	write(t, filepath.Join(dir, "a", "x.trace"), trace)
	write(t, filepath.Join(dir, "a", "x.trace.gz.trace"), trace)
	write(t, filepath.Join(dir, "a", "x.dmtrace"), trace) // also "a/x", first in name order
	write(t, filepath.Join(dir, "b", "old.trace"), trace)
	write(t, filepath.Join(dir, ".git", "config"), "")
	place(t, "../assets/demo/sieve-arm.inasm-exec.log.gz", filepath.Join(dir, "q", "in_asm.log.gz"))
	place(t, "../assets/demo/sieve-arm.inasm-exec.log.gz", filepath.Join(dir, "q", "exec.log.gz"))
	fifo := filepath.Join(t.TempDir(), "fifo")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Fatal(err)
	}
	units, skipped, err := planBatch(context.Background(), []string{dir, fifo}, map[string]bool{"b/old": true})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, u := range units {
		got = append(got, fmt.Sprintf("%s=%d %s", u.run, len(u.files), model.RunKindText(u.kind)))
	}
	want := []string{"a/x=1 a method trace", "a/x-2=1 a method trace", "a/x.trace.gz=1 a method trace", "q=2 an emulator run"}
	if !slices.Equal(got, want) {
		t.Errorf("units %q, want %q", got, want)
	}
	if len(skipped) != 3 || !strings.HasSuffix(skipped[0].File, ".git") || skipped[1].File != fifo || !strings.Contains(skipped[2].Reason, "already") {
		t.Errorf("skipped %+v, want .git (hidden), the FIFO (waiting for a writer would hold the batch) and b/old (in the workspace)", skipped)
	}
}

// TestBatchImportCancelled: a batch cancelled after its first run keeps the runs it stored,
// whole, and nothing of the rest.
func TestBatchImportCancelled(t *testing.T) {
	dir := labDir(t, true, nil)
	db := openAt(t, filepath.Join(t.TempDir(), "w.db"))
	defer db.Close()
	ws := NewWorkspace(db)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	res, err := ws.Importer().ImportBatch(ctx, []string{dir}, BatchOptions{Jobs: 2, Progress: func(p BatchProgress) {
		if p.Runs > 0 {
			cancel()
		}
	}})
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("err %v, want cancelled", err)
	}
	runs, err := ws.Runs(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, r := range runs {
		names = append(names, r.Name)
	}
	var stored []string
	for _, r := range res.Runs {
		stored = append(stored, r.Run)
	}
	slices.Sort(names)
	slices.Sort(stored)
	if len(stored) == 0 || len(res.Failures) > 0 || !slices.Equal(names, stored) {
		t.Fatalf("the workspace has %q, the batch says it stored %q and failed %+v", names, stored, res.Failures)
	}
	files, _, _ := batchFiles(dir)
	if len(stored) == len(files) {
		t.Fatalf("all %d files were stored: the cancellation stopped nothing", len(files))
	}
	// What was kept is whole: the same as importing the file alone.
	alone := openAt(t, filepath.Join(t.TempDir(), "alone.db"))
	defer alone.Close()
	one := res.Runs[0]
	if err := NewWorkspace(alone).Importer().ImportFiles(context.Background(), one.Run, one.Files, nil); err != nil {
		t.Fatal(err)
	}
	a, _ := NewWorkspace(alone).Runs(context.Background())
	kept := runs[slices.IndexFunc(runs, func(r model.RunInfo) bool { return r.Name == one.Run })]
	if a[0].Blocks != kept.Blocks || a[0].Instructions != kept.Instructions || a[0].Kind != kept.Kind {
		t.Errorf("run %s: %+v kept, %+v alone", one.Run, kept, a[0])
	}
}

// With more than one job, heap dumps are read ahead of their turn in a lane of their own: its
// room is apart from that of the files read in turn, so neither keeps the other waiting, and
// a reader goes on only while fewer readers of earlier files read than there are jobs (one
// fewer while a run is written).
func TestBatchReadsDumpsAhead(t *testing.T) {
	units := []batchUnit{
		{run: "a", kind: model.RunKindEmulator, size: 10},
		{run: "b", kind: model.RunKindHeapDump, size: 10},
		{run: "c", kind: model.RunKindMethods, size: pendingBytes},
		{run: "d", kind: model.RunKindHeapDump, size: aheadBytes / 8},
		{run: "e", kind: model.RunKindHeapDump, size: aheadBytes/8 + 1},
	}
	if b := newBatch(units, nil, 1, false); slices.Contains(b.lane, aheadLane) {
		t.Errorf("one job read ahead: lanes %v", b.lane)
	}
	b := newBatch(units, nil, 2, true)
	if want := []int{pathLane, aheadLane, pathLane, aheadLane, pathLane}; !slices.Equal(b.lane, want) {
		t.Fatalf("lanes %v, want %v", b.lane, want)
	}
	start := func(i int) bool { // whether unit i is let in to be read within a while
		ctx, cancel := context.WithTimeout(context.Background(), 200*time.Millisecond)
		defer cancel()
		stop := context.AfterFunc(ctx, b.wake)
		defer stop()
		return b.startReading(ctx, i) == nil
	}
	if !start(0) || start(2) {
		t.Fatal("the files in turn: the second should wait for the room the first holds")
	}
	b.rooms[aheadLane].limit = aheadBytes/8 + 5 // room for one of the two dumps ahead
	if !start(1) || start(3) {
		t.Fatal("the dumps ahead: the first should be let in while the files in turn wait, the second wait for its room")
	}
	b.written(0)
	if !start(2) {
		t.Error("a file in turn waits for room a dump read ahead holds")
	}
	b.readers = map[int]bool{0: true, 2: true}
	for _, c := range []struct {
		unit int
		busy bool
		want bool
	}{{1, true, false}, {1, false, true}, {3, false, false}, {0, true, true}} {
		b.busy = c.busy
		if got := b.mayRead(c.unit); got != c.want {
			t.Errorf("readers 0 and 2, writing %v: unit %d may read %v, want %v", c.busy, c.unit, got, c.want)
		}
	}
}
