package hprof

import (
	"runtime/debug"
	"sync"
)

// GCPercent is the garbage collector's setting (debug.SetGCPercent) while a dump is read, its
// retention worked out and stored: the work makes arrays of millions of entries, one phase
// after another, and the default (100) would let the heap grow to twice what is live before
// the last phase's are freed. The arrays hold no pointers, so collecting more often costs
// little. The importer keeps it until the store has the dump (LowGC).
const GCPercent = 10

// lowGC counts the dumps being read: the setting is the process's, and two dumps read at once
// (the window's imports, a batch) that each saved and restored it alone could leave it lowered
// for good (A saves 100, B saves 10, A restores 100, B restores 10).
var lowGC struct {
	sync.Mutex
	readers int
	saved   int
}

// LowGCFrom is the smallest dump (bytes on disk) whose reading lowers the collector's setting.
// A smaller one's arrays are small beside the rest of the process, and lowering the setting
// is the whole process's: in a batch import it made every other file's reading collect ten
// times as often, and two jobs slower than one.
const LowGCFrom = 64 << 20

// LowGC sets GCPercent until the function it returns is called, when size (the dump's bytes;
// below zero: not known) is at least LowGCFrom; the first reader saves the setting and the
// last one done restores it.
func LowGC(size int64) (restore func()) {
	if size >= 0 && size < LowGCFrom {
		return func() {}
	}
	lowGC.Lock()
	if lowGC.readers == 0 {
		lowGC.saved = debug.SetGCPercent(GCPercent)
	}
	lowGC.readers++
	lowGC.Unlock()
	return func() {
		lowGC.Lock()
		defer lowGC.Unlock()
		if lowGC.readers--; lowGC.readers == 0 {
			debug.SetGCPercent(lowGC.saved)
		}
	}
}
