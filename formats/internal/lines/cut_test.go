package lines

import (
	"errors"
	"strings"
	"testing"
)

// A last line without its newline is never handed to a reader: the scan ends with ErrCut,
// counted as that line, and a reader's Stopped says so at it (issue 24, finding 16). Before
// any header it is no file of the format's.
func TestScannerCut(t *testing.T) {
	errNot := errors.New("not mine")
	for _, sawHeader := range []bool{true, false} {
		r := NewReader(strings.NewReader("# comment\nfirst record\nclass java/lang/Obj"), "cut.log")
		var got []string
		for ln, ok := r.Next(); ok; ln, ok = r.Next() {
			got = append(got, string(ln))
		}
		err := r.Stopped(sawHeader, errNot)
		switch {
		case len(got) != 1 || got[0] != "first record":
			t.Errorf("lines %q", got)
		case sawHeader && (err == nil || err.Error() != "cut.log:3: the file ends inside a line (truncated?)"):
			t.Errorf("after the header: %v", err)
		case !sawHeader && !errors.Is(err, errNot):
			t.Errorf("before a header: %v", err)
		}
	}
}
