package controller

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"testing"
	"time"

	"golang.org/x/sys/unix"

	"androprof/internal/corpus"
	"androprof/internal/refcheck"
	"androprof/internal/runset"
	"androprof/store"
)

// BenchmarkBatchImport imports a lab's run set with one job and with one per core, checks
// the two workspaces hold the same rows (and no dangling reference), and reports the speed-up:
// issue 30 asks 1.7× on two cores. The set is internal/runset's 1,000 runs (BATCH_RUNS to
// change it; -short: 40), or the folder ANDROPROF_BATCH_DIR names. The machine's speed drifts
// by a quarter within minutes, so the two are imported in turn, BATCH_ROUNDS times (2), each
// after a sync, and each one's fastest counts.
func BenchmarkBatchImport(b *testing.B) {
	dir := os.Getenv("ANDROPROF_BATCH_DIR")
	if dir == "" {
		n := 1000
		if testing.Short() {
			n = 40
		}
		if s := os.Getenv("BATCH_RUNS"); s != "" {
			n, _ = strconv.Atoi(s)
		}
		dir = b.TempDir()
		if _, err := runset.Generate(dir, runset.Options{N: n, Damaged: 1, Demo: "../assets/demo", Corpus: corpus.Dir()}); err != nil {
			b.Fatal(err)
		}
	}
	rounds := 2
	if s := os.Getenv("BATCH_ROUNDS"); s != "" {
		rounds, _ = strconv.Atoi(s)
	}
	names := [2]string{"1 job", "every core"}
	for range b.N {
		var best [2]time.Duration
		var digests [2]string
		for round := range rounds {
			for i, jobs := range []int{1, 0} {
				took, digest := timeBatchImport(b, dir, jobs, round == 0)
				b.Logf("round %d, %s: %.1f s", round+1, names[i], took.Seconds())
				if best[i] == 0 || took < best[i] {
					best[i] = took
				}
				if round == 0 {
					digests[i] = digest
				}
			}
		}
		if digests[0] != digests[1] {
			b.Errorf("one job and every core left different workspaces")
		}
		b.ReportMetric(best[0].Seconds(), "s/1job")
		b.ReportMetric(best[1].Seconds(), "s/all")
		b.Logf("speed-up with every core: %.2f× (%.1f s → %.1f s, the fastest of %d each)",
			best[0].Seconds()/best[1].Seconds(), best[0].Seconds(), best[1].Seconds(), rounds)
	}
}

// timeBatchImport imports dir into a new workspace with jobs and says how long it took, and,
// when check, the workspace's digest after its references were checked. The workspace is
// removed after: its writeback would slow the next import.
func timeBatchImport(b *testing.B, dir string, jobs int, check bool) (time.Duration, string) {
	path := filepath.Join(b.TempDir(), fmt.Sprintf("w%d.db", jobs))
	db, err := store.Open(path)
	if err != nil {
		b.Fatal(err)
	}
	unix.Sync()
	start := time.Now()
	res, err := NewWorkspace(db).Importer().ImportBatch(context.Background(), []string{dir}, BatchOptions{Jobs: jobs})
	took := time.Since(start)
	if err != nil {
		b.Fatal(err)
	}
	b.ReportMetric(float64(len(res.Runs)), "runs")
	b.ReportMetric(float64(len(res.Failures)), "failed")
	db.Close()
	var digest string
	if check {
		if err := refcheck.Check(path); err != nil {
			b.Error(err)
		}
		digest = workspaceDigest(b, path)
	}
	for _, suffix := range []string{"", "-wal", "-shm"} {
		os.Remove(path + suffix)
	}
	return took, digest
}
