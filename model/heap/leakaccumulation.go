package heap

import (
	"cmp"
	"fmt"
	"slices"

	"androprof/internal/human"
)

// AccumulationRule names MAT's findings among the suspects; two dumps' accumulation points are
// the same when the same class holds them (LeakSuspect.Signature).
const AccumulationRule = "accumulation point"

// accumulationPoints is MAT's leak suspects report on single objects: each object of the
// dominator tree's top level that retains more than share of the reachable heap is descended,
// to its largest child while that child holds at least 70 % of its parent; where the bytes
// spread over many children instead is the accumulation point, reported with its path.
func (s *leakScan) accumulationPoints(share float64) ([]LeakSuspect, error) {
	if share <= 0 {
		share = DefaultLeakShare
	}
	r := s.r
	threshold := uint64(share * float64(r.Reachable))
	var out []LeakSuspect
	for _, top := range r.Dominated(-1, 0) {
		if top.Retained <= threshold {
			break
		}
		acc, ok := descend(r, top)
		if !ok {
			continue
		}
		trace := s.leakTrace(r.Path(acc.Seq), false)
		if s.err != nil {
			return nil, s.err
		}
		out = append(out, LeakSuspect{Rule: AccumulationRule, Object: acc, Class: acc.ClassOf,
			Why: accumulationWhy(r, top, acc, share), Trace: trace, Retained: acc.Retained,
			Signature: AccumulationRule + " | " + javaName(top.ClassOf)})
	}
	slices.SortStableFunc(out, func(a, b LeakSuspect) int { return cmp.Compare(b.Retained, a.Retained) })
	return out, nil
}

// descend goes down the dominator tree from top while the largest child retains at least
// bigDropRatio of its parent: MAT's findAccumulationPoint (none past maxDescent levels).
func descend(r *DumpRetention, top DumpObject) (DumpObject, bool) {
	cur := top
	for range maxDescent {
		kids := r.Dominated(cur.Seq, 1)
		if len(kids) == 0 || cur.Retained == 0 || float64(kids[0].Retained) < bigDropRatio*float64(cur.Retained) {
			return cur, true
		}
		cur = kids[0]
	}
	return DumpObject{}, false
}

// accumulationWhy says what MAT's report says: who holds the share, and where it accumulates.
func accumulationWhy(r *DumpRetention, top, acc DumpObject, share float64) string {
	why := fmt.Sprintf("%s %#x retains %s of the reachable heap (%s; suspects retain more than %.0f %%)",
		JavaClassName(top.ClassOf), top.ID, percentText(top.Retained, r.Reachable), human.Bytes(top.Retained), 100*share)
	if acc.Seq != top.Seq {
		why += fmt.Sprintf("; it accumulates in one %s it dominates (%s)", JavaClassName(acc.ClassOf), human.Bytes(acc.Retained))
	}
	n, _ := r.DominatedAfter(acc.Seq, 0)
	if n == 0 {
		return why + "; it is one object, its own bytes"
	}
	largest := r.Dominated(acc.Seq, 1)[0]
	return fmt.Sprintf("%s, spread over %s it dominates, the largest of which holds %s of it", why,
		human.Count(n, "object", "objects"), percentText(largest.Retained, acc.Retained))
}
