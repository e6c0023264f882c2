package controller

import "sync"

// runCache keeps what was loaded for each run, so switching profile, grouping or tab does not
// touch the disk again; an import into a run or its deletion forgets it. The zero value is ready.
type runCache[T any] struct {
	mu sync.Mutex
	m  map[string]T
}

// get returns the run's cached value, or loads and keeps it. Two callers may load the same run
// at once; both get a correct value and the later one is kept.
func (c *runCache[T]) get(run string, load func() (T, error)) (T, error) {
	c.mu.Lock()
	v, ok := c.m[run]
	c.mu.Unlock()
	if ok {
		return v, nil
	}
	v, err := load()
	if err != nil {
		return v, err
	}
	c.mu.Lock()
	if c.m == nil {
		c.m = map[string]T{}
	}
	c.m[run] = v
	c.mu.Unlock()
	return v, nil
}

func (c *runCache[T]) forget(run string) {
	c.mu.Lock()
	delete(c.m, run)
	c.mu.Unlock()
}
