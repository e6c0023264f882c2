package calls

import (
	"cmp"
	"errors"
	"fmt"
	"slices"
	"strings"
)

// Call reconstruction for method traces: a CallBuilder turns the enter and exit events a reader
// streams into the per-method tables of Traceview's profile, per thread and per process, and
// hands each finished call to a timeline. Its rules are dmtracedump's (Dalvik
// tools/dmtracedump/TraceDump.c, parseDataKeys), so its numbers are the ones Android's own tool
// prints for the same file; where dmtracedump gives up, the comments say what is done instead.

// TopLevelMethod and UnknownMethod are the two methods dmtracedump adds to every trace. Neither
// can be a Traceview method id (those are multiples of 4).
const (
	// TopLevelMethod is "(toplevel)": the caller of every level-1 call. Its exclusive time is the
	// time a thread spent outside any traced call; its inclusive time is the thread's span from
	// first to last event.
	TopLevelMethod uint64 = ^uint64(1)
	// UnknownMethod is "(unknown)": every id the trace never declared counts as this one method,
	// as dmtracedump counts it (real ART traces hold such records).
	UnknownMethod uint64 = ^uint64(0)
)

// DefaultMaxFrames bounds the frames open at once over all threads when a CallBuilder does not
// say otherwise: a trace of nothing but enters must not grow memory with its length.
const DefaultMaxFrames = 1 << 20

// ErrTooDeep says a trace opened more frames than the builder's limit allows.
var ErrTooDeep = errors.New("more open calls than the limit")

// MethodTimes are the profile columns of one method (or class, or package) on one thread or
// summed over threads. Times are microseconds. Inclusive time counts only calls that were not
// nested in another call of the same method, so recursion is not counted twice; exclusive time
// counts every call.
type MethodTimes struct {
	InclusiveCPU, ExclusiveCPU   uint64
	InclusiveWall, ExclusiveWall uint64
	Calls                        int64 // calls not nested in another call of the same method
	RecursiveCalls               int64 // calls made while the method was already on the stack
}

// CPUPerCall is Traceview's "Incl Cpu Time/Call": inclusive time over the calls it covers.
func (t MethodTimes) CPUPerCall() float64 { return perCall(t.InclusiveCPU, t.Calls) }

// WallPerCall is Traceview's "Incl Real Time/Call".
func (t MethodTimes) WallPerCall() float64 { return perCall(t.InclusiveWall, t.Calls) }

func perCall(us uint64, calls int64) float64 {
	if calls <= 0 {
		return 0
	}
	return float64(us) / float64(calls)
}

func (t *MethodTimes) add(o MethodTimes) {
	t.InclusiveCPU += o.InclusiveCPU
	t.ExclusiveCPU += o.ExclusiveCPU
	t.InclusiveWall += o.InclusiveWall
	t.ExclusiveWall += o.ExclusiveWall
	t.Calls += o.Calls
	t.RecursiveCalls += o.RecursiveCalls
}

// CallEnd says what ended a call.
type CallEnd uint8

// How calls end.
const (
	EndExit    CallEnd = iota // its exit record
	EndUnroll                 // its unroll record: an exception left it (action 2)
	EndImplied                // no record of its own: the exit of a method below it ended it
	EndOfTrace                // still on the stack when the trace ended: closed at the thread's last event
)

// Call is one finished call, for a timeline. Depth 0 is a level-1 call (called from
// TopLevelMethod). Times are microseconds as the trace gives them.
type Call struct {
	TID                         int
	Method, ParentMethod        uint64
	Depth                       int
	StartCPU, EndCPU            uint64
	StartWall, EndWall          uint64
	ExclusiveCPU, ExclusiveWall uint64
	Recursive                   bool // another call of the method was below it on the stack
	// Orphan calls were on the stack before tracing began: only their exit was traced, so, as
	// in dmtracedump, they start at time 0 of each clock.
	Orphan bool
	End    CallEnd
}

// ThreadMethod keys per-thread method statistics.
type ThreadMethod struct {
	TID    int
	Method uint64
}

// ThreadGroup keys per-thread class or package statistics.
type ThreadGroup struct {
	TID  int
	Name string
}

// CallEdge keys caller→callee statistics (Traceview's parents and children).
type CallEdge struct {
	TID            int
	Caller, Callee uint64
}

// EdgeTimes is what a caller spent in one callee: every call counts, recursive or not, as in
// dmtracedump's parent and child lists.
type EdgeTimes struct {
	Calls                       int64
	InclusiveCPU, InclusiveWall uint64
}

// ThreadTimes sums up one thread.
type ThreadTimes struct {
	TID                 int
	Name                string
	Events              int64
	FirstCPU, LastCPU   uint64 // thread-CPU time of the thread's first and last event
	FirstWall, LastWall uint64
	// Level1CPU and Level1Wall are DPA's process time on this thread: the inclusive times of
	// its level-1 calls summed. An orphan call at level 1 began before everything earlier on
	// its thread, so it replaces the sum so far instead of adding to it.
	Level1CPU, Level1Wall uint64
	MaxDepth              int
}

// ElapsedCPU is dmtracedump's time of a thread: last event minus first.
func (t ThreadTimes) ElapsedCPU() uint64 { return t.LastCPU - t.FirstCPU }

// ElapsedWall is ElapsedCPU on the wall clock.
func (t ThreadTimes) ElapsedWall() uint64 { return t.LastWall - t.FirstWall }

// Anomalies counts what a trace held that a well-formed call tree would not. None stops the
// builder; an importer can show them.
type Anomalies struct {
	Orphans    int64 // exits with nothing on the thread's stack: frames from before tracing began
	Mismatched int64 // exits of a method other than the one on top (dmtracedump stops at these)
	Unclosed   int64 // calls still open at the end of the trace
	Backwards  int64 // events earlier than the one before on their thread; taken as no time passing
	// FoldedPaths counts calls whose new call path did not fit in the call tree (MaxPaths) and
	// were counted in their caller's path.
	FoldedPaths int64
}

// CallProfile is what a CallBuilder found.
type CallProfile struct {
	Clock     Clock
	Methods   map[uint64]MethodInfo // declared methods, plus TopLevelMethod and UnknownMethod
	Threads   []ThreadTimes         // every thread declared or seen, by TID
	PerThread map[ThreadMethod]MethodTimes
	Classes   map[ThreadGroup]MethodTimes // inclusive: time with some method of the class on the stack
	Packages  map[ThreadGroup]MethodTimes
	Edges     map[CallEdge]EdgeTimes
	Anomalies Anomalies
	// Tree is every call path of every thread (threads by id, paths in the order first seen,
	// so a parent comes before its children), for pprof and flame graphs. A profile loaded
	// from the workspace leaves it empty: the store reads it on demand.
	Tree []CallNode
}

// ByMethod sums the per-thread table over threads: dmtracedump's method table.
func (p *CallProfile) ByMethod() map[uint64]MethodTimes {
	out := make(map[uint64]MethodTimes)
	for k, t := range p.PerThread {
		s := out[k.Method]
		s.add(t)
		out[k.Method] = s
	}
	return out
}

// MethodOn sums one method's row over the threads (tid 0) or on one thread: the numbers a
// parent or child list is headed with.
func (p *CallProfile) MethodOn(method uint64, tid int) MethodTimes {
	var s MethodTimes
	for k, t := range p.PerThread {
		if k.Method == method && (tid == 0 || k.TID == tid) {
			s.add(t)
		}
	}
	return s
}

// ByClass sums classes over threads.
func (p *CallProfile) ByClass() map[string]MethodTimes { return sumGroups(p.Classes) }

// ByPackage sums packages over threads.
func (p *CallProfile) ByPackage() map[string]MethodTimes { return sumGroups(p.Packages) }

func sumGroups(m map[ThreadGroup]MethodTimes) map[string]MethodTimes {
	out := make(map[string]MethodTimes)
	for k, t := range m {
		s := out[k.Name]
		s.add(t)
		out[k.Name] = s
	}
	return out
}

// ProcessTime is DPA's process time (seed 003 §4): the level-1 calls of every thread summed.
func (p *CallProfile) ProcessTime() (cpu, wall uint64) {
	for _, t := range p.Threads {
		cpu += t.Level1CPU
		wall += t.Level1Wall
	}
	return cpu, wall
}

// TotalCPU is dmtracedump's "Total cycles": every thread's first-to-last span summed, which is
// also the inclusive time of TopLevelMethod and the sum of all exclusive times.
func (p *CallProfile) TotalCPU() uint64 {
	var s uint64
	for _, t := range p.Threads {
		s += t.ElapsedCPU()
	}
	return s
}

// TotalWall is TotalCPU on the wall clock.
func (p *CallProfile) TotalWall() uint64 {
	var s uint64
	for _, t := range p.Threads {
		s += t.ElapsedWall()
	}
	return s
}

// PackageOf is a class's package: its name up to the last '/' or '.', so both the slashed
// names of Dalvik and the dotted ones of ART work; "" for the default package. The synthetic
// "(toplevel)" and "(unknown)" are their own packages.
func PackageOf(class string) string {
	if strings.HasPrefix(class, "(") {
		return class
	}
	if i := strings.LastIndexAny(class, "/."); i >= 0 {
		return class[:i]
	}
	return ""
}

// CallBuilder reconstructs calls per thread from method events. It is a MethodSink, so a reader
// can stream into it directly; Finish closes what is still open and returns the profile. Make
// one with NewCallBuilder (the zero value has no synthetic methods).
//
// Memory is bounded by the open frames (at most MaxFrames) plus the distinct (thread, method)
// pairs, classes, packages and caller→callee edges; never by the number of events.
//
// The rules, after dmtracedump: time between two events of a thread belongs to the call on top
// of its stack (to TopLevelMethod when the stack is empty), except that an exit gives it to the
// exiting method. An exit with an empty stack is an orphan: a call from before tracing began,
// counted from time 0. Unroll (action 2) ends a call like an exit. Calls still open at the end
// close at their thread's last event. An exit of a method that is not on top, which dmtracedump
// refuses, ends every call above the method's topmost frame (EndImplied) and then the method;
// when the method is not on the stack at all it ends every call and counts as an orphan.
type CallBuilder struct {
	// OnCall, when set, receives every call as it finishes (for a timeline), children before
	// their parents.
	OnCall func(Call)
	// MaxFrames bounds the calls open at once over all threads; 0 means DefaultMaxFrames.
	MaxFrames int
	// MaxPaths bounds the call tree's distinct paths over all threads; 0 means DefaultMaxPaths.
	// Once it is full, a call on a new path is counted in its caller's path (so exclusive time
	// is never lost, only the detail below a rare path), and Anomalies.FoldedPaths counts them.
	MaxPaths int
	paths    int

	clock     Clock
	methods   map[uint64]*cbMethod
	names     map[string]string // interned class and package names
	threads   map[int]*cbThread
	last      *cbThread
	frames    int
	anomalies Anomalies
	profile   *CallProfile
}

type cbMethod struct {
	info       MethodInfo
	class, pkg string
}

type cbThread struct {
	ThreadTimes
	started       bool
	lastCPU       uint64
	lastWall      uint64
	stack         []cbFrame
	tree          []cbNode            // the thread's call paths; tree[0] is the root, "(toplevel)"
	treeIdx       map[cbTreeKey]int32 // (parent node, method) → node
	top           *cbPair             // TopLevelMethod
	pairs         map[uint64]*cbPair
	classes, pkgs map[string]*cbGroup
}

// cbPair is one method on one thread; the group pointers are resolved once, so an event costs
// no more than one map lookup.
type cbPair struct {
	MethodTimes
	method   uint64
	onStack  int32
	cls, pkg *cbGroup
	// callees are the edges to methods this one called: a short slice searched in order (most
	// methods call few others), indexed by a map once it grows.
	callees   []cbEdge
	calleeIdx map[uint64]int32
}

type cbEdge struct {
	callee uint64
	EdgeTimes
}

const edgeScan = 16 // callees searched linearly before an index is built

func (p *cbPair) edge(callee uint64) *EdgeTimes {
	if p.calleeIdx == nil {
		for i := range p.callees {
			if p.callees[i].callee == callee {
				return &p.callees[i].EdgeTimes
			}
		}
	} else if i, ok := p.calleeIdx[callee]; ok {
		return &p.callees[i].EdgeTimes
	}
	p.callees = append(p.callees, cbEdge{callee: callee})
	switch n := len(p.callees); {
	case p.calleeIdx != nil:
		p.calleeIdx[callee] = int32(n - 1)
	case n > edgeScan:
		p.calleeIdx = make(map[uint64]int32, 2*n)
		for i, e := range p.callees {
			p.calleeIdx[e.callee] = int32(i)
		}
	}
	return &p.callees[len(p.callees)-1].EdgeTimes
}

type cbGroup struct {
	MethodTimes
	onStack int32
}

type cbFrame struct {
	p                   *cbPair
	node                int32 // the call's path in the thread's call tree
	enterCPU, enterWall uint64
	exclCPU, exclWall   uint64
}

// cbNode is one call path of a thread: a method under its parent path, with the calls made
// along it and their exclusive time. Memory grows with distinct paths, not with calls.
type cbNode struct {
	parent                      int32
	method                      uint64
	calls                       int64
	exclusiveCPU, exclusiveWall uint64
}

type cbTreeKey struct {
	parent int32
	method uint64
}

// DefaultMaxPaths is the call tree's size when CallBuilder.MaxPaths is 0: real traces repeat
// their paths and stay far below it; random or pathological ones stop growing there.
const DefaultMaxPaths = 100_000

// node finds or makes the path of method under parent; when the tree is full it answers the
// parent's path.
func (b *CallBuilder) node(th *cbThread, parent int32, method uint64) int32 {
	k := cbTreeKey{parent, method}
	if i, ok := th.treeIdx[k]; ok {
		return i
	}
	if th.treeIdx == nil {
		th.treeIdx = map[cbTreeKey]int32{}
		th.tree = append(th.tree, cbNode{parent: -1, method: TopLevelMethod})
	}
	if b.paths >= cmp.Or(b.MaxPaths, DefaultMaxPaths) && parent > 0 {
		b.anomalies.FoldedPaths++
		return parent
	}
	b.paths++
	i := int32(len(th.tree))
	th.tree = append(th.tree, cbNode{parent: parent, method: method})
	th.treeIdx[k] = i
	return i
}

// NewCallBuilder returns an empty builder; set OnCall or MaxFrames before the first event.
func NewCallBuilder() *CallBuilder {
	b := &CallBuilder{
		methods: make(map[uint64]*cbMethod),
		names:   make(map[string]string),
		threads: make(map[int]*cbThread),
	}
	b.declare(MethodInfo{ID: TopLevelMethod, Class: "(toplevel)", Line: -1})
	b.declare(MethodInfo{ID: UnknownMethod, Class: "(unknown)", Line: -1})
	return b
}

// Header takes the trace's clock, which says which event times mean something.
func (b *CallBuilder) Header(h TraceHeader) error {
	b.clock = h.Clock
	return nil
}

// Thread names a thread.
func (b *CallBuilder) Thread(t ThreadInfo) error {
	b.thread(t.TID).Name = t.Name
	return nil
}

// Method declares a method; events naming ids never declared count as UnknownMethod.
func (b *CallBuilder) Method(m MethodInfo) error {
	if m.ID == TopLevelMethod || m.ID == UnknownMethod {
		return fmt.Errorf("method id %#x is reserved", m.ID)
	}
	b.declare(m)
	return nil
}

func (b *CallBuilder) declare(m MethodInfo) {
	m.Class = b.intern(m.Class)
	b.methods[m.ID] = &cbMethod{info: m, class: m.Class, pkg: b.intern(PackageOf(m.Class))}
}

func (b *CallBuilder) intern(s string) string {
	if v, ok := b.names[s]; ok {
		return v
	}
	b.names[s] = s
	return s
}

func (b *CallBuilder) thread(tid int) *cbThread {
	if b.last != nil && b.last.TID == tid {
		return b.last
	}
	th := b.threads[tid]
	if th == nil {
		th = &cbThread{ThreadTimes: ThreadTimes{TID: tid}}
		b.threads[tid] = th
	}
	b.last = th
	return th
}

// start gives a thread its maps at its first event: a thread only declared costs its times,
// not a call tree, so a trace declaring many threads it never uses stays small.
func (b *CallBuilder) start(th *cbThread) {
	th.started = true
	th.pairs, th.classes, th.pkgs = make(map[uint64]*cbPair), make(map[string]*cbGroup), make(map[string]*cbGroup)
	th.top = b.pair(th, TopLevelMethod)
}

func (b *CallBuilder) pair(th *cbThread, id uint64) *cbPair {
	if p := th.pairs[id]; p != nil {
		return p
	}
	m := b.methods[id]
	p := &cbPair{method: id, cls: group(th.classes, m.class), pkg: group(th.pkgs, m.pkg)}
	th.pairs[id] = p
	return p
}

func group(m map[string]*cbGroup, name string) *cbGroup {
	g := m[name]
	if g == nil {
		g = &cbGroup{}
		m[name] = g
	}
	return g
}

// Event takes one record.
func (b *CallBuilder) Event(e MethodEvent) error {
	if b.profile != nil {
		return errors.New("call builder: event after Finish")
	}
	th := b.thread(e.TID)
	cpu, wall := e.ThreadCPU, e.Wall
	if !th.started {
		b.start(th)
		th.FirstCPU, th.FirstWall = cpu, wall
		th.lastCPU, th.lastWall = cpu, wall
	}
	if cpu < th.lastCPU || wall < th.lastWall {
		b.anomalies.Backwards++
		cpu, wall = max(cpu, th.lastCPU), max(wall, th.lastWall)
	}
	dc, dw := cpu-th.lastCPU, wall-th.lastWall
	th.lastCPU, th.lastWall = cpu, wall
	th.LastCPU, th.LastWall = cpu, wall
	th.Events++

	id := e.Method
	switch e.Action {
	case Enter:
		b.charge(th, dc, dw)
		if b.frames >= cmp.Or(b.MaxFrames, DefaultMaxFrames) {
			return fmt.Errorf("thread %d: %w (%d)", e.TID, ErrTooDeep, cmp.Or(b.MaxFrames, DefaultMaxFrames))
		}
		// A pair exists only for a declared method (or UnknownMethod), so a hit needs no check.
		p := th.pairs[id]
		if p == nil || id == TopLevelMethod {
			p = b.pair(th, b.known(id))
		}
		p.onStack++
		p.cls.onStack++
		p.pkg.onStack++
		parentNode := int32(0)
		if n := len(th.stack); n > 0 {
			parentNode = th.stack[n-1].node
		}
		th.stack = append(th.stack, cbFrame{p: p, node: b.node(th, parentNode, p.method), enterCPU: cpu, enterWall: wall})
		b.frames++
		th.MaxDepth = max(th.MaxDepth, len(th.stack))
	case Exit, Unroll:
		end := EndExit
		if e.Action == Unroll {
			end = EndUnroll
		}
		n := len(th.stack)
		if n > 0 && th.stack[n-1].p.method == id {
			b.charge(th, dc, dw)
			b.pop(th, cpu, wall, end)
			break
		}
		id = b.known(id)
		switch {
		case n > 0 && th.stack[n-1].p.method == id:
			b.charge(th, dc, dw)
			b.pop(th, cpu, wall, end)
		case n > 0:
			b.anomalies.Mismatched++
			b.charge(th, dc, dw)
			p := th.pairs[id]
			if p != nil && p.onStack > 0 {
				for th.stack[len(th.stack)-1].p != p {
					b.pop(th, cpu, wall, EndImplied)
				}
				b.pop(th, cpu, wall, end)
				break
			}
			for len(th.stack) > 0 {
				b.pop(th, cpu, wall, EndImplied)
			}
			b.orphan(th, id, cpu, wall, 0, 0, end)
		default:
			b.orphan(th, id, cpu, wall, dc, dw, end)
		}
	default:
		return fmt.Errorf("thread %d: unknown method action %d", e.TID, e.Action)
	}
	return nil
}

// known maps ids the trace never declared to UnknownMethod.
func (b *CallBuilder) known(id uint64) uint64 {
	if _, ok := b.methods[id]; !ok || id == TopLevelMethod {
		return UnknownMethod
	}
	return id
}

// charge gives the time since the thread's last event to the call on top of its stack.
func (b *CallBuilder) charge(th *cbThread, dc, dw uint64) {
	if len(th.stack) == 0 {
		chargePair(th.top, dc, dw)
		return
	}
	f := &th.stack[len(th.stack)-1]
	f.exclCPU += dc
	f.exclWall += dw
	chargePair(f.p, dc, dw)
}

func chargePair(p *cbPair, dc, dw uint64) {
	p.ExclusiveCPU += dc
	p.ExclusiveWall += dw
	p.cls.ExclusiveCPU += dc
	p.cls.ExclusiveWall += dw
	p.pkg.ExclusiveCPU += dc
	p.pkg.ExclusiveWall += dw
}

func (b *CallBuilder) pop(th *cbThread, cpu, wall uint64, end CallEnd) {
	n := len(th.stack) - 1
	f := th.stack[n]
	th.stack = th.stack[:n]
	b.frames--
	p := f.p
	p.onStack--
	p.cls.onStack--
	p.pkg.onStack--
	parent := th.top
	if n > 0 {
		parent = th.stack[n-1].p
	}
	nd := &th.tree[f.node]
	nd.calls++
	nd.exclusiveCPU += f.exclCPU
	nd.exclusiveWall += f.exclWall
	b.finish(th, p, parent, Call{TID: th.TID, Method: p.method, ParentMethod: parent.method, Depth: n,
		StartCPU: f.enterCPU, EndCPU: max(cpu, f.enterCPU), StartWall: f.enterWall, EndWall: max(wall, f.enterWall),
		ExclusiveCPU: f.exclCPU, ExclusiveWall: f.exclWall, End: end})
}

// orphan ends a call whose enter was never traced: it began at time 0, before everything the
// thread did since.
func (b *CallBuilder) orphan(th *cbThread, id, cpu, wall, dc, dw uint64, end CallEnd) {
	b.anomalies.Orphans++
	p := th.pairs[id]
	if p == nil {
		p = b.pair(th, id)
	}
	chargePair(p, dc, dw)
	nd := &th.tree[b.node(th, 0, id)]
	nd.calls++
	nd.exclusiveCPU += dc
	nd.exclusiveWall += dw
	b.finish(th, p, th.top, Call{TID: th.TID, Method: id, ParentMethod: TopLevelMethod,
		EndCPU: cpu, EndWall: wall, ExclusiveCPU: dc, ExclusiveWall: dw, Orphan: true, End: end})
}

// finish books a call whose frame is already off the stack.
func (b *CallBuilder) finish(th *cbThread, p, parent *cbPair, c Call) {
	ic, iw := c.EndCPU-c.StartCPU, c.EndWall-c.StartWall
	c.Recursive = p.onStack > 0
	count(&p.MethodTimes, c.Recursive, ic, iw)
	count(&p.cls.MethodTimes, p.cls.onStack > 0, ic, iw)
	count(&p.pkg.MethodTimes, p.pkg.onStack > 0, ic, iw)
	e := parent.edge(p.method)
	e.Calls++
	e.InclusiveCPU += ic
	e.InclusiveWall += iw
	if c.Depth == 0 {
		if c.Orphan {
			th.Level1CPU, th.Level1Wall = max(th.Level1CPU, ic), max(th.Level1Wall, iw)
		} else {
			th.Level1CPU += ic
			th.Level1Wall += iw
		}
	}
	if b.OnCall != nil {
		b.OnCall(c)
	}
}

func count(t *MethodTimes, recursive bool, ic, iw uint64) {
	if recursive {
		t.RecursiveCalls++
		return
	}
	t.Calls++
	t.InclusiveCPU += ic
	t.InclusiveWall += iw
}

// Finish closes every call still open at its thread's last event and returns the profile.
// Later calls return the same profile.
func (b *CallBuilder) Finish() *CallProfile {
	if b.profile != nil {
		return b.profile
	}
	tids := make([]int, 0, len(b.threads))
	for tid := range b.threads {
		tids = append(tids, tid)
	}
	slices.Sort(tids)
	p := &CallProfile{Clock: b.clock, Methods: make(map[uint64]MethodInfo, len(b.methods)),
		Threads: make([]ThreadTimes, 0, len(tids)), PerThread: make(map[ThreadMethod]MethodTimes), Classes: make(map[ThreadGroup]MethodTimes),
		Packages: make(map[ThreadGroup]MethodTimes), Edges: make(map[CallEdge]EdgeTimes)}
	for id, m := range b.methods {
		p.Methods[id] = m.info
	}
	for _, tid := range tids {
		th := b.threads[tid]
		for len(th.stack) > 0 {
			b.anomalies.Unclosed++
			b.pop(th, th.lastCPU, th.lastWall, EndOfTrace)
		}
		if th.started {
			// (toplevel) spans the thread; it is not a call, so its groups get the span directly.
			top := th.top
			top.InclusiveCPU, top.InclusiveWall = th.ElapsedCPU(), th.ElapsedWall()
			top.cls.InclusiveCPU, top.cls.InclusiveWall = top.InclusiveCPU, top.InclusiveWall
			top.pkg.InclusiveCPU, top.pkg.InclusiveWall = top.InclusiveCPU, top.InclusiveWall
		}
		p.Threads = append(p.Threads, th.ThreadTimes)
		for id, pr := range th.pairs {
			if th.started || id != TopLevelMethod {
				p.PerThread[ThreadMethod{tid, id}] = pr.MethodTimes
			}
			for _, e := range pr.callees {
				p.Edges[CallEdge{tid, id, e.callee}] = e.EdgeTimes
			}
		}
		for name, g := range th.classes {
			if g.MethodTimes != (MethodTimes{}) {
				p.Classes[ThreadGroup{tid, name}] = g.MethodTimes
			}
		}
		for name, g := range th.pkgs {
			if g.MethodTimes != (MethodTimes{}) {
				p.Packages[ThreadGroup{tid, name}] = g.MethodTimes
			}
		}
		p.Tree = append(p.Tree, th.callNodes(len(p.Tree))...)
	}
	p.Anomalies = b.anomalies
	b.profile = p
	return p
}

// callNodes lists the thread's call paths as nodes of a tree whose first node will be at base,
// each with its parent's index: the builder's own tree without its root.
func (th *cbThread) callNodes(base int) []CallNode {
	out := make([]CallNode, 0, max(len(th.tree)-1, 0))
	for i := 1; i < len(th.tree); i++ {
		n := th.tree[i]
		parent := NoParent
		if n.parent > 0 {
			parent = base + int(n.parent) - 1
		}
		out = append(out, CallNode{TID: th.TID, Parent: parent, Method: n.method, Calls: n.calls,
			ExclusiveCPU: n.exclusiveCPU, ExclusiveWall: n.exclusiveWall})
	}
	return out
}
