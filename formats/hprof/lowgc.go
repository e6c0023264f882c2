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

// LowGC sets GCPercent until the function it returns is called; the first reader saves the
// setting and the last one done restores it.
func LowGC() (restore func()) {
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
