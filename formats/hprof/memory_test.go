package hprof

import (
	"bytes"
	"errors"
	"strings"
	"testing"

	"androprof/formats/hprof/hproftest"
	"androprof/internal/benchmem"
	"androprof/internal/inputerr"
)

// heapsThenClasses writes a dump with an object in each of heaps heaps, then one instance of
// each of classes classes in the last heap.
func heapsThenClasses(t *testing.T, heaps, classes int) []byte {
	t.Helper()
	var b bytes.Buffer
	w, err := hproftest.NewWriter(&b, hproftest.Options{Version: "1.0.3"})
	if err != nil {
		t.Fatal(err)
	}
	id := uint64(0x1000)
	for h := range heaps {
		w.HeapInfo(uint32(h), 0)
		w.PrimArray(id, hproftest.Int, 0)
		id += 8
	}
	for c := range classes {
		w.Instance(id, uint64(0x10_0000+8*c), nil)
		id += 8
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// TestMemoryFollowsContent summarises a dump whose classes each have one object, in the last of
// many heaps: what is allocated must follow the records, not classes × heaps (docs/readers.md,
// "Memory").
func TestMemoryFollowsContent(t *testing.T) {
	data := heapsThenClasses(t, MaxHeaps, 20_000)
	var err error
	benchmem.WithinInput(t, len(data), func() { _, err = Summarize(bytes.NewReader(data), "heaps.hprof") })
	if err != nil {
		t.Fatal(err)
	}
}

// A dump that places objects in more heaps than any VM names is refused where the first object
// of one heap too many is.
func TestTooManyHeaps(t *testing.T) {
	data := heapsThenClasses(t, MaxHeaps+1, 0)
	_, err := Summarize(bytes.NewReader(data), "heaps.hprof")
	var ie *inputerr.Error
	if !errors.As(err, &ie) || ie.File != "heaps.hprof" || ie.Offset == 0 || !strings.Contains(err.Error(), "heaps") {
		t.Fatalf("err = %v, want an *inputerr.Error at the object in one heap too many", err)
	}
	t.Log(err)
}

// The object graph and its retention follow the objects the dump holds: a dump of the smallest
// records there are (Android's PRIM_ARRAY_NODATA, 14 bytes each), all roots, stays within the
// readers' bound.
func TestRetentionMemoryFollowsContent(t *testing.T) {
	var b bytes.Buffer
	w, err := hproftest.NewWriter(&b, hproftest.Options{Version: "1.0.3"})
	if err != nil {
		t.Fatal(err)
	}
	for i := range uint64(200_000) {
		w.PrimArrayNoData(0x1000+8*i, hproftest.Int, 1)
		w.Root(0xFF, 0x1000+8*i)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	data := b.Bytes()
	benchmem.WithinInput(t, len(data), func() { _, err = ReadRetention(bytes.NewReader(data), "nodata.hprof", GraphOptions{}) })
	if err != nil {
		t.Fatal(err)
	}
}
