// Package cutline tells a text file cut inside its last line. A copy stopped early, a disk
// that filled or a writer killed mid-line leaves a last line with no newline, and that line
// often still parses (a class "java/lang/Obj", a frame "start_thread+0x305 (/"): every line
// format refuses it rather than import a record cut short (issue 24, finding 16).
package cutline

import (
	"bufio"
	"bytes"
	"errors"
)

// ErrCut says the file ends inside a line; readers put the file and the line before it.
var ErrCut = errors.New("the file ends inside a line (truncated?)")

// ScanLines is bufio.ScanLines, except that a last line with no newline ends the scan with
// ErrCut instead of being returned.
func ScanLines(data []byte, atEOF bool) (int, []byte, error) {
	if atEOF && len(data) > 0 && bytes.IndexByte(data, '\n') < 0 {
		return 0, nil, ErrCut
	}
	return bufio.ScanLines(data, atEOF)
}
