package store

import (
	"context"
	"crypto/sha256"
	"database/sql"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"androprof/internal/lockwait"
	"androprof/model/cost"
	"androprof/store/storetest"
)

// Issue 24, findings 2, 14 and 15: a workspace is recognised before it is touched, reading
// writes nothing and is never blocked by a writer, and writers wait for each other.

// fileHash is the SHA-256 of a file's bytes.
func fileHash(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return fmt.Sprintf("%x", sha256.Sum256(b))
}

// rawSQLite opens path as the sqlite3 shell would, with no androprof settings.
func rawSQLite(t *testing.T, path string) *sql.DB {
	t.Helper()
	raw, err := sql.Open("sqlite", path)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { raw.Close() })
	return raw
}

// workspaceWithRun makes a closed workspace holding the small run "small".
func workspaceWithRun(t *testing.T) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "w.db")
	db, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if err := db.ImportRun(context.Background(), "small", "test", storetest.SmallRun); err != nil {
		t.Fatal(err)
	}
	return path
}

// holdWriteLock takes the workspace's write lock from another connection, as
// `sqlite3 w.db 'BEGIN IMMEDIATE'` does, with a row written but not committed; the returned
// function commits.
func holdWriteLock(t *testing.T, path string) (release func()) {
	t.Helper()
	ctx := context.Background()
	conn, err := rawSQLite(t, path).Conn(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := conn.ExecContext(ctx, `BEGIN IMMEDIATE`); err != nil {
		t.Fatal(err)
	}
	if _, err := conn.ExecContext(ctx, `INSERT INTO run(name, source) VALUES ('uncommitted', 'sqlite3')`); err != nil {
		t.Fatal(err)
	}
	var once sync.Once
	release = func() {
		once.Do(func() {
			if _, err := conn.ExecContext(ctx, `COMMIT`); err != nil {
				t.Error(err)
			}
			conn.Close()
		})
	}
	t.Cleanup(release)
	return release
}

// A SQLite file of another program is refused by name, by reading and writing opens alike,
// and left byte for byte as it was.
func TestForeignDatabaseRefused(t *testing.T) {
	path := filepath.Join(t.TempDir(), "other.db")
	raw := rawSQLite(t, path)
	if _, err := raw.Exec(`CREATE TABLE contact(name TEXT); INSERT INTO contact VALUES ('Ada')`); err != nil {
		t.Fatal(err)
	}
	raw.Close()
	before := fileHash(t, path)
	for name, open := range map[string]func(string) (*DB, error){"Open": Open, "OpenExisting": OpenExisting} {
		db, err := open(path)
		if err == nil {
			db.Close()
			t.Errorf("%s opened another program's database", name)
		} else if want := path + " is a SQLite database but not an androprof workspace"; !strings.Contains(err.Error(), want) {
			t.Errorf("%s: %v, want it to say %q", name, err, want)
		}
		if after := fileHash(t, path); after != before {
			t.Fatalf("%s changed another program's database", name)
		}
	}
}

// An empty file is a workspace yet to be made: an import may make it, reading refuses it.
func TestEmptyFileWorkspace(t *testing.T) {
	path := filepath.Join(t.TempDir(), "new.db")
	if err := os.WriteFile(path, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	if db, err := OpenExisting(path); err == nil {
		db.Close()
		t.Error("a reading open accepted an empty file")
	} else if !strings.Contains(err.Error(), "empty") {
		t.Errorf("reading an empty file: %v, want it to say the file is empty", err)
	}
	if st, _ := os.Stat(path); st.Size() != 0 {
		t.Fatalf("the reading open wrote %d bytes", st.Size())
	}
	db, err := Open(path)
	if err != nil {
		t.Fatalf("an import could not make a workspace in an empty file: %v", err)
	}
	defer db.Close()
	if err := db.ImportRun(context.Background(), "small", "test", storetest.SmallRun); err != nil {
		t.Fatal(err)
	}
}

// olderWorkspace makes a closed workspace with the migrations up to version only, as an older
// androprof left it.
func olderWorkspace(t *testing.T, version int) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "old.db")
	raw := rawSQLite(t, path)
	raw.SetMaxOpenConns(1)
	ms, err := migrations()
	if err != nil {
		t.Fatal(err)
	}
	stmts := []string{`PRAGMA journal_mode = WAL`, `CREATE TABLE schema_migration (version INTEGER PRIMARY KEY, name TEXT NOT NULL,
		applied_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%SZ', 'now')))`}
	for _, m := range ms[:version] {
		stmts = append(stmts, m.body, fmt.Sprintf(`INSERT INTO schema_migration(version, name) VALUES (%d, '%s')`, m.version, m.name))
	}
	stmts = append(stmts, fmt.Sprintf(`PRAGMA user_version = %d`, version))
	for _, s := range stmts {
		if _, err := raw.Exec(s); err != nil {
			t.Fatal(err)
		}
	}
	raw.Close()
	return path
}

// Reading opens nothing for writing: an older workspace is not migrated by a reading open
// (it says how to upgrade it), and a current one is read without a byte changed.
func TestReadingOpenWritesNothing(t *testing.T) {
	old := olderWorkspace(t, knownVersion()-1)
	before := fileHash(t, old)
	if db, err := OpenExisting(old); err == nil {
		db.Close()
		t.Error("a reading open of an older workspace read it as current")
	} else if !strings.Contains(err.Error(), "run an import (or open it in the window) to upgrade it") {
		t.Errorf("reading an older workspace: %v, want it to say how to upgrade", err)
	}
	if fileHash(t, old) != before {
		t.Fatal("a reading open migrated an older workspace")
	}
	db, err := Open(old)
	if err != nil {
		t.Fatalf("a writing open could not upgrade an older workspace: %v", err)
	}
	db.Close()
	if db, err = OpenExisting(old); err != nil {
		t.Fatalf("after the upgrade: %v", err)
	}
	db.Close()

	current := workspaceWithRun(t)
	before = fileHash(t, current)
	db, err = OpenExisting(current)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := db.Runs(context.Background()); err != nil {
		t.Fatal(err)
	}
	db.Close()
	if fileHash(t, current) != before {
		t.Error("a reading open changed the workspace")
	}
}

// A reader is not blocked by a writer: reading while another connection holds the write lock
// (an import's transaction, or sqlite3's BEGIN IMMEDIATE) sees the last commit at once.
func TestReadWhileAnotherWrites(t *testing.T) {
	path := workspaceWithRun(t)
	holdWriteLock(t, path)
	start := time.Now()
	db, err := OpenExisting(path)
	if err != nil {
		t.Fatalf("opening to read while another connection writes: %v (after %s)", err, time.Since(start).Round(time.Millisecond))
	}
	defer db.Close()
	runs, err := db.Runs(context.Background())
	if err != nil || len(runs) != 1 || runs[0].Name != "small" {
		t.Fatalf("runs while another connection writes = %+v, %v", runs, err)
	}
}

// importWaiting starts an import of the small run into path as run, with ctx, and returns what
// it said and its end.
func importWaiting(ctx context.Context, t *testing.T, path, run string) (said <-chan string, done <-chan error) {
	t.Helper()
	db, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	sayc, donec := make(chan string, 1), make(chan error, 1)
	ctx = lockwait.WithSay(ctx, func(msg string) {
		select {
		case sayc <- msg:
		default:
		}
	})
	go func() { donec <- db.ImportRun(ctx, run, "test", storetest.SmallRun) }()
	return sayc, donec
}

// An import that finds another writer says it waits, waits as long as the writer takes, and
// then succeeds.
func TestImportWaitsForAnotherWriter(t *testing.T) {
	path := workspaceWithRun(t)
	release := holdWriteLock(t, path)
	said, done := importWaiting(context.Background(), t, path, "second")
	select {
	case msg := <-said:
		if !strings.Contains(msg, "waiting for another import to finish") {
			t.Errorf("the waiting import said %q", msg)
		}
	case err := <-done:
		t.Fatalf("the import ended while another connection held the write lock: %v", err)
	case <-time.After(30 * time.Second):
		t.Fatal("the import neither waited nor ended")
	}
	release()
	if err := <-done; err != nil {
		t.Fatalf("the import failed after waiting: %v", err)
	}
}

// Cancelling an import that waits for another writer ends it at once, with the cancellation.
func TestWaitingImportCancels(t *testing.T) {
	path := workspaceWithRun(t)
	holdWriteLock(t, path)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	said, done := importWaiting(ctx, t, path, "second")
	select {
	case <-said:
	case err := <-done:
		t.Fatalf("the import ended while another connection held the write lock: %v", err)
	}
	cancel()
	select {
	case err := <-done:
		if !errors.Is(err, context.Canceled) {
			t.Errorf("the cancelled wait ended with %v", err)
		}
	case <-time.After(2 * time.Second):
		t.Error("the waiting import went on waiting after it was cancelled")
	}
}

// Ten imports into one workspace at once, each writing longer than SQLite's busy timeout
// would wait in all: all ten succeed, and a reader beside them never fails.
func TestParallelImports(t *testing.T) {
	if testing.Short() {
		t.Skip("ten imports of 0.7 s each, one after another")
	}
	path := workspaceWithRun(t)
	ctx := context.Background()
	stop := make(chan struct{})
	readErrs := make(chan error, 1)
	var reads int
	go func() {
		defer close(readErrs)
		for {
			select {
			case <-stop:
				return
			default:
			}
			db, err := OpenExisting(path)
			if err == nil {
				_, err = db.Runs(ctx)
				db.Close()
			}
			if err != nil {
				readErrs <- err
				return
			}
			reads++
		}
	}()
	var wg sync.WaitGroup
	errs := make([]error, 10)
	for i := range errs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			db, err := Open(path)
			if err != nil {
				errs[i] = err
				return
			}
			defer db.Close()
			errs[i] = db.ImportRun(ctx, fmt.Sprintf("run%d", i), "test", func(s cost.BlockSink) error {
				time.Sleep(700 * time.Millisecond) // a large import's write phase
				return storetest.SmallRun(s)
			})
		}()
	}
	wg.Wait()
	close(stop)
	for i, err := range errs {
		if err != nil {
			t.Errorf("import %d: %v", i, err)
		}
	}
	if err := <-readErrs; err != nil {
		t.Errorf("a read beside the imports failed after %d reads: %v", reads, err)
	}
	db, err := OpenExisting(path)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if runs, err := db.Runs(ctx); err != nil || len(runs) != 11 {
		t.Errorf("after ten imports the workspace has %d runs (%v), want 11", len(runs), err)
	}
}

// fullDisk mounts a small tmpfs (root only; the test is skipped where it cannot) and returns
// its folder and a function that fills it.
func fullDisk(t *testing.T) (dir string, fill func()) {
	t.Helper()
	dir = t.TempDir()
	if err := syscall.Mount("tmpfs", dir, "tmpfs", 0, "size=2m"); err != nil {
		t.Skipf("cannot mount a small file system to fill: %v", err)
	}
	t.Cleanup(func() { syscall.Unmount(dir, syscall.MNT_DETACH) })
	return dir, func() {
		f, err := os.Create(filepath.Join(dir, "fill"))
		if err != nil {
			t.Fatal(err)
		}
		defer f.Close()
		block := make([]byte, 4096)
		for {
			if _, err := f.Write(block); err != nil {
				return // ENOSPC: the disk is full
			}
		}
	}
}

// Reading a workspace on a full disk works: reading writes nothing.
func TestReadOnFullDisk(t *testing.T) {
	dir, fill := fullDisk(t)
	path := filepath.Join(dir, "w.db")
	db, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := db.ImportRun(context.Background(), "small", "test", storetest.SmallRun); err != nil {
		t.Fatal(err)
	}
	db.Close()
	fill()
	if db, err = OpenExisting(path); err != nil {
		t.Fatalf("reading a workspace on a full disk: %v", err)
	}
	defer db.Close()
	if runs, err := db.Runs(context.Background()); err != nil || len(runs) != 1 {
		t.Errorf("runs on a full disk = %+v, %v", runs, err)
	}
}
