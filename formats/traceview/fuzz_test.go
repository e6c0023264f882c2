package traceview

import (
	"bytes"
	"compress/gzip"
	"flag"
	"testing"

	"androprof/internal/fuzzseed"
	"androprof/model/calls"
)

var update = flag.Bool("update", false, "rewrite the seed corpus in testdata/fuzz/FuzzReader")

// FuzzReader feeds arbitrary bytes to the reader, seekable or not, and through a CallBuilder:
// it must never panic, must explain every refusal with an offset inside the input, and what it
// accepts must survive being written and read again.
func FuzzReader(f *testing.F) {
	f.Fuzz(func(t *testing.T, data []byte) {
		for _, seekable := range []bool{true, false} {
			got := &collector{}
			r := NewReader(readerOf(data, seekable), "fuzz")
			b := calls.NewCallBuilder()
			err := r.Feed(teeSink{got, b})
			b.Finish()
			checkErr(t, "fuzz", err, len(data)+(1<<24)) // gzip input may expand; the offset is in the expansion
			if err != nil || !seekable {
				continue
			}
			rewriteAndCompare(t, r, got)
		}
	})
}

func readerOf(data []byte, seekable bool) interface{ Read([]byte) (int, error) } {
	if seekable {
		return bytes.NewReader(data)
	}
	return struct{ *bytes.Reader }{bytes.NewReader(data)}
}

// rewriteAndCompare writes what was read with the writer and checks the events come back.
func rewriteAndCompare(t *testing.T, r *Reader, got *collector) {
	if len(got.headers) != 1 {
		t.Fatalf("%d headers", len(got.headers))
	}
	var buf bytes.Buffer
	w, err := NewWriter(&buf, WriterOptions{Version: r.Version(), Clock: r.Clock(), Streaming: r.Streaming(), RecordSize: 0})
	if err != nil {
		return
	}
	for _, th := range got.threads {
		if w.Thread(th) != nil {
			return // e.g. a name the writer cannot put on one line
		}
	}
	for _, m := range got.methods {
		if w.Method(m) != nil {
			return
		}
	}
	for _, e := range got.events {
		if err := w.Event(e); err != nil {
			t.Fatalf("event %+v read but not writable: %v", e, err)
		}
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	again := &collector{}
	if err := NewReader(bytes.NewReader(buf.Bytes()), "rewritten").Feed(again); err != nil {
		t.Fatalf("rereading what was written: %v", err)
	}
	if len(again.events) != len(got.events) {
		t.Fatalf("%d events, then %d", len(got.events), len(again.events))
	}
	for i := range got.events {
		if again.events[i] != got.events[i] {
			t.Fatalf("event %d: %+v, then %+v", i, got.events[i], again.events[i])
		}
	}
}

// TestWriteFuzzSeeds keeps the seed corpus: small traces of every layout made by the writer,
// among them replicas of the real corpus files' records (go test -run WriteFuzzSeeds -update).
func TestWriteFuzzSeeds(t *testing.T) {
	fuzzseed.Keep(t, fuzzSeeds(t), *update)
}

func fuzzSeeds(t *testing.T) map[string][]byte {
	seeds := map[string][]byte{}
	for name, o := range map[string]WriterOptions{
		"classic-v1-thread-cpu":    {Version: 1, Clock: calls.ClockThreadCPU, NumMethodCalls: 40},
		"classic-v2-wall":          {Version: 2, Clock: calls.ClockWall, DataOffset: 16},
		"classic-v3-dual":          {Version: 3, Clock: calls.ClockDual, NumMethodCalls: 40},
		"classic-v3-art-lines":     {Version: 3, Clock: calls.ClockDual, ARTMethodLines: true, VM: "art", PID: 21491},
		"streaming-v2-legacy-14":   {Version: 2, Clock: calls.ClockThreadCPU, Streaming: true, LegacyRecords: true},
		"streaming-v2-wall":        {Version: 2, Clock: calls.ClockWall, Streaming: true},
		"streaming-v3-dual":        {Version: 3, Clock: calls.ClockDual, Streaming: true, ARTMethodLines: true, VM: "art"},
		"streaming-v3-no-summary":  {Version: 3, Clock: calls.ClockDual, Streaming: true, NoSummary: true},
		"streaming-v1-thread-cpu":  {Version: 1, Clock: calls.ClockThreadCPU, Streaming: true},
		"classic-v3-record-size-1": {Version: 3, Clock: calls.ClockDual, RecordSize: 18},
	} {
		g := newTraceGen(uint64(len(name)), 2, 6, 4, 1<<32-40)
		g.unknown = true
		data, _ := writeTrace(t, o, g, 40)
		seeds[name] = data
	}
	seeds["perflib-basic-replica"] = perflibBasicReplica(t)
	var zb bytes.Buffer
	zw := gzip.NewWriter(&zb)
	zw.Write(seeds["classic-v3-art-lines"])
	zw.Close()
	seeds["gzip-classic-v3"] = zb.Bytes()
	return seeds
}

// perflibBasicReplica writes the records of ../shared/corpus/perflib-basic.trace (a
// Debug.startMethodTracing test app: orphan exits, foo→bar, stopMethodTracing left open) with
// this package's writer.
func perflibBasicReplica(t *testing.T) []byte {
	var buf bytes.Buffer
	w, err := NewWriter(&buf, WriterOptions{Version: 3, Clock: calls.ClockDual, StartMicros: 1374703971214759,
		ElapsedMicros: 303, NumMethodCalls: 9, Overhead: 2178, VM: "dalvik"})
	if err != nil {
		t.Fatal(err)
	}
	for _, th := range []calls.ThreadInfo{{TID: 1, Name: "main"}, {TID: 11, Name: "AsyncTask #1"}, {TID: 10, Name: "Binder_2"}, {TID: 2, Name: "GC"}} {
		w.Thread(th)
	}
	for _, m := range []calls.MethodInfo{
		{ID: 0x6287d960, Class: "android/os/Debug", Name: "startMethodTracing", Signature: "(Ljava/lang/String;)V", File: "Debug.java", Line: -1},
		{ID: 0x6287d9d0, Class: "android/os/Debug", Name: "startMethodTracing", Signature: "(Ljava/lang/String;II)V", File: "Debug.java", Line: 604},
		{ID: 0x6287dae8, Class: "android/os/Debug", Name: "stopMethodTracing", Signature: "()V", File: "Debug.java", Line: 650},
		{ID: 0x62ae8a10, Class: "com/test/android/traceview/Basic", Name: "bar", Signature: "()I", File: "Basic.java", Line: 18},
		{ID: 0x62ae8a48, Class: "com/test/android/traceview/Basic", Name: "foo", Signature: "()V", File: "Basic.java", Line: 14},
		{ID: 0x627f5868, Class: "dalvik/system/VMDebug", Name: "startMethodTracing", Signature: "(Ljava/lang/String;II)V", File: "VMDebug.java", Line: 170},
		{ID: 0x627f59f0, Class: "dalvik/system/VMDebug", Name: "stopMethodTracing", Signature: "()V", File: "VMDebug.java", Line: -2},
	} {
		w.Method(m)
	}
	for _, r := range [][4]uint64{
		{0x627f5868, 1, 3, 230}, {0x6287d9d0, 1, 7, 233}, {0x6287d960, 1, 9, 235}, {0x62ae8a48, 0, 16, 242},
		{0x62ae8a10, 0, 19, 245}, {0x62ae8a10, 1, 21, 247}, {0x62ae8a48, 1, 23, 249}, {0x6287dae8, 0, 45, 271},
		{0x627f59f0, 0, 61, 287},
	} {
		w.Event(calls.MethodEvent{TID: 11, Method: r[0], Action: calls.MethodAction(r[1]), ThreadCPU: r[2], Wall: r[3]})
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// TestPerflibBasicReplica checks the replica against the hand-derived table of the real file, so
// the seed corpus and the unit tests hold without ../shared.
func TestPerflibBasicReplica(t *testing.T) {
	b := calls.NewCallBuilder()
	if err := NewReader(bytes.NewReader(perflibBasicReplica(t)), "replica").Feed(b); err != nil {
		t.Fatal(err)
	}
	m := methodTable(b.Finish())
	for id, want := range map[uint64]dmtRow{
		calls.TopLevelMethod: {29, 58, 0, 0}, 0x627f5868: {0, 3, 1, 0}, 0x6287d9d0: {4, 7, 1, 0},
		0x6287d960: {2, 9, 1, 0}, 0x62ae8a48: {5, 7, 1, 0}, 0x62ae8a10: {2, 2, 1, 0},
		0x6287dae8: {16, 16, 1, 0}, 0x627f59f0: {0, 0, 1, 0},
	} {
		if m[id] != want {
			t.Errorf("%#x: %+v, want %+v", id, m[id], want)
		}
	}
}
