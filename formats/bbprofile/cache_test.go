package bbprofile

import (
	"bytes"
	"reflect"
	"strings"
	"testing"

	"androprof/model"
	"androprof/model/cost"
)

// v3 is a cache-simulated process as the plugin writes it: geometry, then blocks whose exec lines
// are followed by each thread's misses (no l3: its fields are -).
const v3 = `androprof-bbprofile 3
process 5 0 arm 0x10000 /bin/x
thread 5
thread 6
cache l1i 32768 4 64 lru wa
cache l1d 32768 4 64 lru wa
cache l2 524288 8 64 plru nwa
block 1 0x10000 ARM 2 - main
insn 0x10000 0000a0e1 mov r0, r0
insn 0x10004 0000a0e1 mov r0, r0
exec 5 10
exec 6 3
misses 5 2 1 - 7 3 1 - 4 2 2 -
misses 6 6 0 - 0 0 0 - 0 0 0 -
block 2 0x10008 ARM 1 - main
insn 0x10008 0000a0e1 mov r0, r0
exec 5 1
end
`

// The geometry reaches a CacheSink once, before the blocks, with the reader's source; each
// misses line reaches it as counts; and a file written from what was read reads back the same.
func TestReadCacheLines(t *testing.T) {
	br := NewReader(strings.NewReader(v3), "x")
	br.GeometrySource = "profile cortex-a8"
	c := NewCollector()
	if err := br.Feed(c); err != nil {
		t.Fatal(err)
	}
	g, err := cost.ParseCacheGeometry("l1i=32k:4:64,l1d=32k:4:64,l2=512k:8:64:plru:nwa")
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(c.Geometries, map[int]cost.CacheGeometry{5: g}) || c.GeometrySource != "profile cortex-a8" {
		t.Errorf("geometries %+v from %q", c.Geometries, c.GeometrySource)
	}
	key := cost.BlockKey{PID: 5, PC: 0x10000, ISA: cost.ARM}
	want := map[ThreadBlock]cost.CacheCounts{
		{key, 5}: {FetchMiss: [3]int64{2, 1}, Reads: 7, ReadMiss: [3]int64{3, 1}, Writes: 4, WriteMiss: [3]int64{2, 2}},
		{key, 6}: {FetchMiss: [3]int64{6}},
	}
	if !reflect.DeepEqual(c.Cache, want) {
		t.Errorf("cache counts %+v", c.Cache)
	}
	checkCacheRoundTrip(t, c, "misses 5 2 1 - 7 3 1 - 4 2 2 -\nmisses 6 6 0 - 0 0 0 - 0 0 0 -\n")
}

// checkCacheRoundTrip writes c, which must hold lines, and reads it back to the same cache data.
func checkCacheRoundTrip(t *testing.T, c *Collector, lines string) {
	t.Helper()
	var w bytes.Buffer
	if err := Write(&w, c, nil); err != nil {
		t.Fatal(err)
	}
	back, err := collectBB(t, w.String(), "written")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(w.String(), "androprof-bbprofile 3\n") || !strings.Contains(w.String(), lines) ||
		!reflect.DeepEqual(back.Geometries, c.Geometries) || !reflect.DeepEqual(back.Cache, c.Cache) {
		t.Errorf("written\n%s\nread back %+v %+v", w.String(), back.Geometries, back.Cache)
	}
}

// A sink that keeps no cache data reads a simulated profile like a plain one.
func TestCacheLinesIgnoredByPlainSinks(t *testing.T) {
	var s plainSink
	if err := NewReader(strings.NewReader(v3), "x").Feed(&s); err != nil {
		t.Fatal(err)
	}
	if s.execs != 14 {
		t.Errorf("%d executions", s.execs)
	}
}

type plainSink struct{ execs int64 }

func (s *plainSink) Process(model.Process) error  { return nil }
func (s *plainSink) Thread(model.Thread) error    { return nil }
func (s *plainSink) Block(int, *cost.Block) error { return nil }
func (s *plainSink) Count(_, _ int, _ uint64, _ cost.ISA, n int64) error {
	s.execs += n
	return nil
}

// A hierarchy with an l3, a process that ran no block, and the largest counts: all written back
// as read. Plain sections written by a plain writer stay version 2.
func TestCacheRoundTripL3(t *testing.T) {
	src := "androprof-bbprofile 3\nprocess 7 0 x86_64 0x400000 /p\nthread 7\n" +
		"cache l1i 32768 8 64 lru wa\ncache l1d 49152 12 64 lru wa\ncache l2 1048576 16 64 lru wa\ncache l3 33554432 16 64 random wa\n" +
		"block 0 0x401000 x86-64 1 - f\ninsn 0x401000 90 nop\nexec 7 4611686018427387904\n" +
		"misses 7 4611686018427387904 4611686018427387904 1 4611686018427387904 9 8 7 3 3 2 1\nend\n" +
		"process 8 7 x86_64 0x400000 /p\ncache l1i 32768 8 64 lru wa\ncache l1d 49152 12 64 lru wa\ncache l2 1048576 16 64 lru wa\ncache l3 33554432 16 64 random wa\nend\n"
	c, err := collectBB(t, src, "l3")
	if err != nil {
		t.Fatal(err)
	}
	if len(c.Geometries) != 2 || c.Geometries[8].Level(cost.L3) == nil {
		t.Errorf("geometries %+v", c.Geometries)
	}
	checkCacheRoundTrip(t, c, "misses 7 4611686018427387904 4611686018427387904 1 4611686018427387904 9 8 7 3 3 2 1\n")
	var w bytes.Buffer
	plain := NewCollector()
	plain.Process(model.Process{PID: 1, Name: "p"})
	w.Reset()
	if err := Write(&w, plain, nil); err != nil || !strings.HasPrefix(w.String(), "androprof-bbprofile 2\n") {
		t.Errorf("plain profile written as %q (%v)", w.String(), err)
	}
}

// The writer refuses cache data it cannot write: in version 2, after a block, misses without a
// geometry, and a geometry Validate refuses.
func TestWriterCacheRefusals(t *testing.T) {
	g, _ := cost.ParseCacheGeometry("l1i=32k:4:64,l1d=32k:4:64,l2=512k:8:64")
	blk := &cost.Block{PC: 0x10000, ISA: cost.ARM, Insns: []cost.Insn{{Addr: 0x10000, Encoding: "e1a00000", Mnemonic: "nop"}}}
	miss := []ThreadCount{{TID: 1, Executions: 1, Cache: &cost.CacheCounts{}}}
	open := func(w *Writer) *Writer { w.Process(Process{Process: model.Process{PID: 1}}); return w }
	var sink bytes.Buffer
	if err := open(NewWriter(&sink)).Cache(g); err == nil {
		t.Error("cache lines in version 2")
	}
	w := open(NewCacheWriter(&sink))
	if err := w.Block(0, blk, miss); err == nil {
		t.Error("misses without a geometry")
	}
	if err := w.Cache(g); err == nil {
		t.Error("cache lines after a block")
	}
	bad := g
	bad.Levels = g.Levels[:2]
	if err := open(NewCacheWriter(&sink)).Cache(bad); err == nil || !strings.Contains(err.Error(), "no l2") {
		t.Errorf("geometry without l2: %v", err)
	}
}

// Each refusal names its line.
func TestCacheErrors(t *testing.T) {
	const p = "androprof-bbprofile 3\nprocess 5 0 arm 0x10000 /bin/x\n"
	const geo = "cache l1i 32768 4 64 lru wa\ncache l1d 32768 4 64 lru wa\ncache l2 524288 8 64 lru wa\n" // lines 3-5
	const blk = "block 1 0x1000 ARM 2 - f\ninsn 0x1000 0000a0e1 nop\ninsn 0x1004 0000a0e1 nop\n"          // lines 6-8
	const sim = p + geo + blk + "exec 5 10\n"                                                             // exec: line 9
	checkBBErrors(t, []bbErrorCase{
		{"androprof-bbprofile 2\nprocess 5 0 arm 0x10000 /bin/x\n" + geo, 3, "cache line in a version 2 profile"},
		{"androprof-bbprofile 2\nprocess 5 0 arm 0x10000 /bin/x\n" + blk + "exec 5 1\nmisses 5 0 0 - 0 0 0 - 0 0 0 -\n", 7, "misses line in a version 2 profile"},
		// bad geometry, at the level's own line
		{p + "cache l1i 32768 4 48 lru wa\n", 3, "cache level l1i: line size 48 bytes is not a power of two"},
		{p + "cache l1i 32 4 64 lru wa\n", 3, "cache level l1i: size 32 bytes is smaller than a line"},
		{p + "cache l1i 256 8 64 lru wa\n", 3, "cache level l1i: 8 ways is more than its 4 lines"},
		{p + "cache l1i 32768 4 64 mru wa\n", 3, `unknown replacement "mru"`},
		{p + "cache l1i 32768 4 64 lru wb\n", 3, `write policy "wb" is neither wa nor nwa`},
		{p + "cache l1i 99999999999999999999999 4 64 lru wa\n", 3, "bad size"},
		{p + "cache l1i 32768 -4 64 lru wa\n", 3, "bad associativity"},
		{p + "cache l1i 32768 4 64 lru\n", 3, "want 6 fields, found 5"},
		{p + "cache l1d 32768 4 64 lru wa\n", 3, `cache level "l1d" where l1i comes`},
		{p + geo + "cache l2 524288 8 64 lru wa\n", 6, `cache level "l2" where l3 comes`},
		{p + geo + "cache l3 524288 8 64 lru wa\ncache l3 524288 8 64 lru wa\n", 7, "more than 4 cache lines"},
		// the hierarchy as a whole, at the first block or the end
		{p + "cache l1i 32768 4 64 lru wa\ncache l1d 32768 4 64 lru wa\n" + blk, 5, "cache lines from line 3: the cache geometry has no l2"},
		{p + "cache l1i 32768 4 64 lru wa\nend\n", 4, "has no l1d"},
		{p + geo + blk + "cache l3 524288 8 64 lru wa\n", 9, "cache line after the first block"},
		// misses lines
		{p + blk + "exec 5 1\nmisses 5 0 0 - 0 0 0 - 0 0 0 -\n", 10 - 3, "which has no cache lines"},
		{p + geo + "misses 5 0 0 - 0 0 0 - 0 0 0 -\n", 6, "misses line before any block"},
		{p + geo + blk + "misses 5 0 0 - 0 0 0 - 0 0 0 -\n", 9, "thread 5, which has no exec line for block 1"},
		{sim + "misses 6 0 0 - 0 0 0 - 0 0 0 -\n", 10, "thread 6, which has no exec line"},
		{sim + "misses 5 0 0 - 0 0 0 - 0 0 0 -\nmisses 5 0 0 - 0 0 0 - 0 0 0 -\n", 11, "second misses line of thread 5"},
		{sim + "misses 5 0 0 - 0 0 0 - 0 0 0 -\nexec 5 1\n", 11, "exec line of thread 5 after its misses line"},
		{sim + "misses 5 0 0 0 0 0 0 - 0 0 0 -\n", 10, `fetch misses at L3 "0" for a level the cache geometry lacks`},
		{sim + "misses 5 0 - - 0 0 0 - 0 0 0 -\n", 10, `bad fetch misses at L2 "-"`},
		{sim + "misses 5 0 0 - - 0 0 - 0 0 0 -\n", 10, `bad data reads "-"`},
		{sim + "misses 5 0 0 - 0 0 0 - 0 0 0\n", 10, "want 12 fields, found 11"},
		{sim + "misses 5 0 0 - 0 0 0 - 0 0 0 - 0\n", 10, "unexpected"},
		{sim + "misses 5 0 0 - 4611686018427387905 0 0 - 0 0 0 -\n", 10, "bad data reads"},
		{sim + "misses 5 21 0 - 0 0 0 - 0 0 0 -\n", 10, "21 fetches missed L1, more than its 20 fetches"},
		{sim + "misses 5 2 3 - 0 0 0 - 0 0 0 -\n", 10, "3 fetches missed L2, more than its 2 misses at L1"},
		{sim + "misses 5 0 0 - 4 5 0 - 0 0 0 -\n", 10, "5 reads missed L1, more than its 4 reads"},
		{sim + "misses 5 0 0 - 0 0 0 - 6 2 3 -\n", 10, "3 writes missed L2, more than its 2 misses at L1"},
	})
}

// Misses are checked against one thread's exec lines of the block: several add up.
func TestMissesSeveralExecLines(t *testing.T) {
	src := "androprof-bbprofile 3\nprocess 5 0 arm 0x10000 /bin/x\n" +
		"cache l1i 1024 1 64 lru wa\ncache l1d 1024 1 64 lru nwa\ncache l2 4096 2 64 round-robin wa\n" +
		"block 1 0x1000 ARM 1 - f\ninsn 0x1000 0000a0e1 nop\nexec 5 1\nexec 5 2\nmisses 5 3 3 - 0 0 0 - 0 0 0 -\nend\n"
	if _, err := collectBB(t, src, "x"); err != nil {
		t.Fatal(err)
	}
}
