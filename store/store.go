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
	"sort"
	"strconv"
	"strings"

	_ "modernc.org/sqlite" // registers the pure-Go "sqlite" driver
)

//go:embed migrations/*.sql
var migrationFS embed.FS

// DB is an open workspace database.
type DB struct {
	path  string
	write *sql.DB // exactly one connection: SQLite allows one writer
	read  *sql.DB
}

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
func dsn(path string, readOnly bool) string {
	q := url.Values{}
	for _, p := range []string{"busy_timeout(5000)", "journal_mode(WAL)", "foreign_keys(ON)", "synchronous(NORMAL)"} {
		q.Add("_pragma", p)
	}
	if readOnly {
		q.Add("_pragma", "query_only(ON)")
	} else {
		q.Set("_txlock", "immediate")
	}
	return "file:" + (&url.URL{Path: path}).EscapedPath() + "?" + q.Encode()
}

// Open opens or creates the database and brings its schema up to date.
func Open(path string) (*DB, error) {
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return nil, fmt.Errorf("database %s: %w", path, err)
	}
	w, err := sql.Open("sqlite", dsn(path, false))
	if err != nil {
		return nil, fmt.Errorf("database %s: %w", path, err)
	}
	w.SetMaxOpenConns(1)
	db := &DB{path: path, write: w}
	if err := db.migrate(context.Background()); err != nil {
		w.Close()
		return nil, fmt.Errorf("database %s: %w", path, err)
	}
	r, err := sql.Open("sqlite", dsn(path, true))
	if err != nil {
		w.Close()
		return nil, fmt.Errorf("database %s: %w", path, err)
	}
	r.SetMaxOpenConns(4)
	db.read = r
	return db, nil
}

// Path is the database file.
func (db *DB) Path() string { return db.path }

// Close closes both pools.
func (db *DB) Close() error {
	return errors.Join(db.read.Close(), db.write.Close())
}

// migrate applies each embedded migrations/NNN_name.sql not yet recorded, each in its own
// transaction, in order. Shipped migrations are never edited; new ones get the next number.
func (db *DB) migrate(ctx context.Context) error {
	if _, err := db.write.ExecContext(ctx, `CREATE TABLE IF NOT EXISTS schema_migration (
		version INTEGER PRIMARY KEY, name TEXT NOT NULL,
		applied_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%SZ', 'now')))`); err != nil {
		return err
	}
	names, err := fs.Glob(migrationFS, "migrations/*.sql")
	if err != nil {
		return err
	}
	sort.Strings(names)
	for _, name := range names {
		base := filepath.Base(name)
		num, _, ok := strings.Cut(base, "_")
		version, err := strconv.Atoi(num)
		if !ok || err != nil {
			return fmt.Errorf("migration %s: name must be NNN_name.sql", base)
		}
		var applied int
		if err := db.write.QueryRowContext(ctx, `SELECT count(*) FROM schema_migration WHERE version = ?`, version).Scan(&applied); err != nil {
			return err
		}
		if applied > 0 {
			continue
		}
		body, err := migrationFS.ReadFile(name)
		if err != nil {
			return err
		}
		if err := db.inTx(ctx, func(tx *sql.Tx) error {
			if _, err := tx.ExecContext(ctx, string(body)); err != nil {
				return err
			}
			_, err := tx.ExecContext(ctx, `INSERT INTO schema_migration(version, name) VALUES (?, ?)`, version, base)
			return err
		}); err != nil {
			return fmt.Errorf("migration %s: %w", base, err)
		}
	}
	return nil
}

// inTx runs fn in one write transaction; any error or cancellation rolls everything back,
// so a failed import leaves the database as it was.
func (db *DB) inTx(ctx context.Context, fn func(*sql.Tx) error) error {
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
	return tx.Commit()
}
