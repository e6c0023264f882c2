package bbprofile

import (
	"bytes"
	"errors"
	"io"
	"os"
	"testing"

	"androprof/internal/cutline"
	"androprof/internal/inputerr"
)

// Issue 24, finding 16: a basic-block profile cut inside its last line ("en" of an end line)
// is refused at that line as cut, not as an unknown record or a profile without it.
func TestCut(t *testing.T) {
	data, err := os.ReadFile("testdata/sieve-mips.bbprofile")
	if err != nil {
		t.Fatal(err)
	}
	cut := data[:len(data)-2]
	br := NewReader(bytes.NewReader(cut), "cut.bbprofile")
	for err == nil {
		_, err = br.Next()
	}
	var ie *inputerr.Error
	if line := int64(bytes.Count(cut, []byte("\n")) + 1); err == io.EOF || !errors.As(err, &ie) || ie.Line != line || ie.Msg != cutline.ErrCut.Error() {
		t.Errorf("%v; want line %d: %v", err, line, cutline.ErrCut)
	}
}
