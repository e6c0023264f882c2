package cost

import (
	"fmt"
	"math/bits"
	"strconv"
	"strings"
)

// Replacement is how a cache set chooses the line to evict.
type Replacement string

// The replacement policies the simulation knows. Random is a fixed-seed generator per cache,
// so a run simulated twice counts the same misses.
const (
	LRU        Replacement = "lru"
	PLRU       Replacement = "plru"        // tree pseudo-LRU (ways a power of two)
	Random     Replacement = "random"      // pseudo-random, seeded once
	RoundRobin Replacement = "round-robin" // per set, the ways in turn
)

// Replacements lists them in the order the editor offers them.
var Replacements = []Replacement{LRU, PLRU, Random, RoundRobin}

// The cache levels, in the order a geometry lists them and the plugin writes them.
const (
	L1I = "l1i"
	L1D = "l1d"
	L2  = "l2"
	L3  = "l3"
)

// CacheLevelNames lists the levels a geometry may have; l3 is optional.
var CacheLevelNames = []string{L1I, L1D, L2, L3}

// CacheLevel is one cache of a hierarchy: its geometry (what the simulation needs) and what
// a miss and an access cost (what a profile adds; zero in a run's simulated geometry).
type CacheLevel struct {
	Name          string // l1i, l1d, l2, l3
	SizeBytes     int64
	Ways          int
	LineBytes     int
	Replacement   Replacement
	WriteAllocate bool // a write miss brings the line in (cachegrind's model); else it goes past this level

	// MissCycles is what an access that misses this level waits for the next level (for the
	// last level: for memory), beyond a hit here. 0 with a profile's hierarchy means unknown.
	MissCycles float64
	// AccessEnergyNJ is the energy of one access to this level, nanojoules; 0 means unknown.
	AccessEnergyNJ float64
}

// Sets is the number of sets: size ÷ (ways × line).
func (l CacheLevel) Sets() int64 {
	if l.Ways <= 0 || l.LineBytes <= 0 {
		return 0
	}
	return l.SizeBytes / (int64(l.Ways) * int64(l.LineBytes))
}

// SameGeometry tells whether two levels simulate alike (costs aside).
func (l CacheLevel) SameGeometry(o CacheLevel) bool {
	return l.Name == o.Name && l.SizeBytes == o.SizeBytes && l.Ways == o.Ways && l.LineBytes == o.LineBytes &&
		l.Replacement == o.Replacement && l.WriteAllocate == o.WriteAllocate
}

// Spec is the level in the --cache syntax: NAME=SIZE:WAYS:LINE:REPLACEMENT:wa|nwa.
func (l CacheLevel) Spec() string {
	wa := "wa"
	if !l.WriteAllocate {
		wa = "nwa"
	}
	return fmt.Sprintf("%s=%s:%d:%d:%s:%s", l.Name, CacheSizeText(l.SizeBytes), l.Ways, l.LineBytes, l.Replacement, wa)
}

// CacheSizeText writes a size as the --cache syntax does: 32k, 2m, or bytes when neither
// divides it.
func CacheSizeText(n int64) string {
	switch {
	case n >= 1<<20 && n%(1<<20) == 0:
		return strconv.FormatInt(n>>20, 10) + "m"
	case n >= 1<<10 && n%(1<<10) == 0:
		return strconv.FormatInt(n>>10, 10) + "k"
	}
	return strconv.FormatInt(n, 10)
}

// CacheGeometry is a memory hierarchy: L1 instruction, L1 data, a unified L2 and, where the
// core has one, a unified L3, in that order.
type CacheGeometry struct {
	Levels []CacheLevel
}

// IsZero tells whether there is no hierarchy (a profile without one prices as before).
func (g CacheGeometry) IsZero() bool { return len(g.Levels) == 0 }

// Level returns the named level, or nil.
func (g CacheGeometry) Level(name string) *CacheLevel {
	for i := range g.Levels {
		if g.Levels[i].Name == name {
			return &g.Levels[i]
		}
	}
	return nil
}

// String is the geometry in the --cache syntax, the form runs store and windows show.
func (g CacheGeometry) String() string {
	parts := make([]string, len(g.Levels))
	for i, l := range g.Levels {
		parts[i] = l.Spec()
	}
	return strings.Join(parts, ",")
}

// SameGeometry tells whether two hierarchies simulate alike (costs aside).
func (g CacheGeometry) SameGeometry(o CacheGeometry) bool {
	if len(g.Levels) != len(o.Levels) {
		return false
	}
	for i := range g.Levels {
		if !g.Levels[i].SameGeometry(o.Levels[i]) {
			return false
		}
	}
	return true
}

// Geometry is the hierarchy without its costs: what a run stores.
func (g CacheGeometry) Geometry() CacheGeometry {
	out := CacheGeometry{Levels: make([]CacheLevel, len(g.Levels))}
	for i, l := range g.Levels {
		l.MissCycles, l.AccessEnergyNJ = 0, 0
		out.Levels[i] = l
	}
	return out
}

// The limits a geometry is held to: the plugin allocates sets × ways tags per level.
const (
	MaxCacheBytes = 256 << 20
	MaxCacheWays  = 64
	MaxLineBytes  = 1024
)

// Validate says what is wrong with a geometry, naming the level and the part.
func (g CacheGeometry) Validate() error {
	seen := map[string]bool{}
	for i, l := range g.Levels {
		want := -1
		for k, n := range CacheLevelNames {
			if n == l.Name {
				want = k
			}
		}
		switch {
		case want < 0:
			return fmt.Errorf("unknown cache level %q (want l1i, l1d, l2 and optionally l3)", l.Name)
		case seen[l.Name]:
			return fmt.Errorf("cache level %s is given twice", l.Name)
		case want != i:
			return fmt.Errorf("cache level %s is out of order (want l1i, l1d, l2, then l3)", l.Name)
		}
		seen[l.Name] = true
		if err := l.validate(); err != nil {
			return fmt.Errorf("cache level %s: %w", l.Name, err)
		}
	}
	for _, n := range CacheLevelNames[:3] {
		if !seen[n] {
			return fmt.Errorf("the cache geometry has no %s (l1i, l1d and l2 are needed)", n)
		}
	}
	return nil
}

func (l CacheLevel) validate() error {
	switch {
	case l.LineBytes < 4 || l.LineBytes > MaxLineBytes:
		return fmt.Errorf("line size %d bytes is outside 4…%d", l.LineBytes, MaxLineBytes)
	case bits.OnesCount(uint(l.LineBytes)) != 1:
		return fmt.Errorf("line size %d bytes is not a power of two", l.LineBytes)
	case l.SizeBytes <= 0 || l.SizeBytes > MaxCacheBytes:
		return fmt.Errorf("size %d bytes is outside 1…%d", l.SizeBytes, int64(MaxCacheBytes))
	case l.SizeBytes < int64(l.LineBytes):
		return fmt.Errorf("size %d bytes is smaller than a line (%d bytes)", l.SizeBytes, l.LineBytes)
	case l.Ways < 1 || l.Ways > MaxCacheWays:
		return fmt.Errorf("associativity %d is outside 1…%d ways", l.Ways, MaxCacheWays)
	case int64(l.Ways) > l.SizeBytes/int64(l.LineBytes):
		return fmt.Errorf("%d ways is more than its %d lines", l.Ways, l.SizeBytes/int64(l.LineBytes))
	case l.SizeBytes%(int64(l.Ways)*int64(l.LineBytes)) != 0:
		return fmt.Errorf("size %d bytes is not a whole number of sets of %d ways × %d bytes", l.SizeBytes, l.Ways, l.LineBytes)
	case bits.OnesCount64(uint64(l.Sets())) != 1:
		return fmt.Errorf("%d sets (size ÷ ways ÷ line) is not a power of two", l.Sets())
	case l.Replacement == PLRU && bits.OnesCount(uint(l.Ways)) != 1:
		return fmt.Errorf("pseudo-LRU needs a power-of-two number of ways, not %d", l.Ways)
	case !knownReplacement(l.Replacement):
		return fmt.Errorf("unknown replacement %q (want lru, plru, random or round-robin)", l.Replacement)
	case l.MissCycles < 0 || l.AccessEnergyNJ < 0:
		return fmt.Errorf("a miss cost or access energy is negative")
	}
	return nil
}

func knownReplacement(r Replacement) bool {
	for _, k := range Replacements {
		if k == r {
			return true
		}
	}
	return false
}

// ParseCacheGeometry reads the --cache syntax: comma-separated LEVEL=SIZE:WAYS:LINE with
// optional :REPLACEMENT (lru by default) and :wa or :nwa (write-allocate by default, as
// cachegrind models it). SIZE takes k and m suffixes (KiB, MiB). Example:
// l1i=32k:4:64,l1d=32k:4:64:lru:wa,l2=512k:8:64. The result is validated.
func ParseCacheGeometry(spec string) (CacheGeometry, error) {
	var g CacheGeometry
	spec = strings.TrimSpace(spec)
	if spec == "" {
		return g, fmt.Errorf("empty cache geometry (want e.g. l1i=32k:4:64,l1d=32k:4:64,l2=512k:8:64)")
	}
	for _, part := range strings.Split(spec, ",") {
		name, rest, ok := strings.Cut(strings.TrimSpace(part), "=")
		if !ok {
			return g, fmt.Errorf("cache level %q: want LEVEL=SIZE:WAYS:LINE", part)
		}
		l, err := parseLevel(strings.ToLower(strings.TrimSpace(name)), rest)
		if err != nil {
			return g, err
		}
		g.Levels = append(g.Levels, l)
	}
	return g, g.Validate()
}

func parseLevel(name, rest string) (CacheLevel, error) {
	l := CacheLevel{Name: name, Replacement: LRU, WriteAllocate: true}
	f := strings.Split(rest, ":")
	if len(f) < 3 || len(f) > 5 {
		return l, fmt.Errorf("cache level %s: %q has %d fields (want SIZE:WAYS:LINE[:REPLACEMENT][:wa|nwa])", name, rest, len(f))
	}
	size, err := ParseCacheSize(f[0])
	if err != nil {
		return l, fmt.Errorf("cache level %s: size %q: %w", name, f[0], err)
	}
	l.SizeBytes = size
	if l.Ways, err = strconv.Atoi(f[1]); err != nil {
		return l, fmt.Errorf("cache level %s: associativity %q is not a whole number", name, f[1])
	}
	if l.LineBytes, err = strconv.Atoi(f[2]); err != nil {
		return l, fmt.Errorf("cache level %s: line size %q is not a whole number of bytes", name, f[2])
	}
	for _, opt := range f[3:] {
		switch o := strings.ToLower(opt); o {
		case "wa":
			l.WriteAllocate = true
		case "nwa":
			l.WriteAllocate = false
		default:
			if !knownReplacement(Replacement(o)) {
				return l, fmt.Errorf("cache level %s: %q is neither a replacement (lru, plru, random, round-robin) nor wa/nwa", name, opt)
			}
			l.Replacement = Replacement(o)
		}
	}
	return l, nil
}

// ParseCacheSize reads a cache size as the --cache syntax writes it (bytes, or a number with
// k or m for KiB and MiB); the editor's size field takes what the command line takes.
func ParseCacheSize(s string) (int64, error) {
	mult := int64(1)
	t := strings.ToLower(strings.TrimSpace(s))
	switch {
	case strings.HasSuffix(t, "k"):
		mult, t = 1<<10, strings.TrimSuffix(t, "k")
	case strings.HasSuffix(t, "m"):
		mult, t = 1<<20, strings.TrimSuffix(t, "m")
	}
	n, err := strconv.ParseInt(t, 10, 64)
	if err != nil || n <= 0 {
		return 0, fmt.Errorf("not a size (want bytes, or a number with k or m)")
	}
	if n > MaxCacheBytes/mult {
		return 0, fmt.Errorf("larger than %d MiB", MaxCacheBytes>>20)
	}
	return n * mult, nil
}

// CacheCounts is what the cache simulation counted for one block and thread, or summed over a
// group of blocks. Index 0, 1, 2 of each array is L1, L2, L3; a level the geometry does not
// have counts 0. Instruction fetches are the instructions executed (cachegrind's Ir): each
// instruction is one fetch, whatever lines it spans.
type CacheCounts struct {
	Fetches   int64    // instructions executed (filled in from the block's executions)
	FetchMiss [3]int64 // fetches that missed L1I, then L2, then L3
	Reads     int64    // data loads
	ReadMiss  [3]int64
	Writes    int64 // data stores
	WriteMiss [3]int64
}

// Add sums o into c.
func (c *CacheCounts) Add(o CacheCounts) {
	c.Fetches += o.Fetches
	c.Reads += o.Reads
	c.Writes += o.Writes
	for i := range 3 {
		c.FetchMiss[i] += o.FetchMiss[i]
		c.ReadMiss[i] += o.ReadMiss[i]
		c.WriteMiss[i] += o.WriteMiss[i]
	}
}

// Valid tells whether no count is negative: what a reader may send and a sink keep.
func (c CacheCounts) Valid() bool {
	ok := c.Reads >= 0 && c.Writes >= 0
	for i := range 3 {
		ok = ok && c.FetchMiss[i] >= 0 && c.ReadMiss[i] >= 0 && c.WriteMiss[i] >= 0
	}
	return ok
}

// Misses is every access that missed level i (0: the two L1s together).
func (c CacheCounts) Misses(i int) int64 { return c.FetchMiss[i] + c.ReadMiss[i] + c.WriteMiss[i] }

// Accesses is every access to level i: L1 sees every fetch, read and write; a level below sees
// the misses of the level above it.
func (c CacheCounts) Accesses(i int) int64 {
	if i == 0 {
		return c.Fetches + c.Reads + c.Writes
	}
	return c.Misses(i - 1)
}

// CacheSink is what a BlockSink also implements when it keeps a cache simulation's results.
// Readers call Geometry once per process before its blocks, with where the geometry came from
// when they know it ("profile cortex-a8", "--cache"; "" otherwise), and Misses after the
// block's Block (like Count; several calls for one key add up). A run holds one geometry: a
// sink refuses a second, different one.
type CacheSink interface {
	Geometry(pid int, g CacheGeometry, source string) error
	Misses(pid, tid int, pc uint64, isa ISA, c CacheCounts) error
}

// PipelineModel names the machine model that prices a block's pipeline cycles: llvm-mca's
// -mcpu for the profile's core (empty CPU: the profile has none).
type PipelineModel struct {
	Tool string // the llvm-mca binary, e.g. "llvm-mca-16"; empty means the default
	CPU  string // -mcpu, e.g. "cortex-a8", "neoverse-n1", "silvermont", "mips32r2"
}

// IsZero tells whether the profile names no machine model.
func (m PipelineModel) IsZero() bool { return m.CPU == "" }
