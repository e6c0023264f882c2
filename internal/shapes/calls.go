package shapes

import (
	"fmt"
	"io"
	"time"

	"androprof/formats/dpa"
	"androprof/formats/rmp"
	"androprof/formats/traceview"
	"androprof/model/calls"
)

// Call-tree shapes (findings 8 and 10): one thread nesting calls depth deep, and many threads
// of one call each. Both are small files whose every call is a new call path, so an importer
// that holds or stores each path whole, or does per-thread work that grows with the number of
// threads, pays more than linearly for them. The calls cycle over a few methods, so the deep
// shape is also recursive (what RecursiveEdges looks for).

// shapeMethods is how many methods the shapes' calls cycle over.
const shapeMethods = 4

// methodID is the shapes' i-th method: Traceview ids are multiples of 4, DPA's and RMP's are
// positive.
func methodID(i int) uint64 { return uint64(0x1000 + 4*(i%shapeMethods)) }

func shapeMethod(i int) calls.MethodInfo {
	return calls.MethodInfo{ID: methodID(i), Class: "com/example/Deep", Name: fmt.Sprint("m", i), Signature: "()V",
		File: "Deep.java", Line: 10 + i}
}

// DeepTraceview writes a Traceview version-3 trace (classic layout, both clocks) of one thread
// whose calls nest depth deep, then return: 2×depth records.
func DeepTraceview(w io.Writer, depth int) error {
	return writeTraceview(w, 1, depth)
}

// ManyThreadsTraceview writes a Traceview version-3 trace of threads threads (at most 65,535,
// what its thread ids hold), each making one call.
func ManyThreadsTraceview(w io.Writer, threads int) error {
	return writeTraceview(w, threads, 1)
}

// writeTraceview writes threads threads, one after the other, each nesting depth calls.
func writeTraceview(w io.Writer, threads, depth int) error {
	tw, err := traceview.NewWriter(w, traceview.WriterOptions{Version: 3, Clock: calls.ClockDual, VM: "art"})
	if err != nil {
		return err
	}
	for tid := 1; tid <= threads; tid++ {
		if err := tw.Thread(calls.ThreadInfo{TID: tid, Name: fmt.Sprint("worker ", tid)}); err != nil {
			return err
		}
	}
	for i := range min(depth, shapeMethods) {
		if err := tw.Method(shapeMethod(i)); err != nil {
			return err
		}
	}
	var clock uint64
	event := func(tid, level int, a calls.MethodAction) error {
		clock++
		return tw.Event(calls.MethodEvent{TID: tid, Method: methodID(level), Action: a, ThreadCPU: clock, Wall: clock})
	}
	for tid := 1; tid <= threads; tid++ {
		if err := nest(depth, func(level int) error { return event(tid, level, calls.Enter) },
			func(level int) error { return event(tid, level, calls.Exit) }); err != nil {
			return err
		}
	}
	return tw.Close()
}

// nest calls enter for levels 0…depth-1, then exit from depth-1 back to 0.
func nest(depth int, enter, exit func(level int) error) error {
	for l := 0; l < depth; l++ {
		if err := enter(l); err != nil {
			return err
		}
	}
	for l := depth - 1; l >= 0; l-- {
		if err := exit(l); err != nil {
			return err
		}
	}
	return nil
}

// DeepDPA writes a calibrated DPA log of one thread whose calls nest depth deep (at most
// dpa.MaxDepth, the format's limit).
func DeepDPA(w io.Writer, depth int) error { return writeDPA(w, 1, depth) }

// ManyThreadsDPA writes a DPA log of threads threads, each making one call.
func ManyThreadsDPA(w io.Writer, threads int) error { return writeDPA(w, threads, 1) }

func writeDPA(w io.Writer, threads, depth int) error {
	dw := dpa.NewWriter(w)
	if err := dw.Calibrate(calls.ClockCost{Reads: 1000, Elapsed: time.Microsecond}); err != nil {
		return err
	}
	if err := dw.Process(100, "com.example.deep"); err != nil {
		return err
	}
	for tid := 1; tid <= threads; tid++ {
		if err := dw.Thread(calls.ThreadInfo{TID: tid, Name: fmt.Sprint("worker ", tid)}); err != nil {
			return err
		}
	}
	for i := range min(depth, shapeMethods) {
		m := shapeMethod(i)
		m.Class = "com.example.Deep"
		if err := dw.Method(m); err != nil {
			return err
		}
	}
	var clock time.Duration
	for tid := 1; tid <= threads; tid++ {
		entries := make([]time.Duration, depth)
		enter := func(level int) error {
			clock += time.Microsecond
			entries[level] = clock
			return dw.Enter(calls.DPACall{TID: tid, Level: level + 1, Entry: clock, Method: methodID(level)})
		}
		exit := func(level int) error {
			clock += time.Microsecond
			// Each call nested inside read the clock twice.
			return dw.Exit(calls.DPACall{TID: tid, Level: level + 1, Entry: entries[level], Exit: clock,
				ClockReads: 2 * int64(depth-1-level), Method: methodID(level)})
		}
		if err := nest(depth, enter, exit); err != nil {
			return err
		}
	}
	if err := dw.End(); err != nil {
		return err
	}
	return dw.Flush()
}

// DeepRMP writes an RMP log of one round and one thread whose probes nest depth deep (at most
// rmp.MaxDepth, the format's limit).
func DeepRMP(w io.Writer, depth int) error { return writeRMP(w, 1, depth) }

// ManyThreadsRMP writes an RMP log of one round of threads threads, each firing one probe.
func ManyThreadsRMP(w io.Writer, threads int) error { return writeRMP(w, threads, 1) }

func writeRMP(w io.Writer, threads, depth int) error {
	rw := rmp.NewWriter(w)
	if err := rw.Process(100, "com.example.deep"); err != nil {
		return err
	}
	for i := range min(depth, shapeMethods) {
		p := rmp.Probe{ID: methodID(i), Resolution: calls.ResolutionMethod, Kind: calls.AppProbe, On: true,
			Name: fmt.Sprint("com.example.Deep.m", i)}
		if err := rw.Probe(p); err != nil {
			return err
		}
	}
	for tid := 1; tid <= threads; tid++ {
		if err := rw.Thread(calls.ThreadInfo{TID: tid, Name: fmt.Sprint("worker ", tid)}); err != nil {
			return err
		}
	}
	var clock time.Duration
	for tid := 1; tid <= threads; tid++ {
		entries := make([]time.Duration, depth)
		enter := func(level int) error {
			clock += time.Millisecond // more than a probe's cost, so corrected times stay apart
			entries[level] = clock
			return rw.In(calls.ProbeSpan{TID: tid, Start: clock, Probe: methodID(level), Caller: "com.example.Deep.run"})
		}
		exit := func(level int) error {
			clock += time.Millisecond
			return rw.Out(calls.ProbeSpan{TID: tid, Start: entries[level], End: clock, Probe: methodID(level)})
		}
		if err := nest(depth, enter, exit); err != nil {
			return err
		}
	}
	if err := rw.End(); err != nil {
		return err
	}
	return rw.Flush()
}
