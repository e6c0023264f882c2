package hprof

import (
	"bytes"
	"compress/gzip"
	"context"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"testing"

	"androprof/formats/hprof/hproftest"
	"androprof/internal/countio"
	"androprof/internal/inputerr"
	heapmodel "androprof/model/heap"
)

// Strings and classes of the hand-made dump.
const (
	sObject, sNode, sLeaf, sNodes, sInts, sNext, sVal, sLeft, sFlag, sZygote, sApp = 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11

	cObject, cNode, cLeaf, cNodes, cInts = 0x100, 0x200, 0x300, 0x400, 0x500
)

// handDump writes a small dump whose summary is worked out by hand in handSummary: Node
// (next, val) and its subclass Leaf (left, flag), a Node[] and int arrays, in two segments;
// in 1.0.3 the first is the zygote heap, the second the app heap, and a third segment without
// heap info holds one Node in the default heap. 1.0.2 loads HotSpot's "[I", so its int arrays
// take that name. Class dumps come first or, as ART may write them, after the instances.
func handDump(t testing.TB, version string, idSize int, classesFirst bool) []byte {
	t.Helper()
	var buf bytes.Buffer
	w, err := hproftest.NewWriter(&buf, hproftest.Options{Version: version, IDSize: idSize, Timestamp: 1405028182739})
	if err != nil {
		t.Fatal(err)
	}
	android := version == "1.0.3"
	for i, s := range []string{"java.lang.Object", "Node", "Leaf", "Node[]", "[I", "next", "val", "left", "flag", "zygote", "app"} {
		w.String(uint64(i+1), s) // sObject, sNode, …
	}
	w.LoadClass(1, cObject, sObject)
	w.LoadClass(2, cNode, sNode)
	w.LoadClass(3, cLeaf, sLeaf)
	w.LoadClass(4, cNodes, sNodes)
	if !android {
		w.LoadClass(5, cInts, sInts)
	}
	w.Record(0x05, make([]byte, 12)) // a STACK_TRACE, skipped
	classes := func() {
		w.ClassDump(hproftest.Class{ID: cObject})
		w.ClassDump(hproftest.Class{ID: cNode, Super: cObject, InstanceSize: 16,
			Constants: []hproftest.Constant{{Index: 1, Value: hproftest.Value{Type: hproftest.Long, Bits: 9}}},
			Statics:   []hproftest.Static{{Name: sNext, Value: hproftest.Ref(0x1000)}, {Name: sVal, Value: hproftest.Value{Type: hproftest.Double}}},
			Fields:    []hproftest.Field{{Name: sNext, Type: hproftest.Object}, {Name: sVal, Type: hproftest.Int}}})
		w.ClassDump(hproftest.Class{ID: cLeaf, Super: cNode, InstanceSize: 24,
			Fields: []hproftest.Field{{Name: sLeft, Type: hproftest.Object}, {Name: sFlag, Type: hproftest.Boolean}}})
		w.ClassDump(hproftest.Class{ID: cNodes, Super: cObject})
		if !android {
			w.ClassDump(hproftest.Class{ID: cInts, Super: cObject})
		}
	}
	if classesFirst {
		classes()
		w.Segment()
	}
	node := func(id, next, val uint64) {
		w.Instance(id, cNode, w.Values(hproftest.Ref(next), hproftest.Value{Type: hproftest.Int, Bits: val}))
	}
	leaf := func(id, left, flag, next, val uint64) {
		w.Instance(id, cLeaf, w.Values(hproftest.Ref(left), hproftest.Value{Type: hproftest.Boolean, Bits: flag},
			hproftest.Ref(next), hproftest.Value{Type: hproftest.Int, Bits: val}))
	}
	if android {
		w.HeapInfo('Z', sZygote)
	}
	w.Root(hproftest.RootStickyClass, cNode)
	w.Root(hproftest.RootJNIGlobal, 0x1000)
	node(0x1000, 0x1010, 7)                                 // +16: bucket 5
	node(0x1010, 0, 1)                                      // null
	leaf(0x1020, 0x1000, 1, 0x1020, 0)                      // -32: bucket -6; itself: bucket -1
	w.ObjArray(0x1040, cNodes, []uint64{0x1000, 0, 0x2000}) // -64: -7; +4032: 12
	w.PrimArray(0x1080, hproftest.Int, 5)                   // 20 bytes
	w.Segment()
	if android {
		w.HeapInfo('A', sApp)
	}
	w.Root(hproftest.RootThreadObject, 0x2000)
	leaf(0x2000, 0, 0, 0x1000, 3) // -4096: bucket -13
	w.PrimArray(0x2040, hproftest.Int, 0)
	if android {
		w.PrimArrayNoData(0x2080, hproftest.Char, 10) // 20 bytes
		w.Root(hproftest.RootInterned, 0x2080)
		w.Segment()
		node(0x3000, 0, 0) // a new segment starts in the default heap
	}
	if !classesFirst {
		w.Segment()
		classes()
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// handSummary is handDump's summary, worked out by hand.
func handSummary(version string, idSize int) *heapmodel.HeapDump {
	id := uint64(idSize)
	c := func(objects, bytes uint64) heapmodel.DumpCount {
		return heapmodel.DumpCount{Objects: objects, Bytes: bytes}
	}
	if version == "1.0.2" {
		d := &heapmodel.HeapDump{Version: "JAVA PROFILE 1.0.2", IDSize: idSize, Timestamp: 1405028182739,
			Heaps: []string{"default"}, LoadedClasses: 5, ArrayClasses: 2, Roots: 3,
			Classes: []heapmodel.DumpClass{
				{Name: "Leaf", Heap: "default", DumpCount: c(2, 48)},
				{Name: "Node", Heap: "default", DumpCount: c(2, 32)},
				{Name: "Node[]", Heap: "default", Array: true, DumpCount: c(1, 3*id)},
				{Name: "[I", Heap: "default", Array: true, DumpCount: c(2, 20)},
			},
			Pointers: pointers("default", -13, -7, -6, -1, 5, 12),
		}
		if idSize == 4 {
			d.Sizes = []heapmodel.DumpSize{{Heap: "default", SizeClass: 0, Arrays: c(1, 0)},
				{Heap: "default", SizeClass: 16, Instances: c(2, 32), Arrays: c(1, 12)},
				{Heap: "default", SizeClass: 24, Instances: c(2, 48), Arrays: c(1, 20)}}
		} else {
			d.Sizes = []heapmodel.DumpSize{{Heap: "default", SizeClass: 0, Arrays: c(1, 0)},
				{Heap: "default", SizeClass: 16, Instances: c(2, 32)},
				{Heap: "default", SizeClass: 24, Instances: c(2, 48), Arrays: c(2, 44)}}
		}
		return d
	}
	d := &heapmodel.HeapDump{Version: "JAVA PROFILE 1.0.3", IDSize: idSize, Timestamp: 1405028182739,
		Heaps: []string{"zygote", "app", "default"}, LoadedClasses: 4, ArrayClasses: 1, Roots: 4,
		Classes: []heapmodel.DumpClass{
			{Name: "Leaf", Heap: "zygote", DumpCount: c(1, 24)},
			{Name: "Leaf", Heap: "app", DumpCount: c(1, 24)},
			{Name: "Node", Heap: "zygote", DumpCount: c(2, 32)},
			{Name: "Node", Heap: "default", DumpCount: c(1, 16)},
			{Name: "Node[]", Heap: "zygote", Array: true, DumpCount: c(1, 3*id)},
			{Name: "char[]", Heap: "app", Array: true, DumpCount: c(1, 20)},
			{Name: "int[]", Heap: "zygote", Array: true, DumpCount: c(1, 20)},
			{Name: "int[]", Heap: "app", Array: true, DumpCount: c(1, 0)},
		},
		Pointers: append(pointers("zygote", -7, -6, -1, 5, 12), pointers("app", -13)...),
	}
	if idSize == 4 {
		d.Sizes = []heapmodel.DumpSize{{Heap: "zygote", SizeClass: 16, Instances: c(2, 32), Arrays: c(1, 12)},
			{Heap: "zygote", SizeClass: 24, Instances: c(1, 24), Arrays: c(1, 20)}}
	} else {
		d.Sizes = []heapmodel.DumpSize{{Heap: "zygote", SizeClass: 16, Instances: c(2, 32)},
			{Heap: "zygote", SizeClass: 24, Instances: c(1, 24), Arrays: c(2, 44)}}
	}
	d.Sizes = append(d.Sizes, heapmodel.DumpSize{Heap: "app", SizeClass: 0, Arrays: c(1, 0)},
		heapmodel.DumpSize{Heap: "app", SizeClass: 24, Instances: c(1, 24), Arrays: c(1, 20)},
		heapmodel.DumpSize{Heap: "default", SizeClass: 16, Instances: c(1, 16)})
	return d
}

// pointers is one reference in each bucket.
func pointers(heap string, buckets ...int) []heapmodel.DumpPointers {
	var p []heapmodel.DumpPointers
	for _, b := range buckets {
		p = append(p, heapmodel.DumpPointers{Heap: heap, Bucket: b, Count: 1})
	}
	return p
}

// summarizeBytes runs the summariser on a dump in memory, as the importer does: through a
// countio.Reader that reports progress over both passes and stops when ctx is cancelled.
func summarizeBytes(ctx context.Context, data []byte, progress func(done, total int64)) (*heapmodel.HeapDump, error) {
	p := countio.NewProgress(ctx, progress)
	p.Expect(2 * int64(len(data)))
	d, err := Summarize(&countio.Reader{R: bytes.NewReader(data), Progress: p}, "mem")
	if err == nil {
		p.Finish()
	}
	return d, err
}

// summarizeFile runs the summariser on a file.
func summarizeFile(path string) (*heapmodel.HeapDump, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return Summarize(f, path)
}

func TestRoundTrip(t *testing.T) {
	for _, version := range []string{"1.0.2", "1.0.3"} {
		for _, idSize := range []int{4, 8} {
			for _, first := range []bool{true, false} {
				data := handDump(t, version, idSize, first)
				got, err := summarizeBytes(context.Background(), data, nil)
				if err != nil {
					t.Fatalf("%s id %d: %v", version, idSize, err)
				}
				if want := handSummary(version, idSize); !reflect.DeepEqual(got, want) {
					t.Errorf("%s id %d classes first %v:\n got %+v\nwant %+v", version, idSize, first, got, want)
				}
			}
		}
	}
}

// TestSummarizeFile goes through the file system: plain and gzip-compressed, with progress
// counted by the input over both passes.
func TestSummarizeFile(t *testing.T) {
	data := handDump(t, "1.0.3", 4, false)
	var gz bytes.Buffer
	zw := gzip.NewWriter(&gz)
	zw.Write(data)
	zw.Close()
	dir := t.TempDir()
	for name, content := range map[string][]byte{"a.hprof": data, "a.hprof.gz": gz.Bytes()} {
		path := filepath.Join(dir, name)
		if err := os.WriteFile(path, content, 0o644); err != nil {
			t.Fatal(err)
		}
		f, err := os.Open(path)
		if err != nil {
			t.Fatal(err)
		}
		var last, total int64
		p := countio.NewProgress(context.Background(), func(done, tot int64) {
			if done < last || done > tot {
				t.Errorf("progress %d of %d after %d", done, tot, last)
			}
			last, total = done, tot
		})
		p.Expect(2 * int64(len(content)))
		got, err := Summarize(&countio.Reader{R: f, Progress: p}, path)
		f.Close()
		if p.Done() != total {
			t.Errorf("%s: read %d bytes in two passes over %d", name, p.Done(), len(content))
		}
		p.Finish()
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if !reflect.DeepEqual(got, handSummary("1.0.3", 4)) {
			t.Errorf("%s: %+v", name, got)
		}
		if total != 2*int64(len(content)) || last != total {
			t.Errorf("%s: progress ended at %d of %d, file is %d bytes", name, last, total, len(content))
		}
	}
}

// Sniff judges the first bytes of a file as the importer hands them over, decompressed (a file
// that is not there, or not gzip after all, is the importer's to refuse: package formats). A
// damaged header is still a dump: the reader says what is wrong with it.
func TestSniff(t *testing.T) {
	for name, tc := range map[string]struct {
		data []byte
		not  bool
	}{
		"dump":       {handDump(t, "1.0.2", 8, true), false},
		"empty":      {nil, true},
		"text":       {[]byte("*version\n3\nclock=dual\n"), true},
		"short":      {[]byte("JAVA PROF"), true},
		"gzip":       {[]byte{0x1f, 0x8b, 0, 0}, true},
		"bad-idsize": {append([]byte("JAVA PROFILE 1.0.2\x00"), 0, 0, 0, 5, 0, 0, 0, 0, 0, 0, 0, 0), false},
	} {
		err := Sniff(tc.data)
		if tc.not != errors.Is(err, ErrNotHPROF) || !tc.not && err != nil {
			t.Errorf("%s: %v", name, err)
		}
		if name == "bad-idsize" {
			_, err := NewReader(bytes.NewReader(tc.data), name).Next()
			var se *inputerr.Error
			if !errors.As(err, &se) || se.Offset != 19 {
				t.Errorf("%s: %v, want a syntax error at byte 19", name, err)
			}
		}
	}
}

func TestCancel(t *testing.T) {
	var buf bytes.Buffer
	if _, err := hproftest.Generate(&buf, hproftest.Options{}, 1<<20, 1); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	calls := 0
	_, err := summarizeBytes(ctx, buf.Bytes(), func(done, total int64) {
		if calls++; calls == 2 {
			cancel()
		}
	})
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("%v after %d progress calls, want context.Canceled", err, calls)
	}
}

// TestGenerated checks the summary of generated dumps against what the generator says it
// wrote.
func TestGenerated(t *testing.T) {
	for _, o := range []hproftest.Options{{Version: "1.0.3", SegmentBytes: 4096}, {IDSize: 8}} {
		var buf bytes.Buffer
		syn, err := hproftest.Generate(&buf, o, 2<<20, 7)
		if err != nil {
			t.Fatal(err)
		}
		d, err := summarizeBytes(context.Background(), buf.Bytes(), nil)
		if err != nil {
			t.Fatal(err)
		}
		var inst, arrays, refs uint64
		for _, c := range d.Classes {
			if c.Array {
				arrays += c.Objects
			} else {
				inst += c.Objects
			}
		}
		for _, p := range d.Pointers {
			refs += p.Count
		}
		if inst != uint64(syn.Instances) || arrays != uint64(syn.ObjArrays+syn.PrimArrays) || refs != uint64(syn.References) ||
			d.Roots != int(syn.Roots) || d.LoadedClasses != syn.Classes || !reflect.DeepEqual(d.Heaps, syn.Heaps) {
			t.Errorf("%+v: summary %d instances %d arrays %d references %d roots %d classes heaps %q; generator %+v",
				o, inst, arrays, refs, d.Roots, d.LoadedClasses, d.Heaps, syn)
		}
	}
}
