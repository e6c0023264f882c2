package dpa

import (
	"bytes"
	"fmt"
	"io"
	"testing"

	"androprof/internal/benchmem"
	"androprof/model/calls"
)

// TestMemoryFollowsContent feeds a log of many threads and methods declared and never used
// into the sink an import uses: what is allocated must follow the lines, not grow by a call
// tree per declared thread (docs/readers.md, "Memory").
func TestMemoryFollowsContent(t *testing.T) {
	var b bytes.Buffer
	b.WriteString("androprof-dpa 1\nprocess 1 p\n")
	for i := 1; i <= 100_000; i++ {
		fmt.Fprintf(&b, "thread %d t\n", i)
	}
	for i := 1; i <= 20_000; i++ {
		fmt.Fprintf(&b, "method %d a/B m ()V\n", i)
	}
	b.WriteString("thread 200001 main\nenter 200001 1 5 1\nexit 200001 1 9 0 1\nend\n")
	benchmem.CallsWithinInput(t, b.Bytes(), func(r io.Reader, sink *calls.CallBuilder) error {
		return NewReader(r, "threads.dpa").Feed(sink)
	})
}
