package emulator

import (
	"math/rand/v2"
	"path/filepath"
	"testing"

	"androprof/emulator/qemutest"
	"androprof/formats/bbprofile"
	"androprof/model/cost"
)

// refSet is one set of a cache in a few lines: the reference the plugin's replacement policies
// are checked against. Tags are line numbers, 0 an empty way; an empty way is filled first.
type refSet struct {
	policy cost.Replacement
	tags   []int  // lru: most recent first; others: by way
	bits   uint64 // plru: bit k set = node k+1 points right, to the next victim
	next   int    // round-robin: the next way to fill
}

// access references line and says whether it missed.
func (s *refSet) access(line int) bool {
	for w, tag := range s.tags {
		if tag == line {
			if s.policy == cost.LRU {
				copy(s.tags[1:w+1], s.tags[:w])
				s.tags[0] = line
			}
			s.touch(w)
			return false
		}
	}
	if s.policy == cost.LRU {
		copy(s.tags[1:], s.tags)
		s.tags[0] = line
		return true
	}
	w := s.victim()
	s.tags[w] = line
	s.touch(w)
	return true
}

func (s *refSet) touch(w int) {
	if s.policy != cost.PLRU {
		return
	}
	node := 1
	for d := len(s.tags) / 2; d >= 1; d /= 2 {
		right := w & d
		if right != 0 {
			s.bits &^= 1 << (node - 1)
		} else {
			s.bits |= 1 << (node - 1)
		}
		node = 2 * node
		if right != 0 {
			node++
		}
	}
}

func (s *refSet) victim() int {
	for w, tag := range s.tags {
		if tag == 0 {
			return w
		}
	}
	if s.policy == cost.RoundRobin {
		w := s.next
		s.next = (w + 1) % len(s.tags)
		return w
	}
	w, node := 0, 1
	for d := len(s.tags); d > 1; d /= 2 {
		right := int(s.bits>>(node-1)) & 1
		w, node = 2*w+right, 2*node+right
	}
	return w
}

// patternMisses is the misses of testdata/cacheprops.c's pattern(): A B A C D E, fifty times.
func patternMisses(policy cost.Replacement, s *refSet) int64 {
	s.policy = policy
	var misses int64
	for range 50 {
		for _, line := range []int{101, 102, 101, 103, 104, 105} {
			if s.access(line) {
				misses++
			}
		}
	}
	return misses
}

// pattern() first reads four lines it never reads again, so the set holds only such lines
// (in some order, with some replacement state) when A B A C D E starts. The pattern is one
// whose misses then do not depend on that state under LRU, pseudo-LRU and round-robin.
func TestPatternMissesDoNotDependOnTheStart(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for _, p := range []cost.Replacement{cost.LRU, cost.PLRU, cost.RoundRobin} {
		want := patternMisses(p, deadSet())
		for range 100 {
			s := deadSet()
			s.bits, s.next = rng.Uint64N(8), rng.IntN(4)
			rng.Shuffle(4, func(i, j int) { s.tags[i], s.tags[j] = s.tags[j], s.tags[i] })
			if got := patternMisses(p, s); got != want {
				t.Fatalf("%s: %d misses from %+v, %d from %+v", p, got, s, want, deadSet())
			}
		}
		t.Logf("%s: %d misses", p, want)
	}
}

// deadSet is a 4-way set full of lines the pattern does not read.
func deadSet() *refSet { return &refSet{tags: []int{1, 2, 3, 4}} }

// The simulation's replacement policies and write policies, on every guest, against what is
// known of testdata/cacheprops.c: pattern() reads 304 times and misses the L1D 4 times and
// then as the reference set does (LRU 201, pseudo-LRU 152, round-robin 250; random: the same
// count in two runs, between the 9 first misses and all 304); stream() writes 16384 times, and misses
// each of its 1024 fresh lines once with write-allocate, every write without.
func TestCacheReplacementAndWritePolicies(t *testing.T) {
	qemutest.Require(t, "gcc")
	src := filepath.Join("testdata", "cacheprops.c")
	for _, tg := range qemutest.Targets {
		t.Run(tg.Name, func(t *testing.T) {
			bin := qemutest.Build(t, tg, src)
			run := func(spec string) (pattern, stream cost.CacheCounts) {
				g, err := cost.ParseCacheGeometry(spec)
				if err != nil {
					t.Fatal(err)
				}
				c, err := runCollect(t, RunOptions{Program: bin, Cache: &g})
				if err != nil {
					t.Fatal(err)
				}
				return functionCounts(t, c, "pattern"), functionCounts(t, c, "stream")
			}
			for _, p := range []cost.Replacement{cost.LRU, cost.PLRU, cost.RoundRobin, cost.Random} {
				pat, str := run("l1i=4k:4:64,l1d=4k:4:64:" + string(p) + ",l2=64k:8:64:" + string(p))
				want := 4 + patternMisses(p, deadSet())
				if p == cost.Random {
					again, _ := run("l1i=4k:4:64,l1d=4k:4:64:random,l2=64k:8:64:random")
					want = again.ReadMiss[0]
					if want <= 9 || want >= 304 {
						t.Errorf("random: %d of 304 reads missed", want)
					}
				}
				if pat.Reads != 304 || pat.ReadMiss[0] != want {
					t.Errorf("%s: pattern %+v, want 304 reads and %d misses at L1D", p, pat, want)
				}
				if str.Writes != 16384 || str.WriteMiss != [3]int64{1024, 1024, 0} || str.Reads != 0 {
					t.Errorf("%s: stream %+v, want 16384 writes and 1024 misses at L1D and L2 (write-allocate)", p, str)
				}
			}
			_, str := run("l1i=4k:4:64,l1d=4k:4:64:lru:nwa,l2=64k:8:64:lru:nwa,l3=256k:8:64:lru:wa")
			if str.Writes != 16384 || str.WriteMiss != [3]int64{16384, 16384, 1024} {
				t.Errorf("nwa: stream %+v, want every write to miss L1D and L2, and each line once the write-allocating L3", str)
			}
		})
	}
}

// functionCounts sums a run's cache counts over the blocks of one function but its last, the
// one that returns: x86's ret and Thumb's pop read the stack, which the loops never touch and
// whose set is anyone's.
func functionCounts(t *testing.T, c *bbprofile.Collector, fn string) cost.CacheCounts {
	t.Helper()
	var last uint64
	for k := range c.Cache {
		if c.Blocks[k.BlockKey].Symbol == fn {
			last = max(last, k.PC)
		}
	}
	var sum cost.CacheCounts
	for k, m := range c.Cache {
		if c.Blocks[k.BlockKey].Symbol == fn && k.PC != last {
			sum.Add(m)
		}
	}
	if last == 0 {
		t.Fatalf("no simulated block of %s", fn)
	}
	return sum
}
