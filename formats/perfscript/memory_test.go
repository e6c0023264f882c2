package perfscript

import (
	"bytes"
	"fmt"
	"testing"

	"androprof/internal/benchmem"
	"androprof/model/samples"
)

// synthetic writes n samples of perf script text whose stacks of depth frames draw on 64
// symbols in 4 images.
func synthetic(n, depth int) []byte {
	var b bytes.Buffer
	for i := range n {
		fmt.Fprintf(&b, "C2 CompilerThre %d/%d %d.%06d:    1001001 cpu-clock: \n", 100, 100+i%7, 5000+i/1000, i%1000*1000)
		for d := range depth {
			k := (i*7 + d*13) % 64
			fmt.Fprintf(&b, "\t%16x void com.example.C%d.m%d(int[], long)+0x%x (/usr/lib/lib%d.so)\n", 0x7f0000000000+k*0x100, k, d, k, k%4)
		}
		b.WriteString("\n")
	}
	return b.Bytes()
}

// Reading allocates the same whether a file holds a thousand samples or eight times as many of
// the same stacks: one sample and its stack are reused and names are made once, so memory stays
// flat as recordings grow.
func TestMemoryFlat(t *testing.T) {
	discard := sinkFunc(func(*samples.Sample) error { return nil })
	read := func(data []byte) uint64 {
		var err error
		got := benchmem.Allocated(func() { err = NewReader(bytes.NewReader(data), "x").Feed(discard) })
		if err != nil {
			t.Fatal(err)
		}
		return got
	}
	small, large := synthetic(1000, 30), synthetic(8000, 30)
	a, b := read(small), read(large)
	t.Logf("%d bytes: %d allocated; %d bytes: %d allocated", len(small), a, len(large), b)
	if b > a+16<<10 {
		t.Errorf("8× the samples allocated %d bytes more", b-a)
	}
}

// A file of one sample as deep as a stack may be, every frame a new name, read into the
// builder an import uses: what is allocated follows the file's size (docs/readers.md, "Memory").
func TestMemoryFollowsContent(t *testing.T) {
	var b bytes.Buffer
	b.WriteString("java 1/1 1.000001: 1 cpu-clock:\n")
	for i := range MaxFrames {
		fmt.Fprintf(&b, "\t%x f%d (/l%d.so)\n", i, i, i)
	}
	var err error
	benchmem.WithinInput(t, b.Len(), func() {
		r := NewReader(bytes.NewReader(b.Bytes()), "deep.perfscript")
		sink := samples.NewSampleBuilder(samples.SampleSelection{})
		err = r.Feed(sink)
		sink.Finish(r.Header())
	})
	if err != nil {
		t.Fatal(err)
	}
}
