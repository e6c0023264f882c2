package traceview

import (
	"bytes"
	"compress/gzip"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"androprof/model/calls"
)

// collector keeps everything a reader yields, for comparison.
type collector struct {
	headers []calls.TraceHeader
	threads []calls.ThreadInfo
	methods []calls.MethodInfo
	events  []calls.MethodEvent
}

func (c *collector) Header(h calls.TraceHeader) error { c.headers = append(c.headers, h); return nil }
func (c *collector) Thread(t calls.ThreadInfo) error  { c.threads = append(c.threads, t); return nil }
func (c *collector) Method(m calls.MethodInfo) error  { c.methods = append(c.methods, m); return nil }
func (c *collector) Event(e calls.MethodEvent) error  { c.events = append(c.events, e); return nil }

// writeTrace writes a generated trace with the options and returns it with what was written.
func writeTrace(t testing.TB, o WriterOptions, g *traceGen, events int) ([]byte, *collector) {
	t.Helper()
	var buf bytes.Buffer
	w, err := NewWriter(&buf, o)
	if err != nil {
		t.Fatal(err)
	}
	want := &collector{}
	for _, th := range g.threadInfos() {
		if err := w.Thread(th); err != nil {
			t.Fatal(err)
		}
		want.threads = append(want.threads, th)
	}
	declare := func(m calls.MethodInfo) {
		if err := w.Method(m); err != nil {
			t.Fatal(err)
		}
		if o.ARTMethodLines {
			m.Line = -1
		}
		want.methods = append(want.methods, m)
	}
	half := len(g.methods)
	if o.Streaming {
		half /= 2 // the rest are declared between events, as ART does
	}
	for _, m := range g.methods[:half] {
		declare(m)
	}
	for i := range events {
		if o.Streaming && i == events/3 {
			for _, m := range g.methods[half:] {
				declare(m)
			}
		}
		e := g.next()
		if o.Streaming && i < events/3 && e.Method >= g.methods[half].ID {
			e.Method = g.methods[0].ID // keep streaming traces declaring methods before their use
			e.Action = calls.Enter
			g.cur.stack = append(g.cur.stack, e.Method)
		}
		if err := w.Event(e); err != nil {
			t.Fatal(err)
		}
		want.events = append(want.events, project(e, o.Clock))
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes(), want
}

// TestRoundTrip writes every version, clock and layout and reads it back.
func TestRoundTrip(t *testing.T) {
	type variant struct {
		name string
		o    WriterOptions
	}
	var variants []variant
	for _, streaming := range []bool{false, true} {
		for v := 1; v <= 3; v++ {
			for _, c := range []calls.Clock{calls.ClockThreadCPU, calls.ClockWall, calls.ClockDual} {
				if c == calls.ClockDual && v != 3 {
					continue
				}
				variants = append(variants, variant{fmt.Sprintf("v%d-%s-streaming=%v", v, c, streaming),
					WriterOptions{Version: v, Clock: c, Streaming: streaming}})
			}
		}
	}
	variants = append(variants,
		variant{"legacy14-thread-cpu", WriterOptions{Version: 2, Clock: calls.ClockThreadCPU, Streaming: true, LegacyRecords: true}},
		variant{"legacy14-wall", WriterOptions{Version: 2, Clock: calls.ClockWall, Streaming: true, LegacyRecords: true}},
		variant{"legacy14-no-summary", WriterOptions{Version: 2, Clock: calls.ClockWall, Streaming: true, LegacyRecords: true, NoSummary: true}},
		variant{"v3-record-size-20", WriterOptions{Version: 3, Clock: calls.ClockDual, RecordSize: 20}},
		variant{"v3-single-14", WriterOptions{Version: 3, Clock: calls.ClockThreadCPU, RecordSize: 14}},
		variant{"v2-offset-16", WriterOptions{Version: 2, Clock: calls.ClockWall, DataOffset: 16}},
		variant{"v3-art-lines", WriterOptions{Version: 3, Clock: calls.ClockDual, ARTMethodLines: true, VM: "art", PID: 4242}},
		variant{"v3-streaming-art", WriterOptions{Version: 3, Clock: calls.ClockDual, Streaming: true, ARTMethodLines: true, VM: "art", PID: 77}},
		variant{"v3-streaming-no-summary", WriterOptions{Version: 3, Clock: calls.ClockDual, Streaming: true, NoSummary: true}},
	)
	for i, vt := range variants {
		t.Run(vt.name, func(t *testing.T) {
			o := vt.o
			o.StartMicros, o.ElapsedMicros, o.NumMethodCalls = 1_700_000_000_000_000+uint64(i), 12345, 2000
			if o.VM == "" {
				o.VM = "dalvik"
			}
			o.Properties = map[string]string{"alloc-count": "7"}
			g := newTraceGen(uint64(i), 4, 40, 12, 1<<32-3000) // the clocks wrap within the trace
			g.unknown = true
			data, want := writeTrace(t, o, g, 2000)
			for _, input := range []string{"seekable", "stream", "gzip-seekable", "gzip-stream"} {
				in := data
				if strings.HasPrefix(input, "gzip") {
					var zb bytes.Buffer
					zw := gzip.NewWriter(&zb)
					zw.Write(data)
					zw.Close()
					in = zb.Bytes()
				}
				var r io.Reader = bytes.NewReader(in)
				if strings.HasSuffix(input, "stream") {
					r = struct{ io.Reader }{r}
				}
				got := &collector{}
				err := NewReader(r, vt.name).Feed(got)
				singleStream := o.Streaming && o.Clock == calls.ClockThreadCPU
				if singleStream && strings.HasSuffix(input, "stream") {
					// The clock of a single-clock streaming trace is only in its summary; without
					// seeking the reader has to guess wall, and must say so when the summary disagrees.
					if o.NoSummary {
						continue
					}
					if err == nil || !strings.Contains(err.Error(), "cannot seek") {
						t.Fatalf("%s: want the guessed-clock error, got %v", input, err)
					}
					continue
				}
				if err != nil {
					t.Fatalf("%s: %v", input, err)
				}
				checkRoundTrip(t, input, o, want, got)
			}
		})
	}
}

func checkRoundTrip(t *testing.T, input string, o WriterOptions, want, got *collector) {
	t.Helper()
	if len(got.headers) != 1 {
		t.Fatalf("%s: %d headers", input, len(got.headers))
	}
	h := got.headers[0]
	// A classic trace's start time is in the data header after the key section: only a
	// seekable input gives it before the threads and methods.
	wantStart := o.StartMicros
	if !o.Streaming && strings.HasSuffix(input, "stream") {
		wantStart = 0
	}
	if h.Version != o.Version || h.Clock != o.Clock || h.StartMicros != wantStart {
		t.Errorf("%s: header %+v, want version %d clock %s start %d", input, h, o.Version, o.Clock, o.StartMicros)
	}
	streamingBlind := o.Streaming && (o.NoSummary || strings.HasSuffix(input, "stream"))
	if !streamingBlind && (h.VM != o.VM || h.PID != o.PID || h.ElapsedMicro != o.ElapsedMicros || h.Properties["alloc-count"] != o.Properties["alloc-count"]) {
		t.Errorf("%s: header %+v, want vm %s pid %d elapsed %d", input, h, o.VM, o.PID, o.ElapsedMicros)
	}
	wantThreads := want.threads
	if o.Streaming && !o.NoSummary {
		wantThreads = append(append([]calls.ThreadInfo{}, want.threads...), want.threads...) // packets, then the summary
	}
	if !reflect.DeepEqual(got.threads, wantThreads) {
		t.Errorf("%s: threads %v, want %v", input, got.threads, wantThreads)
	}
	if !reflect.DeepEqual(got.methods, want.methods) {
		t.Errorf("%s: %d methods, want %d; first %+v want %+v", input, len(got.methods), len(want.methods), got.methods[0], want.methods[0])
	}
	if len(got.events) != len(want.events) {
		t.Fatalf("%s: %d events, want %d", input, len(got.events), len(want.events))
	}
	for i := range got.events {
		if got.events[i] != want.events[i] {
			t.Fatalf("%s: event %d is %+v, want %+v", input, i, got.events[i], want.events[i])
		}
	}
}

// TestRoundTripFile reads written traces from files, plain and compressed, including Sniff and
// the look-ahead of a streaming single-clock trace. (The importer's own path, which decompresses
// before the reader, is tested in package formats.)
func TestRoundTripFile(t *testing.T) {
	dir := t.TempDir()
	for i, o := range []WriterOptions{
		{Version: 2, Clock: calls.ClockThreadCPU, Streaming: true, LegacyRecords: true, PID: 9},
		{Version: 2, Clock: calls.ClockThreadCPU, Streaming: true, PID: 9},
		{Version: 1, Clock: calls.ClockThreadCPU, PID: 9},
	} {
		data, want := writeTrace(t, o, newTraceGen(7, 3, 20, 8, 0), 500)
		if err := Sniff(data); err != nil {
			t.Errorf("Sniff(%+v): %v", o, err)
		}
		for _, gz := range []bool{false, true} {
			p := filepath.Join(dir, fmt.Sprintf("t%d-%v.trace", i, gz))
			if gz {
				var zb bytes.Buffer
				zw := gzip.NewWriter(&zb)
				zw.Write(data)
				zw.Close()
				data = zb.Bytes()
			}
			if err := os.WriteFile(p, data, 0o644); err != nil {
				t.Fatal(err)
			}
			f, err := os.Open(p)
			if err != nil {
				t.Fatal(err)
			}
			got := &collector{}
			err = NewReader(f, p).Feed(got)
			f.Close()
			if err != nil {
				t.Fatal(err)
			}
			checkRoundTrip(t, "file", o, want, got)
		}
	}
}

// TestLegacyRecordSize checks that the Android 6–12 quirk is seen from the data, not the header.
func TestLegacyRecordSize(t *testing.T) {
	for _, legacy := range []bool{false, true} {
		data, _ := writeTrace(t, WriterOptions{Version: 2, Clock: calls.ClockWall, Streaming: true, LegacyRecords: legacy},
			newTraceGen(3, 2, 10, 6, 100), 300)
		if got := int(data[16]) | int(data[17])<<8; got != 10 {
			t.Fatalf("header states %d-byte records, want 10 as ART wrote", got)
		}
		r := NewReader(bytes.NewReader(data), "legacy")
		want := 10
		if legacy {
			want = 14
		}
		if r.RecordSize() != want || !r.Streaming() || r.Version() != 2 {
			t.Errorf("legacy=%v: record size %d streaming %v version %d", legacy, r.RecordSize(), r.Streaming(), r.Version())
		}
	}
}

func TestSniff(t *testing.T) {
	for name, content := range map[string]string{"text.log": "hello\n", "empty": "", "slow.bin": "SLOW\x03\x00 \x00",
		"gzip": "\x1f\x8b\x08\x00"} { // the importer decompresses before it sniffs
		if err := Sniff([]byte(content)); !errors.Is(err, ErrNotTraceview) {
			t.Errorf("%s: %v, want ErrNotTraceview", name, err)
		}
	}
	for _, o := range []WriterOptions{{Version: 3, Clock: calls.ClockDual}, {Version: 3, Clock: calls.ClockDual, Streaming: true}} {
		data, _ := writeTrace(t, o, newTraceGen(1, 1, 4, 2, 0), 10)
		if err := Sniff(data); err != nil {
			t.Errorf("streaming %v: %v", o.Streaming, err)
		}
		if err := Sniff(data[:20]); err != nil {
			t.Errorf("first 20 bytes, streaming %v: %v", o.Streaming, err)
		}
	}
}

func TestWriterRejects(t *testing.T) {
	for _, o := range []WriterOptions{
		{Version: 4, Clock: calls.ClockWall},
		{Version: 2, Clock: calls.ClockDual},
		{Version: 3, Clock: "global"},
		{Version: 3, Clock: calls.ClockDual, RecordSize: 12},
		{Version: 2, Clock: calls.ClockWall, RecordSize: 14},
		{Version: 2, Clock: calls.ClockWall, LegacyRecords: true},
		{Version: 3, Clock: calls.ClockWall, DataOffset: 17},
	} {
		if _, err := NewWriter(io.Discard, o); err == nil {
			t.Errorf("%+v accepted", o)
		}
	}
	w, _ := NewWriter(io.Discard, WriterOptions{Version: 1, Clock: calls.ClockWall})
	if err := w.Event(calls.MethodEvent{TID: 300}); err == nil {
		t.Error("thread id 300 in a version-1 trace accepted")
	}
	if err := w.Event(calls.MethodEvent{TID: 1, Method: 6}); err == nil {
		t.Error("method id with low bits accepted")
	}
	if err := w.Event(calls.MethodEvent{TID: 1, Method: 8}); err != nil {
		t.Fatal(err)
	}
	if err := w.Method(calls.MethodInfo{ID: 12, Class: "a/B"}); err == nil {
		t.Error("method declared after the first event of a classic trace")
	}
	if err := w.Method(calls.MethodInfo{ID: 16, Class: "a\tB"}); err == nil {
		t.Error("tab in a class name accepted")
	}
}
