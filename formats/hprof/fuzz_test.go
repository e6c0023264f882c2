package hprof

import (
	"bytes"
	"compress/gzip"
	"context"
	"flag"
	"io"
	"testing"

	"androprof/formats/hprof/hproftest"
	"androprof/internal/fuzzseed"
)

var update = flag.Bool("update", false, "rewrite the seed corpus in testdata/fuzz/FuzzReader")

// FuzzReader feeds arbitrary bytes to the reader and the summary: neither may panic, every
// refusal must carry an offset inside the input, they must agree on whether the input is
// good, and the summary must count every object the reader returns.
func FuzzReader(f *testing.F) {
	f.Fuzz(func(t *testing.T, data []byte) {
		objects, refs, err := countRecords(data)
		limit := len(data) + 1<<24 // gzip input may expand; the offset is in the expansion
		checkErr(t, "reader", err, limit)
		d, serr := summarizeBytes(context.Background(), data, nil)
		checkErr(t, "summary", serr, limit)
		if (err == nil) != (serr == nil) {
			t.Fatalf("reader: %v; summary: %v", err, serr)
		}
		if err != nil {
			return
		}
		var gotObjects, gotRefs uint64
		for _, c := range d.Classes {
			gotObjects += c.Objects
		}
		for _, p := range d.Pointers {
			gotRefs += p.Count
		}
		if gotObjects != objects || gotRefs > refs {
			t.Fatalf("summary: %d objects, %d references; reader: %d objects, at most %d references", gotObjects, gotRefs, objects, refs)
		}
	})
}

// countRecords reads everything, counting objects and the non-null ids of object arrays plus
// every id-sized slot of instance values: a bound on the references the summary can find.
func countRecords(data []byte) (objects, refs uint64, err error) {
	r := NewReader(bytes.NewReader(data), "fuzz")
	id := r.Header().IDSize
	for {
		rec, err := r.Next()
		if err == io.EOF {
			return objects, refs, nil
		}
		if err != nil {
			return objects, refs, err
		}
		switch rec.Kind {
		case KindInstance:
			objects++
			refs += uint64(len(rec.Bytes))
		case KindPrimArray:
			objects++
		case KindObjArray:
			objects++
			for {
				b, err := r.Elements()
				if err != nil {
					return objects, refs, err
				}
				if b == nil {
					break
				}
				for i := 0; i < len(b); i += id {
					if idAt(b[i:], id) != 0 {
						refs++
					}
				}
			}
		}
	}
}

// TestWriteFuzzSeeds keeps the seed corpus: small dumps of every kind made by the writer
// (go test -run WriteFuzzSeeds -update).
func TestWriteFuzzSeeds(t *testing.T) {
	fuzzseed.Keep(t, fuzzSeeds(t), *update)
}

func fuzzSeeds(t *testing.T) map[string][]byte {
	seeds := map[string][]byte{
		"hand-1.0.2-id4":             handDump(t, "1.0.2", 4, true),
		"hand-1.0.2-id8-classes-end": handDump(t, "1.0.2", 8, false),
		"hand-1.0.3-id4-classes-end": handDump(t, "1.0.3", 4, false),
		"hand-1.0.3-id8":             handDump(t, "1.0.3", 8, true),
		"unknown-sub-record":         dumpOf("1.0.2", 4, rec(0x1C, 7, 0x05, 0, 0, 0, 1, 0x42, 0)),
	}
	var buf bytes.Buffer
	if _, err := hproftest.Generate(&buf, hproftest.Options{Version: "1.0.3", SegmentBytes: 300}, 400, 1); err != nil {
		t.Fatal(err)
	}
	seeds["generated-1.0.3-id4"] = buf.Bytes()
	buf.Reset()
	w, _ := hproftest.NewWriter(&buf, hproftest.Options{IDSize: 8, HeapDumpTag: 0x0C, NoEnd: true})
	w.String(1, "Object[]")
	w.LoadClass(1, 0x10, 1)
	w.ObjArray(0x100, 0x10, []uint64{0x100, 0, 0x80})
	w.Root(hproftest.RootUnknown, 0x100)
	w.Close()
	seeds["heap-dump-0x0C-id8-no-end"] = buf.Bytes()
	var zb bytes.Buffer
	zw := gzip.NewWriter(&zb)
	zw.Write(seeds["hand-1.0.3-id4-classes-end"])
	zw.Close()
	seeds["gzip-hand-1.0.3"] = zb.Bytes()
	return seeds
}
