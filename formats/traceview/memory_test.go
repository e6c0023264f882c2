package traceview

import (
	"bytes"
	"fmt"
	"io"
	"testing"

	"androprof/internal/benchmem"
	"androprof/model/calls"
)

// TestMemoryFollowsContent feeds a trace of many threads and methods declared and never used
// into the sink an import uses: what is allocated must follow the key section's lines, not grow
// by a call tree per declared thread (docs/readers.md, "Memory").
func TestMemoryFollowsContent(t *testing.T) {
	var b bytes.Buffer
	w, err := NewWriter(&b, WriterOptions{Version: 3, Clock: calls.ClockDual, VM: "art", PID: 1})
	if err != nil {
		t.Fatal(err)
	}
	for tid := 1; tid <= 60_000; tid++ {
		if err := w.Thread(calls.ThreadInfo{TID: tid, Name: "t"}); err != nil {
			t.Fatal(err)
		}
	}
	for i := range 20_000 {
		if err := w.Method(calls.MethodInfo{ID: uint64(4 * (i + 1)), Class: "a/B", Name: fmt.Sprint("m", i), Line: -1}); err != nil {
			t.Fatal(err)
		}
	}
	for _, a := range []calls.MethodAction{calls.Enter, calls.Exit} {
		if err := w.Event(calls.MethodEvent{TID: 1, Method: 4, Action: a}); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	benchmem.CallsWithinInput(t, b.Bytes(), func(r io.Reader, sink *calls.CallBuilder) error {
		return NewReader(r, "threads.trace").Feed(sink)
	})
}
