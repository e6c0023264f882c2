package benchmem

import (
	"bytes"
	"io"
	"runtime"
	"testing"

	"androprof/model/calls"
)

// Allocated is how many bytes f allocates on the heap (runtime.MemStats.TotalAlloc), whatever
// the garbage collector frees meanwhile. Run nothing else concurrently.
func Allocated(f func()) uint64 {
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	f()
	runtime.ReadMemStats(&after)
	return after.TotalAlloc - before.TotalAlloc
}

// InputBound is the most a reader may allocate for an input of n bytes in the readers' memory
// tests (docs/readers.md, "Memory"): generous, so it holds for any real file, yet far below
// what a file that claims more than it holds made readers allocate.
func InputBound(n int) uint64 { return 64*uint64(n) + 8<<20 }

// WithinInput runs f, which reads an input of size bytes, fails t when f allocated more than
// InputBound(size), and logs what it allocated: the readers' memory tests show with it that a
// reader's memory follows what an input holds, not what it claims.
func WithinInput(t testing.TB, size int, f func()) {
	t.Helper()
	got := Allocated(f)
	if limit := InputBound(size); got > limit {
		t.Errorf("%d bytes of input allocated %d bytes, more than %d", size, got, limit)
	}
	t.Logf("%d bytes of input: %d bytes allocated (%.1f×)", size, got, float64(got)/float64(max(size, 1)))
}

// CallsWithinInput is WithinInput for a method-trace reader: feed reads input into the call
// builder an import uses (finished afterwards, as an import does); a read error fails t.
func CallsWithinInput(t testing.TB, input []byte, feed func(r io.Reader, sink *calls.CallBuilder) error) {
	t.Helper()
	var err error
	WithinInput(t, len(input), func() {
		sink := calls.NewCallBuilder()
		err = feed(bytes.NewReader(input), sink)
		sink.Finish()
	})
	if err != nil {
		t.Fatal(err)
	}
}
