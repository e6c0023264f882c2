package calls

import (
	"errors"
	"reflect"
	"testing"
)

// script feeds a builder events written as (tid, action, method, cpu, wall).
type ev struct {
	tid    int
	action MethodAction
	method uint64
	cpu    uint64
	wall   uint64
}

func build(t *testing.T, events []ev, methods ...MethodInfo) (*CallProfile, []Call) {
	t.Helper()
	b := NewCallBuilder()
	var calls []Call
	b.OnCall = func(c Call) { calls = append(calls, c) }
	b.Header(TraceHeader{Clock: ClockDual})
	for _, m := range methods {
		if err := b.Method(m); err != nil {
			t.Fatal(err)
		}
	}
	for _, e := range events {
		if err := b.Event(MethodEvent{TID: e.tid, Action: e.action, Method: e.method, ThreadCPU: e.cpu, Wall: e.wall}); err != nil {
			t.Fatal(err)
		}
	}
	return b.Finish(), calls
}

const (
	mA = 0x10
	mB = 0x20
	mC = 0x30
	mD = 0x40
)

var testMethods = []MethodInfo{
	{ID: mA, Class: "p/q/X", Name: "a"}, {ID: mB, Class: "p/q/X", Name: "b"},
	{ID: mC, Class: "p/Y", Name: "c"}, {ID: mD, Class: "Z", Name: "d"},
}

func times(ic, ec, iw, ew uint64, calls, rec int64) MethodTimes {
	return MethodTimes{InclusiveCPU: ic, ExclusiveCPU: ec, InclusiveWall: iw, ExclusiveWall: ew, Calls: calls, RecursiveCalls: rec}
}

func TestCallBuilderRecursion(t *testing.T) {
	// A 0–50 calls B 10–40, which calls A again 20–30. Wall runs twice as fast as CPU.
	p, calls := build(t, []ev{
		{1, Enter, mA, 0, 0}, {1, Enter, mB, 10, 20}, {1, Enter, mA, 20, 40},
		{1, Exit, mA, 30, 60}, {1, Exit, mB, 40, 80}, {1, Exit, mA, 50, 100},
	}, testMethods...)
	m := p.ByMethod()
	if got, want := m[mA], times(50, 30, 100, 60, 1, 1); got != want {
		t.Errorf("A %+v, want %+v (inclusive counts only the outer call)", got, want)
	}
	if got, want := m[mB], times(30, 20, 60, 40, 1, 0); got != want {
		t.Errorf("B %+v, want %+v", got, want)
	}
	if got, want := m[TopLevelMethod], times(50, 0, 100, 0, 0, 0); got != want {
		t.Errorf("(toplevel) %+v, want %+v", got, want)
	}
	if cpu, wall := p.ProcessTime(); cpu != 50 || wall != 100 {
		t.Errorf("process time %d/%d, want 50/100", cpu, wall)
	}
	// Class p/q/X holds both methods: inclusive is the time any of them is on the stack.
	if got, want := p.ByClass()["p/q/X"], times(50, 50, 100, 100, 1, 2); got != want {
		t.Errorf("class %+v, want %+v", got, want)
	}
	if got, want := p.ByPackage()["p/q"], times(50, 50, 100, 100, 1, 2); got != want {
		t.Errorf("package %+v, want %+v", got, want)
	}
	wantEdges := map[CallEdge]EdgeTimes{
		{1, TopLevelMethod, mA}: {1, 50, 100}, {1, mA, mB}: {1, 30, 60}, {1, mB, mA}: {1, 10, 20},
	}
	if !reflect.DeepEqual(p.Edges, wantEdges) {
		t.Errorf("edges %v, want %v", p.Edges, wantEdges)
	}
	wantCalls := []Call{
		{TID: 1, Method: mA, ParentMethod: mB, Depth: 2, StartCPU: 20, EndCPU: 30, StartWall: 40, EndWall: 60, ExclusiveCPU: 10, ExclusiveWall: 20, Recursive: true},
		{TID: 1, Method: mB, ParentMethod: mA, Depth: 1, StartCPU: 10, EndCPU: 40, StartWall: 20, EndWall: 80, ExclusiveCPU: 20, ExclusiveWall: 40},
		{TID: 1, Method: mA, ParentMethod: TopLevelMethod, StartCPU: 0, EndCPU: 50, StartWall: 0, EndWall: 100, ExclusiveCPU: 20, ExclusiveWall: 40},
	}
	if !reflect.DeepEqual(calls, wantCalls) {
		t.Errorf("calls\n%+v\nwant\n%+v", calls, wantCalls)
	}
	if th := p.Threads[0]; th.MaxDepth != 3 || th.Events != 6 || th.ElapsedCPU() != 50 {
		t.Errorf("thread %+v", th)
	}
}

func TestCallBuilderOrphansAndUnroll(t *testing.T) {
	// C's exit at 5 is the thread's first event: C was on the stack before tracing. Then A 7–9,
	// D exits at 12 with an empty stack (another orphan, which began before A), B is unrolled.
	p, calls := build(t, []ev{
		{2, Exit, mC, 5, 105}, {2, Enter, mA, 7, 107}, {2, Exit, mA, 9, 109}, {2, Exit, mD, 12, 112},
		{2, Enter, mB, 20, 120}, {2, Unroll, mB, 21, 121},
	}, testMethods...)
	m := p.ByMethod()
	for id, want := range map[uint64]MethodTimes{
		mC:             times(5, 0, 105, 0, 1, 0),   // counted from 0, as dmtracedump does
		mA:             times(2, 2, 2, 2, 1, 0),     //
		mD:             times(12, 3, 112, 3, 1, 0),  // exclusive: since the previous event
		mB:             times(1, 1, 1, 1, 1, 0),     //
		TopLevelMethod: times(16, 10, 16, 10, 0, 0), // 7−5 + 20−12; span 21−5
	} {
		if m[id] != want {
			t.Errorf("%#x: %+v, want %+v", id, m[id], want)
		}
	}
	// Level 1: C covers 0–5, A adds 2, D (0–12) covers everything so far, B adds 1.
	if th := p.Threads[0]; th.Level1CPU != 13 || th.Level1Wall != 113 {
		t.Errorf("level-1 time %d/%d, want 13/113", th.Level1CPU, th.Level1Wall)
	}
	if p.Anomalies != (Anomalies{Orphans: 2}) {
		t.Errorf("anomalies %+v", p.Anomalies)
	}
	if !calls[0].Orphan || calls[0].StartCPU != 0 || calls[3].End != EndUnroll || calls[3].Method != mB {
		t.Errorf("calls %+v", calls)
	}
}

func TestCallBuilderMismatchedExits(t *testing.T) {
	// B's exit arrives while C is on top: C ends with it (dmtracedump would stop here).
	p, calls := build(t, []ev{
		{1, Enter, mA, 0, 0}, {1, Enter, mB, 1, 1}, {1, Enter, mC, 2, 2}, {1, Exit, mB, 5, 5},
		// D was never entered: everything open ends, and D is an orphan.
		{1, Exit, mD, 9, 9},
	}, testMethods...)
	m := p.ByMethod()
	for id, want := range map[uint64]MethodTimes{
		mC: times(3, 3, 3, 3, 1, 0),
		mB: times(4, 1, 4, 1, 1, 0),
		mA: times(9, 5, 9, 5, 1, 0), // 1−0 + 9−5
		mD: times(9, 0, 9, 0, 1, 0),
	} {
		if m[id] != want {
			t.Errorf("%#x: %+v, want %+v", id, m[id], want)
		}
	}
	ends := []CallEnd{}
	for _, c := range calls {
		ends = append(ends, c.End)
	}
	if !reflect.DeepEqual(ends, []CallEnd{EndImplied, EndExit, EndImplied, EndExit}) {
		t.Errorf("ends %v", ends)
	}
	if p.Anomalies != (Anomalies{Mismatched: 2, Orphans: 1}) {
		t.Errorf("anomalies %+v", p.Anomalies)
	}
}

func TestCallBuilderUnclosedUnknownBackwards(t *testing.T) {
	p, calls := build(t, []ev{
		{1, Enter, mA, 10, 10}, {1, Enter, 0x999, 13, 13}, {1, Exit, 0x998, 15, 15}, // undeclared ids: one method
		{1, Enter, mB, 14, 16}, // CPU went back: no time passes
		{3, Enter, mC, 100, 50},
	}, testMethods...)
	m := p.ByMethod()
	if got, want := m[UnknownMethod], times(2, 2, 2, 2, 1, 0); got != want {
		t.Errorf("(unknown) %+v, want %+v", got, want)
	}
	if got, want := m[mA], times(5, 3, 6, 4, 1, 0); got != want { // closed at the last event, 15/16
		t.Errorf("A %+v, want %+v", got, want)
	}
	if got, want := m[mB], times(0, 0, 0, 0, 1, 0); got != want {
		t.Errorf("B %+v, want %+v", got, want)
	}
	if p.Anomalies != (Anomalies{Unclosed: 3, Backwards: 1}) {
		t.Errorf("anomalies %+v", p.Anomalies)
	}
	if c := calls[len(calls)-1]; c.End != EndOfTrace || c.TID != 3 {
		t.Errorf("last call %+v", c)
	}
	if p.Methods[UnknownMethod].Class != "(unknown)" || p.Methods[TopLevelMethod].Class != "(toplevel)" {
		t.Error("synthetic methods missing")
	}
	if len(p.Threads) != 2 || p.Threads[1].TID != 3 {
		t.Errorf("threads %+v", p.Threads)
	}
}

func TestCallBuilderLimits(t *testing.T) {
	b := NewCallBuilder()
	b.MaxFrames = 3
	b.Method(MethodInfo{ID: mA, Class: "A"})
	var err error
	for i := 0; i < 4 && err == nil; i++ {
		err = b.Event(MethodEvent{TID: 1, Method: mA})
	}
	if !errors.Is(err, ErrTooDeep) {
		t.Errorf("got %v, want ErrTooDeep", err)
	}
	if err := b.Event(MethodEvent{TID: 1, Method: mA, Action: 3}); err == nil {
		t.Error("action 3 accepted")
	}
	if err := b.Method(MethodInfo{ID: UnknownMethod}); err == nil {
		t.Error("reserved id accepted")
	}
	b.Finish()
	if err := b.Event(MethodEvent{TID: 1, Method: mA}); err == nil {
		t.Error("event after Finish accepted")
	}
}

// TestCallBuilderConstantMemory: once every (thread, method) pair exists, events allocate
// nothing, however many there are.
func TestCallBuilderConstantMemory(t *testing.T) {
	b := NewCallBuilder()
	for _, m := range testMethods {
		b.Method(m)
	}
	var now uint64
	round := func() {
		for _, tid := range []int{1, 2} {
			for _, id := range []uint64{mA, mB, mC, mA} {
				now++
				b.Event(MethodEvent{TID: tid, Method: id, ThreadCPU: now, Wall: now})
			}
			for _, id := range []uint64{mA, mC, mB, mA} {
				now++
				b.Event(MethodEvent{TID: tid, Method: id, Action: Exit, ThreadCPU: now, Wall: now})
			}
		}
	}
	round()
	if n := testing.AllocsPerRun(1000, round); n != 0 {
		t.Errorf("%v allocations per 16 events", n)
	}
	p := b.Finish()
	if got := p.ByMethod()[mA]; got.Calls != 2*1002 || got.RecursiveCalls != 2*1002 { // AllocsPerRun warms up once
		t.Errorf("A %+v", got)
	}
}

func TestPackageOf(t *testing.T) {
	for class, want := range map[string]string{
		"java/lang/String": "java/lang", "java.lang.String": "java.lang", "Foo": "", "a/b/C$D": "a/b",
		"(toplevel)": "(toplevel)", "(unknown)": "(unknown)",
	} {
		if got := PackageOf(class); got != want {
			t.Errorf("PackageOf(%q) = %q, want %q", class, got, want)
		}
	}
}

// TestCallBuilderWideFanOut covers callers with more callees than the edge list scans.
func TestCallBuilderWideFanOut(t *testing.T) {
	b := NewCallBuilder()
	b.Method(MethodInfo{ID: 4, Class: "Root"})
	for i := range 40 {
		b.Method(MethodInfo{ID: uint64(8 + 4*i), Class: "Leaf"})
	}
	now := uint64(0)
	b.Event(MethodEvent{TID: 1, Method: 4})
	for round := range 3 {
		for i := range 40 {
			id := uint64(8 + 4*i)
			b.Event(MethodEvent{TID: 1, Method: id, ThreadCPU: now})
			now += uint64(i + round)
			b.Event(MethodEvent{TID: 1, Method: id, Action: Exit, ThreadCPU: now})
		}
	}
	p := b.Finish()
	for i := range 40 {
		e := p.Edges[CallEdge{1, 4, uint64(8 + 4*i)}]
		if want := uint64(3*i + 3); e.Calls != 3 || e.InclusiveCPU != want {
			t.Errorf("edge to callee %d: %+v, want 3 calls, %d µs", i, e, want)
		}
	}
	if got := p.ByClass()["Leaf"]; got.Calls != 120 || got.ExclusiveCPU != now {
		t.Errorf("Leaf %+v", got)
	}
}
