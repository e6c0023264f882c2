package controller

import (
	"context"
	"testing"

	"androprof/model/cost"
	"androprof/store/storetest"
)

// Load gives a simulated run its geometry and each block's counts in the order of Blocks, with
// the fetches (executions × instructions) filled in; a run that was not simulated has none.
func TestLoadCache(t *testing.T) {
	ctx := context.Background()
	db := openStore(t)
	if err := db.ImportRun(ctx, "c", "test", storetest.CachedRun); err != nil {
		t.Fatal(err)
	}
	if err := db.ImportRun(ctx, "plain", "test", storetest.SmallRun); err != nil {
		t.Fatal(err)
	}
	a := &Analysis{store: db}
	d, err := a.Load(ctx, "c")
	if err != nil {
		t.Fatal(err)
	}
	if d.Geometry.String() != "l1i=32k:4:64:lru:wa,l1d=32k:4:64:lru:wa,l2=512k:8:64:lru:wa" || d.GeometrySource != "--cache" || len(d.Cache) != len(d.Blocks) {
		t.Fatalf("geometry %s from %q, %d counts for %d blocks", d.Geometry, d.GeometrySource, len(d.Cache), len(d.Blocks))
	}
	for i, b := range d.Blocks {
		want := cost.CacheCounts{Fetches: 300, FetchMiss: [3]int64{3, 1}, Reads: 100, ReadMiss: [3]int64{3, 1}, Writes: 30, WriteMiss: [3]int64{1, 1}}
		if b.PC == 0x2000 {
			want = cost.CacheCounts{Fetches: 2, FetchMiss: [3]int64{1, 1}}
		}
		if d.Cache[i] != want {
			t.Errorf("block 0x%x: %+v, want %+v", b.PC, d.Cache[i], want)
		}
	}
	plain, err := a.Load(ctx, "plain")
	if err != nil {
		t.Fatal(err)
	}
	if !plain.Geometry.IsZero() || plain.Cache != nil {
		t.Errorf("plain run: geometry %v, cache %v", plain.Geometry, plain.Cache)
	}
}
