package bbprofile

import (
	"errors"
	"fmt"

	"androprof/model/cost"
)

// cacheLine reads `cache LEVEL SIZE WAYS LINE REPLACEMENT wa|nwa` (version 3): one level of the
// open process's simulated hierarchy, before its first block, in the order l1i, l1d, l2[, l3].
// Each level is checked at its own line; the whole hierarchy when the first block (or the end)
// comes (closeGeometry).
func (br *Reader) cacheLine(rest []byte) error {
	c := &br.cache
	switch {
	case br.version < 3:
		return br.errorf("cache line in a version %d profile (cache lines came in version 3)", br.version)
	case c.sawBlock:
		return br.errorf("cache line after the first block of process %d", br.proc.PID)
	case len(c.levels) == len(cost.CacheLevelNames):
		return br.errorf("more than %d cache lines in process %d", len(cost.CacheLevelNames), br.proc.PID)
	}
	f, _, err := br.fields(rest, 6, false)
	if err != nil {
		return err
	}
	name := string(f[0])
	if want := cost.CacheLevelNames[len(c.levels)]; name != want {
		return br.errorf("cache level %q where %s comes (the levels are l1i, l1d, l2, then optionally l3)", clipBytes(f[0]), want)
	}
	// Bounds that keep the numbers in range of their types; Validate says what is wrong.
	size, okSize := bbUint(f[1], 10)
	ways, okWays := bbUint(f[2], 10)
	line, okLine := bbUint(f[3], 10)
	switch {
	case !okSize || size > 1<<40:
		return br.errorf("cache level %s: bad size %q", name, clipBytes(f[1]))
	case !okWays || ways > 1<<20:
		return br.errorf("cache level %s: bad associativity %q", name, clipBytes(f[2]))
	case !okLine || line > 1<<20:
		return br.errorf("cache level %s: bad line size %q", name, clipBytes(f[3]))
	}
	l := cost.CacheLevel{Name: name, SizeBytes: int64(size), Ways: int(ways), LineBytes: int(line), Replacement: cost.Replacement(f[4])}
	switch string(f[5]) {
	case "wa":
		l.WriteAllocate = true
	case "nwa":
	default:
		return br.errorf("cache level %s: write policy %q is neither wa nor nwa", name, clipBytes(f[5]))
	}
	if err := levelError(l); err != nil {
		return br.errorf("cache level %s: %v", name, err)
	}
	if len(c.levels) == 0 {
		c.firstLine = br.line
	}
	c.levels = append(c.levels, l)
	return nil
}

// levelError checks one level's geometry alone. CacheGeometry.Validate checks levels only within
// a whole hierarchy, so the level stands in for each of the three levels a hierarchy needs, and
// the level's own error is what Validate wraps.
func levelError(l cost.CacheLevel) error {
	var g cost.CacheGeometry
	for _, n := range cost.CacheLevelNames[:3] {
		l.Name = n
		g.Levels = append(g.Levels, l)
	}
	err := g.Validate()
	if inner := errors.Unwrap(err); inner != nil {
		return inner
	}
	return err
}

// closeGeometry ends the open process's cache lines at its first block (or its end): their
// hierarchy, validated whole, or nil when the process has none or it was already returned.
func (br *Reader) closeGeometry() (*cost.CacheGeometry, error) {
	c := &br.cache
	if c.sawBlock {
		return nil, nil
	}
	c.sawBlock = true
	if len(c.levels) == 0 {
		return nil, nil
	}
	g := cost.CacheGeometry{Levels: c.levels}
	if err := g.Validate(); err != nil {
		return nil, br.errorf("the cache lines from line %d: %v", c.firstLine, err)
	}
	c.simulated = true
	return &g, nil
}

// noteExec remembers, in a simulated process, that thread tid ran the open block n times, so its
// misses line can be checked against its fetches.
func (br *Reader) noteExec(tid int, n int64) error {
	c := &br.cache
	if !c.simulated {
		return nil
	}
	if c.threads == nil {
		c.threads = map[int]*threadExec{}
	}
	te := c.threads[tid]
	switch {
	case te == nil:
		te = &threadExec{}
		c.threads[tid] = te
	case te.missed:
		return br.errorf("exec line of thread %d after its misses line for block %d", tid, br.blockID)
	}
	te.executions = min(te.executions+n, maxCount) // both are at most 2⁶²: no overflow
	return nil
}

// maxCount bounds every count in the file: executions, accesses, misses.
const maxCount = 1 << 62

// missField names the fields of a misses line after TID, for messages; level is the cache level
// (0, 1, 2 = L1, L2, L3) of a miss count, -1 for the access counts.
var missField = [11]struct {
	name  string
	level int
}{
	{"fetch misses at L1I", 0}, {"fetch misses at L2", 1}, {"fetch misses at L3", 2},
	{"data reads", -1}, {"read misses at L1D", 0}, {"read misses at L2", 1}, {"read misses at L3", 2},
	{"data writes", -1}, {"write misses at L1D", 0}, {"write misses at L2", 1}, {"write misses at L3", 2},
}

// misses reads `misses TID FM1 FM2 FM3 R RM1 RM2 RM3 W WM1 WM2 WM3` (version 3): what the cache
// simulation counted for thread TID's executions of the block above, which an exec line of the
// same thread came before. `-` stands exactly for the levels the geometry lacks (l3).
func (br *Reader) misses(rest []byte) (*Misses, error) {
	c := &br.cache
	switch {
	case br.version < 3:
		return nil, br.errorf("misses line in a version %d profile (misses came in version 3)", br.version)
	case br.block == nil:
		return nil, br.errorf("misses line before any block of process %d", br.proc.PID)
	case !c.simulated:
		return nil, br.errorf("misses line in process %d, which has no cache lines", br.proc.PID)
	}
	f, _, err := br.fields(rest, 12, false)
	if err != nil {
		return nil, err
	}
	tid, err := br.id(f[0], "thread id")
	if err != nil {
		return nil, err
	}
	te := c.threads[tid]
	switch {
	case te == nil:
		return nil, br.errorf("misses line of thread %d, which has no exec line for block %d", tid, br.blockID)
	case te.missed:
		return nil, br.errorf("second misses line of thread %d for block %d", tid, br.blockID)
	}
	var v [11]int64
	levels := len(c.levels) - 1 // cache levels below the L1s: 2 with an l3
	for i, tok := range f[1:] {
		fd := missField[i]
		if fd.level >= levels {
			if string(tok) != "-" {
				return nil, br.errorf("%s %q for a level the cache geometry lacks (want -)", fd.name, clipBytes(tok))
			}
			continue
		}
		n, ok := bbUint(tok, 10)
		if !ok || n > maxCount {
			return nil, br.errorf("bad %s %q", fd.name, clipBytes(tok))
		}
		v[i] = int64(n)
	}
	m := cost.CacheCounts{FetchMiss: [3]int64{v[0], v[1], v[2]}, Reads: v[3], ReadMiss: [3]int64{v[4], v[5], v[6]},
		Writes: v[7], WriteMiss: [3]int64{v[8], v[9], v[10]}}
	if err := br.checkMisses(tid, m, te.executions); err != nil {
		return nil, err
	}
	te.missed = true
	return &Misses{PID: br.proc.PID, TID: tid, BlockID: br.blockID, PC: br.block.PC, ISA: br.block.ISA, Counts: m}, nil
}

// checkMisses holds misses to the accesses they can be counted from: an L1 sees the fetches
// (executions × instructions), reads and writes; a level below, the misses of the one above.
func (br *Reader) checkMisses(tid int, m cost.CacheCounts, executions int64) error {
	n := int64(len(br.block.Insns))
	fetches := int64(maxCount)
	if executions <= maxCount/n {
		fetches = executions * n
	}
	for _, k := range []struct {
		what     string
		accesses int64
		miss     [3]int64
	}{{"fetches", fetches, m.FetchMiss}, {"reads", m.Reads, m.ReadMiss}, {"writes", m.Writes, m.WriteMiss}} {
		seen, above := k.accesses, k.what
		for i, miss := range k.miss {
			if miss > seen {
				return br.errorf("thread %d, block %d: %d %s missed L%d, more than its %d %s", tid, br.blockID, miss, k.what, i+1, seen, above)
			}
			seen, above = miss, fmt.Sprintf("misses at L%d", i+1)
		}
	}
	return nil
}
