// Package lines holds what the project's line-oriented log formats (DPA, RMP) share: a scanner
// that counts lines and skips blanks and comments, and field parsing that does not allocate, so
// each reader is left with its own records.
package lines

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"strings"

	"androprof/internal/cutline"
)

// MaxLine is the longest line a reader accepts: a longer one is garbage, not a record.
const MaxLine = 1 << 20

// Scanner yields the lines that hold records, numbering every line it passes.
type Scanner struct {
	sc   *bufio.Scanner
	line int64
}

// NewScanner reads r.
func NewScanner(r io.Reader) *Scanner {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 64*1024), MaxLine)
	sc.Split(cutline.ScanLines)
	return &Scanner{sc: sc}
}

// Next returns the next line that is neither blank nor a comment (#); false at the end or on
// an error. The line is valid until the next call.
func (s *Scanner) Next() ([]byte, bool) {
	for s.sc.Scan() {
		s.line++
		ln := s.sc.Bytes()
		if len(ln) > 0 && ln[len(ln)-1] == '\r' {
			ln = ln[:len(ln)-1] // a file that went through an editor with CRLF line ends
		}
		if len(ln) == 0 || ln[0] == '#' {
			continue
		}
		return ln, true
	}
	return nil, false
}

// Line is the number of the last line read.
func (s *Scanner) Line() int64 { return s.line }

// ErrTooLong says a line exceeded MaxLine; Err has then counted that line.
var ErrTooLong = errors.New("line longer than 1 MiB")

// ErrCut says the file ends inside its last line (no newline after it); Err has then counted
// that line, which no reader sees.
var ErrCut = cutline.ErrCut

// Err is the error that ended the scan, nil at a clean end.
func (s *Scanner) Err() error {
	err := s.sc.Err()
	if errors.Is(err, bufio.ErrTooLong) {
		err = ErrTooLong
	}
	if err == ErrTooLong || err == ErrCut {
		s.line++ // the scanner stopped inside it
		s.sc = bufio.NewScanner(strings.NewReader(""))
	}
	return err
}

// Split cuts n space-separated fields off ln into dst[:0]. With text, what follows the n-th
// field after one space is returned as free text (possibly empty); without, nothing may follow.
func Split(dst [][]byte, ln []byte, n int, text bool) ([][]byte, []byte, error) {
	dst = dst[:0]
	for i := 0; i < n; i++ {
		tok, rest, found := bytes.Cut(ln, []byte(" "))
		if len(tok) == 0 {
			return nil, nil, fmt.Errorf("want %d fields, found %d", n, i)
		}
		if hasControl(tok) {
			return nil, nil, errors.New("control character in a field")
		}
		dst = append(dst, tok)
		ln = rest
		if !found {
			ln = nil
			if i < n-1 {
				return nil, nil, fmt.Errorf("want %d fields, found %d", n, i+1)
			}
		}
	}
	if !text {
		if len(ln) > 0 {
			return nil, nil, fmt.Errorf("unexpected %q after %d fields", Clip(ln), n)
		}
		return dst, nil, nil
	}
	if hasControl(ln) {
		return nil, nil, errors.New("control character in text")
	}
	return dst, ln, nil
}

func hasControl(b []byte) bool {
	for _, c := range b {
		if c < 0x20 || c == 0x7f {
			return true
		}
	}
	return false
}

// Uint parses a decimal number of at most max without allocating.
func Uint(b []byte, max uint64) (uint64, bool) {
	if len(b) == 0 || len(b) > 20 {
		return 0, false
	}
	var v uint64
	for _, c := range b {
		if c < '0' || c > '9' {
			return 0, false
		}
		if v > max/10 {
			return 0, false
		}
		v *= 10
		if d := uint64(c - '0'); d <= max-v {
			v += d
		} else {
			return 0, false
		}
	}
	return v, true
}

// Clip shortens a field for an error message.
func Clip(b []byte) string {
	if len(b) > 40 {
		return string(b[:40]) + "…"
	}
	return string(b)
}

// Text makes free text fit one line: control characters become spaces. It works on bytes, so
// text that is not valid UTF-8 comes back as it was read.
func Text(s string) string { return replaceBytes(s, ' ', false) }

// Token makes a field fit between spaces: blanks and control characters become '_'.
func Token(s string) string { return replaceBytes(s, '_', true) }

func replaceBytes(s string, with byte, space bool) string {
	var b []byte
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c < 0x20 || c == 0x7f || (space && c == ' ') {
			if b == nil {
				b = []byte(s)
			}
			b[i] = with
		}
	}
	if b == nil {
		return s
	}
	return string(b)
}
