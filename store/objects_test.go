package store

import (
	"bytes"
	"context"
	"errors"
	"reflect"
	"strings"
	"testing"

	"androprof/model/heap"
)

// objectsFixture is a retention of three objects with their records, one record larger than a
// chunk so the records span several chunks, written in another order than their seqs.
func objectsFixture(t *testing.T) (*heap.DumpRetention, [][]byte) {
	r := &heap.DumpRetention{Reachable: 100, Classes: []heap.RetainedClass{{Name: "demo.A", Instances: 1}, {Name: "int[]", Instances: 1}},
		Fields: []string{"x", "system class"}, Heaps: []string{"default", "app"},
		RefStart: []uint32{0, 0, 1, 2}, RefFrom: []int32{0, 1}}
	r.Objects.Append(heap.DumpObject{ID: 0x10, Class: 0, IsClass: true, Retained: 100, Idom: -1, Parent: -1}, 1)
	r.Objects.Append(heap.DumpObject{ID: 0x20, Class: 0, Shallow: 16, Retained: 60, Idom: 0, Parent: 0, Depth: 1}, 0)
	r.Objects.Append(heap.DumpObject{ID: 0x30, Class: 1, Shallow: 40, Retained: 40, Idom: 1, Parent: 1, Depth: 2}, 0)
	r.Objects.Heap = []uint8{0, 1, 1}
	recs := [][]byte{[]byte("class"), []byte("instance"), bytes.Repeat([]byte{7}, 3*heap.ChunkBytes)}
	spill, err := heap.NewRecordSpill(4, 3)
	if err != nil {
		t.Fatal(err)
	}
	for _, seq := range []int32{2, 0, 1} {
		if _, err := spill.Start(seq, len(recs[seq])); err != nil {
			t.Fatal(err)
		}
		if err := spill.Write(recs[seq]); err != nil {
			t.Fatal(err)
		}
	}
	if r.Records, err = spill.Finish([]byte("layouts")); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { r.Records.Close() })
	return r, recs
}

// The object level round-trips: heaps, referrers, where each record is and each record.
func TestDumpObjectsRoundTrip(t *testing.T) {
	ctx := context.Background()
	db := openTemp(t)
	want, recs := objectsFixture(t)
	if len(want.Records.Chunks) < 2 {
		t.Fatalf("%d chunks: the fixture should need more than one", len(want.Records.Chunks))
	}
	if err := db.ImportDumpRun(ctx, "dump", "x.hprof", &heap.HeapDump{IDSize: 4, Retention: want}); err != nil {
		t.Fatal(err)
	}
	got, err := db.DumpRetention(ctx, "dump")
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got.Heaps, want.Heaps) || !reflect.DeepEqual(got.Objects.Heap, want.Objects.Heap) ||
		!reflect.DeepEqual(got.RefStart, want.RefStart) || !reflect.DeepEqual(got.RefFrom, want.RefFrom) {
		t.Errorf("heaps %v %v, referrers %v %v", got.Heaps, got.Objects.Heap, got.RefStart, got.RefFrom)
	}
	idx, err := db.DumpRecordIndex(ctx, "dump")
	if err != nil {
		t.Fatal(err)
	}
	if idx.IDSize != 4 || string(idx.Layouts) != "layouts" || !reflect.DeepEqual(idx.Record, []uint32{1, 2, 0}) {
		t.Errorf("index = %+v", idx)
	}
	for seq, k := range idx.Record {
		first, data, err := db.DumpRecordChunk(ctx, "dump", k)
		if err != nil {
			t.Fatal(err)
		}
		rec, err := heap.RecordIn(data, first, k)
		if err != nil || !bytes.Equal(rec, recs[seq]) {
			t.Errorf("record of object %d (record %d, chunk from %d) = %d bytes, %v", seq, k, first, len(rec), err)
		}
	}
}

// A dump imported before the object level reads as before (no heaps per object) and says
// what to do for its objects.
func TestDumpObjectsOfOldRun(t *testing.T) {
	ctx := context.Background()
	db := openTemp(t)
	r, _ := objectsFixture(t)
	r.Records.Close()
	r.Records, r.Heaps, r.Objects.Heap, r.RefStart, r.RefFrom = nil, nil, nil, nil, nil
	if err := db.ImportDumpRun(ctx, "old", "x.hprof", &heap.HeapDump{IDSize: 4, Retention: r}); err != nil {
		t.Fatal(err)
	}
	got, err := db.DumpRetention(ctx, "old")
	if err != nil || got.Objects.Heap != nil || got.RefStart != nil {
		t.Fatalf("old run's retention: %v, heaps %v, referrers %v", err, got.Objects.Heap, got.RefStart)
	}
	if _, err := db.DumpRecordIndex(ctx, "old"); !errors.Is(err, ErrNoObjects) || !strings.Contains(err.Error(), "import it again") {
		t.Errorf("old run's records: %v", err)
	}
}

// Referrers that do not fit the objects are refused, not indexed out of range.
func TestDumpObjectsDamaged(t *testing.T) {
	ctx := context.Background()
	db := openTemp(t)
	r, _ := objectsFixture(t)
	if err := db.ImportDumpRun(ctx, "dump", "x.hprof", &heap.HeapDump{IDSize: 4, Retention: r}); err != nil {
		t.Fatal(err)
	}
	if _, err := db.write.ExecContext(ctx, `UPDATE dump_objects SET ref_from = x'09000000ff000000'`); err != nil {
		t.Fatal(err)
	}
	if got, err := db.DumpRetention(ctx, "dump"); err == nil || !strings.Contains(err.Error(), "damaged") {
		t.Errorf("damaged referrers: %v %v %v", err, got.RefStart, got.RefFrom)
	}
}
