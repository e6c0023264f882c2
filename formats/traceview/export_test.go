package traceview

import "testing"

// For the end-to-end benchmark in package traceview_test, which imports the controller (that
// package imports this one, so the benchmark cannot live here).
var (
	WriteBigTrace = func(b *testing.B, path string, size int64) int64 { return writeBigTrace(b, path, size) }
)
