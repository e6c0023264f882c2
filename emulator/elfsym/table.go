package elfsym

import (
	"cmp"
	"slices"
	"strings"
)

// buildSpans turns function symbols into disjoint-start spans sorted by address: one name per
// address (the package comment's preference), size-0 symbols bounded, and an enclosing
// function resumed after a symbol nested in it ends.
func buildSpans(cands []cand) []span {
	slices.SortFunc(cands, func(a, b cand) int {
		if c := cmp.Compare(a.start, b.start); c != 0 {
			return c
		}
		return preferred(a, b)
	})
	// One symbol per start: the preferred name, with the largest extent any alias gives.
	syms := cands[:0]
	for _, c := range cands {
		if n := len(syms); n > 0 && syms[n-1].start == c.start {
			syms[n-1].size = max(syms[n-1].size, c.size)
			continue
		}
		syms = append(syms, c)
	}

	var out []span
	var open []span // enclosing spans, innermost last; ends strictly decrease towards the top
	// closeTo ends the open spans that end by limit, resuming the enclosing one after each.
	closeTo := func(limit uint64) {
		for len(open) > 0 && open[len(open)-1].end <= limit {
			top := open[len(open)-1]
			open = open[:len(open)-1]
			if len(open) > 0 && top.end < limit {
				outer := open[len(open)-1]
				out = append(out, span{from: top.end, end: outer.end, start: outer.start, name: outer.name})
			}
		}
	}
	for i, s := range syms {
		closeTo(s.start)
		end := s.start + s.size
		if end < s.start {
			end = ^uint64(0)
		}
		if s.size == 0 {
			end = s.secEnd
			if i+1 < len(syms) {
				end = min(end, syms[i+1].start)
			}
			if len(open) > 0 {
				end = min(end, open[len(open)-1].end)
			}
		}
		if end <= s.start {
			continue
		}
		for len(open) > 0 && open[len(open)-1].end <= end {
			open = open[:len(open)-1] // shadowed to its end: never resumes
		}
		sp := span{from: s.start, end: end, start: s.start, name: s.name}
		out = append(out, sp)
		open = append(open, sp)
	}
	closeTo(^uint64(0))
	return out
}

// preferred orders two names for one address, the one to keep first.
func preferred(a, b cand) int {
	if c := cmp.Compare(a.rank, b.rank); c != 0 {
		return c
	}
	ua := len(a.name) - len(strings.TrimLeft(a.name, "_"))
	ub := len(b.name) - len(strings.TrimLeft(b.name, "_"))
	if c := cmp.Compare(ua, ub); c != 0 {
		return c
	}
	if c := cmp.Compare(len(a.name), len(b.name)); c != 0 {
		return c
	}
	return strings.Compare(a.name, b.name)
}

// sortedUnique sorts starts and drops repeats.
func sortedUnique(starts []uint64) []uint64 {
	slices.Sort(starts)
	return slices.Compact(starts)
}
