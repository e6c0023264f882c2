package model

// CallNode is one call path of a thread (root first) with the calls made along it and their
// exclusive time: an aggregated call tree, as pprof and flame graphs want it. CallBuilder
// makes them (CallProfile.Tree).
type CallNode struct {
	TID                         int
	Path                        []uint64 // methods from the level-1 call down to this one
	Calls                       int64
	ExclusiveCPU, ExclusiveWall uint64
}
