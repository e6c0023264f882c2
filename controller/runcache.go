package controller

import "sync"

// runCacheSize is how many runs a cache keeps. A loaded run can take hundreds of megabytes
// (an emulator run's blocks, a method trace's calls, a dump's objects), so the cache cannot
// keep every run of a workspace; eight covers what a person moves between: the run shown,
// the few put side by side in a comparison (the seed's tables compare two to five), and the
// one or two looked at before, which come back without a reload.
const runCacheSize = 8

// runCache keeps what was loaded for the most recently used runs, so switching profile,
// grouping or tab does not touch the disk again; an import into a run or its deletion
// forgets it. The zero value is ready.
type runCache[T any] struct {
	mu   sync.Mutex
	kept []cachedRun[T]    // most recently used first, at most runCacheSize
	gen  map[string]uint64 // a run's generation: forget bumps it
}

type cachedRun[T any] struct {
	run string
	v   T
}

// get returns the run's cached value, or loads and keeps it. Two callers may load the same
// run at once; both get a correct value and the later one is kept. A load that began before
// the run was forgotten (it raced a delete or a re-import) is returned to its caller, who
// asked before the change, but not kept: the next get loads the run as it is now.
func (c *runCache[T]) get(run string, load func() (T, error)) (T, error) {
	c.mu.Lock()
	if v, ok := c.use(run); ok {
		c.mu.Unlock()
		return v, nil
	}
	gen := c.gen[run]
	c.mu.Unlock()
	v, err := load()
	if err != nil {
		return v, err
	}
	c.mu.Lock()
	if c.gen[run] == gen {
		c.keep(run, v)
	}
	c.mu.Unlock()
	return v, nil
}

// forget drops the run and makes loads of it already under way stale.
func (c *runCache[T]) forget(run string) {
	c.mu.Lock()
	c.drop(run)
	if c.gen == nil {
		c.gen = map[string]uint64{}
	}
	c.gen[run]++
	c.mu.Unlock()
}

// use returns the run's value and makes it the most recently used. c.mu is held.
func (c *runCache[T]) use(run string) (T, bool) {
	for i, e := range c.kept {
		if e.run == run {
			copy(c.kept[1:i+1], c.kept[:i])
			c.kept[0] = e
			return e.v, true
		}
	}
	var zero T
	return zero, false
}

// keep puts the run's value first, dropping the least recently used beyond runCacheSize.
// c.mu is held.
func (c *runCache[T]) keep(run string, v T) {
	c.drop(run)
	c.kept = append([]cachedRun[T]{{run, v}}, c.kept...)
	if len(c.kept) > runCacheSize {
		c.kept[runCacheSize] = cachedRun[T]{} // let the collector have the value
		c.kept = c.kept[:runCacheSize]
	}
}

// drop removes the run's value, if kept. c.mu is held.
func (c *runCache[T]) drop(run string) {
	for i, e := range c.kept {
		if e.run == run {
			c.kept = append(c.kept[:i], c.kept[i+1:]...)
			return
		}
	}
}
