package inputerr

import (
	"errors"
	"io"
	"testing"
)

// Text formats say the line, binary ones the byte; the cause stands in for a missing message
// and stays reachable.
func TestError(t *testing.T) {
	for _, tc := range []struct {
		err  *Error
		want string
	}{
		{&Error{File: "a.log", Line: 7, Msg: "bad record"}, "a.log:7: bad record"},
		{&Error{File: "a.trace", Offset: 0, Msg: "truncated"}, "a.trace: byte 0: truncated"},
		{&Error{File: "a.hprof", Offset: 19, Msg: "read: unexpected EOF", Err: io.ErrUnexpectedEOF}, "a.hprof: byte 19: read: unexpected EOF"},
		{&Error{File: "a.dpa", Line: 3, Err: io.ErrShortWrite}, "a.dpa:3: short write"},
	} {
		if got := tc.err.Error(); got != tc.want {
			t.Errorf("%q, want %q", got, tc.want)
		}
		if tc.err.Err != nil && !errors.Is(tc.err, tc.err.Err) {
			t.Errorf("%v does not unwrap to its cause", tc.err)
		}
	}
}
