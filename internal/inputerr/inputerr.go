// Package inputerr is the error every input reader returns for a problem in a file, so a caller
// can tell the user which file and where with one errors.As, whatever the format.
package inputerr

import "fmt"

// Error locates a problem in an input file: by line in a text format, by byte offset in a
// binary one (in the decompressed data when the file is compressed).
type Error struct {
	File   string
	Line   int64 // 1 for the first line; 0 when the format is binary and Offset says where
	Offset int64
	Msg    string // what is wrong; "" to say what Err says
	Err    error  // the cause, e.g. from gzip, the file system or a sink; may be nil
}

// Error reads "file:line: msg" for text and "file: byte N: msg" for binary input.
func (e *Error) Error() string {
	msg := e.Msg
	if msg == "" && e.Err != nil {
		msg = e.Err.Error()
	}
	if e.Line > 0 {
		return fmt.Sprintf("%s:%d: %s", e.File, e.Line, msg)
	}
	return fmt.Sprintf("%s: byte %d: %s", e.File, e.Offset, msg)
}

func (e *Error) Unwrap() error { return e.Err }
