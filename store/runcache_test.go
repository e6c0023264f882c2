package store

import (
	"context"
	"fmt"
	"os"
	"reflect"
	"strings"
	"testing"

	"androprof/model"
	"androprof/model/cost"
	"androprof/store/storetest"
)

// An import with cache data gives back its geometry, its source and each block's counts summed
// over threads (per thread too); deleting the run removes them.
func TestRunCache(t *testing.T) {
	ctx := context.Background()
	db := openTemp(t)
	if err := db.ImportRun(ctx, "c", "test", storetest.CachedRun); err != nil {
		t.Fatal(err)
	}
	g, source, perBlock, err := db.RunCache(ctx, "c")
	if err != nil {
		t.Fatal(err)
	}
	want, _ := cost.ParseCacheGeometry(storetest.CachedGeometry)
	if !reflect.DeepEqual(g, want) || source != "--cache" {
		t.Errorf("geometry %s from %q", g, source)
	}
	ids := blockIDs(t, db, "c")
	loop, child := ids[0x1000], ids[0x2000]
	wantBlocks := map[int64]cost.CacheCounts{
		loop:  {FetchMiss: [3]int64{3, 1}, Reads: 100, ReadMiss: [3]int64{3, 1}, Writes: 30, WriteMiss: [3]int64{1, 1}},
		child: {FetchMiss: [3]int64{1, 1}},
	}
	if !reflect.DeepEqual(perBlock, wantBlocks) {
		t.Errorf("per block %+v\nwant %+v", perBlock, wantBlocks)
	}
	threads, err := db.ThreadCache(ctx, "c")
	if err != nil || len(threads) != 3 || threads[ThreadBlock{PID: 10, TID: 1, Block: loop}] != (cost.CacheCounts{Reads: 40, ReadMiss: [3]int64{1}}) {
		t.Errorf("per thread %+v, %v", threads, err)
	}
	if err := db.DeleteRun(ctx, "c"); err != nil {
		t.Fatal(err)
	}
	if n := tableCounts(t, db); n["run_cache"] != 0 || n["block_cache"] != 0 {
		t.Errorf("after delete: %v", n)
	}
}

func blockIDs(t *testing.T, db *DB, run string) map[uint64]int64 {
	t.Helper()
	blocks, err := db.Blocks(context.Background(), run)
	if err != nil {
		t.Fatal(err)
	}
	out := map[uint64]int64{}
	for _, b := range blocks {
		out[b.PC] = b.ID
	}
	return out
}

// A run that was not simulated has no geometry and no counts.
func TestRunCacheNone(t *testing.T) {
	ctx := context.Background()
	db := openTemp(t)
	if err := db.ImportRun(ctx, "plain", "test", storetest.SmallRun); err != nil {
		t.Fatal(err)
	}
	g, source, perBlock, err := db.RunCache(ctx, "plain")
	if err != nil || !g.IsZero() || source != "" || perBlock != nil {
		t.Errorf("geometry %v from %q, counts %v, %v", g, source, perBlock, err)
	}
	if threads, err := db.ThreadCache(ctx, "plain"); err != nil || threads != nil {
		t.Errorf("per thread %v, %v", threads, err)
	}
	if _, _, _, err := db.RunCache(ctx, "nothing"); err == nil {
		t.Error("a run that does not exist")
	}
}

// process feeds one more process of one block, simulated with the geometry spec or not ("").
func process(pid int, spec string) func(cost.BlockSink) error {
	return func(s cost.BlockSink) error {
		if err := s.Process(model.Process{PID: pid, Name: "more"}); err != nil {
			return err
		}
		if spec != "" {
			g, err := cost.ParseCacheGeometry(spec)
			if err != nil {
				return err
			}
			if err := s.(cost.CacheSink).Geometry(pid, g, "--cache"); err != nil {
				return err
			}
		}
		b := &cost.Block{PC: 0x3000, ISA: cost.ARM, Insns: []cost.Insn{{Addr: 0x3000, Encoding: "e1a00000", Mnemonic: "nop", Class: "NOP"}}}
		if err := s.Block(pid, b); err != nil {
			return err
		}
		return s.Count(pid, pid, b.PC, b.ISA, 1)
	}
}

// both feeds one import after the other.
func both(a, b func(cost.BlockSink) error) func(cost.BlockSink) error {
	return func(s cost.BlockSink) error {
		if err := a(s); err != nil {
			return err
		}
		return b(s)
	}
}

// A run holds one geometry, and is simulated throughout or not at all: imports that would mix
// them are refused with a message saying so, and change nothing. One with the same geometry
// joins the run.
func TestRunCacheOneGeometry(t *testing.T) {
	ctx := context.Background()
	db := openTemp(t)
	for run, feed := range map[string]func(cost.BlockSink) error{"c": storetest.CachedRun, "plain": storetest.SmallRun} {
		if err := db.ImportRun(ctx, run, "test", feed); err != nil {
			t.Fatal(err)
		}
	}
	before := tableCounts(t, db)
	const other = "l1i=16k:4:64,l1d=32k:4:64,l2=512k:8:64"
	for _, tc := range []struct {
		run  string
		feed func(cost.BlockSink) error
		msg  string
	}{
		{"c", process(20, other), `process 20 was simulated with the cache l1i=16k:4:64:lru:wa,l1d=32k:4:64:lru:wa,l2=512k:8:64:lru:wa, but run "c" holds misses for l1i=32k`},
		{"c", process(20, ""), `process 20 has no cache simulation, but run "c" holds misses`},
		{"plain", process(20, storetest.CachedGeometry), `run "plain" was imported without a simulation`},
		{"new", both(process(20, storetest.CachedGeometry), process(21, other)), "process 21 was simulated with the cache l1i=16k"},
		{"new", both(process(20, storetest.CachedGeometry), process(21, "")), "process 21 has no cache simulation"},
		{"new", both(process(20, ""), process(21, storetest.CachedGeometry)), "process 21 was cache-simulated, but process 20 of the same import was not"},
	} {
		err := db.ImportRun(ctx, tc.run, "more", tc.feed)
		if err == nil || !strings.Contains(err.Error(), tc.msg) {
			t.Errorf("into %s: got %v, want %q", tc.run, err, tc.msg)
		}
	}
	if after := tableCounts(t, db); !reflect.DeepEqual(before, after) {
		t.Errorf("refused imports changed the tables:\n%v\n%v", before, after)
	}
	if err := db.ImportRun(ctx, "c", "more", process(20, storetest.CachedGeometry)); err != nil {
		t.Fatal(err)
	}
	if after := tableCounts(t, db); after["run_cache"] != 3 || after["process"] != before["process"]+1 {
		t.Errorf("same geometry: %v", after)
	}
}

// Misses need a block, a geometry and counts that are not negative.
func TestMissesRefused(t *testing.T) {
	ctx := context.Background()
	db := openTemp(t)
	g, _ := cost.ParseCacheGeometry(storetest.CachedGeometry)
	for _, tc := range []struct {
		feed func(cost.CacheSink) error
		msg  string
	}{
		{func(s cost.CacheSink) error { return s.Misses(20, 20, 0x9999, cost.ARM, cost.CacheCounts{}) }, "has no instructions in the input"},
		{func(s cost.CacheSink) error { return s.Misses(20, 20, 0x3000, cost.ARM, cost.CacheCounts{Reads: -1}) }, "negative cache counts"},
		{func(s cost.CacheSink) error { return s.Geometry(20, cost.CacheGeometry{Levels: g.Levels[:2]}, "") }, "no l2"},
	} {
		err := db.ImportRun(ctx, "r", "", func(s cost.BlockSink) error {
			if err := process(20, storetest.CachedGeometry)(s); err != nil {
				return err
			}
			return tc.feed(s.(cost.CacheSink))
		})
		if err == nil || !strings.Contains(err.Error(), tc.msg) {
			t.Errorf("got %v, want %q", err, tc.msg)
		}
	}
	err := db.ImportRun(ctx, "r", "", func(s cost.BlockSink) error {
		if err := process(20, "")(s); err != nil {
			return err
		}
		return s.(cost.CacheSink).Misses(20, 20, 0x3000, cost.ARM, cost.CacheCounts{})
	})
	if err == nil || !strings.Contains(err.Error(), "but no cache geometry") {
		t.Errorf("misses without a geometry: %v", err)
	}
}

// The examples of docs/schema.md's cache section run as written and give the numbers of
// CachedRun: per function its fetches and misses, and the geometry.
func TestSchemaCacheExamples(t *testing.T) {
	ctx := context.Background()
	db := openTemp(t)
	if err := db.ImportRun(ctx, "demo-sieve-arm-cache", "test", storetest.CachedRun); err != nil {
		t.Fatal(err)
	}
	doc, err := os.ReadFile("../docs/schema.md")
	if err != nil {
		t.Fatal(err)
	}
	_, section, _ := strings.Cut(string(doc), "## Cache simulation and pipeline cycles")
	var queries []string
	for _, part := range strings.Split(section, "```sql\n")[1:] {
		q, _, _ := strings.Cut(part, "```")
		queries = append(queries, q)
	}
	if len(queries) != 2 {
		t.Fatalf("%d SQL examples", len(queries))
	}
	got := queryRows(t, db, queries[0])
	want := [][]string{
		{"10", "", "loop", "300", "3", "130", "4", "3", "1", "3.08"},
		{"11", "", "main", "2", "1", "0", "0", "1", "50", "<nil>"},
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("misses per function:\n%v\nwant\n%v", got, want)
	}
	if got := queryRows(t, db, queries[1]); len(got) != 3 || strings.Join(got[1], " ") != "l1d 32768 4 64 lru 1 --cache" {
		t.Errorf("geometry: %v", got)
	}
}

// queryRows runs a query and prints each value as fmt does.
func queryRows(t *testing.T, db *DB, q string) [][]string {
	t.Helper()
	rows, err := db.read.Query(q)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	cols, _ := rows.Columns()
	var out [][]string
	for rows.Next() {
		vals := make([]any, len(cols))
		ptrs := make([]any, len(cols))
		for i := range vals {
			ptrs[i] = &vals[i]
		}
		if err := rows.Scan(ptrs...); err != nil {
			t.Fatal(err)
		}
		row := make([]string, len(vals))
		for i, v := range vals {
			row[i] = fmt.Sprint(v)
		}
		out = append(out, row)
	}
	return out
}
