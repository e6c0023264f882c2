package cutline

import (
	"bufio"
	"errors"
	"strings"
	"testing"
)

// Lines that end with a newline (a CR before it kept, as bufio.ScanLines keeps none) scan as
// bufio's do; a last line without one stops the scan with ErrCut, however the reads fall.
func TestScanLines(t *testing.T) {
	for text, want := range map[string]error{"": nil, "a\n": nil, "a\r\nb\n": nil, "a\nb": ErrCut, "a\n\r": ErrCut, "x": ErrCut} {
		sc := bufio.NewScanner(&oneByte{strings.NewReader(text)})
		sc.Split(ScanLines)
		var got []string
		for sc.Scan() {
			got = append(got, sc.Text())
		}
		if !errors.Is(sc.Err(), want) || want == nil && sc.Err() != nil {
			t.Errorf("%q: lines %q, error %v; want %v", text, got, sc.Err(), want)
		}
		if want == ErrCut && strings.Count(text, "\n") != len(got) {
			t.Errorf("%q: lines %q: the cut line was returned", text, got)
		}
	}
}

// oneByte reads a byte at a time, so every line ending meets a read's end.
type oneByte struct{ r *strings.Reader }

func (o *oneByte) Read(p []byte) (int, error) { return o.r.Read(p[:min(len(p), 1)]) }
