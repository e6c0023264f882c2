package perfscript

import (
	"bytes"
	"testing"

	"androprof/model/samples"
)

// BenchmarkFeed reads 4000 samples of 30 frames into the builder an import uses.
func BenchmarkFeed(b *testing.B) {
	data := synthetic(4000, 30)
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	for b.Loop() {
		r := NewReader(bytes.NewReader(data), "bench.perfscript")
		sink := samples.NewSampleBuilder(samples.SampleSelection{})
		if err := r.Feed(sink); err != nil {
			b.Fatal(err)
		}
		sink.Finish(r.Header())
	}
}
