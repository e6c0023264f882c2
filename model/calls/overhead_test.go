package calls

import (
	"fmt"
	"math"
	"testing"
	"time"
)

// Seed 003 §4 (last paragraph but one): the cost of one clock_gettime() is "the inline function
// execution time [divided] by the number of clock_gettime() function calls it contains".
// Dalvik's inline function makes 4000 × 8 = 32000 calls; if they take 9.6 ms, one read costs
// 9 600 000 ns / 32 000 = 300 ns. The seed prints no measured value, so the numbers are ours.
func TestClockCostCalibration(t *testing.T) {
	c := ClockCost{Reads: 32000, Elapsed: 9600 * time.Microsecond}
	if c.PerRead() != 300 || c.Of(1) != 300 || c.Of(4) != 1200 {
		t.Errorf("per read %v, 1 read %v, 4 reads %v; want 300 ns, 300 ns, 1.2 µs", c.PerRead(), c.Of(1), c.Of(4))
	}
	// 3 reads in 1000 ns: 333.3 ns each. One read rounds down to 333 ns, two (666.7) up to 667.
	odd := ClockCost{Reads: 3, Elapsed: 1000}
	if odd.Of(1) != 333 || odd.Of(2) != 667 || odd.Of(3) != 1000 {
		t.Errorf("1000 ns / 3: got %v %v %v", odd.Of(1), odd.Of(2), odd.Of(3))
	}
	// 10^12 reads at 9 600 001 ns / 32 000 = 300.00003125 ns: exactly 300 000 031 250 000 ns,
	// which a float64 quotient times 10^12 would miss in the last digits.
	big := ClockCost{Reads: 32000, Elapsed: 9600001}
	if got := big.Of(1e12); got != 300000031250000 {
		t.Errorf("10^12 reads = %d ns", got)
	}
	if got := big.Of(math.MaxInt64); got != math.MaxInt64 {
		t.Errorf("saturation: %d", got)
	}
	if (ClockCost{}).Known() || (ClockCost{}).Of(5) != 0 || c.Of(-1) != 0 {
		t.Error("no calibration must deduct nothing")
	}
}

// fig4 is seed 003's figure 4 as a timeline, with one read costing 300 ns (the calibration
// above). M0 (level 1) calls M1 (level 2), which calls M2 (level 3). The figure's point: the
// two reads that time M2 run inside M1, and, one level up, M1's and M2's reads run inside M0.
//
//	M0 enter stamp 10 000 (its own read 9 700–10 000 is outside everything)
//	M0 works 1 000                         → 11 000
//	M1's entry read 11 000–11 300, M1 enter stamp 11 300
//	M1 works 2 000                         → 13 300
//	M2's entry read 13 300–13 600, M2 enter stamp 13 600
//	M2 works 5 000, M2 exit stamp 18 600, exit read 18 600–18 900
//	M1 works 1 000, M1 exit stamp 19 900, exit read 19 900–20 200
//	M0 works 500, M0 exit stamp 20 700
//
// Measured: M2 = 18 600 − 13 600 = 5 000; M1 = 19 900 − 11 300 = 8 600; M0 = 20 700 − 10 000
// = 10 700. Reads inside (DPAClockReads): M2 none, M1 2 (M2's), M0 4 (M1's and M2's).
// Corrected: M2 5 000; M1 8 600 − 2 × 300 = 8 000 (= 2 000 + 5 000 + 1 000 of real work);
// M0 10 700 − 4 × 300 = 9 500 (= 1 000 + 8 000 + 500).
var fig4 = []DPACall{
	{PID: 1, TID: 1, Method: 2, Level: 3, Entry: 13600, Exit: 18600, ClockReads: DPAClockReads(0)},
	{PID: 1, TID: 1, Method: 1, Level: 2, Entry: 11300, Exit: 19900, ClockReads: DPAClockReads(1), Nested: 1},
	{PID: 1, TID: 1, Method: 0, Level: 1, Entry: 10000, Exit: 20700, ClockReads: DPAClockReads(2), Nested: 2},
}

var fig4Cost = ClockCost{Reads: 32000, Elapsed: 9600 * time.Microsecond}

func TestDPADeductionFigure4(t *testing.T) {
	want := []struct{ reads, measured, corrected time.Duration }{
		{0, 5000, 5000},
		{2, 8600, 8000},
		{4, 10700, 9500},
	}
	for i, c := range fig4 {
		w := want[i]
		if time.Duration(c.ClockReads) != w.reads || c.Measured() != w.measured || c.Corrected(fig4Cost) != w.corrected {
			t.Errorf("M%d: reads %d measured %v corrected %v; want %d %v %v", c.Method, c.ClockReads,
				c.Measured(), c.Corrected(fig4Cost), w.reads, w.measured, w.corrected)
		}
	}
	// A calibration made under heavier load can claim more than a short call took: 4 reads at
	// 300 ns are 1 200 ns, a 500 ns call corrects to 0, not −700.
	if got := DeductClockReads(500, 4, fig4Cost); got != 0 {
		t.Errorf("over-deduction: %v", got)
	}
}

// Seed 003 §4, last paragraph: "we simply summed up the execution times of methods with level 1
// to obtain the process execution time". Process 1 is figure 4 (one level-1 call, 9 500 ns
// corrected) plus a second level-1 leaf of 700 ns: 10 200 ns corrected, 11 400 measured.
// Process 2 has one level-1 call of 3 000 ns with 2 reads inside: 3 000 − 600 = 2 400.
func TestDPAProcessTime(t *testing.T) {
	p := NewDPAProcessTimes(fig4Cost)
	for _, c := range fig4 {
		p.Add(c)
	}
	p.Add(DPACall{PID: 1, TID: 1, Method: 3, Level: 1, Entry: 30000, Exit: 30700})
	p.Add(DPACall{PID: 2, TID: 5, Method: 0, Level: 1, Entry: 0, Exit: 3000, ClockReads: 2})
	p.Add(DPACall{PID: 2, TID: 5, Method: 1, Level: 2, Entry: 100, Exit: 2000})
	if got := *p.ByPID[1]; got != (DPAProcessTime{PID: 1, Calls: 2, Measured: 11400, Corrected: 10200}) {
		t.Errorf("process 1: %+v", got)
	}
	if got := *p.ByPID[2]; got != (DPAProcessTime{PID: 2, Calls: 1, Measured: 3000, Corrected: 2400}) {
		t.Errorf("process 2: %+v", got)
	}
}

// The timeline form of figure 4: each read sits just outside the call it times, so corrected
// inclusive times equal the deduction above, and exclusive times lose the reads around each
// direct callee (M1: 8 000 − 5 000 = 3 000 = its 2 000 + 1 000 of work). M0's own reads are
// outside every call and move nothing.
//
//	M0 enter 10 000 − 0                                 = 10 000
//	M1 enter 11 300 − 300 (M1's entry read)             = 11 000
//	M2 enter 13 600 − 600 (and M2's)                    = 13 000
//	M2 exit  18 600 − 600 (shift at its entry) − 0      = 18 000, then M2's exit read: shift 900
//	M1 exit  19 900 − 300 − 2 × 300 (its reads inside)  = 19 000, then M1's exit read: shift 1 200
//	M0 exit  20 700 − 0 − 4 × 300                       = 19 500
func TestOverheadTimelineFigure4(t *testing.T) {
	o := NewOverheadTimeline()
	r := fig4Cost.Of(1)
	got := []time.Duration{
		o.Enter(1, 10000, r), o.Enter(1, 11300, r), o.Enter(1, 13600, r),
		o.Exit(1, 18600, fig4Cost.Of(0), r), o.Exit(1, 19900, fig4Cost.Of(2), r), o.Exit(1, 20700, fig4Cost.Of(4), r),
	}
	want := []time.Duration{10000, 11000, 13000, 18000, 19000, 19500}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Fatalf("corrected stamps %v, want %v", got, want)
	}
	if m0, m1, m2 := got[5]-got[0], got[4]-got[1], got[3]-got[2]; m0 != fig4[2].Corrected(fig4Cost) ||
		m1 != fig4[1].Corrected(fig4Cost) || m2 != fig4[0].Corrected(fig4Cost) {
		t.Errorf("inclusive from the timeline: M0 %v M1 %v M2 %v", m0, m1, m2)
	}
	// Another thread is untouched by this one's reads.
	if got := o.Enter(2, 15000, 0); got != 15000 {
		t.Errorf("thread 2 enter = %v", got)
	}
	// A deduction larger than the gap does not move time backwards.
	o2 := NewOverheadTimeline()
	a := o2.Enter(1, 100, 0)
	b := o2.Exit(1, 150, 1000, 0)
	if a != 100 || b != 100 {
		t.Errorf("clamped stamps %v %v", a, b)
	}
}

// Seed 002 §4.2.2: an application probe costs 0.488 ms and a framework probe 0.631 ms, deducted
// "according to the number of probes in methods". A method measured at 2.000 ms that called one
// instrumented application method and one instrumented framework method corrects to
// 2.000 − 0.488 − 0.631 = 0.881 ms. Its leaf callees fire no probe inside themselves: nothing
// to deduct. Three app probes inside a 1.2 ms span would be 1.464 ms: corrected to 0.
func TestRMPProbeDeduction(t *testing.T) {
	if SeedProbeCost.App != 488*time.Microsecond || SeedProbeCost.Framework != 631*time.Microsecond {
		t.Fatalf("seed costs = %+v", SeedProbeCost)
	}
	parent := ProbeSpan{Start: 0, End: 2 * time.Millisecond, NestedApp: 1, NestedFramework: 1}
	if d, c := parent.Deduction(SeedProbeCost), parent.Corrected(SeedProbeCost); d != 1119*time.Microsecond || c != 881*time.Microsecond {
		t.Errorf("deduction %v, corrected %v; want 1.119ms, 881µs", d, c)
	}
	leaf := ProbeSpan{Start: 100 * time.Microsecond, End: 400 * time.Microsecond}
	if leaf.Corrected(SeedProbeCost) != 300*time.Microsecond {
		t.Errorf("leaf corrected %v", leaf.Corrected(SeedProbeCost))
	}
	short := ProbeSpan{End: 1200 * time.Microsecond, NestedApp: 3}
	if short.Corrected(SeedProbeCost) != 0 {
		t.Errorf("over-deduction %v", short.Corrected(SeedProbeCost))
	}
	if got := SeedProbeCost.Deduction(math.MaxInt64/2, 3); got != math.MaxInt64 {
		t.Errorf("saturation %v", got)
	}
	// The seed's calibration of that cost (same paragraph): a method calling an instrumented
	// child, minus the same method calling the child with its probe statements removed. With
	// 1.709 ms and 1.221 ms that difference is the 0.488 ms above.
	if with, without := 1709*time.Microsecond, 1221*time.Microsecond; with-without != SeedProbeCost.App {
		t.Error("calibration arithmetic")
	}
}

// Seed 002 table 2 ("error rate" = |profiled − System.nanoTime()| / nanoTime) and seed 003
// equations 1 and 2 use the same ratio. Every printed RMP and debug-class rate follows from the
// table's times except one: addObserver's RMP time 1.167 ms against 1.221 ms is 4.42 %, printed
// as 0.04 (the seed's "24 times lower" average of 4.93 % uses 0.04).
func TestRelativeErrorSeed002Table2(t *testing.T) {
	ms := func(f float64) time.Duration { return time.Duration(f * 1e6) }
	for _, c := range []struct {
		name             string
		profiled, nano   float64
		wantPercentTimes float64 // rate × 100, rounded to 2 decimals as printed
	}{
		{"onPause RMP", 15.562, 14.518, 7.19},
		{"resetLockcon RMP", 1.282, 1.312, 2.29},
		{"buildTitleUrl RMP", 1.177, 1.068, 10.21},
		{"addObserver RMP (printed 0.04)", 1.167, 1.221, 4.42},
		{"onPause debug", 8.25, 14.518, 43.17},
		{"addObserver debug", 2.417, 1.221, 97.95},
		{"resetLockcon debug", 2.099, 1.312, 59.98},
		{"buildTitleUrl debug", 4.061, 1.068, 280.24},
	} {
		got := math.Abs(RelativeError(ms(c.profiled), ms(c.nano))) * 100
		if math.Round(got*100)/100 != c.wantPercentTimes {
			t.Errorf("%s: %.4f %%, want %.2f", c.name, got, c.wantPercentTimes)
		}
	}
}

// A thread-level span (run, 10 ms) holding a method span (4 ms) that holds a framework method
// span (1 ms) and a loop (2 ms); the method calls itself once (recursion, 0.5 ms).
// Nested probes: run has 4 inside (3 app: method, recursive method, loop; 1 framework), so
// 10 − 3 × 0.488 − 0.631 = 7.905 ms; the method has 3 inside (2 app, 1 framework):
// 4 − 0.976 − 0.631 = 2.393 ms; leaves keep their time.
// Per resolution only outer spans count: the method level is 2.393 ms, not 2.393 + 0.5.
func TestRMPProfileResolutions(t *testing.T) {
	ms := func(f float64) time.Duration { return time.Duration(f * 1e6) }
	spans := []ProbeSpan{
		{TID: 1, Probe: 4, Name: "a.W.m#1", Resolution: ResolutionLoop, Kind: AppProbe, Start: ms(2), End: ms(4), Outer: true},
		{TID: 1, Probe: 5, Name: "android.view.View.draw", Resolution: ResolutionMethod, Kind: FrameworkProbe, Start: ms(4), End: ms(5)},
		{TID: 1, Probe: 3, Name: "a.W.m", Resolution: ResolutionMethod, Kind: AppProbe, Start: ms(5), End: ms(5.5)},
		{TID: 1, Probe: 3, Name: "a.W.m", Resolution: ResolutionMethod, Kind: AppProbe, Start: ms(1), End: ms(5), NestedApp: 2, NestedFramework: 1, Outer: true},
		{TID: 1, Probe: 2, Name: "a.W.run", Resolution: ResolutionThread, Kind: AppProbe, Start: 0, End: ms(10), NestedApp: 3, NestedFramework: 1, Outer: true},
		{TID: 1, Probe: 1, Name: "a.Main.onCreate", Resolution: ResolutionProcess, Kind: AppProbe, Start: ms(20), End: ms(23), Outer: true},
		{TID: 1, Probe: 6, Name: "a.Main.onDestroy", Resolution: ResolutionProcess, Kind: AppProbe, Start: ms(30), End: ms(31), Outer: true},
	}
	p := NewRMPProfile(SeedProbeCost)
	for _, s := range spans {
		p.Add(s)
	}
	if got := p.Probes[2].Corrected; got != ms(7.905) {
		t.Errorf("run corrected %v", got)
	}
	if got := *p.Probes[3]; got.Calls != 2 || got.Measured != ms(4.5) || got.Corrected != ms(2.393)+ms(0.5) {
		t.Errorf("method row %+v", got)
	}
	if got := p.Resolutions[ResolutionMethod]; got.Calls != 1 || got.Corrected != ms(2.393) {
		t.Errorf("method level %+v", got)
	}
	if got := p.Resolutions[ResolutionThread]; got.Corrected != ms(7.905) {
		t.Errorf("thread level %+v", got)
	}
	// Process level: the activity is onCreate + onDestroy (seed 002 §3.2), 3 + 1 = 4 ms.
	if got := p.Components["a.Main"]; got == nil || got.Calls != 2 || got.Corrected != ms(4) {
		t.Errorf("component %+v", got)
	}
	hot := p.Hotspots(ResolutionMethod, 0, 0)
	if len(hot) != 2 || hot[0].Probe != 3 || hot[1].Probe != 5 {
		t.Errorf("hotspots %+v", hot)
	}
	// The seed's rule "execution time over than one sec and executing times over than five"
	// (§3.4) keeps nothing here; "at least 2 calls" keeps only the recursive method.
	if h := p.Hotspots(0, time.Second, 5); len(h) != 0 {
		t.Errorf("1 s / 5 calls kept %+v", h)
	}
	if h := p.Hotspots(0, 0, 2); len(h) != 1 || h[0].Name != "a.W.m" {
		t.Errorf("2 calls kept %+v", h)
	}
}

// The timeline form of the RMP deduction: half a probe before each entry stamp, half after
// each exit stamp. run (app) calls m (app), which calls draw (framework).
//
//	run in   0           shift 0 (outside every call)  → 0
//	m in     1.000 ms    shift 0.244                   → 0.756
//	draw in  2.000       shift 0.244 + 0.3155          → 1.4405
//	draw out 3.000       − 0.5595 − 0                  → 2.4405, then shift 0.5595 + 0.3155 = 0.875
//	m out    5.000       − 0.244 − 0.631               → 4.125,  then shift 0.244 + 0.631 + 0.244 = 1.119
//	run out  10.000      − 0 − 1.119                   → 8.881
//
// m's inclusive 4.125 − 0.756 = 3.369 = 4.000 − 0.631 (one framework probe inside); run's
// 8.881 = 10 − 0.488 − 0.631 (one application and one framework probe inside).
func TestOverheadTimelineRMP(t *testing.T) {
	ms := func(f float64) time.Duration { return time.Duration(f*1e6 + 0.5) }
	half := func(d time.Duration) (time.Duration, time.Duration) { return d / 2, d - d/2 }
	ab, aa := half(SeedProbeCost.App)
	fb, fa := half(SeedProbeCost.Framework)
	o := NewOverheadTimeline()
	got := []time.Duration{
		o.Enter(1, ms(0), ab), o.Enter(1, ms(1), ab), o.Enter(1, ms(2), fb),
		o.Exit(1, ms(3), 0, fa), o.Exit(1, ms(5), SeedProbeCost.Deduction(0, 1), aa),
		o.Exit(1, ms(10), SeedProbeCost.Deduction(1, 1), aa),
	}
	want := []time.Duration{0, ms(0.756), ms(1.4405), ms(2.4405), ms(4.125), ms(8.881)}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("corrected %v, want %v", got, want)
	}
}

// Seed 002 figure 3: threads Ta and Tb both call M1, which calls M2; Ta is in the caller filter.
// (b) Ta's M1 and M2 are profiled; (c) Tb's are not. Here Tb runs while Ta is inside M1, the
// case a single name set for all threads would get wrong (M2's caller M1 is in the filter).
func TestAreaFilterFigure3(t *testing.T) {
	f := NewAreaFilter(ProfilingArea{Callers: []string{"Ta"}})
	const ta, tb = 1, 2
	steps := []struct {
		tid          int
		enter        bool
		name, caller string
		want         bool
	}{
		{ta, true, "M1", "Ta", true},  // b2: caller Ta is in the filter; M1 joins it
		{tb, true, "M1", "Tb", false}, // c2: Tb is not
		{tb, true, "M2", "M1", false}, // c3: M1 is in Ta's filter, not Tb's
		{ta, true, "M2", "M1", true},  // b3
		{tb, false, "M2", "", false},
		{tb, false, "M1", "", false},
		{ta, false, "M2", "", true},
		{ta, false, "M1", "", true}, // M1 leaves the filter ("when the method is finished")
		{ta, true, "M2", "M1", false},
	}
	for i, s := range steps {
		var got bool
		if s.enter {
			got = f.Enter(s.tid, s.name, s.caller, ResolutionMethod)
		} else {
			var err error
			if got, err = f.Exit(s.tid); err != nil {
				t.Fatal(err)
			}
		}
		if got != s.want {
			t.Errorf("step %d (%+v): got %v", i, s, got)
		}
	}
	if _, err := NewAreaFilter(ProfilingArea{}).Exit(9); err != ErrUnbalanced {
		t.Errorf("exit on an idle thread: %v", err)
	}
}

// Recursion: Ta → M1 → M1 (recursive) returns, then the outer M1 calls M2, which must still be
// profiled: the inner M1's return takes one M1 out of the filter, not the name.
func TestAreaFilterRecursion(t *testing.T) {
	f := NewAreaFilter(ProfilingArea{Callers: []string{"Ta"}})
	f.Enter(1, "M1", "Ta", ResolutionMethod)
	if !f.Enter(1, "M1", "M1", ResolutionMethod) {
		t.Fatal("recursive M1 not profiled")
	}
	f.Exit(1)
	if !f.Enter(1, "M2", "M1", ResolutionMethod) {
		t.Error("M2 after the inner M1 returned was dropped")
	}
}

// Seed 002 §3.3–3.4 zoom steps. Thread i's run() is a.W.run; it calls method k (a.W.k), which
// calls method j (a.W.j); k has loop a.W.k#1, j has loop a.W.j#1.
//   - method level of thread i, root a.W.run: k and j (j's caller k joined the filter), no loops;
//   - loop level in method k, root a.W.k: only k's loop. j is off at loop level, so it never
//     joins the filter and j's loop stays out ("the profiling area can be limited in the method
//     k by the caller filter");
//   - every resolution under k: j, both loops.
func TestAreaFilterZoom(t *testing.T) {
	type ev struct {
		enter        bool
		name, caller string
		res          ProbeResolution
	}
	run := []ev{
		{true, "a.W.run", "java.lang.Thread.run", ResolutionThread},
		{true, "a.W.k", "a.W.run", ResolutionMethod},
		{true, "a.W.k#1", "a.W.k", ResolutionLoop},
		{true, "a.W.j", "a.W.k", ResolutionMethod},
		{true, "a.W.j#1", "a.W.j", ResolutionLoop},
		{false, "a.W.j#1", "", 0}, {false, "a.W.j", "", 0}, {false, "a.W.k#1", "", 0},
		{false, "a.W.k", "", 0}, {false, "a.W.run", "", 0},
	}
	for _, c := range []struct {
		area ProfilingArea
		want string
	}{
		{ProfilingArea{Resolution: ResolutionMethod, Callers: []string{"a.W.run"}}, "[a.W.k a.W.j]"},
		{ProfilingArea{Resolution: ResolutionLoop, Callers: []string{"a.W.k"}}, "[a.W.k#1]"},
		{ProfilingArea{Callers: []string{"a.W.k"}}, "[a.W.k#1 a.W.j a.W.j#1]"},
		{ProfilingArea{Resolution: ResolutionThread}, "[a.W.run]"},
	} {
		f := NewAreaFilter(c.area)
		var kept []string
		var open []string
		for _, e := range run {
			if e.enter {
				open = append(open, e.name)
				if f.Enter(7, e.name, e.caller, e.res) {
					kept = append(kept, e.name)
				}
				continue
			}
			name := open[len(open)-1]
			open = open[:len(open)-1]
			k, err := f.Exit(7)
			if err != nil {
				t.Fatal(err)
			}
			if k != contains(kept, name) {
				t.Errorf("%+v: exit of %s kept=%v, entry kept=%v", c.area, name, k, !k)
			}
		}
		if fmt.Sprint(kept) != c.want {
			t.Errorf("%+v: kept %v, want %s", c.area, kept, c.want)
		}
	}
}

func contains(s []string, x string) bool {
	for _, v := range s {
		if v == x {
			return true
		}
	}
	return false
}

func TestProbeNames(t *testing.T) {
	for _, s := range []string{"process", "thread", "method", "loop"} {
		r, err := ParseProbeResolution(s)
		if err != nil || r.String() != s {
			t.Errorf("%s: %v %v", s, r, err)
		}
	}
	if _, err := ParseProbeResolution("statement"); err == nil {
		t.Error("statement accepted")
	}
	for _, s := range []string{"app", "framework"} {
		k, err := ParseProbeKind(s)
		if err != nil || k.String() != s {
			t.Errorf("%s: %v %v", s, k, err)
		}
	}
	if _, err := ParseProbeKind("core"); err == nil {
		t.Error("core accepted")
	}
	if ComponentOf("com.android.browser.BrowserActivity.onCreate") != "com.android.browser.BrowserActivity" || ComponentOf("x") != "x" {
		t.Error("ComponentOf")
	}
}
