package store

import (
	"context"
	"fmt"
	"reflect"
	"testing"

	"androprof/pipeline"
	"androprof/store/storetest"
)

// BlockEncodings gives each block's encodings in instruction order, by block id.
func TestBlockEncodings(t *testing.T) {
	ctx := context.Background()
	db := openTemp(t)
	if err := db.ImportRun(ctx, "small", "test", storetest.SmallRun); err != nil {
		t.Fatal(err)
	}
	blocks, err := db.Blocks(ctx, "small")
	if err != nil {
		t.Fatal(err)
	}
	enc, err := db.BlockEncodings(ctx, "small")
	if err != nil {
		t.Fatal(err)
	}
	want := map[uint64][]string{0x1000: {"e2800001", "e3500064", "1afffffc"}, 0x2000: {"2001", "4770"}}
	if len(enc) != len(want) {
		t.Errorf("encodings of %d blocks, want %d: %v", len(enc), len(want), enc)
	}
	for _, b := range blocks {
		if !reflect.DeepEqual(enc[b.ID], want[b.PC]) {
			t.Errorf("block 0x%x: %v, want %v", b.PC, enc[b.ID], want[b.PC])
		}
	}
	if _, err := db.BlockEncodings(ctx, "nosuchrun"); err == nil {
		t.Error("BlockEncodings of a run that does not exist: no error")
	}
}

// Saved cycles come back by key, a block the model could not price with no cycles and its
// note, keys never saved not at all; saving a key again replaces it; more keys than one query
// binds are read whole.
func TestPipelineCycles(t *testing.T) {
	ctx := context.Background()
	db := openTemp(t)
	saved := map[string]pipeline.Result{
		"llvm-mca-16|cortex-a55|aarch64-linux-gnu|9b017c00":     {Cycles: 3.02, OK: true},
		"llvm-mca-16|cortex-a8|armv7a-linux-gnueabihf|e0800001": {Note: "no scheduling model"},
	}
	for i := range 1200 {
		saved[fmt.Sprintf("k%d", i)] = pipeline.Result{Cycles: float64(i) / 4, OK: true}
	}
	if err := db.SavePipelineCycles(ctx, saved); err != nil {
		t.Fatal(err)
	}
	keys := []string{"never"}
	for k := range saved {
		keys = append(keys, k)
	}
	got, err := db.PipelineCycles(ctx, keys)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got, saved) {
		t.Errorf("read back %d results, saved %d; e.g. %+v", len(got), len(saved), got["llvm-mca-16|cortex-a8|armv7a-linux-gnueabihf|e0800001"])
	}
	again := map[string]pipeline.Result{"k7": {Note: "now refused"}}
	if err := db.SavePipelineCycles(ctx, again); err != nil {
		t.Fatal(err)
	}
	if got, err := db.PipelineCycles(ctx, []string{"k7"}); err != nil || !reflect.DeepEqual(got, again) {
		t.Errorf("after saving k7 again: %+v, %v", got, err)
	}
	if got, err := db.PipelineCycles(ctx, nil); err != nil || len(got) != 0 {
		t.Errorf("no keys: %+v, %v", got, err)
	}
}

// A cancelled save keeps nothing.
func TestSavePipelineCyclesCancelled(t *testing.T) {
	db := openTemp(t)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if err := db.SavePipelineCycles(ctx, map[string]pipeline.Result{"k": {Cycles: 1, OK: true}}); err == nil {
		t.Error("a cancelled save succeeded")
	}
	if got, err := db.PipelineCycles(context.Background(), []string{"k"}); err != nil || len(got) != 0 {
		t.Errorf("after a cancelled save: %+v, %v", got, err)
	}
}
