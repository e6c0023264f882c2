package hprof

import (
	"bytes"
	"context"
	"encoding/binary"
	"io"
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"androprof/formats/hprof/hproftest"
	"androprof/model/heap"
)

// TestReaderRecords reads the hand-made dump record by record.
func TestReaderRecords(t *testing.T) {
	r := NewReader(bytes.NewReader(handDump(t, "1.0.3", 8, true)), "hand")
	if h := r.Header(); h != (Header{Version: "JAVA PROFILE 1.0.3", IDSize: 8, Timestamp: 1405028182739}) {
		t.Fatalf("header %+v", h)
	}
	var kinds []string
	for {
		rec, err := r.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		kinds = append(kinds, rec.Kind.String())
		switch {
		case rec.Kind == KindString && rec.ID == sNodes:
			if string(rec.Bytes) != "Node[]" || rec.Len != 6 {
				t.Errorf("string %q (%d)", rec.Bytes, rec.Len)
			}
		case rec.Kind == KindLoadClass && rec.ID == cLeaf:
			if rec.Serial != 3 || rec.Name != sLeaf {
				t.Errorf("load class %+v", rec)
			}
		case rec.Kind == KindClassDump && rec.ID == cLeaf:
			if rec.Super != cNode || rec.Size != 24 || len(rec.Fields) != 2 ||
				rec.Fields[0] != (Field{Name: sLeft, Type: TypeObject}) || rec.Fields[1] != (Field{Name: sFlag, Type: TypeBoolean}) {
				t.Errorf("class dump %+v", rec)
			}
		case rec.Kind == KindInstance && rec.ID == 0x1020:
			want := []byte{0, 0, 0, 0, 0, 0, 0x10, 0, 1, 0, 0, 0, 0, 0, 0, 0x10, 0x20, 0, 0, 0, 0}
			if rec.Class != cLeaf || rec.Len != 21 || !bytes.Equal(rec.Bytes, want) {
				t.Errorf("instance %+v", rec)
			}
		case rec.Kind == KindObjArray:
			b, err := r.Elements()
			if err != nil || rec.Class != cNodes || rec.Len != 3 || len(b) != 24 || binary.BigEndian.Uint64(b[16:]) != 0x2000 {
				t.Errorf("array %+v: %x, %v", rec, b, err)
			}
			if b, err := r.Elements(); b != nil || err != nil {
				t.Errorf("after the last element: %x, %v", b, err)
			}
		case rec.Kind == KindPrimArray && rec.Tag == 0xC3:
			if rec.Type != TypeChar || rec.Len != 10 {
				t.Errorf("no-data array %+v", rec)
			}
			if b, err := r.Elements(); b != nil || err != nil {
				t.Errorf("no-data array elements: %x, %v", b, err)
			}
		case rec.Kind == KindHeapInfo && rec.Serial == 'Z':
			if rec.Name != sZygote {
				t.Errorf("heap info %+v", rec)
			}
		case rec.Kind == KindRoot && rec.Tag == hproftest.RootJNIGlobal:
			if rec.ID != 0x1000 {
				t.Errorf("root %+v", rec)
			}
		}
	}
	got := strings.Join(kinds, " ")
	want := strings.Repeat("STRING ", 11) + strings.Repeat("LOAD_CLASS ", 4) + "HEAP_DUMP " + strings.Repeat("CLASS_DUMP ", 4) +
		"HEAP_DUMP HEAP_DUMP_INFO root root INSTANCE_DUMP INSTANCE_DUMP INSTANCE_DUMP OBJ_ARRAY_DUMP PRIM_ARRAY_DUMP " +
		"HEAP_DUMP HEAP_DUMP_INFO root INSTANCE_DUMP PRIM_ARRAY_DUMP PRIM_ARRAY_DUMP root HEAP_DUMP INSTANCE_DUMP HEAP_DUMP_END"
	if got != want {
		t.Errorf("records\n%s\nwant\n%s", got, want)
	}
}

// TestLargeRecords reads records larger than the reader's buffer: a long string is cut at
// MaxString, an instance with more than MaxValues field bytes hands none over, a large array
// comes in runs of whole elements, and what a caller leaves unread is skipped.
func TestLargeRecords(t *testing.T) {
	for _, idSize := range []int{4, 8} {
		var buf bytes.Buffer
		w, _ := hproftest.NewWriter(&buf, hproftest.Options{IDSize: idSize, SegmentBytes: 64 << 20})
		long := strings.Repeat("x", MaxString+1000)
		w.String(1, long)
		w.String(2, "after")
		w.Instance(0x10, 0x20, make([]byte, MaxValues+1))
		const n = 700_000 // ids: more than the buffer holds
		elems := make([]uint64, n)
		for i := range elems {
			elems[i] = uint64(i + 1)
		}
		w.ObjArray(0x30, 0x40, elems)
		w.PrimArray(0x50, hproftest.Long, 300_000)
		w.ObjArray(0x60, 0x40, elems) // read in part
		w.Instance(0x70, 0x20, []byte{1, 2, 3})
		if err := w.Close(); err != nil {
			t.Fatal(err)
		}
		r := NewReader(&buf, "large")
		next := func(kind Kind) Record {
			t.Helper()
			rec, err := r.Next()
			if err != nil || rec.Kind != kind {
				t.Fatalf("%v (%v), want %v", rec.Kind, err, kind)
			}
			return rec
		}
		if rec := next(KindString); rec.Len != uint32(len(long)) || len(rec.Bytes) != MaxString {
			t.Errorf("long string: Len %d, %d bytes", rec.Len, len(rec.Bytes))
		}
		if rec := next(KindString); string(rec.Bytes) != "after" {
			t.Errorf("string after the long one: %q", rec.Bytes)
		}
		next(KindHeapDump)
		if rec := next(KindInstance); rec.Bytes != nil || rec.Len != MaxValues+1 {
			t.Errorf("large instance: Len %d, %d bytes", rec.Len, len(rec.Bytes))
		}
		next(KindObjArray)
		seen, runs := 0, 0
		for {
			b, err := r.Elements()
			if err != nil {
				t.Fatal(err)
			}
			if b == nil {
				break
			}
			runs++
			if len(b)%idSize != 0 {
				t.Fatalf("a run of %d bytes", len(b))
			}
			for i := 0; i < len(b); i += idSize {
				seen++
				if v := idAt(b[i:], idSize); v != uint64(seen) {
					t.Fatalf("element %d is %d", seen, v)
				}
			}
		}
		if seen != n || runs < 2 {
			t.Errorf("%d elements in %d runs, want %d in several", seen, runs, n)
		}
		if rec := next(KindPrimArray); rec.Len != 300_000 || rec.Type != TypeLong {
			t.Errorf("long array %+v", rec)
		}
		next(KindObjArray)
		if b, err := r.Elements(); err != nil || len(b) == 0 {
			t.Fatalf("first run: %d bytes, %v", len(b), err)
		}
		if rec := next(KindInstance); rec.ID != 0x70 || !bytes.Equal(rec.Bytes, []byte{1, 2, 3}) {
			t.Errorf("instance after the arrays: %+v", rec)
		}
		next(KindHeapDumpEnd)
		if _, err := r.Next(); err != io.EOF {
			t.Errorf("at the end: %v", err)
		}
	}
}

// TestBuckets checks the summary's bucket and size-class slots cover every value model
// gives.
func TestBuckets(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	for _, d := range []int64{0, 1, -1, 2, -2, math.MaxInt64, math.MinInt64, 1 << 40, -(1 << 40)} {
		if b := heap.DistanceBucket(d) + bucketBias; b < 0 || b >= 2*bucketBias {
			t.Errorf("distance %d: slot %d", d, b)
		}
	}
	for range 10000 {
		size := rng.Uint64N(1 << uint(rng.IntN(36)))
		class := heap.SizeClass(size)
		slot := sizeSlot(class)
		back := uint64(slot) * 8
		if slot > 32 {
			back = 1 << (slot - 24)
		}
		if slot < 0 || slot >= sizeSlots || back != class {
			t.Fatalf("size %d: class %d, slot %d, back %d", size, class, slot, back)
		}
	}
}

// TestAllocations checks that memory follows classes and strings, not objects: reading a
// dump of fifty thousand objects allocates a handful of times, summarising it a few
// hundred (class tables, names, the result).
func TestAllocations(t *testing.T) {
	var buf bytes.Buffer
	if _, err := hproftest.Generate(&buf, hproftest.Options{Version: "1.0.3"}, 4<<20, 1); err != nil {
		t.Fatal(err)
	}
	data := buf.Bytes()
	records := 0
	readAllocs := testing.AllocsPerRun(1, func() {
		records = 0
		r := NewReader(bytes.NewReader(data), "gen")
		for {
			rec, err := r.Next()
			if err != nil {
				break
			}
			records++
			if rec.Kind == KindObjArray {
				for b, _ := r.Elements(); b != nil; b, _ = r.Elements() {
				}
			}
		}
	})
	sumAllocs := testing.AllocsPerRun(1, func() { summarizeBytes(context.Background(), data, nil) })
	if records < 50_000 || readAllocs > 20 || sumAllocs > 2000 {
		t.Errorf("%d records: the reader allocated %v times, the summary %v", records, readAllocs, sumAllocs)
	}
}
