package lines

import (
	"fmt"
	"io"
	"math"

	"androprof/internal/inputerr"
)

// Reader is the part every line-oriented log reader has: the scanner, the file name for
// messages, reused field storage and the first error, which ends the log for good.
type Reader struct {
	File   string
	sc     *Scanner
	fields [][]byte
	err    error
}

// NewReader reads r; name is used in errors.
func NewReader(r io.Reader, name string) Reader {
	return Reader{File: name, sc: NewScanner(r), fields: make([][]byte, 0, 6)}
}

// Next returns the next line holding a record (see Scanner.Next).
func (r *Reader) Next() ([]byte, bool) { return r.sc.Next() }

// Line is the number of the last line read.
func (r *Reader) Line() int64 { return r.sc.Line() }

// Errorf makes an *inputerr.Error at the current line.
func (r *Reader) Errorf(format string, args ...any) error {
	return &inputerr.Error{File: r.File, Line: r.sc.Line(), Msg: fmt.Sprintf(format, args...)}
}

// Failed is the error that ended the log, if one did.
func (r *Reader) Failed() error { return r.err }

// Stick keeps the first error, so a reader that failed keeps failing the same way.
func (r *Reader) Stick(err error) error {
	if err != nil && r.err == nil {
		r.err = err
	}
	return err
}

// Split is the package's Split on the reader's reused storage, with errors at the current line.
func (r *Reader) Split(ln []byte, n int, text bool) ([][]byte, string, error) {
	f, t, err := Split(r.fields, ln, n, text)
	if err != nil {
		return nil, "", r.Errorf("%v", err)
	}
	return f, string(t), nil
}

// ID reads a positive id (a pid or tid) no larger than an int32.
func (r *Reader) ID(b []byte, what string) (int, error) {
	v, ok := Uint(b, math.MaxInt32)
	if !ok || v == 0 {
		return 0, r.Errorf("bad %s %q", what, Clip(b))
	}
	return int(v), nil
}

// Stopped says why the lines ran out: the scanner's error, notMine (wrapped with the file name)
// when no header was seen, or nil at a clean end, where the reader checks what is still open.
func (r *Reader) Stopped(sawHeader bool, notMine error) error {
	if err := r.sc.Err(); err != nil {
		switch {
		case (err == ErrTooLong || err == ErrCut) && !sawHeader:
			return fmt.Errorf("%s: %w", r.File, notMine) // no header in the first MiB, or no whole line
		case err == ErrTooLong || err == ErrCut:
			return r.Errorf("%v", err)
		}
		return &inputerr.Error{File: r.File, Line: r.sc.Line() + 1, Msg: "read: " + err.Error(), Err: err}
	}
	if !sawHeader {
		return fmt.Errorf("%s: %w", r.File, notMine)
	}
	return nil
}

// Cut splits a line into its keyword and the rest.
func Cut(ln []byte) (string, []byte) {
	for i, c := range ln {
		if c == ' ' {
			return string(ln[:i]), ln[i+1:]
		}
	}
	return string(ln), nil
}
