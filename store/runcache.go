package store

import (
	"context"
	"database/sql"
	"fmt"

	"androprof/model/cost"
)

// runCache is what an import keeps of a cache simulation (docs/schema.md, run_cache and
// block_cache): the run's one geometry, which processes were simulated, and each thread's
// misses per block, summed in memory like the execution counts and written by finish.
type runCache struct {
	geom      *cost.CacheGeometry // the run's: stored before this import, or from it
	source    string
	newGeom   bool         // geom came with this import: finish writes it
	plainRun  bool         // the run was imported before without a simulation
	plainPID  int          // a process of this import with blocks and no geometry; 0: none
	simulated map[int]bool // pids of this import that sent a geometry
	misses    map[execKey]cost.CacheCounts
}

// loadCache reads the geometry an existing run holds, so an import into it is held to it.
func (s *runSink) loadCache() error {
	g, source, err := readGeometry(s.ctx, s.tx, s.runID)
	if err != nil {
		return err
	}
	s.cache = runCache{simulated: map[int]bool{}, misses: map[execKey]cost.CacheCounts{}}
	if !g.IsZero() {
		s.cache.geom, s.cache.source = &g, source
		return nil
	}
	var procs int
	if err := s.tx.QueryRowContext(s.ctx, `SELECT count(*) FROM process WHERE run_id = ?`, s.runID).Scan(&procs); err != nil {
		return err
	}
	s.cache.plainRun = procs > 0
	return nil
}

// Geometry takes a process's cache geometry; a run holds one (cost.CacheSink).
func (s *runSink) Geometry(pid int, g cost.CacheGeometry, source string) error {
	if err := g.Validate(); err != nil {
		return fmt.Errorf("process %d: %w", pid, err)
	}
	g = g.Geometry()
	c := &s.cache
	switch {
	case c.plainRun:
		return fmt.Errorf("process %d was cache-simulated, but run %q was imported without a simulation: a run holds one kind (import into another run)", pid, s.name)
	case c.plainPID != 0:
		return fmt.Errorf("process %d was cache-simulated, but process %d of the same import was not: a run holds one kind", pid, c.plainPID)
	case c.geom != nil && !c.geom.SameGeometry(g):
		return fmt.Errorf("process %d was simulated with the cache %s, but run %q holds misses for %s: a run holds one geometry (import into another run)", pid, g, s.name, c.geom)
	case c.geom == nil:
		c.geom, c.source, c.newGeom = &g, source, true
	}
	c.simulated[pid] = true
	return nil
}

// checkSimulated keeps a run all simulated or all not: called with each new block.
func (s *runSink) checkSimulated(pid int) error {
	c := &s.cache
	switch {
	case c.simulated[pid]:
	case c.geom != nil:
		return fmt.Errorf("process %d has no cache simulation, but run %q holds misses for %s: a run holds one kind (import into another run)", pid, s.name, c.geom)
	case c.plainPID == 0:
		c.plainPID = pid
	}
	return nil
}

// Misses adds one thread's misses of a block (cost.CacheSink).
func (s *runSink) Misses(pid, tid int, pc uint64, isa cost.ISA, m cost.CacheCounts) error {
	b, ok := s.blks[cost.BlockKey{PID: pid, PC: pc, ISA: isa}]
	switch {
	case !ok:
		return fmt.Errorf("process %d has misses for a %s block at 0x%x that has no instructions in the input", pid, isa, pc)
	case !s.cache.simulated[pid]:
		return fmt.Errorf("process %d has misses for the block at 0x%x but no cache geometry", pid, pc)
	case !m.Valid():
		return fmt.Errorf("negative cache counts for the block at 0x%x", pc)
	}
	th, err := s.thread(pid, tid, "")
	if err != nil {
		return err
	}
	m.Fetches = 0 // the block's executions × instructions: block_exec has them
	k := execKey{th, b.id}
	sum := s.cache.misses[k]
	sum.Add(m)
	s.cache.misses[k] = sum
	return s.tick()
}

// finishCache writes the geometry, when this import brought it, and the summed misses.
func (s *runSink) finishCache() error {
	c := &s.cache
	if c.newGeom {
		for i, l := range c.geom.Levels {
			if _, err := s.tx.ExecContext(s.ctx, `INSERT INTO run_cache(run_id, idx, level, size, ways, line, replacement, write_allocate, source)
				VALUES (?,?,?,?,?,?,?,?,?)`, s.runID, i, l.Name, l.SizeBytes, l.Ways, l.LineBytes, string(l.Replacement), l.WriteAllocate, c.source); err != nil {
				return err
			}
		}
	}
	if len(c.misses) == 0 {
		return nil
	}
	return insertAll(s.ctx, s.tx, `INSERT INTO block_cache(thread_id, block_id, fetch_miss1, fetch_miss2, fetch_miss3,
		reads, read_miss1, read_miss2, read_miss3, writes, write_miss1, write_miss2, write_miss3) VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?)`,
		c.misses, compareExec, func(k execKey, m cost.CacheCounts) []any {
			return []any{k.thread, k.block, m.FetchMiss[0], m.FetchMiss[1], m.FetchMiss[2],
				m.Reads, m.ReadMiss[0], m.ReadMiss[1], m.ReadMiss[2], m.Writes, m.WriteMiss[0], m.WriteMiss[1], m.WriteMiss[2]}
		})
}

// querier is what reading a geometry needs: a transaction (imports) or the readers' pool.
type querier interface {
	QueryContext(ctx context.Context, query string, args ...any) (*sql.Rows, error)
}

// readGeometry reads a run's geometry; zero when it was not simulated.
func readGeometry(ctx context.Context, q querier, runID int64) (cost.CacheGeometry, string, error) {
	var g cost.CacheGeometry
	var source string
	rows, err := q.QueryContext(ctx, `SELECT level, size, ways, line, replacement, write_allocate, source
		FROM run_cache WHERE run_id = ? ORDER BY idx`, runID)
	if err != nil {
		return g, "", err
	}
	defer rows.Close()
	for rows.Next() {
		var l cost.CacheLevel
		if err := rows.Scan(&l.Name, &l.SizeBytes, &l.Ways, &l.LineBytes, &l.Replacement, &l.WriteAllocate, &source); err != nil {
			return g, "", err
		}
		g.Levels = append(g.Levels, l)
	}
	return g, source, rows.Err()
}

// RunCache reads a run's cache simulation: its geometry, where the geometry came from, and each
// block's accesses and misses summed over threads, by block id (Fetches 0: they are the block's
// executions × instructions). A run that was not simulated has a zero geometry and a nil map.
func (db *DB) RunCache(ctx context.Context, run string) (cost.CacheGeometry, string, map[int64]cost.CacheCounts, error) {
	id, err := db.runID(ctx, run)
	if err != nil {
		return cost.CacheGeometry{}, "", nil, err
	}
	g, source, err := readGeometry(ctx, db.read, id)
	if err != nil || g.IsZero() {
		return g, source, nil, err
	}
	rows, err := db.read.QueryContext(ctx, `SELECT bc.block_id, sum(bc.fetch_miss1), sum(bc.fetch_miss2), sum(bc.fetch_miss3),
		sum(bc.reads), sum(bc.read_miss1), sum(bc.read_miss2), sum(bc.read_miss3),
		sum(bc.writes), sum(bc.write_miss1), sum(bc.write_miss2), sum(bc.write_miss3)
		FROM block_cache bc JOIN thread t ON t.id = bc.thread_id JOIN process p ON p.id = t.process_id
		WHERE p.run_id = ? GROUP BY bc.block_id`, id)
	if err != nil {
		return g, source, nil, err
	}
	defer rows.Close()
	perBlock := map[int64]cost.CacheCounts{}
	for rows.Next() {
		var block int64
		var m cost.CacheCounts
		if err := rows.Scan(append([]any{&block}, countFields(&m)...)...); err != nil {
			return g, source, nil, err
		}
		perBlock[block] = m
	}
	return g, source, perBlock, rows.Err()
}

// ThreadBlock identifies one thread's executions of a block: pid, tid and block id.
type ThreadBlock struct {
	PID, TID int
	Block    int64
}

// ThreadCache is RunCache's counts per thread: each thread's accesses and misses per block.
// Nil for a run that was not simulated.
func (db *DB) ThreadCache(ctx context.Context, run string) (map[ThreadBlock]cost.CacheCounts, error) {
	id, err := db.runID(ctx, run)
	if err != nil {
		return nil, err
	}
	rows, err := db.read.QueryContext(ctx, `SELECT p.pid, t.tid, bc.block_id, bc.fetch_miss1, bc.fetch_miss2, bc.fetch_miss3,
		bc.reads, bc.read_miss1, bc.read_miss2, bc.read_miss3, bc.writes, bc.write_miss1, bc.write_miss2, bc.write_miss3
		FROM block_cache bc JOIN thread t ON t.id = bc.thread_id JOIN process p ON p.id = t.process_id
		WHERE p.run_id = ?`, id)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out map[ThreadBlock]cost.CacheCounts
	for rows.Next() {
		var k ThreadBlock
		var m cost.CacheCounts
		if err := rows.Scan(append([]any{&k.PID, &k.TID, &k.Block}, countFields(&m)...)...); err != nil {
			return nil, err
		}
		if out == nil {
			out = map[ThreadBlock]cost.CacheCounts{}
		}
		out[k] = m
	}
	return out, rows.Err()
}

// countFields are a block_cache row's counts in column order, for Scan.
func countFields(m *cost.CacheCounts) []any {
	return []any{&m.FetchMiss[0], &m.FetchMiss[1], &m.FetchMiss[2],
		&m.Reads, &m.ReadMiss[0], &m.ReadMiss[1], &m.ReadMiss[2],
		&m.Writes, &m.WriteMiss[0], &m.WriteMiss[1], &m.WriteMiss[2]}
}
