// Package store keeps the workspace in one SQLite file that users may open with sqlite3:
// embedded migrations, one writer connection and a pool of readers.
package store

import (
	"context"
	"database/sql"
	"database/sql/driver"
	"embed"
	"errors"
	"fmt"
	"io/fs"
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"

	"golang.org/x/sys/unix"
	"modernc.org/sqlite" // registers the pure-Go "sqlite" driver
	sqlite3 "modernc.org/sqlite/lib"

	"androprof/internal/lockwait"
)

//go:embed migrations/*.sql
var migrationFS embed.FS

// DB is an open workspace database.
type DB struct {
	path     string
	write    *sql.DB // exactly one connection: SQLite allows one writer; nil when read-only
	read     *sql.DB
	readOnly error // why the workspace cannot be written, or nil
	codes    codeCache
	stmts    stmtCache // the writer's statements kept from one import to the next
}

// ErrReadOnly marks a write refused because the workspace was opened read-only.
var ErrReadOnly = errors.New("open read-only")

// DefaultPath is the workspace in the user's data directory ($XDG_DATA_HOME or ~/.local/share).
func DefaultPath() string {
	dir := os.Getenv("XDG_DATA_HOME")
	if dir == "" {
		home, err := os.UserHomeDir()
		if err != nil {
			home = "."
		}
		dir = filepath.Join(home, ".local", "share")
	}
	return filepath.Join(dir, "androprof", "workspace.db")
}

// dsn puts the settings in the connection string because PRAGMAs apply per connection.
// Readers open the file read-only: in WAL mode they never wait for a writer, and they write
// nothing. immutable reads a file in a folder nobody can write: SQLite then needs no -shm file
// beside it. The writer's busy timeout is short because beginWrite waits in its own loop, which
// says so and ends when its context does.
func dsn(path string, readOnly, immutable bool) string {
	q := url.Values{}
	for _, p := range []string{"foreign_keys(ON)", "synchronous(NORMAL)"} {
		q.Add("_pragma", p)
	}
	switch {
	case immutable:
		q.Set("mode", "ro")
		q.Set("immutable", "1")
	case readOnly:
		q.Set("mode", "ro")
		q.Add("_pragma", "busy_timeout(5000)")
		q.Add("_pragma", "query_only(ON)")
	default:
		q.Add("_pragma", fmt.Sprintf("busy_timeout(%d)", writeRetry.Milliseconds()))
		q.Add("_pragma", "journal_mode(WAL)")
		q.Set("_txlock", "immediate")
	}
	return "file:" + (&url.URL{Path: path}).EscapedPath() + "?" + q.Encode()
}

// Open opens the workspace at path for writing, creating it when missing (or when the file is
// empty), and brings its schema up to date. Only the default workspace's folder is made: a
// mistyped --db path never makes folders. A workspace this program may not change opens
// read-only, and every write says why (ReadOnly): one written by a newer androprof, or a file
// or folder the user cannot write. Another program's SQLite file is refused and left as it is.
func Open(path string) (*DB, error) {
	if path == DefaultPath() {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			return nil, fmt.Errorf("workspace %s: %w", path, err)
		}
	}
	if _, err := os.Stat(path); errors.Is(err, fs.ErrNotExist) {
		if st, derr := os.Stat(filepath.Dir(path)); derr != nil || !st.IsDir() {
			return nil, fmt.Errorf("workspace %s: the folder %s does not exist", path, filepath.Dir(path))
		}
	}
	return open(path, false)
}

// OpenExisting opens a workspace that must exist already, to read it: commands that only read
// never create a workspace where a path was mistyped (but for the default one, made as Open
// makes it), and never write to one: no migration, no PRAGMA, nothing a full disk or another
// writer could refuse. Its readers open the file read-only; the writer connects only when a
// change is asked for (runs --delete). A workspace of an older schema is refused with how to
// upgrade it.
func OpenExisting(path string) (*DB, error) {
	st, err := os.Stat(path)
	if path == DefaultPath() && errors.Is(err, fs.ErrNotExist) {
		return Open(path)
	}
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return nil, fmt.Errorf("no workspace at %s (import something first, or check --db)", path)
		}
		return nil, fmt.Errorf("workspace %s: %w", path, err)
	}
	if st.Size() == 0 {
		return nil, fmt.Errorf("%s is an empty file, not an androprof workspace yet (import something into it first, or check --db)", path)
	}
	return open(path, true)
}

// open recognises the file at path, then opens it; reading opens it read-only.
func open(path string, reading bool) (*DB, error) {
	f, err := look(path, false)
	if err != nil && reading && noRoom(err) && walEmpty(path) {
		// A full disk has no room for the -shm file WAL readers share. With nothing in the WAL
		// the file alone is the workspace, and no writer can add to it while the disk is full.
		f, err = look(path, true)
	}
	if err != nil {
		return nil, fmt.Errorf("workspace %s: %w", path, err)
	}
	if f.foreign {
		return nil, fmt.Errorf("%s is a SQLite database but not an androprof workspace (it has no androprof tables; "+
			"androprof leaves it as it is: check --db)", path)
	}
	if reading && f.empty {
		return nil, fmt.Errorf("%s is an empty SQLite database, not an androprof workspace yet (import something into it first, or check --db)", path)
	}
	db, err := openPools(path, f, reading)
	if err != nil {
		return nil, fmt.Errorf("workspace %s: %w", path, err)
	}
	return db, nil
}

// workspaceFile is what is at a workspace's path, learnt without writing to it.
type workspaceFile struct {
	exists         bool
	empty          bool // no file, a 0-byte file or a SQLite database with nothing in it: a workspace yet to be made
	foreign        bool // another program's SQLite database: never touched
	version        int  // the schema version, 0 when empty
	folderWritable bool // WAL needs the -wal and -shm files beside the workspace
	immutable      bool // read without a -shm file (see look)
}

// look finds out what is at path without changing it. A folder nobody may write takes no -shm
// file, so its workspace is read as immutable (or when immutable says so); a -wal file left
// beside it (a writer that died) is read normally, as SQLite can.
func look(path string, immutable bool) (workspaceFile, error) {
	f := workspaceFile{folderWritable: writable(filepath.Dir(path))}
	st, statErr := os.Stat(path)
	f.exists = statErr == nil
	_, walErr := os.Stat(path + "-wal")
	f.immutable = immutable || !f.folderWritable && walErr != nil
	if !f.exists || st.Size() == 0 {
		f.empty = true
		return f, nil
	}
	c, err := sql.Open("sqlite", dsn(path, true, f.immutable))
	if err != nil {
		return f, err
	}
	defer c.Close()
	var user, tables, migrationTables, recorded int
	if err := c.QueryRow(`PRAGMA user_version`).Scan(&user); err != nil {
		return f, err
	}
	if err := c.QueryRow(`SELECT count(*), count(*) FILTER (WHERE name = 'schema_migration') FROM sqlite_master
		WHERE type = 'table'`).Scan(&tables, &migrationTables); err != nil {
		return f, err
	}
	switch {
	case migrationTables == 0 && tables == 0 && user == 0:
		f.empty = true
		return f, nil
	case migrationTables == 0:
		// androprof records every migration in schema_migration from its first: tables (or a
		// user_version) without it are another program's.
		f.foreign = true
		return f, nil
	}
	if err := c.QueryRow(`SELECT coalesce(max(version), 0) FROM schema_migration`).Scan(&recorded); err != nil {
		return f, err
	}
	f.version = max(user, recorded)
	return f, nil
}

// openPools opens the writer (unless the workspace is read-only) and the readers, and checks
// the schema. Only a writing open of a workspace older than this program writes to it: the
// migrations; opening a current one writes nothing, as the writer connects at its first write.
func openPools(path string, f workspaceFile, reading bool) (*DB, error) {
	db := &DB{path: path}
	if !f.exists && !f.folderWritable {
		return nil, fmt.Errorf("cannot create it: the folder %s is not writable", filepath.Dir(path))
	}
	switch known := knownVersion(); {
	case f.version > known:
		db.readOnly = fmt.Errorf("it was written by a newer androprof (workspace schema %d; this androprof knows up to %d), "+
			"and only an androprof that knows schema %d may change it", f.version, known, f.version)
	case reading && f.version < known:
		return nil, fmt.Errorf("it has workspace schema %d, older than this androprof's %d: run an import (or open it in the window) to upgrade it",
			f.version, known)
	case !f.folderWritable || f.exists && !writable(path):
		db.readOnly = errors.New("the file or its folder is not writable")
	}
	if db.readOnly == nil {
		w, err := sql.Open("sqlite", dsn(path, false, false))
		if err != nil {
			return nil, err
		}
		w.SetMaxOpenConns(1)
		db.write = w
		if f.version < knownVersion() {
			if err := db.migrate(context.Background()); err != nil {
				w.Close()
				return nil, err
			}
		}
	}
	r, err := sql.Open("sqlite", dsn(path, true, f.immutable))
	if err != nil {
		db.Close()
		return nil, err
	}
	r.SetMaxOpenConns(4)
	db.read = r
	if err := db.checkSchema(context.Background()); err != nil {
		db.Close()
		return nil, err
	}
	return db, nil
}

// noRoom tells the errors of a disk with no room left: SQLite's "disk is full", and its failure
// to make or grow the -shm file.
func noRoom(err error) bool {
	var se *sqlite.Error
	if !errors.As(err, &se) {
		return false
	}
	switch se.Code() {
	case sqlite3.SQLITE_FULL, sqlite3.SQLITE_IOERR_SHMOPEN, sqlite3.SQLITE_IOERR_SHMSIZE, sqlite3.SQLITE_IOERR_SHMMAP:
		return true
	}
	return false
}

// walEmpty says whether path's WAL holds nothing: no -wal file, or an empty one.
func walEmpty(path string) bool {
	st, err := os.Stat(path + "-wal")
	return err != nil || st.Size() == 0
}

// writable says whether this process may write path (a file or a folder).
func writable(path string) bool { return unix.Access(path, unix.W_OK) == nil }

// Path is the database file.
func (db *DB) Path() string { return db.path }

// ReadOnly says why the workspace cannot be changed, or nil when it can.
func (db *DB) ReadOnly() error {
	if db.readOnly == nil {
		return nil
	}
	return fmt.Errorf("workspace %s: %w: %w", db.path, ErrReadOnly, db.readOnly)
}

// Close closes both pools.
func (db *DB) Close() error {
	db.stmts.close()
	var errs []error
	for _, p := range []*sql.DB{db.read, db.write} {
		if p != nil {
			errs = append(errs, p.Close())
		}
	}
	return errors.Join(errs...)
}

type migration struct {
	version int
	name    string
	body    string
}

// migrations are the embedded migrations/NNN_name.sql, in order, read once.
var migrations = sync.OnceValues(func() ([]migration, error) {
	names, err := fs.Glob(migrationFS, "migrations/*.sql")
	if err != nil {
		return nil, err
	}
	sort.Strings(names)
	var out []migration
	for _, name := range names {
		base := filepath.Base(name)
		num, _, ok := strings.Cut(base, "_")
		version, err := strconv.Atoi(num)
		if !ok || err != nil {
			return nil, fmt.Errorf("migration %s: name must be NNN_name.sql", base)
		}
		body, err := migrationFS.ReadFile(name)
		if err != nil {
			return nil, err
		}
		out = append(out, migration{version, base, string(body)})
	}
	return out, nil
})

// knownVersion is the schema version this program writes: its newest migration.
func knownVersion() int {
	ms, err := migrations()
	if err != nil || len(ms) == 0 {
		return 0
	}
	return ms[len(ms)-1].version
}

// expected is every table and column the migrations make, learnt once from an in-memory
// database, so the check below never drifts from the migrations.
var expected = sync.OnceValues(func() (map[string][]string, error) {
	mem, err := sql.Open("sqlite", ":memory:")
	if err != nil {
		return nil, err
	}
	defer mem.Close()
	mem.SetMaxOpenConns(1) // one connection: each :memory: connection is a database of its own
	ms, err := migrations()
	if err != nil {
		return nil, err
	}
	for _, m := range ms {
		if _, err := mem.Exec(m.body); err != nil {
			return nil, fmt.Errorf("migration %s: %w", m.name, err)
		}
	}
	return columns(context.Background(), mem)
})

// columns lists each table's columns.
func columns(ctx context.Context, c *sql.DB) (map[string][]string, error) {
	rows, err := c.QueryContext(ctx, `SELECT m.name, p.name FROM sqlite_master m JOIN pragma_table_info(m.name) p
		WHERE m.type = 'table' ORDER BY m.name, p.cid`)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	out := map[string][]string{}
	for rows.Next() {
		var table, column string
		if err := rows.Scan(&table, &column); err != nil {
			return nil, err
		}
		out[table] = append(out[table], column)
	}
	return out, rows.Err()
}

// checkSchema refuses a workspace that lacks a table or column this program reads: every query
// on it would fail with raw SQL. Tables and columns it does not know (a newer schema's) are fine.
func (db *DB) checkSchema(ctx context.Context) error {
	want, err := expected()
	if err != nil {
		return err
	}
	have, err := columns(ctx, db.read)
	if err != nil {
		return err
	}
	tables := make([]string, 0, len(want))
	for t := range want {
		tables = append(tables, t)
	}
	sort.Strings(tables)
	for _, t := range tables {
		cols, ok := have[t]
		if !ok {
			return fmt.Errorf("it has no table %s: it was not made by androprof, or was changed by hand or by another program", t)
		}
		for _, c := range want[t] {
			if !slices.Contains(cols, c) {
				return fmt.Errorf("its table %s has no column %s: it was changed by hand, by another program or by a newer androprof", t, c)
			}
		}
	}
	return nil
}

// migrate applies each embedded migration not yet recorded, each in its own transaction, in
// order. Whether one is recorded is read inside its transaction: another androprof opening the
// same workspace may have applied it while this one waited. Shipped migrations are never
// edited; new ones get the next number.
func (db *DB) migrate(ctx context.Context) error {
	ms, err := migrations()
	if err != nil {
		return err
	}
	for _, m := range ms {
		if err := db.inTx(ctx, func(tx *sql.Tx) error { return applyMigration(ctx, tx, m) }); err != nil {
			return fmt.Errorf("migration %s: %w", m.name, err)
		}
	}
	return nil
}

// applyMigration applies m unless it is recorded, records it, and sets user_version, which
// tells any SQLite tool the schema, and an older androprof that it is newer.
func applyMigration(ctx context.Context, tx *sql.Tx, m migration) error {
	if _, err := tx.ExecContext(ctx, `CREATE TABLE IF NOT EXISTS schema_migration (
		version INTEGER PRIMARY KEY, name TEXT NOT NULL,
		applied_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%SZ', 'now')))`); err != nil {
		return err
	}
	var applied int
	if err := tx.QueryRowContext(ctx, `SELECT count(*) FROM schema_migration WHERE version = ?`, m.version).Scan(&applied); err != nil || applied > 0 {
		return err
	}
	if _, err := tx.ExecContext(ctx, m.body); err != nil {
		return err
	}
	if _, err := tx.ExecContext(ctx, `INSERT INTO schema_migration(version, name) VALUES (?, ?)`, m.version, m.name); err != nil {
		return err
	}
	_, err := tx.ExecContext(ctx, fmt.Sprintf(`PRAGMA user_version = %d`, m.version))
	return err
}

// inTx runs fn in one write transaction; any error or cancellation rolls everything back,
// so a failed import leaves the database as it was.
func (db *DB) inTx(ctx context.Context, fn func(*sql.Tx) error) error {
	return db.runWrite(ctx, true, fn)
}

// importTx is inTx for an import, with SQLite's foreign-key checks off: an import only adds
// rows, whose references it takes from the rows it wrote or read in the same transaction, and
// the checks (a lookup of every reference of every row) were a seventh of a batch's one writer.
// The tests check the workspace of every kind of import with PRAGMA foreign_key_check.
func (db *DB) importTx(ctx context.Context, fn func(*writeTx) error) error {
	defer db.stmts.keep(db.write) // after the connection is back in the pool
	return db.runWrite(ctx, false, func(tx *sql.Tx) error { return fn(&writeTx{tx, &db.stmts}) })
}

// writeConn takes the writer's one connection, with SQLite's foreign-key checks on or off as
// the transaction wants them. The setting is changed only when it differs, since a change makes
// SQLite prepare every statement again (stmtCache): imports in a row keep them off, and the
// next other write (deleting a run, whose rows go by ON DELETE CASCADE) turns them on.
func (db *DB) writeConn(ctx context.Context, checks bool) (*sql.Conn, error) {
	c, err := db.write.Conn(ctx)
	if err != nil {
		return nil, err
	}
	var on bool
	err = c.QueryRowContext(ctx, `PRAGMA foreign_keys`).Scan(&on)
	if err == nil && on != checks {
		_, err = c.ExecContext(ctx, fmt.Sprintf(`PRAGMA foreign_keys = %t`, checks))
	}
	if err != nil {
		c.Raw(func(any) error { return driver.ErrBadConn }) // its setting is not known
		c.Close()
		return nil, err
	}
	return c, nil
}

// runWrite runs fn in one write transaction on the writer's connection, with the foreign-key
// checks on or off (writeConn).
func (db *DB) runWrite(ctx context.Context, checks bool, fn func(*sql.Tx) error) error {
	if err := db.ReadOnly(); err != nil {
		return err
	}
	c, err := db.writeConn(ctx, checks)
	if err != nil {
		return err
	}
	defer c.Close()
	tx, err := db.beginWrite(ctx, c)
	if err != nil {
		return err
	}
	if err := fn(tx); err != nil {
		tx.Rollback()
		// database/sql rolls a transaction back itself when its context is cancelled, and the
		// import then fails on a closed statement or transaction, depending on timing: the
		// cause the user should see is the cancellation, in the words of what was stopped
		// (a runner's proc.StoppedError) when err has them.
		if ctxErr := ctx.Err(); ctxErr != nil && !errors.Is(err, context.Canceled) {
			return ctxErr
		}
		return err
	}
	if err := ctx.Err(); err != nil {
		tx.Rollback()
		return err
	}
	// database/sql refuses to commit once ctx is done, and rolls back: then the cancellation is
	// what happened. Once Commit has begun, a cancellation no longer undoes it.
	if err := tx.Commit(); err != nil {
		if ctxErr := ctx.Err(); ctxErr != nil {
			return ctxErr
		}
		return err
	}
	return nil
}

// writeRetry is how long one attempt to begin a write waits for another writer (SQLite's busy
// timeout on the writer connection) before beginWrite checks its context and tries again.
const writeRetry = 250 * time.Millisecond

// WaitingMessage is what an import says (through lockwait) while another writer holds the
// workspace.
const WaitingMessage = "waiting for another import to finish (another androprof or program is writing to this workspace)"

// beginWrite begins a write transaction, waiting as long as another writer (another import,
// another androprof, sqlite3) holds the workspace: writers take turns instead of failing after
// their work. BEGIN IMMEDIATE takes the write lock at once, so nothing inside the transaction
// can find the workspace busy. The wait is said once, through lockwait, and ends with ctx.
func (db *DB) beginWrite(ctx context.Context, c *sql.Conn) (*sql.Tx, error) {
	said := false
	for {
		tx, err := c.BeginTx(ctx, nil)
		if err != nil && ctx.Err() != nil {
			return nil, ctx.Err() // SQLite says "interrupted (9)" when ctx ends inside BEGIN
		}
		if !isBusy(err) {
			return tx, err
		}
		if !said {
			lockwait.Say(ctx, WaitingMessage)
			said = true
		}
		if err := ctx.Err(); err != nil {
			return nil, err
		}
	}
}

// isBusy tells SQLite's "database is locked" (SQLITE_BUSY and its extended codes): another
// connection holds the write lock.
func isBusy(err error) bool {
	var se *sqlite.Error
	return errors.As(err, &se) && se.Code()&0xff == sqlite3.SQLITE_BUSY
}
