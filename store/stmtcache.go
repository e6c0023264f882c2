package store

import (
	"context"
	"database/sql"
	"sync"
)

// writeTx is an import's write transaction, with the statements the workspace keeps at hand.
type writeTx struct {
	*sql.Tx
	kept *stmtCache
}

// prepare gives the transaction a statement of query: the one an earlier import left in the
// cache, or one prepared now, which the cache keeps once the transaction is over.
func (tx *writeTx) prepare(ctx context.Context, query string) (*sql.Stmt, error) {
	if st := tx.kept.get(query); st != nil {
		return tx.StmtContext(ctx, st), nil
	}
	return tx.PrepareContext(ctx, query)
}

// stmtCache keeps the writer's many-row inserts prepared from one import to the next: SQLite
// parsing a 256-row insert costs more than writing its rows, and a batch of 1,000 runs spent
// 1.4 s of its one writer's 20 s preparing the same statements again. A statement is kept on
// the writer pool (its one connection), which a transaction holds: one first used in a
// transaction is prepared for the cache after it, aside (keep), so the import that wanted it
// does not wait for another's transaction.
type stmtCache struct {
	mu      sync.Mutex
	stmts   map[string]*sql.Stmt
	wanted  map[string]bool
	keeping sync.WaitGroup
	busy    bool // a keep is under way
	closed  bool
	reused  int // statements transactions took from the cache, which the tests read
}

// stmtCacheSize bounds the statements kept: the inserts of every table, in each of their sizes,
// are a few hundred.
const stmtCacheSize = 1024

func (c *stmtCache) get(query string) *sql.Stmt {
	c.mu.Lock()
	defer c.mu.Unlock()
	if st, ok := c.stmts[query]; ok {
		c.reused++
		return st
	}
	if len(c.stmts)+len(c.wanted) < stmtCacheSize {
		if c.wanted == nil {
			c.wanted = map[string]bool{}
		}
		c.wanted[query] = true
	}
	return nil
}

// keep prepares the statements transactions wanted, on pool, in a goroutine of its own: the
// pool's one connection may be another transaction's meanwhile. A statement that fails to
// prepare is not kept: a later transaction wants it again.
func (c *stmtCache) keep(pool *sql.DB) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.busy || c.closed || len(c.wanted) == 0 {
		return
	}
	c.busy = true
	c.keeping.Go(func() {
		for {
			c.mu.Lock()
			var query string
			for q := range c.wanted {
				query = q
				break
			}
			delete(c.wanted, query)
			if query == "" || c.closed {
				c.busy = false
				c.mu.Unlock()
				return
			}
			c.mu.Unlock()
			st, err := pool.Prepare(query)
			c.mu.Lock()
			switch _, kept := c.stmts[query]; {
			case err != nil:
			case c.closed || kept: // kept: wanted again while it was prepared
				st.Close()
			default:
				if c.stmts == nil {
					c.stmts = map[string]*sql.Stmt{}
				}
				c.stmts[query] = st
			}
			c.mu.Unlock()
		}
	})
}

// close frees the statements kept, once a keep under way has ended: before the pool closes.
func (c *stmtCache) close() {
	c.mu.Lock()
	c.closed = true
	c.mu.Unlock()
	c.keeping.Wait()
	c.mu.Lock()
	defer c.mu.Unlock()
	for _, st := range c.stmts {
		st.Close()
	}
	c.stmts, c.wanted = nil, nil
}
