package controller

import (
	"context"
	"os"
	"path/filepath"
	"testing"
	"time"
)

// BenchmarkBatchImport imports a lab's run set (ANDROPROF_BATCH_DIR) with one job and with one
// per core, and reports the speed-up: issue 30 asks 1.7× on two cores.
func BenchmarkBatchImport(b *testing.B) {
	dir := os.Getenv("ANDROPROF_BATCH_DIR")
	if dir == "" {
		b.Skip("ANDROPROF_BATCH_DIR names no run set")
	}
	var took [2]time.Duration
	for i, jobs := range []int{1, 0} {
		b.Run(map[int]string{1: "jobs=1", 0: "jobs=all"}[jobs], func(b *testing.B) {
			for range b.N {
				db := openAt(b, filepath.Join(b.TempDir(), "w.db"))
				start := time.Now()
				res, err := NewWorkspace(db).Importer().ImportBatch(context.Background(), []string{dir}, BatchOptions{Jobs: jobs})
				if err != nil {
					b.Fatal(err)
				}
				took[i] += time.Since(start)
				b.ReportMetric(float64(len(res.Runs)), "runs")
				db.Close()
			}
			took[i] /= time.Duration(b.N)
		})
	}
	if took[1] > 0 {
		b.Logf("speed-up with every core: %.2f× (%.1f s → %.1f s)", took[0].Seconds()/took[1].Seconds(), took[0].Seconds(), took[1].Seconds())
	}
}
