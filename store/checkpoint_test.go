package store

import (
	"context"
	"database/sql"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"androprof/store/storetest"
)

// Checkpoints aside: the writer's are off meanwhile and back after, and what the imports wrote
// is copied from the WAL into the database (nothing is left for a checkpoint to copy).
func TestCheckpointAside(t *testing.T) {
	ctx := context.Background()
	db := openTemp(t)
	autocheckpoint := func() int {
		var n int
		if err := db.write.QueryRow(`PRAGMA wal_autocheckpoint`).Scan(&n); err != nil {
			t.Fatal(err)
		}
		return n
	}
	stop := db.CheckpointAside(ctx)
	if n := autocheckpoint(); n != 0 {
		t.Errorf("the writer checkpoints every %d pages while they are aside", n)
	}
	for i := range 20 {
		if err := db.ImportRun(ctx, fmt.Sprintf("run%d", i), "test", storetest.SmallRun); err != nil {
			t.Fatal(err)
		}
	}
	stop()
	if n := autocheckpoint(); n != 1000 {
		t.Errorf("the writer checkpoints every %d pages after, want 1000", n)
	}
	// The database file alone, without its WAL, has every run.
	raw, err := os.ReadFile(db.Path())
	if err != nil {
		t.Fatal(err)
	}
	alone := filepath.Join(t.TempDir(), "alone.db")
	if err := os.WriteFile(alone, raw, 0o644); err != nil {
		t.Fatal(err)
	}
	c, err := sql.Open("sqlite", alone)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	var n int
	if err := c.QueryRow(`SELECT count(*) FROM run`).Scan(&n); err != nil || n != 20 {
		t.Errorf("the database file without its WAL has %d runs (%v), want 20", n, err)
	}
}
