package model

import "slices"

// SpanKeeper keeps the calls a timeline can show: as a trace streams, it keeps the longest calls
// and raises its threshold whenever it holds twice its budget, so memory stays bounded however
// many calls a trace has, and every call it keeps is at least Min long.
type SpanKeeper struct {
	Budget int    // calls to keep at most; 0 means 20,000 (a timeline shows a few thousand per thread)
	Min    uint64 // current threshold in µs: shorter calls are dropped
	calls  []Call
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

// Add offers one finished call; use it as CallBuilder.OnCall.
func (k *SpanKeeper) Add(c Call) {
	if spanLength(c) < k.Min || spanLength(c) == 0 {
		return
	}
	k.calls = append(k.calls, c)
	budget := k.Budget
	if budget <= 0 {
		budget = 20_000
	}
	if len(k.calls) >= 2*budget {
		k.trim(budget)
	}
}

// trim keeps the budget's longest calls and raises Min to the shortest of them.
func (k *SpanKeeper) trim(budget int) {
	lengths := make([]uint64, len(k.calls))
	for i, c := range k.calls {
		lengths[i] = spanLength(c)
	}
	slices.Sort(lengths)
	k.Min = lengths[len(lengths)-budget] + 1
	if lengths[len(lengths)-budget] == lengths[len(lengths)-1] {
		k.Min = lengths[len(lengths)-1] // all equal: keep them rather than none
	}
	kept := k.calls[:0]
	for _, c := range k.calls {
		if spanLength(c) >= k.Min {
			kept = append(kept, c)
		}
	}
	k.calls = kept
}

// Calls returns what was kept, in the order the calls ended.
func (k *SpanKeeper) Calls() []Call { return k.calls }
