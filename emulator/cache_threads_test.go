package emulator

import (
	"io"
	"path/filepath"
	"strconv"
	"testing"

	"androprof/emulator/qemutest"
	"androprof/formats/bbprofile"
	"androprof/model/cost"
)

// The simulation's counts go with the exec counts through every path the plugin has for them:
// the switch from one shared counter to per-thread counting, threads that end their process
// before it, forked children, and x86's page-cut instructions and REP iterations. Each thread
// that ran a block has one misses line for it (the reader refuses misses without an exec line
// and more fetch misses than fetches), and each thread has caches of its own: a worker's first
// fetch of its function misses although the other worker ran it first.
func TestCacheFollowsThreadsAndForks(t *testing.T) {
	g, err := cost.ParseCacheGeometry("l1i=32k:4:64,l1d=32k:4:64,l2=256k:8:64")
	if err != nil {
		t.Fatal(err)
	}
	t.Run("workers", func(t *testing.T) {
		bin := qemutest.Build(t, qemutest.Targets[0], filepath.Join(qemutest.SamplesDir(), "threads.c"))
		for _, n := range []int64{100000, 10} {
			c, err := runCollect(t, RunOptions{Program: bin, Args: []string{strconv.FormatInt(n, 10)}, Cache: &g})
			if err != nil {
				t.Fatal(err)
			}
			checkWorkers(t, c, n)
			checkMissLines(t, c)
			misses := map[int]int64{} // L1I misses in work() per thread
			for k, m := range c.Cache {
				if c.Blocks[k.BlockKey].Symbol == "work" {
					misses[k.TID] += m.FetchMiss[0]
				}
			}
			if len(misses) != 2 {
				t.Fatalf("n=%d: L1I misses in work() by thread: %v, want the two workers", n, misses)
			}
			for tid, m := range misses {
				if m < 1 {
					t.Errorf("n=%d: worker %d never missed fetching work(): its caches are not its own", n, tid)
				}
			}
		}
	})
	t.Run("a thread ends its process before the switch", func(t *testing.T) {
		bin := qemutest.Build(t, qemutest.Targets[0], filepath.Join("testdata", "threadexit.c"))
		const children = 50
		c, err := runCollect(t, RunOptions{Program: bin, Args: []string{strconv.Itoa(children)}, Cache: &g})
		if err != nil {
			t.Fatal(err)
		}
		checkThreadExit(t, c, children)
		checkMissLines(t, c)
		if len(c.Geometries) != children+1 {
			t.Errorf("%d processes have a geometry, want all %d", len(c.Geometries), children+1)
		}
	})
	t.Run("x86 page ends and REP", func(t *testing.T) {
		bin := qemutest.Build(t, qemutest.X86_64, filepath.Join("testdata", "x86habits.c"))
		c, err := runCollect(t, RunOptions{Program: bin, Args: []string{"300"}, Stdout: io.Discard, Cache: &g})
		if err != nil {
			t.Fatal(err)
		}
		checkMissLines(t, c)
	})
}

// checkMissLines checks that every (thread, block) with executions has cache counts and no
// other has: the plugin writes a misses line after each exec line.
func checkMissLines(t *testing.T, c *bbprofile.Collector) {
	t.Helper()
	for k := range c.Counts {
		if _, ok := c.Cache[k]; !ok {
			t.Errorf("thread %d ran block 0x%x of process %d with no misses line", k.TID, k.PC, k.PID)
		}
	}
	if len(c.Cache) != len(c.Counts) {
		t.Errorf("%d misses lines for %d exec lines", len(c.Cache), len(c.Counts))
	}
}
