package heaplog_test

import (
	"bytes"
	"errors"
	"flag"
	"io"
	"os"
	"reflect"
	"strings"
	"testing"

	"androprof/formats/heaplog"
	"androprof/formats/internal/lines"
	"androprof/internal/inputerr"
	"androprof/model/heap"
)

var update = flag.Bool("update", false, "rewrite the golden files and the fuzz seed corpus in testdata")

// collector keeps what a reader yields.
type collector struct {
	headers []heap.HeapHeader
	events  []heap.HeapEvent
	failOn  int // fail at this event (1-based); 0 never
}

func (c *collector) HeapHeader(h heap.HeapHeader) error {
	c.headers = append(c.headers, h)
	return nil
}
func (c *collector) HeapEvent(e *heap.HeapEvent) error {
	c.events = append(c.events, *e)
	if len(c.events) == c.failOn {
		return errors.New("disk full")
	}
	return nil
}

// readAll reads a log with Next, copying each event.
func readAll(t testing.TB, data []byte, name string) (heap.HeapHeader, []heap.HeapEvent, error) {
	t.Helper()
	r := heaplog.NewReader(bytes.NewReader(data), name)
	var evs []heap.HeapEvent
	for {
		e, err := r.Next()
		if err == io.EOF {
			return r.Header(), evs, nil
		}
		if err != nil {
			return r.Header(), evs, err
		}
		evs = append(evs, *e)
	}
}

// writeAll writes a log with the writer.
func writeAll(t testing.TB, h heap.HeapHeader, evs []heap.HeapEvent) []byte {
	t.Helper()
	var buf bytes.Buffer
	w, err := heaplog.NewWriter(&buf, h)
	if err != nil {
		t.Fatal(err)
	}
	for i := range evs {
		if err := w.Write(&evs[i]); err != nil {
			t.Fatalf("event %d %+v: %v", i, evs[i], err)
		}
	}
	if err := w.Flush(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

var smallHeader = heap.HeapHeader{Format: "heaplog", Version: 1, VM: "Dalvik 1.6.0 (instrumented, seed 001)",
	Props: map[string]string{"app": "com.aurorasoftworks.quadrant.ui.professional", "cohort-bytes": "262144"}}

// smallLog has every record kind: two threads (one ends), classes with arrays, allocations of
// Java sizes, mutations to an object and to null, a GC with its deaths, and a snapshot.
var smallLog = []heap.HeapEvent{
	{Kind: heap.HeapThreadStart, Thread: 1, Time: 0, Name: "main", Group: "main"},
	{Kind: heap.HeapThreadStart, Thread: 9, Time: 0, Name: "Signal Catcher"},
	{Kind: heap.HeapClass, Class: 1, Name: "java/lang/String"},
	{Kind: heap.HeapClass, Class: 2, Name: "[C", Array: true},
	{Kind: heap.HeapClass, Class: 3, Name: "[Ljava/lang/Object;", Array: true},
	{Kind: heap.HeapAlloc, Object: 1, Time: 0, Size: 24, Thread: 1, Class: 1},
	{Kind: heap.HeapAlloc, Object: 2, Time: 24, Size: 32, Thread: 1, Class: 2, Array: true},
	{Kind: heap.HeapMutation, Time: 56, Object: 1, Offset: 8, Target: 2},
	{Kind: heap.HeapAlloc, Object: 3, Time: 56, Size: 4112, Thread: 9, Class: 3, Array: true},
	{Kind: heap.HeapMutation, Time: 4168, Object: 3, Offset: 16, Target: 1},
	{Kind: heap.HeapMutation, Time: 4168, Object: 3, Offset: 16, Target: 0},
	{Kind: heap.HeapThreadEnd, Thread: 9, Time: 4168},
	{Kind: heap.HeapGCStart, Time: 4168, GCKind: heap.GCConcurrent},
	{Kind: heap.HeapFree, Object: 3, Time: 4168},
	{Kind: heap.HeapGCEnd, Time: 4168},
	{Kind: heap.HeapAlloc, Object: 4, Time: 4168, Size: 16, Thread: 1, Class: 1},
	{Kind: heap.HeapGCStart, Time: 4184, GCKind: heap.GCExplicit},
	{Kind: heap.HeapGCEnd, Time: 4184},
	{Kind: heap.HeapSnapshot, Time: 4184, Distance: 5, Count: 2},
	{Kind: heap.HeapSnapshot, Time: 4184, Distance: -1, Count: 1},
	{Kind: heap.HeapSnapshot, Time: 4184, Distance: 64, Count: 18446744073709551615},
	{Kind: heap.HeapGCStart, Time: 4184, GCKind: heap.GCForMalloc},
	{Kind: heap.HeapGCEnd, Time: 4184},
	{Kind: heap.HeapGCStart, Time: 4184, GCKind: heap.GCBeforeOOM},
	{Kind: heap.HeapFree, Object: 1, Time: 4184},
	{Kind: heap.HeapFree, Object: 99, Time: 4184}, // never allocated: the analysis's business
	{Kind: heap.HeapGCEnd, Time: 4184},
	{Kind: heap.HeapGCStart, Time: 4184, GCKind: heap.GCUnknown},
	{Kind: heap.HeapGCEnd, Time: 4184},
}

func TestRoundTrip(t *testing.T) {
	data := writeAll(t, smallHeader, smallLog)
	h, got, err := readAll(t, data, "small.heaplog")
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(h, smallHeader) {
		t.Errorf("header %+v, want %+v", h, smallHeader)
	}
	if !reflect.DeepEqual(got, smallLog) {
		for i := range max(len(got), len(smallLog)) {
			if i >= len(got) || i >= len(smallLog) || got[i] != smallLog[i] {
				t.Fatalf("event %d differs:\n%s", i, data)
			}
		}
	}
	kinds := map[heap.HeapEventKind]bool{}
	for _, e := range got {
		kinds[e.Kind] = true
	}
	if len(kinds) != int(heap.HeapSnapshot) {
		t.Errorf("the log has %d of the %d record kinds", len(kinds), heap.HeapSnapshot)
	}
}

// TestGolden keeps the small log as the writer writes it (go test -run Golden -update), and
// checks the file reads back to the same events.
func TestGolden(t *testing.T) {
	const golden = "testdata/small.heaplog"
	data := writeAll(t, smallHeader, smallLog)
	if *update {
		if err := os.WriteFile(golden, data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(data, want) {
		t.Errorf("writer output differs from %s (run with -update if intended):\n%s", golden, data)
	}
	_, got, err := readAll(t, want, golden)
	if err != nil || !reflect.DeepEqual(got, smallLog) {
		t.Errorf("reading %s: %v", golden, err)
	}
}

func TestReadIntoSink(t *testing.T) {
	data := writeAll(t, smallHeader, smallLog)
	r := heaplog.NewReader(bytes.NewReader(data), "small.heaplog")
	var c collector
	if err := r.Feed(&c); err != nil {
		t.Fatal(err)
	}
	if len(c.headers) != 1 || !reflect.DeepEqual(c.headers[0], smallHeader) || !reflect.DeepEqual(c.events, smallLog) {
		t.Errorf("sink got %d headers, %d events", len(c.headers), len(c.events))
	}
	if r.Offset() != int64(len(data)) {
		t.Errorf("offset %d at the end of %d bytes", r.Offset(), len(data))
	}
	r = heaplog.NewReader(bytes.NewReader(data), "small.heaplog")
	err := r.Feed(&collector{failOn: 3})
	if err == nil || !strings.Contains(err.Error(), "small.heaplog:7: disk full") {
		t.Errorf("sink error: %v", err)
	}
}

// Readers accept runs of spaces and tabs between fields, CRLF line ends, comments and blank
// lines anywhere, and a header with no vm or props; free text keeps what follows its one
// separator.
func TestLenient(t *testing.T) {
	src := "# written by hand\r\n\nandroprof-heaplog 1\r\n# still the header\nprop  k\tv w \n" +
		"t\t1  0 -  two  spaces\r\nc 7\t[I  \n\n# a comment\na 5 0 16 1 7 1\t\ne 1 16\n"
	h, evs, err := readAll(t, []byte(src), "lenient")
	if err != nil {
		t.Fatal(err)
	}
	want := []heap.HeapEvent{
		{Kind: heap.HeapThreadStart, Thread: 1, Name: " two  spaces"},
		{Kind: heap.HeapClass, Class: 7, Name: "[I", Array: true},
		{Kind: heap.HeapAlloc, Object: 5, Size: 16, Thread: 1, Class: 7, Array: true},
		{Kind: heap.HeapThreadEnd, Thread: 1, Time: 16},
	}
	if h.VM != "" || h.Props["k"] != "v w " || !reflect.DeepEqual(evs, want) {
		t.Errorf("header %+v events %+v", h, evs)
	}
	// A class declared again with the same name is no news; the reader passes it on once.
	_, evs, err = readAll(t, []byte("androprof-heaplog 1\nc 1 [B\nc 1 [B\n"), "again")
	if err != nil || len(evs) != 1 {
		t.Errorf("%v, %d events", err, len(evs))
	}
	// A log with only its header is a log.
	h, evs, err = readAll(t, []byte("androprof-heaplog 1\nvm x\n"), "empty")
	if err != nil || len(evs) != 0 || h.VM != "x" || h.Format != "heaplog" || h.Version != 1 {
		t.Errorf("%v, %+v", err, h)
	}
}

const head = "androprof-heaplog 1\n"

// decl declares thread 1 and class 1 on lines 2 and 3.
const decl = head + "t 1 0 - main\nc 1 java/lang/Object\n"

// TestErrors checks each rule the reader enforces: the message names the file and the line.
func TestErrors(t *testing.T) {
	for _, c := range []struct {
		name, src, want string
	}{
		{"version", "androprof-heaplog 2\n", "bad.heaplog:1: unsupported heap log version \"2\""},
		{"no version", "# c\nandroprof-heaplog\n", "bad.heaplog:2: unsupported heap log version \"\""},
		{"prop without key", head + "prop\n", "bad.heaplog:2: want 1 fields (prop KEY VALUE), found 0"},
		{"truncated line", decl + "a 1 0 16 1\n", "bad.heaplog:4: want 6 fields (a OID TIME SIZE TID CLASS ARRAY), found 4"},
		{"truncated letter", decl + "a\n", "bad.heaplog:4: want 6 fields (a OID TIME SIZE TID CLASS ARRAY), found 0"},
		{"extra field", decl + "h 0 0\n", "bad.heaplog:4: unexpected \"0\" after the 1 fields of h TIME"},
		{"decreasing time", decl + "a 1 0 100 1 1 0\nd 1 100\nd 2 50\n", "bad.heaplog:6: time 50 is before the previous record's time 100"},
		{"time past total", decl + "a 1 0 16 1 1 0\ng 17 GC\n", "bad.heaplog:5: time 17 is past the 16 bytes allocated so far"},
		{"alloc time mismatch", decl + "a 1 0 16 1 1 0\na 2 8 16 1 1 0\n", "bad.heaplog:5: allocation at time 8, but the allocations before it total 16 bytes"},
		{"first alloc not 0", decl + "a 1 5 16 1 1 0\n", "bad.heaplog:4: allocation at time 5, but the allocations before it total 0 bytes"},
		{"bad time", decl + "a 1 x 16 1 1 0\n", "bad.heaplog:4: bad time \"x\""},
		{"size 0", decl + "a 1 0 0 1 1 0\n", "bad.heaplog:4: allocation of object 1 has size 0"},
		{"oid 0", decl + "a 0 0 16 1 1 0\n", "bad.heaplog:4: object id 0 (0 is null, never an object)"},
		{"death of 0", decl + "d 0 0\n", "bad.heaplog:4: object id 0"},
		{"mutation of 0", decl + "m 0 0 8 1\n", "bad.heaplog:4: source object id 0"},
		{"undeclared class", decl + "a 1 0 16 1 2 0\n", "bad.heaplog:4: allocation of class 2, which no c line declared before"},
		{"undeclared thread", decl + "a 1 0 16 3 1 0\n", "bad.heaplog:4: allocation on thread 3, which no t line declared before"},
		{"class declared after use", head + "t 1 0 - main\na 1 0 16 1 1 0\nc 1 X\n", "bad.heaplog:3: allocation of class 1"},
		{"duplicate thread", decl + "t 1 0 g other\n", "bad.heaplog:4: thread 1 declared twice"},
		{"class renamed", decl + "c 1 java/lang/String\n", "bad.heaplog:4: class 1 declared twice, as \"java/lang/Object\" and \"java/lang/String\""},
		{"undeclared thread end", decl + "e 2 0\n", "bad.heaplog:4: end of thread 2, which no t line declared"},
		{"bad number", decl + "d 1x 0\n", "bad.heaplog:4: bad object id \"1x\""},
		{"negative number", decl + "d -1 0\n", "bad.heaplog:4: bad object id \"-1\""},
		{"uint64 overflow", decl + "d 18446744073709551616 0\n", "bad.heaplog:4: bad object id \"18446744073709551616\" (want a decimal number below 2^64)"},
		{"tid overflow", head + "t 4294967296 0 - x\n", "bad.heaplog:2: bad thread id \"4294967296\" (want a decimal number below 2^32)"},
		{"class id overflow", head + "c 4294967296 X\n", "bad.heaplog:2: bad class id \"4294967296\""},
		{"offset overflow", decl + "m 0 1 4294967296 0\n", "bad.heaplog:4: bad field offset \"4294967296\""},
		{"total overflow", decl + "a 1 0 18446744073709551615 1 1 0\na 2 18446744073709551615 1 1 1 0\n", "bad.heaplog:5: allocation of 1 bytes takes the total past 2^64 bytes"},
		{"array flag", decl + "a 1 0 16 1 1 2\n", "bad.heaplog:4: bad array flag \"2\" (want 0 or 1)"},
		{"gc kind", decl + "g 0 GC_SOMETIMES\n", "bad.heaplog:4: unknown GC kind \"GC_SOMETIMES\""},
		{"bucket 0", decl + "s 0 0 1\n", "bad.heaplog:4: bad distance bucket \"0\" (want -64…-1 or 1…64)"},
		{"bucket 65", decl + "s 0 65 1\n", "bad.heaplog:4: bad distance bucket \"65\""},
		{"bucket -65", decl + "s 0 -65 1\n", "bad.heaplog:4: bad distance bucket \"-65\""},
		{"bucket --1", decl + "s 0 --1 1\n", "bad.heaplog:4: bad distance bucket \"--1\""},
		{"unknown record", decl + "x 1 2\n", "bad.heaplog:4: unknown record \"x\""},
		{"unknown word", decl + "alloc 1 0 16 1 1 0\n", "bad.heaplog:4: unknown record \"alloc\""},
		{"late vm", decl + "vm OpenJDK\n", "bad.heaplog:4: vm line after the first record (header lines come first)"},
		{"second header", decl + head, "bad.heaplog:4: a second header line"},
		{"long line", decl + "# " + strings.Repeat("x", lines.MaxLine) + "\n", "bad.heaplog:4: line longer than 1 MiB"},
	} {
		t.Run(c.name, func(t *testing.T) {
			_, _, err := readAll(t, []byte(c.src), "bad.heaplog")
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Fatalf("error %v, want %q", err, c.want)
			}
			var se *inputerr.Error
			if !errors.As(err, &se) || se.File != "bad.heaplog" || se.Line < 1 {
				t.Errorf("%v is not an *inputerr.Error with file and line", err)
			}
		})
	}
}

// Errors stick: after one, Next keeps returning it.
func TestErrorSticks(t *testing.T) {
	r := heaplog.NewReader(strings.NewReader(decl+"x\nh 0\n"), "bad")
	var first, err error
	for range 5 {
		_, err = r.Next()
		if first == nil && err != nil {
			first = err
		}
	}
	if err != first || r.Line() != 4 {
		t.Errorf("first %v, then %v at line %d", first, err, r.Line())
	}
}

func TestNotHeapLog(t *testing.T) {
	for name, src := range map[string]string{
		"empty":         "",
		"comments only": "# androprof-heaplog 1\n\n",
		"other magic":   "androprof-dpa 1\n",
		"record first":  "t 1 0 - main\n" + head,
		"near miss":     "androprof-heaplogs 1\n",
		"traceview":     "*version\n3\n",
		"bad gzip":      "\x1f\x8b\x08garbage",
		"long line":     strings.Repeat("x", lines.MaxLine+10),
	} {
		_, _, err := readAll(t, []byte(src), "other.log")
		if !errors.Is(err, heaplog.ErrNotHeapLog) || !strings.HasPrefix(err.Error(), "other.log: ") {
			t.Errorf("%s: %v", name, err)
		}
	}
}
