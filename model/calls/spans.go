package calls

import "slices"

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
