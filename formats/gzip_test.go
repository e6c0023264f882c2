package formats

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"androprof/internal/benchmem"
	"androprof/internal/gunzip"
	"androprof/internal/shapes"
	"androprof/internal/testio"
	"androprof/model"
	"androprof/model/calls"
	"androprof/model/heap"
	"androprof/model/samples"
)

// readInput reads a recognised input through its format into a sink that keeps what an import
// keeps, as the importer would.
func readInput(in *Input) error {
	var err error
	switch in.Format.Kind {
	case model.RunKindEmulator:
		err = in.Format.ReadBlocks([]*Input{in}, Options{}, discardBlocks{})
	case model.RunKindMethods:
		_, err = in.Format.ReadMethods(in, Options{}, calls.NewCallBuilder())
	case model.RunKindHeap:
		err = in.Format.ReadHeapLog(in, heap.NewHeapBuilder(256<<10))
	case model.RunKindHeapDump:
		_, err = in.Format.ReadHeapDump(in, Options{})
	case model.RunKindSamples:
		_, err = in.Format.ReadSamples(in, Options{}, samples.NewSampleBuilder(samples.SampleSelection{}))
	}
	return err
}

// Issue 24, finding 11: a gzip bomb that claims to be a heap dump (2.6 MB of zeros behind an
// HPROF header, 2.7 GB decompressed) is refused, naming the file and the place in the
// compressed file, after reading a bounded part of it: what is read and allocated is the
// same for a bomb ten times the size.
func TestGzipBombRefused(t *testing.T) {
	dir := t.TempDir()
	var read []int64
	for _, mib := range []int{260, 2600} {
		path := filepath.Join(dir, fmt.Sprintf("bomb%d.hprof.gz", mib))
		var b bytes.Buffer
		if err := shapes.HPROFBomb(&b, mib); err != nil {
			t.Fatal(err)
		}
		os.WriteFile(path, b.Bytes(), 0o644)
		p := newProgress()
		var err error
		alloc := benchmem.Allocated(func() {
			var in *Input
			if in, err = recognizeFile(t, path, p); err == nil {
				err = readInput(in)
			}
		})
		var ee *gunzip.ExpandError
		if !errors.As(err, &ee) || !ee.ByRatio || !strings.Contains(err.Error(), path) ||
			!strings.Contains(err.Error(), fmt.Sprintf("first %d of the compressed file", ee.In)) {
			t.Fatalf("%d MiB bomb (%d bytes): %v; want an expansion error naming the file and the compressed offset", mib, b.Len(), err)
		}
		t.Logf("%d MiB bomb (%d bytes): %v; %d compressed bytes read, %d allocated", mib, b.Len(), err, p.Done(), alloc)
		if alloc > 64<<20 {
			t.Errorf("%d MiB bomb: %d bytes allocated before it was refused", mib, alloc)
		}
		read = append(read, p.Done())
	}
	if read[1] > read[0]+64<<10 || read[1] > 1<<20 {
		t.Errorf("read %d compressed bytes of the small bomb and %d of the large one: the refusal waits for the end", read[0], read[1])
	}
}

// Issue 24, finding 17: every format takes gzip, as the README says: a gzip-compressed DPA or
// RMP log is recognised and reads to what the plain file does.
func TestGzipEveryFormat(t *testing.T) {
	for _, f := range All {
		if !f.Gzip {
			t.Errorf("format %s refuses gzip-compressed files", f.Name)
		}
	}
	dir := t.TempDir()
	for _, src := range []string{"dpa/testdata/figure4.dpa", "rmp/testdata/browser.rmp"} {
		data := testio.ReadPlain(t, src)
		var stats []string
		for _, content := range [][]byte{data, testio.Gzip(data)} {
			path := filepath.Join(dir, filepath.Base(src))
			if testio.IsGzip(content) {
				path += ".gz"
			}
			os.WriteFile(path, content, 0o644)
			in, err := recognizeFile(t, path, newProgress())
			if err != nil {
				t.Fatalf("%s: %v", path, err)
			}
			sink := calls.NewCallBuilder()
			h, err := in.Format.ReadMethods(in, Options{}, sink)
			if err != nil {
				t.Fatalf("%s: %v", path, err)
			}
			p := sink.Finish()
			stats = append(stats, fmt.Sprint(h, p.ByMethod(), p.Threads))
		}
		if stats[0] != stats[1] {
			t.Errorf("%s: compressed reads to\n%v\nplain to\n%v", src, stats[1], stats[0])
		}
	}
}
