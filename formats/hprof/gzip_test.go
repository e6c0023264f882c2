package hprof_test

import (
	"bytes"
	"errors"
	"strings"
	"testing"

	"androprof/formats/hprof"
	"androprof/internal/gunzip"
	"androprof/internal/shapes"
)

// Issue 24, finding 11, for a dump read directly (not through the importer, which decompresses
// first): the reader's own gunzipping is bounded too, so a bomb is refused after 16 MiB.
func TestGzipBombRefused(t *testing.T) {
	var b bytes.Buffer
	if err := shapes.HPROFBomb(&b, 1024); err != nil {
		t.Fatal(err)
	}
	r := bytes.NewReader(b.Bytes())
	_, err := hprof.Summarize(r, "bomb.hprof.gz")
	var ee *gunzip.ExpandError
	if !errors.As(err, &ee) || !strings.HasPrefix(err.Error(), "bomb.hprof.gz: byte ") || ee.Out > gunzip.Free+1<<20 {
		t.Fatalf("%v; want the bomb refused at its 16th MiB, naming the file", err)
	}
	if read := r.Size() - int64(r.Len()); read > 1<<20 {
		t.Errorf("%d compressed bytes of %d read before the refusal", read, r.Size())
	}
}
