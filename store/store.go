// Package store keeps the workspace in one SQLite file that users may open with sqlite3:
// embedded migrations, one writer connection and a pool of readers.
package store

import (
	"context"
	"database/sql"
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

	"golang.org/x/sys/unix"
	_ "modernc.org/sqlite" // registers the pure-Go "sqlite" driver
)

//go:embed migrations/*.sql
var migrationFS embed.FS

// DB is an open workspace database.
type DB struct {
	path     string
	write    *sql.DB // exactly one connection: SQLite allows one writer; nil when read-only
	read     *sql.DB
	readOnly error // why the workspace cannot be written, or nil
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
// immutable reads a file in a folder nobody can write: SQLite then needs no -shm file beside it.
func dsn(path string, readOnly, immutable bool) string {
	q := url.Values{}
	for _, p := range []string{"busy_timeout(5000)", "foreign_keys(ON)", "synchronous(NORMAL)"} {
		q.Add("_pragma", p)
	}
	switch {
	case immutable:
		q.Set("mode", "ro")
		q.Set("immutable", "1")
	case readOnly:
		q.Add("_pragma", "query_only(ON)")
	default:
		q.Add("_pragma", "journal_mode(WAL)")
		q.Set("_txlock", "immediate")
	}
	return "file:" + (&url.URL{Path: path}).EscapedPath() + "?" + q.Encode()
}

// Open opens the workspace at path, creating it when missing, and brings its schema up to date.
// Only the default workspace's folder is made: a mistyped --db path never makes folders. A workspace this program may
// not change opens read-only, and every write says why (ReadOnly): one written by a newer
// androprof, or a file or folder the user cannot write.
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
	return open(path)
}

// OpenExisting opens a workspace that must exist already, but for the default one: commands
// that only read never create a workspace where a path was mistyped.
func OpenExisting(path string) (*DB, error) {
	if path == DefaultPath() {
		return Open(path)
	}
	if _, err := os.Stat(path); err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return nil, fmt.Errorf("no workspace at %s (import something first, or check --db)", path)
		}
		return nil, fmt.Errorf("workspace %s: %w", path, err)
	}
	return open(path)
}

func open(path string) (*DB, error) {
	db, err := openPools(path)
	if err != nil {
		return nil, fmt.Errorf("workspace %s: %w", path, err)
	}
	return db, nil
}

// openPools opens the writer (unless the workspace is read-only) and the readers, and checks
// the schema.
func openPools(path string) (*DB, error) {
	db := &DB{path: path}
	dir := filepath.Dir(path)
	_, statErr := os.Stat(path)
	exists := statErr == nil
	folderWritable := writable(dir) // WAL needs the -wal and -shm files beside the workspace
	// A folder nobody may write takes no -shm file, so its workspace is read as immutable; a
	// -wal file left beside it (a writer that died) is read normally, as SQLite can.
	_, walErr := os.Stat(path + "-wal")
	immutable := !folderWritable && walErr != nil
	version := 0
	if exists {
		var err error
		if version, err = schemaVersion(path, immutable); err != nil {
			return nil, err
		}
	} else if !folderWritable {
		return nil, fmt.Errorf("cannot create it: the folder %s is not writable", dir)
	}
	switch known := knownVersion(); {
	case version > known:
		db.readOnly = fmt.Errorf("it was written by a newer androprof (workspace schema %d; this androprof knows up to %d), "+
			"and only an androprof that knows schema %d may change it", version, known, version)
	case !folderWritable || exists && !writable(path):
		db.readOnly = errors.New("the file or its folder is not writable")
	}
	if db.readOnly == nil {
		w, err := sql.Open("sqlite", dsn(path, false, false))
		if err != nil {
			return nil, err
		}
		w.SetMaxOpenConns(1)
		db.write = w
		if err := db.migrate(context.Background()); err != nil {
			w.Close()
			return nil, err
		}
	}
	r, err := sql.Open("sqlite", dsn(path, true, immutable))
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
	var errs []error
	for _, p := range []*sql.DB{db.read, db.write} {
		if p != nil {
			errs = append(errs, p.Close())
		}
	}
	return errors.Join(errs...)
}

// schemaVersion reads which schema version a workspace file has without changing it: the
// highest of its user_version and its recorded migrations.
func schemaVersion(path string, immutable bool) (int, error) {
	c, err := sql.Open("sqlite", dsn(path, true, immutable))
	if err != nil {
		return 0, err
	}
	defer c.Close()
	var user, recorded, n int
	if err := c.QueryRow(`PRAGMA user_version`).Scan(&user); err != nil {
		return 0, err
	}
	if err := c.QueryRow(`SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name = 'schema_migration'`).Scan(&n); err != nil {
		return 0, err
	}
	if n > 0 {
		if err := c.QueryRow(`SELECT coalesce(max(version), 0) FROM schema_migration`).Scan(&recorded); err != nil {
			return 0, err
		}
	}
	return max(user, recorded), nil
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
// order. Shipped migrations are never edited; new ones get the next number.
func (db *DB) migrate(ctx context.Context) error {
	if _, err := db.write.ExecContext(ctx, `CREATE TABLE IF NOT EXISTS schema_migration (
		version INTEGER PRIMARY KEY, name TEXT NOT NULL,
		applied_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%SZ', 'now')))`); err != nil {
		return err
	}
	ms, err := migrations()
	if err != nil {
		return err
	}
	for _, m := range ms {
		var applied int
		if err := db.write.QueryRowContext(ctx, `SELECT count(*) FROM schema_migration WHERE version = ?`, m.version).Scan(&applied); err != nil {
			return err
		}
		if applied > 0 {
			continue
		}
		if err := db.inTx(ctx, func(tx *sql.Tx) error {
			if _, err := tx.ExecContext(ctx, m.body); err != nil {
				return err
			}
			_, err := tx.ExecContext(ctx, `INSERT INTO schema_migration(version, name) VALUES (?, ?)`, m.version, m.name)
			return err
		}); err != nil {
			return fmt.Errorf("migration %s: %w", m.name, err)
		}
	}
	// user_version tells any SQLite tool the schema, and an older androprof that it is newer.
	_, err = db.write.ExecContext(ctx, fmt.Sprintf(`PRAGMA user_version = %d`, knownVersion()))
	return err
}

// inTx runs fn in one write transaction; any error or cancellation rolls everything back,
// so a failed import leaves the database as it was.
func (db *DB) inTx(ctx context.Context, fn func(*sql.Tx) error) error {
	if err := db.ReadOnly(); err != nil {
		return err
	}
	tx, err := db.write.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	if err := fn(tx); err != nil {
		tx.Rollback()
		// database/sql rolls a transaction back itself when its context is cancelled, and the
		// import then fails on a closed statement or transaction, depending on timing: the
		// cause the user should see is the cancellation.
		if ctxErr := ctx.Err(); ctxErr != nil {
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
