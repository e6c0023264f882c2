package controller

import (
	"fmt"
	"testing"
)

// counted is a load that counts its calls and returns the run's name.
func counted(loads map[string]int, run string) func() (string, error) {
	return func() (string, error) {
		loads[run]++
		return run, nil
	}
}

func TestRunCacheKeepsTheMostRecentRuns(t *testing.T) {
	var c runCache[string]
	loads := map[string]int{}
	for i := range runCacheSize + 1 {
		run := fmt.Sprint("run", i)
		if v, err := c.get(run, counted(loads, run)); err != nil || v != run {
			t.Fatalf("get(%s) = %q, %v", run, v, err)
		}
		if i == 0 { // used again before the others: the last used, not the first loaded, goes
			continue
		}
		c.get("run0", counted(loads, "run0"))
	}
	if len(c.kept) != runCacheSize {
		t.Errorf("the cache keeps %d runs, want %d", len(c.kept), runCacheSize)
	}
	c.get("run0", counted(loads, "run0"))
	c.get("run1", counted(loads, "run1"))
	if loads["run0"] != 1 || loads["run1"] != 2 {
		t.Errorf("loads of run0, run1 = %d, %d; want 1 (kept, used most) and 2 (least recently used, dropped)", loads["run0"], loads["run1"])
	}
}

func TestRunCacheForgets(t *testing.T) {
	var c runCache[string]
	loads := map[string]int{}
	c.get("a", counted(loads, "a"))
	c.forget("a")
	c.get("a", counted(loads, "a"))
	c.get("a", counted(loads, "a"))
	if loads["a"] != 2 {
		t.Errorf("a was loaded %d times, want 2: once, and once after forget", loads["a"])
	}
}

// TestRunCacheDropsALoadThatRacedForget: a load under way when its run is re-imported or
// deleted read the old run; its caller gets it, but the cache must not keep it, or the window
// would show the old run until the next change.
func TestRunCacheDropsALoadThatRacedForget(t *testing.T) {
	var c runCache[string]
	started, release := make(chan struct{}), make(chan struct{})
	got := make(chan string)
	go func() {
		v, _ := c.get("a", func() (string, error) {
			close(started)
			<-release
			return "old", nil
		})
		got <- v
	}()
	<-started
	c.forget("a") // the run changes while it is being read
	close(release)
	if v := <-got; v != "old" {
		t.Errorf("the raced load returned %q to its caller, want what it read (old)", v)
	}
	v, _ := c.get("a", func() (string, error) { return "new", nil })
	if v != "new" {
		t.Errorf("after the raced load, get = %q, want the run reloaded (new)", v)
	}
	v, _ = c.get("a", func() (string, error) { return "newer", nil })
	if v != "new" {
		t.Errorf("a load that began after forget was not kept: get = %q, want new", v)
	}
}
