package store

import (
	"context"
	"errors"
	"math"
	"reflect"
	"strings"
	"testing"

	"androprof/model"
	"androprof/model/cost"
	"androprof/model/heap"
)

// heapFixture has a value in every field, so a column mixed up on the way in or out shows.
func heapFixture() *heap.HeapProfile {
	c := func(n uint64) heap.HeapCount {
		return heap.HeapCount{Objects: n, Bytes: 8 * n, ArrayObjects: n / 2, ArrayBytes: 4 * n}
	}
	return &heap.HeapProfile{
		Header: heap.HeapHeader{Format: "heaplog", Version: 1, VM: "test VM", Props: map[string]string{"command": "java Demo"}},
		Cohort: 256, End: 4096,
		Allocated: c(100), Freed: c(60), MaxLive: c(50), MaxLiveAt: 2048, UnknownFrees: 3,
		Classes: []heap.HeapClassInfo{{ID: 1, Name: "java/lang/String"}, {ID: 2, Name: "[I", Array: true}},
		Threads: []heap.HeapThreadInfo{{ID: 1, Name: "main", Group: "main", Start: 0}, {ID: 2, Name: "worker 1", Start: 16, End: 900, Ended: true}},
		GCs:     []heap.HeapGC{{Kind: heap.GCUnknown, Start: 1024, End: 1024}, {Kind: heap.GCExplicit, Start: 3000, End: 3000}},
		Cells: []heap.HeapCell{
			{Scope: heap.ScopeCohort, Key: 0, Bucket: 0, Born: c(10), Survived: c(4), Died: c(2), Lifetime: 99, ArrayLifetime: 33},
			{Scope: heap.ScopeSize, Key: 24, Bucket: 15, Born: c(1), Died: c(1), Lifetime: 7},
		},
		Pointers: []heap.HeapPointers{{Snapshot: false, Bucket: 1, Distance: -3, Count: 5}, {Snapshot: true, Bucket: 15, Distance: 12, Count: 40}},
	}
}

func TestHeapRunRoundTrip(t *testing.T) {
	ctx := context.Background()
	db := openTemp(t)
	want := heapFixture()
	if err := db.ImportHeapRun(ctx, "heap", "demo.heaplog", want); err != nil {
		t.Fatal(err)
	}
	got, err := db.HeapProfile(ctx, "heap")
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("round trip:\n got %+v\nwant %+v", got, want)
	}
	if err := db.ImportHeapRun(ctx, "heap", "again", want); err == nil || !strings.Contains(err.Error(), "exists already") {
		t.Errorf("second import under the same name: %v", err)
	}
	if _, err := db.HeapDump(ctx, "heap"); err == nil || !strings.Contains(err.Error(), "is a heap log, not a heap dump") {
		t.Errorf("a heap log read as a dump: %v", err)
	}
	if _, err := db.HeapProfile(ctx, "nope"); !errors.Is(err, cost.ErrNotFound) {
		t.Errorf("missing run: %v", err)
	}
	runs, err := db.Runs(ctx)
	if err != nil || len(runs) != 1 || runs[0].Kind != model.RunKindHeap {
		t.Errorf("runs = %+v, %v", runs, err)
	}
}

func TestHeapDumpRoundTrip(t *testing.T) {
	ctx := context.Background()
	db := openTemp(t)
	want := &heap.HeapDump{
		Version: "JAVA PROFILE 1.0.3", IDSize: 4, Timestamp: 1400000000000, Heaps: []string{"zygote", "app"},
		LoadedClasses: 10, ArrayClasses: 2, Roots: 7,
		Classes: []heap.DumpClass{
			{Name: "int[]", Heap: "app", Array: true, DumpCount: heap.DumpCount{Objects: 3, Bytes: 120}},
			{Name: "java.lang.String", Heap: "zygote", DumpCount: heap.DumpCount{Objects: 5, Bytes: 100}},
		},
		Sizes:    []heap.DumpSize{{Heap: "app", SizeClass: 48, Instances: heap.DumpCount{Objects: 1, Bytes: 40}, Arrays: heap.DumpCount{Objects: 3, Bytes: 120}}},
		Pointers: []heap.DumpPointers{{Heap: "app", Bucket: -5, Count: 2}, {Heap: "app", Bucket: 9, Count: 6}},
	}
	if err := db.ImportDumpRun(ctx, "dump", "dialer.hprof", want); err != nil {
		t.Fatal(err)
	}
	got, err := db.HeapDump(ctx, "dump")
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("round trip:\n got %+v\nwant %+v", got, want)
	}
}

// A failed import leaves nothing behind: the run row goes with the rest of the transaction.
func TestHeapImportFailureLeavesNothing(t *testing.T) {
	ctx := context.Background()
	db := openTemp(t)
	p := heapFixture()
	p.Classes = append(p.Classes, p.Classes[0]) // duplicate primary key: the insert fails midway
	if err := db.ImportHeapRun(ctx, "bad", "x", p); err == nil {
		t.Fatal("import with a duplicate class succeeded")
	}
	runs, err := db.Runs(ctx)
	if err != nil || len(runs) != 0 {
		t.Errorf("after a failed import runs = %+v, %v", runs, err)
	}
	ctx2, cancel := context.WithCancel(ctx)
	cancel()
	if err := db.ImportHeapRun(ctx2, "cancelled", "x", heapFixture()); !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled import: %v", err)
	}
}

// Counts of 2^63 or more (a log may claim them: `s 8 64 18446744073709551615`) read back as
// written; they once made every read of the committed run fail.
func TestHeapHugeCountsRoundTrip(t *testing.T) {
	ctx := context.Background()
	db := openTemp(t)
	p := heapFixture()
	p.Pointers[1].Count = math.MaxUint64
	p.Cells[0].Lifetime = 1 << 63
	p.End, p.Allocated.Bytes = math.MaxUint64, math.MaxUint64-1
	if err := db.ImportHeapRun(ctx, "huge", "x", p); err != nil {
		t.Fatal(err)
	}
	got, err := db.HeapProfile(ctx, "huge")
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got, p) {
		t.Errorf("round trip:\n got %+v\nwant %+v", got, p)
	}
	d := &heap.HeapDump{Version: "JAVA PROFILE 1.0.2", IDSize: 4, Timestamp: math.MaxUint64,
		Classes: []heap.DumpClass{{Name: "A", DumpCount: heap.DumpCount{Objects: math.MaxUint64, Bytes: 1 << 63}}},
		Sizes:   []heap.DumpSize{{SizeClass: math.MaxUint64, Arrays: heap.DumpCount{Objects: math.MaxUint64}}}}
	if err := db.ImportDumpRun(ctx, "hugedump", "x", d); err != nil {
		t.Fatal(err)
	}
	if gotDump, err := db.HeapDump(ctx, "hugedump"); err != nil || !reflect.DeepEqual(gotDump, d) {
		t.Errorf("dump round trip: %+v, %v", gotDump, err)
	}
}
