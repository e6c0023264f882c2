package dpa

import (
	"bytes"
	"fmt"
	"testing"

	"androprof/internal/benchmem"
	"androprof/model"
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
	var err error
	benchmem.WithinInput(t, b.Len(), func() {
		sink := model.NewCallBuilder()
		err = NewReader(bytes.NewReader(b.Bytes()), "threads.dpa").Feed(sink)
		sink.Finish()
	})
	if err != nil {
		t.Fatal(err)
	}
}
