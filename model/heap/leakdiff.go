package heap

import (
	"cmp"
	"slices"
	"strings"
)

// LeakGrowth is one leak (suspects of one Signature) in two dumps of a program, before and
// after: how many leaking objects it holds (each suspect and those it also retains; none for
// an accumulation point), and what they retain.
type LeakGrowth struct {
	Rule, Class, Signature        string
	Before, After                 int
	RetainedBefore, RetainedAfter uint64
	Example                       LeakSuspect // the largest suspect of the after dump
}

// GrownLeaks are the leaks that grew from one dump to the next: more leaking objects of a
// pattern, or an accumulation point that retains more; most retained growth first.
func GrownLeaks(before, after []LeakSuspect) []LeakGrowth {
	rows := map[string]*LeakGrowth{}
	add := func(s LeakSuspect, isAfter bool) {
		g := rows[s.Signature]
		if g == nil {
			g = &LeakGrowth{Rule: s.Rule, Class: s.Class, Signature: s.Signature}
			rows[s.Signature] = g
		}
		if !isAfter {
			g.Before += 1 + s.Also
			g.RetainedBefore += s.Retained
			return
		}
		g.After += 1 + s.Also
		g.RetainedAfter += s.Retained
		if g.Example.Trace == nil || s.Retained > g.Example.Retained {
			g.Example = s
		}
	}
	for _, s := range before {
		add(s, false)
	}
	for _, s := range after {
		add(s, true)
	}
	var out []LeakGrowth
	for _, g := range rows {
		if g.Rule == AccumulationRule && g.RetainedAfter > g.RetainedBefore || g.Rule != AccumulationRule && g.After > g.Before {
			out = append(out, *g)
		}
	}
	slices.SortFunc(out, func(a, b LeakGrowth) int {
		return cmp.Or(cmp.Compare(b.RetainedAfter-min(b.RetainedAfter, b.RetainedBefore), a.RetainedAfter-min(a.RetainedAfter, a.RetainedBefore)),
			cmp.Compare(b.After-b.Before, a.After-a.Before), strings.Compare(a.Signature, b.Signature))
	})
	return out
}
