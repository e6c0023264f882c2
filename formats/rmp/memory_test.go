package rmp

import (
	"bytes"
	"fmt"
	"io"
	"testing"

	"androprof/internal/benchmem"
	"androprof/model/calls"
)

// TestMemoryFollowsContent feeds a round of many probes and threads declared and never used
// into the sink an import uses: what is allocated must follow the lines, not grow by a call
// tree per declared thread (docs/readers.md, "Memory").
func TestMemoryFollowsContent(t *testing.T) {
	var b bytes.Buffer
	b.WriteString("androprof-rmp 1\nprocess 1 p\n")
	for i := 1; i <= 20_000; i++ {
		fmt.Fprintf(&b, "probe %d method app on a.B.m\n", i)
	}
	for i := 1; i <= 100_000; i++ {
		fmt.Fprintf(&b, "thread %d t\n", i)
	}
	b.WriteString("in 1 5 1\nout 1 9 1\nend\n")
	benchmem.CallsWithinInput(t, b.Bytes(), func(r io.Reader, sink *calls.CallBuilder) error {
		return NewReader(r, "threads.rmp").Feed(sink)
	})
}
