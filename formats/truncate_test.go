package formats

import (
	"bytes"
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"androprof/internal/cutline"
	"androprof/internal/inputerr"
	"androprof/internal/shapes"
	"androprof/internal/testio"
)

// Issue 24, finding 16: a file of any line format cut inside its last line, plain or
// compressed whole after the cut, is refused at that line ("FILE:N: the file ends inside a
// line (truncated?)"), never imported with its last record cut short.
func TestCutInLastLineRefused(t *testing.T) {
	dir := t.TempDir()
	var heaplog, perf bytes.Buffer
	shapes.TruncatedHeapLog(&heaplog, 2000)
	shapes.TruncatedPerfScript(&perf, 50)
	cuts := map[string][]byte{"synthetic.heaplog": heaplog.Bytes(), "spin.perfscript": perf.Bytes()}
	for name, paths := range realFiles {
		if name == "hprof" || name == "traceview" { // binary: their own checks (docs/hprof.md)
			continue
		}
		for _, src := range paths {
			cuts[strings.TrimSuffix(filepath.Base(src), ".gz")] = shapes.CutInLastLine(testio.ReadPlain(t, src))
		}
	}
	for name, data := range cuts {
		for _, content := range [][]byte{data, testio.Gzip(data)} {
			path := filepath.Join(dir, name)
			if testio.IsGzip(content) {
				path += ".gz"
			}
			os.WriteFile(path, content, 0o644)
			in, err := recognizeFile(t, path, newProgress())
			if err == nil {
				err = readInput(in)
			}
			var ie *inputerr.Error
			if line := int64(bytes.Count(data, []byte("\n")) + 1); !errors.As(err, &ie) || ie.File != path || ie.Line != line ||
				!strings.Contains(err.Error(), cutline.ErrCut.Error()) {
				t.Errorf("%s: %v; want it refused at line %d: %v", filepath.Base(path), err, line, cutline.ErrCut)
			}
		}
	}
}

// Issue 24, finding 16: a file another process cuts while it is imported (to a line's end, so
// its last line looks whole) is refused, not imported as the prefix read before the cut.
func TestShrunkDuringImport(t *testing.T) {
	var text bytes.Buffer
	shapes.PerfScript(&text, 20_000)
	path := filepath.Join(t.TempDir(), "shrinking.perfscript")
	os.WriteFile(path, text.Bytes(), 0o644)
	in, err := recognizeFile(t, path, newProgress())
	if err != nil {
		t.Fatal(err)
	}
	if _, err := io.ReadFull(in.R, make([]byte, text.Len()/4)); err != nil {
		t.Fatal(err)
	}
	half := bytes.LastIndex(text.Bytes()[:text.Len()/2], []byte("\n\n")) + 2
	if err := os.Truncate(path, int64(half)); err != nil {
		t.Fatal(err)
	}
	err = readInput(in)
	var ie *inputerr.Error
	if !errors.As(err, &ie) || ie.File != path || !strings.Contains(err.Error(), "shrank") {
		t.Errorf("cut to %d of %d bytes while read: %v; want it refused", half, text.Len(), err)
	}
}
