package calls

import (
	"cmp"
	"slices"
)

// SpanKeeper keeps the calls a timeline can show: as a trace streams, it keeps the longest calls
// and raises its threshold whenever it holds twice its budget, so memory stays bounded however
// many calls a trace has, and every call it keeps is at least Min long.
//
// Calls that tie are cut so that the cost stays linear in calls: when more calls than the
// budget tie for the longest, the timeline shows the budget's first of them to end (being
// equally long, also the first to start), Min is their length and later calls of that length
// are dropped as they come. Calls that tie at a cut below the longest are dropped together (Min
// rises above them), so apart from calls exactly Min long beyond the budget, every call at least
// Min long is shown.
type SpanKeeper struct {
	Budget int    // calls to keep at most; 0 means 20,000 (a timeline shows a few thousand per thread)
	Min    uint64 // current threshold in µs: shorter calls are dropped
	calls  []Call
	atMin  int // calls kept that are exactly Min long: more than a budget of them are dropped
}

func spanLength(c Call) uint64 {
	if c.EndWall > c.StartWall {
		return c.EndWall - c.StartWall
	}
	if c.EndCPU > c.StartCPU {
		return c.EndCPU - c.StartCPU
	}
	return 0
}

func (k *SpanKeeper) budget() int {
	if k.Budget <= 0 {
		return 20_000
	}
	return k.Budget
}

// Add offers one finished call; use it as CallBuilder.OnCall.
func (k *SpanKeeper) Add(c Call) {
	n := spanLength(c)
	if n == 0 || n < k.Min || n == k.Min && k.atMin >= k.budget() {
		return
	}
	if n == k.Min {
		k.atMin++
	}
	k.calls = append(k.calls, c)
	if len(k.calls) >= 2*k.budget() {
		k.trim(k.budget())
	}
}

// trim keeps the budget's longest calls and raises Min to the shortest of them; when those tie
// with the longest call, it keeps the first budget of them to end.
func (k *SpanKeeper) trim(budget int) {
	lengths := make([]uint64, len(k.calls))
	for i, c := range k.calls {
		lengths[i] = spanLength(c)
	}
	slices.Sort(lengths)
	cut, longest := lengths[len(lengths)-budget], lengths[len(lengths)-1]
	k.Min = cut + 1
	if cut == longest {
		k.Min = longest // all tie: keep a budget of them rather than none
	}
	kept := k.calls[:0]
	k.atMin = 0
	for _, c := range k.calls {
		n := spanLength(c)
		if n < k.Min || n == k.Min && k.atMin == budget {
			continue
		}
		if n == k.Min {
			k.atMin++
		}
		kept = append(kept, c)
	}
	k.calls = kept
}

// Calls returns what was kept, in the order the calls ended.
func (k *SpanKeeper) Calls() []Call { return k.calls }

// Longest returns at most the budget's longest calls, in the order they ended, and raises Min
// to the shortest kept: what a timeline shows when a window holds more calls than it draws.
func (k *SpanKeeper) Longest() []Call {
	if len(k.calls) > k.budget() {
		k.trim(k.budget())
	}
	return k.calls
}

// TimelineWindow is what a timeline draws of a window: every call in it, or, when it holds
// more than the timeline asked for, the longest ones, and it says which.
type TimelineWindow struct {
	Calls []Call // by start on the timeline clock (wall, else thread-CPU); by thread first when several
	// Every is true when Calls holds every call of the window; otherwise only calls at least
	// MinMicros long on the timeline clock are in it (and not all of them when they tie).
	Every     bool
	MinMicros uint64
	// OnlySpans is true for a run imported before every call was kept (calls.ErrOnlySpans):
	// re-importing it lets the timeline show every call.
	OnlySpans bool
}

// WindowKeeper gathers what a timeline draws of a window: every call while they number at most
// Limit, then the Limit's longest (through a SpanKeeper), so memory stays bounded however wide
// the window.
type WindowKeeper struct {
	Limit   int    // ≤ 0: keep every call
	Min     uint64 // calls offered are at least this long (a run's span threshold), 0 if any
	all     []Call
	longest *SpanKeeper
}

// Add offers one call of the window.
func (w *WindowKeeper) Add(c Call) {
	if w.longest != nil {
		w.longest.Add(c)
		return
	}
	w.all = append(w.all, c)
	if w.Limit > 0 && len(w.all) > w.Limit {
		w.longest = &SpanKeeper{Budget: w.Limit, Min: w.Min}
		for _, c := range w.all {
			w.longest.Add(c)
		}
		w.all = nil
	}
}

// Window is what was kept, by thread and start on the timeline clock (wall when wall is true,
// else thread-CPU).
func (w *WindowKeeper) Window(wall bool) TimelineWindow {
	tw := TimelineWindow{Calls: w.all, Every: true, MinMicros: w.Min}
	if w.longest != nil {
		tw.Calls, tw.Every, tw.MinMicros = w.longest.Longest(), false, w.longest.Min
	}
	start := func(c Call) uint64 {
		if wall {
			return c.StartWall
		}
		return c.StartCPU
	}
	slices.SortStableFunc(tw.Calls, func(a, b Call) int {
		if a.TID != b.TID {
			return a.TID - b.TID
		}
		return cmp.Compare(start(a), start(b))
	})
	return tw
}
