package samples

import (
	"androprof/model/layers"
)

// SampleProfile is a sampled run as the workspace keeps it: every sample, with its stack as a
// node of the run's calling-context tree, so each view (layers over time, the symbol table,
// callers and callees, the flame graph) is computed from the same few arrays.
type SampleProfile struct {
	Header  SampleHeader
	Threads []SampleThread        // index = thread id of SampleRec.Thread
	Symbols []layers.SampleSymbol // index = symbol id; interned by (Image, Symbol)
	Nodes   []StackNode           // index = node id; Nodes[i].Parent < i
	Samples []SampleRec           // in time order
	// LeftOut counts the samples a recording-time target (threads, time window) dropped, so
	// totals can say what is missing; LeftOutWhy says which target.
	LeftOut    int
	LeftOutWhy string
	// AppPackages are the Java packages the user called the application's when recording or
	// importing; empty: every Java class outside the library prefixes is the application's.
	AppPackages []string
}

// SampleThread is one thread of the recording.
type SampleThread struct {
	PID, TID int
	Comm     string // its last name in the recording
}

// StackNode is one calling context: a frame (Symbol) under its caller's context (Parent; -1 for
// a stack's outermost frame).
type StackNode struct {
	Parent int32
	Symbol int32
}

// SampleRec is one sample: its thread, time (ns since the recording's first sample), weight
// and the node of its leaf frame.
type SampleRec struct {
	Thread int32
	Node   int32
	TimeNS int64
	Period uint64
}
