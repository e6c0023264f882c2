package hprof

import (
	"runtime/debug"
	"testing"
)

// Two dumps read at once, finishing in either order, leave the setting as it was.
func TestLowGCRestoresWhateverOrder(t *testing.T) {
	old := debug.SetGCPercent(77)
	defer debug.SetGCPercent(old)
	a := LowGC(LowGCFrom)
	b := LowGC(-1)
	if got := debug.SetGCPercent(GCPercent); got != GCPercent {
		t.Errorf("while two dumps are read: %d, want %d", got, GCPercent)
	}
	a()
	if got := debug.SetGCPercent(GCPercent); got != GCPercent {
		t.Errorf("while one dump is read: %d, want %d", got, GCPercent)
	}
	b()
	if got := debug.SetGCPercent(77); got != 77 {
		t.Errorf("after both: %d, want 77", got)
	}
}

// A small dump leaves the setting alone: it is the whole process's, and a batch reads other
// files beside it.
func TestLowGCLeavesSmallDumps(t *testing.T) {
	old := debug.SetGCPercent(77)
	defer debug.SetGCPercent(old)
	restore := LowGC(LowGCFrom - 1)
	if got := debug.SetGCPercent(77); got != 77 {
		t.Errorf("while a small dump is read: %d, want 77", got)
	}
	restore()
	if got := debug.SetGCPercent(77); got != 77 {
		t.Errorf("after: %d, want 77", got)
	}
}
