package cli

import (
	"context"
	"crypto/sha256"
	"database/sql"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// sha256File is the SHA-256 of a file's bytes.
func sha256File(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return fmt.Sprintf("%x", sha256.Sum256(b))
}

// TestForeignDatabaseUntouched (issue 24, finding 2): reading commands and an import given
// another program's SQLite file refuse it by name and leave it byte for byte as it was.
func TestForeignDatabaseUntouched(t *testing.T) {
	other := filepath.Join(t.TempDir(), "other.db")
	raw, err := sql.Open("sqlite", other)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := raw.Exec(`CREATE TABLE contact(name TEXT); INSERT INTO contact VALUES ('Ada')`); err != nil {
		t.Fatal(err)
	}
	raw.Close()
	before := sha256File(t, other)
	for _, args := range [][]string{
		{"runs", "--db", other},
		{"report", "--db", other, "--run", "x", "--by", "method"},
		{"import", "--db", other, "../../formats/dpa/testdata/figure4.dpa"},
	} {
		r := runChild(t, nil, args...)
		if want := other + " is a SQLite database but not an androprof workspace"; r.code != 1 || !strings.Contains(r.stderr, want) {
			t.Errorf("%s: %v, want exit 1 saying %q", args[0], r, want)
		}
		if sha256File(t, other) != before {
			t.Fatalf("%s changed another program's database", args[0])
		}
	}
}

// TestReadWhileSqlite3Writes (issue 24, finding 14): reading commands succeed while another
// connection holds the workspace's write lock, as `sqlite3 w.db 'BEGIN IMMEDIATE'` does.
func TestReadWhileSqlite3Writes(t *testing.T) {
	db := filepath.Join(t.TempDir(), "w.db")
	importInto(t, db, "methods", "../../formats/dpa/testdata/figure4.dpa")
	before := sha256File(t, db)
	raw, err := sql.Open("sqlite", db)
	if err != nil {
		t.Fatal(err)
	}
	defer raw.Close()
	ctx := context.Background()
	conn, err := raw.Conn(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	if _, err := conn.ExecContext(ctx, `BEGIN IMMEDIATE`); err != nil {
		t.Fatal(err)
	}
	defer conn.ExecContext(ctx, `ROLLBACK`)
	for _, args := range [][]string{
		{"runs", "--db", db},
		{"report", "--db", db, "--run", "methods", "--by", "method"},
	} {
		if r := runChild(t, nil, args...); r.code != 0 || !strings.Contains(r.stdout, "methods") {
			t.Errorf("%s while sqlite3 holds the write lock: %v", args[0], r)
		}
	}
	if sha256File(t, db) != before {
		t.Error("reading commands changed the workspace")
	}
}
