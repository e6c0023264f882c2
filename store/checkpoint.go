package store

import (
	"context"
	"database/sql"
	"sync"
	"time"
)

// CheckpointAside moves the WAL's checkpoints off the writer until the function it returns is
// called, for a long series of write transactions (a batch import): the writer stops copying
// the WAL's pages into the database after its commits (a tenth of a batch's writing, on its
// one core), and a connection of its own does it every checkpointEvery, PASSIVE: never waiting
// for the writer nor holding it up. The WAL restarts from its beginning whenever the writer
// begins with every page copied, so it stays small (122 MB at most over the 1,000-run set's
// 1 GB). The returned function restores the writer's checkpoints and copies what is left. A
// workspace open read-only, or a connection that cannot be made, leaves the checkpoints where
// they were.
func (db *DB) CheckpointAside(ctx context.Context) (stop func()) {
	if db.write == nil {
		return func() {}
	}
	ck, err := sql.Open("sqlite", dsn(db.path, false, false))
	if err != nil {
		return func() {}
	}
	ck.SetMaxOpenConns(1)
	if _, err := db.write.ExecContext(ctx, `PRAGMA wal_autocheckpoint = 0`); err != nil {
		ck.Close()
		return func() {}
	}
	quit := make(chan struct{})
	var wg sync.WaitGroup
	wg.Go(func() {
		tick := time.NewTicker(checkpointEvery)
		defer tick.Stop()
		for {
			select {
			case <-quit:
				return
			case <-tick.C:
				ck.Exec(`PRAGMA wal_checkpoint(PASSIVE)`) // a busy or failed one is tried again
			}
		}
	})
	return func() {
		close(quit)
		wg.Wait()
		ck.Exec(`PRAGMA wal_checkpoint(PASSIVE)`)
		ck.Close()
		db.write.Exec(`PRAGMA wal_autocheckpoint = 1000`) // SQLite's default, what dsn leaves
	}
}

// checkpointEvery is how often CheckpointAside copies the WAL: about a run of a batch.
const checkpointEvery = 50 * time.Millisecond
