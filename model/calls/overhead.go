package calls

import (
	"cmp"
	"errors"
	"fmt"
	"math"
	"math/bits"
	"slices"
	"strings"
	"time"
)

// Instrumentation overhead of the DPA and RMP method logs (docs/dpa-format.md,
// docs/rmp-format.md): both seeds time methods with code that itself takes time, and both remove
// that time offline. The rules here are the seeds' own; where a seed leaves a choice open, the
// comment says which reading was taken.

// ClockCost is what one clock read costs, measured the way seed 003 (§4, last paragraph but one)
// took from Traceview: time a run of back-to-back reads and divide by their number. It keeps both
// numbers instead of the quotient, so deducting millions of reads loses nothing to rounding.
// Dalvik's own calibration is 4000 × 8 = 32000 reads (vm/Profile.cpp getClockOverhead).
type ClockCost struct {
	Reads   int64         // clock reads in the calibration run
	Elapsed time.Duration // what they took together
}

// Known tells whether a calibration was made: without one DPA's times cannot be corrected.
func (c ClockCost) Known() bool { return c.Reads > 0 && c.Elapsed > 0 }

// PerRead is the cost of one read in nanoseconds, for display.
func (c ClockCost) PerRead() float64 {
	if !c.Known() {
		return 0
	}
	return float64(c.Elapsed) / float64(c.Reads)
}

// Of is what n reads cost: n × Elapsed / Reads, rounded to the nanosecond, in 128-bit arithmetic.
func (c ClockCost) Of(n int64) time.Duration {
	if !c.Known() || n <= 0 {
		return 0
	}
	hi, lo := bits.Mul64(uint64(n), uint64(c.Elapsed))
	d := uint64(c.Reads)
	if hi >= d {
		return math.MaxInt64
	}
	q, r := bits.Div64(hi, lo, d)
	if r >= d-r { // r ≥ d/2 without overflow: round half up
		q++
	}
	if q > math.MaxInt64 {
		return math.MaxInt64
	}
	return time.Duration(q)
}

// DPACall is one completed method call of a DPA log: the seed's m_ij with its entry time t1 and
// exit time t2 (seed 003 §3), the thread, the nesting level and the clock reads made inside it.
type DPACall struct {
	PID, TID int
	Method   uint64
	Level    int           // 1 for methods the main activity calls directly (seed 003 §4, "level")
	Entry    time.Duration // since the log's start
	Exit     time.Duration
	// ClockReads are the clock reads the VM counted between Entry and Exit: the entry and exit
	// reads of every call nested inside, at any depth. The log carries it, so a log whose
	// records were filtered still deducts what really ran.
	ClockReads int64
	Nested     int64 // calls nested inside at any depth, as the reader saw them
	Unwound    bool  // left by an exception rather than a return
}

// Measured is t2 − t1, the seed's tm_ij before deduction.
func (c DPACall) Measured() time.Duration { return c.Exit - c.Entry }

// Corrected is Measured less the clock reads made inside the call.
func (c DPACall) Corrected(cost ClockCost) time.Duration {
	return DeductClockReads(c.Measured(), c.ClockReads, cost)
}

// DeductClockReads is seed 003's deduction (§3 last paragraph, §4 with figure 4): "count the
// number of clock_gettime() calls in a profiled method and subtract the time these calls
// consumed from the time profiled". It never goes below zero: a calibration made under other
// load can claim more than a short call took.
func DeductClockReads(measured time.Duration, reads int64, cost ClockCost) time.Duration {
	return max(0, measured-cost.Of(reads))
}

// DPAClockReads is how many clock reads fall inside a call with nested calls nested inside it,
// at any depth. Reading of figure 4 taken here: a call's own two reads bracket its interval and
// are charged to its caller (M1's time "included the time these two clock_gettime() calls
// consumed" — the two reads of M2), and deeper calls' reads are inside every enclosing interval
// ("if more methods are invoked in M2, the execution time of M1 profiled would be more
// inaccurate"). So 2 per nested call; nothing for the call's own reads.
func DPAClockReads(nested int64) int64 { return 2 * nested }

// DPAProcessTime is the process-level result of seed 003: "we simply summed up the execution
// times of methods with level 1 to obtain the process execution time" (§4, last paragraph).
type DPAProcessTime struct {
	PID       int
	Calls     int64 // level-1 calls summed
	Measured  time.Duration
	Corrected time.Duration
}

// DPAProcessTimes sums level-1 calls per process while a log streams by.
type DPAProcessTimes struct {
	Cost  ClockCost
	ByPID map[int]*DPAProcessTime
}

// NewDPAProcessTimes deducts clock reads at cost.
func NewDPAProcessTimes(cost ClockCost) *DPAProcessTimes {
	return &DPAProcessTimes{Cost: cost, ByPID: map[int]*DPAProcessTime{}}
}

// Add counts a call if it is at level 1; deeper calls are already inside one.
func (p *DPAProcessTimes) Add(c DPACall) {
	if c.Level != 1 {
		return
	}
	t := p.ByPID[c.PID]
	if t == nil {
		t = &DPAProcessTime{PID: c.PID}
		p.ByPID[c.PID] = t
	}
	t.Calls++
	t.Measured += c.Measured()
	t.Corrected += c.Corrected(p.Cost)
}

// RelativeError is seed 003's error rate (equations 1 and 2) and seed 002's (table 2):
// (profiled − reference) / reference. Seed 003 writes it signed, seed 002 prints its magnitude.
func RelativeError(profiled, reference time.Duration) float64 {
	if reference == 0 {
		return math.Inf(1)
	}
	return float64(profiled-reference) / float64(reference)
}

// OverheadTimeline moves a thread's event times back by the instrumentation time spent before
// each event, so that whatever is computed from the corrected events (inclusive and exclusive
// times, call graphs) has the overhead deducted without knowing about it. Each piece of
// overhead is placed outside the call it instruments: just before its entry stamp and just
// after its exit stamp, so a call's inclusive time loses exactly the overhead of what ran
// inside it, and its caller's exclusive time loses the overhead around its direct callees.
// Overhead outside every call (around an outermost call) moves nothing: no call contains it.
// Each thread keeps its own shift, so corrected times compare within a thread, not across
// threads. Memory grows with threads and nesting depth, not with events.
type OverheadTimeline struct {
	threads map[int]*timelineThread
}

type timelineThread struct {
	shift  time.Duration   // overhead spent on the thread so far
	last   time.Duration   // last corrected time handed out
	starts []time.Duration // shift at the entry stamp of each open call
}

// NewOverheadTimeline starts with no overhead on any thread.
func NewOverheadTimeline() *OverheadTimeline {
	return &OverheadTimeline{threads: map[int]*timelineThread{}}
}

func (o *OverheadTimeline) thread(tid int) *timelineThread {
	th := o.threads[tid]
	if th == nil {
		th = &timelineThread{}
		o.threads[tid] = th
	}
	return th
}

// Enter corrects an entry stamp at measured time t; before is the overhead spent just before
// it (DPA: the call's entry clock read; RMP: the first half of its probe).
func (o *OverheadTimeline) Enter(tid int, t, before time.Duration) time.Duration {
	th := o.thread(tid)
	if len(th.starts) > 0 {
		th.shift += before
	}
	th.starts = append(th.starts, th.shift)
	return th.hand(t - th.shift)
}

// Exit corrects the exit stamp of the innermost open call; inside is the overhead its own
// deduction removes (DPA: its clock reads × cost; RMP: its nested probes), after the overhead
// spent just after the stamp (DPA: its exit read; RMP: the second half of its probe). The
// stated inside wins over what the nested calls added up to, so a log that carries its own
// counts is followed even when records are missing from it.
func (o *OverheadTimeline) Exit(tid int, t, inside, after time.Duration) time.Duration {
	th := o.thread(tid)
	start := th.shift
	if n := len(th.starts); n > 0 {
		start = th.starts[n-1]
		th.starts = th.starts[:n-1]
	}
	out := th.hand(t - start - inside)
	th.shift = start + inside
	if len(th.starts) > 0 {
		th.shift += after
	}
	return out
}

// hand keeps corrected times non-negative and in order on the thread: a calibration larger
// than the real overhead would otherwise move an event before the one it follows.
func (th *timelineThread) hand(t time.Duration) time.Duration {
	t = max(t, th.last, 0)
	th.last = t
	return t
}

// ProbeResolution is one of RMP's four profiling resolutions (seed 002 §3.2).
type ProbeResolution uint8

// Process level: an application component's lifecycle periods (activity onCreate, onDestroy and
// the visible phase; service onCreate to onDestroy; receiver onReceive). Thread level: run()
// methods. Method level: ordinary methods. Loop level: the loops of a method.
const (
	ResolutionProcess ProbeResolution = iota + 1
	ResolutionThread
	ResolutionMethod
	ResolutionLoop
)

var resolutionNames = [...]string{"", "process", "thread", "method", "loop"}

func (r ProbeResolution) String() string {
	if int(r) < len(resolutionNames) && r != 0 {
		return resolutionNames[r]
	}
	return fmt.Sprintf("resolution(%d)", r)
}

// ParseProbeResolution reads the names the RMP format writes.
func ParseProbeResolution(s string) (ProbeResolution, error) {
	for i, n := range resolutionNames {
		if i > 0 && n == s {
			return ProbeResolution(i), nil
		}
	}
	return 0, fmt.Errorf("unknown resolution %q (want process, thread, method or loop)", s)
}

// ProbeKind says where a probe was instrumented, which decides its cost: a framework probe has
// one more stage, checking that the caller belongs to the profiled application (seed 002 §4.2.2).
type ProbeKind uint8

// The two kinds of probes.
const (
	AppProbe ProbeKind = iota + 1
	FrameworkProbe
)

func (k ProbeKind) String() string {
	switch k {
	case AppProbe:
		return "app"
	case FrameworkProbe:
		return "framework"
	}
	return fmt.Sprintf("kind(%d)", k)
}

// ParseProbeKind reads the names the RMP format writes.
func ParseProbeKind(s string) (ProbeKind, error) {
	switch s {
	case "app":
		return AppProbe, nil
	case "framework":
		return FrameworkProbe, nil
	}
	return 0, fmt.Errorf("unknown probe kind %q (want app or framework)", s)
}

// ProbeCost is the time one probe adds to the method that encloses it, per kind.
type ProbeCost struct {
	App, Framework time.Duration
}

// SeedProbeCost is what seed 002 measured on Android 1.6 (§4.2.2): "the measured execution time
// of a probe is 0.488 ms" for an application probe, and "the extra execution time of a framework
// probe is 0.631 ms". It measured them as the difference between a method calling an
// instrumented child and the same method calling the child with its probe statements removed —
// so the cost is what a child's probe adds to its caller's time.
var SeedProbeCost = ProbeCost{App: 488 * time.Microsecond, Framework: 631 * time.Microsecond}

// Of is one probe's cost.
func (c ProbeCost) Of(k ProbeKind) time.Duration {
	if k == FrameworkProbe {
		return c.Framework
	}
	return c.App
}

// Deduction is what app application probes and framework framework probes cost together.
func (c ProbeCost) Deduction(app, framework int64) time.Duration {
	return satAdd(satMul(c.App, app), satMul(c.Framework, framework))
}

func satMul(d time.Duration, n int64) time.Duration {
	if d <= 0 || n <= 0 {
		return 0
	}
	if n > math.MaxInt64/int64(d) {
		return math.MaxInt64
	}
	return d * time.Duration(n)
}

func satAdd(a, b time.Duration) time.Duration {
	if a > math.MaxInt64-b {
		return math.MaxInt64
	}
	return a + b
}

// ProbeSpan is one execution of a probe: the time between its entry and exit profiling points.
type ProbeSpan struct {
	TID        int
	Probe      uint64
	Name       string
	Resolution ProbeResolution
	Kind       ProbeKind
	Caller     string // as getCaller() named it at the entry point
	Start, End time.Duration
	// NestedApp and NestedFramework count the probes that fired inside the span, at any depth.
	NestedApp, NestedFramework int64
	// Outer is false when a span of the same resolution encloses this one on its thread
	// (recursion, a method calling a method), so per-resolution totals do not count time twice.
	Outer bool
}

// Measured is the span as the log timed it.
func (s ProbeSpan) Measured() time.Duration { return s.End - s.Start }

// Deduction is seed 002's: "this consumed time of probes is deducted from the profiled time
// results of RMP according to the number of probes in methods" (§4.2.2). Reading taken: the
// probes that fired inside the span, each at its kind's cost; the span's own probe is not
// deducted, because the seed measured a probe's cost as what it adds to its caller.
func (s ProbeSpan) Deduction(c ProbeCost) time.Duration {
	return c.Deduction(s.NestedApp, s.NestedFramework)
}

// Corrected is Measured less the Deduction, never below zero.
func (s ProbeSpan) Corrected(c ProbeCost) time.Duration {
	return max(0, s.Measured()-s.Deduction(c))
}

// ProbeStat adds up the spans of one probe (or one component, or one resolution).
type ProbeStat struct {
	Calls     int64
	Measured  time.Duration
	Corrected time.Duration
}

func (st *ProbeStat) add(s ProbeSpan, c ProbeCost) {
	st.Calls++
	st.Measured += s.Measured()
	st.Corrected += s.Corrected(c)
}

// ProbeRow is a probe with its totals, as a hotspot list shows it.
type ProbeRow struct {
	Probe      uint64
	Name       string
	Resolution ProbeResolution
	Kind       ProbeKind
	ProbeStat
}

// RMPProfile is the result of one RMP profiling round: totals per probe, per process-level
// component and per resolution, with probe overhead deducted.
type RMPProfile struct {
	Cost   ProbeCost
	Probes map[uint64]*ProbeRow
	// Components sums process-level spans by component (the probe name up to its last dot):
	// an activity's time is "the periods of onCreate(), onDestroy(), and each part of the
	// visible phase" (seed 002 §3.2).
	Components map[string]*ProbeStat
	// Resolutions sums the outer spans of each resolution, indexed by ProbeResolution.
	Resolutions [5]ProbeStat
}

// NewRMPProfile deducts probes at cost.
func NewRMPProfile(cost ProbeCost) *RMPProfile {
	return &RMPProfile{Cost: cost, Probes: map[uint64]*ProbeRow{}, Components: map[string]*ProbeStat{}}
}

// Add counts one span.
func (p *RMPProfile) Add(s ProbeSpan) {
	row := p.Probes[s.Probe]
	if row == nil {
		row = &ProbeRow{Probe: s.Probe, Name: s.Name, Resolution: s.Resolution, Kind: s.Kind}
		p.Probes[s.Probe] = row
	}
	row.add(s, p.Cost)
	if s.Resolution == ResolutionProcess {
		comp := ComponentOf(s.Name)
		st := p.Components[comp]
		if st == nil {
			st = &ProbeStat{}
			p.Components[comp] = st
		}
		st.add(s, p.Cost)
	}
	if s.Outer && int(s.Resolution) < len(p.Resolutions) {
		p.Resolutions[s.Resolution].add(s, p.Cost)
	}
}

// Hotspots lists the probes of one resolution (0: all) by corrected time, longest first,
// keeping those that pass the seed's "specific filtering rules" (§3.4: "execution time over
// than one sec and executing times over than five"): at least minTime in total and minCalls
// calls. The next zoom step picks its caller from the top of this list.
func (p *RMPProfile) Hotspots(r ProbeResolution, minTime time.Duration, minCalls int64) []ProbeRow {
	var out []ProbeRow
	for _, row := range p.Probes {
		if (r == 0 || row.Resolution == r) && row.Corrected >= minTime && row.Calls >= minCalls {
			out = append(out, *row)
		}
	}
	slices.SortFunc(out, func(a, b ProbeRow) int {
		return cmp.Or(cmp.Compare(b.Corrected, a.Corrected), cmp.Compare(a.Probe, b.Probe))
	})
	return out
}

// ComponentOf is the component a process-level probe belongs to: its name up to the last dot
// ("com.android.browser.BrowserActivity.onCreate" → "com.android.browser.BrowserActivity").
func ComponentOf(probe string) string {
	if i := strings.LastIndexByte(probe, '.'); i > 0 {
		return probe[:i]
	}
	return probe
}

// ProfilingArea is one step of RMP's zoom-in (seed 002 §3.3): a resolution and the caller
// filter's roots. "When the profiling is working at the method level of thread i, the
// profiling area includes all method-level probes in thread i. Also when the profiling
// resolution zooms into the method k of thread i, the profiling area includes all loop-level
// probes in method k."
type ProfilingArea struct {
	Resolution ProbeResolution // 0: every resolution
	Callers    []string        // roots of the caller filter (thread, run() or method names); none: no filter
}

// ErrUnbalanced says an exit came for a thread with no open span.
var ErrUnbalanced = errors.New("exit without a matching entry")

// AreaFilter decides, span by span as a log streams, what falls in a profiling area. It is
// the caller filter of seed 002 §3.4 and figure 3: a span is profiled when its probe is on
// (here: its resolution is the area's) and its caller is in the filter; a profiled span's name
// joins the filter while it runs, so what it calls is profiled too, and "when the method is
// finished, it will be removed from the filter".
//
// Two choices differ from a literal reading of the seed's code, both to keep figure 3's promise
// that a thread outside the filter is not profiled: the filter is kept per thread (one name set
// for all threads would admit Tb's call of M2 while Ta is inside M1), and a name is counted, not
// just present, so a recursive call's return does not drop its still-running outer call.
type AreaFilter struct {
	area    ProfilingArea
	roots   map[string]bool
	threads map[int]*areaThread
}

type areaThread struct {
	admitted map[string]int // names of profiled spans open on the thread
	open     []areaSpan
}

type areaSpan struct {
	name string
	keep bool
}

// NewAreaFilter starts a filter holding only the area's roots.
func NewAreaFilter(a ProfilingArea) *AreaFilter {
	f := &AreaFilter{area: a, roots: map[string]bool{}, threads: map[int]*areaThread{}}
	for _, r := range a.Callers {
		f.roots[r] = true
	}
	return f
}

// Enter tells whether a span starting on thread tid is in the area.
func (f *AreaFilter) Enter(tid int, name, caller string, r ProbeResolution) bool {
	th := f.threads[tid]
	if th == nil {
		th = &areaThread{admitted: map[string]int{}}
		f.threads[tid] = th
	}
	on := f.area.Resolution == 0 || r == f.area.Resolution
	admitted := len(f.roots) == 0 || f.roots[caller] || th.admitted[caller] > 0
	keep := on && admitted
	if keep && len(f.roots) > 0 {
		th.admitted[name]++
	}
	th.open = append(th.open, areaSpan{name, keep})
	return keep
}

// Exit tells whether the innermost open span of thread tid, now ending, was in the area.
func (f *AreaFilter) Exit(tid int) (bool, error) {
	th := f.threads[tid]
	if th == nil || len(th.open) == 0 {
		return false, ErrUnbalanced
	}
	sp := th.open[len(th.open)-1]
	th.open = th.open[:len(th.open)-1]
	if sp.keep && len(f.roots) > 0 {
		if th.admitted[sp.name]--; th.admitted[sp.name] <= 0 {
			delete(th.admitted, sp.name)
		}
	}
	return sp.keep, nil
}
