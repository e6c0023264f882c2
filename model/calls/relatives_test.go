package calls

import (
	"reflect"
	"testing"
)

// A calls B, which calls A again, which calls B again (thread 1, times in µs on both clocks):
//
//	A 0→10 ─ B 1→8 ─ A 2→6 ─ B 3→5
//
// and thread 2 makes one plain call A 0→4 ─ B 1→3. By dmtracedump's rules (addInclusiveTime):
// the inner B is nested in an outer B (a recursive parent row for B) and its caller, the inner A,
// has an A below it (a recursive child row for A); the inner A is nested in the outer A, but its
// caller, the outer B, is alone on the stack, so for B it is a plain child.
func TestRelativesKeepRecursionApart(t *testing.T) {
	p, _ := build(t, []ev{
		{1, Enter, mA, 0, 0}, {1, Enter, mB, 1, 1}, {1, Enter, mA, 2, 2}, {1, Enter, mB, 3, 3},
		{1, Exit, mB, 5, 5}, {1, Exit, mA, 6, 6}, {1, Exit, mB, 8, 8}, {1, Exit, mA, 10, 10},
		{2, Enter, mA, 0, 0}, {2, Enter, mB, 1, 1}, {2, Exit, mB, 3, 3}, {2, Exit, mA, 4, 4},
	}, testMethods...)
	rec := RecursiveEdges(p.Tree)
	rel := func(id uint64, calls, total int64, us uint64, recursive bool) Relative {
		return Relative{Method: id, Name: MethodName(p.Methods[id]), Readable: ReadableName(p.Methods[id]), EdgeTimes: EdgeTimes{calls, us, us}, TotalCalls: total, Recursive: recursive}
	}
	for _, tc := range []struct {
		method            uint64
		tid               int
		parents, children []Relative
	}{
		{mB, 1, []Relative{rel(mA, 1, 2, 7, false), rel(mA, 1, 2, 2, true)}, []Relative{rel(mA, 1, 2, 4, false)}},
		{mA, 1, []Relative{rel(TopLevelMethod, 1, 2, 10, false), rel(mB, 1, 2, 4, true)},
			[]Relative{rel(mB, 1, 2, 7, false), rel(mB, 1, 2, 2, true)}},
		{mB, 2, []Relative{rel(mA, 1, 1, 2, false)}, []Relative{}},
		// Both threads: the plain rows add up, the recursive ones stay apart.
		{mB, 0, []Relative{rel(mA, 2, 3, 9, false), rel(mA, 1, 3, 2, true)}, []Relative{rel(mA, 1, 3, 4, false)}},
	} {
		parents, children := p.Relatives(p.Edges, rec, tc.method, tc.tid)
		if !reflect.DeepEqual(parents, tc.parents) || !reflect.DeepEqual(children, tc.children) {
			t.Errorf("%#x on thread %d:\n parents  %+v\n want     %+v\n children %+v\n want     %+v", tc.method, tc.tid, parents, tc.parents, children, tc.children)
		}
	}
	if got := p.MethodOn(mB, 0); got.Calls != 2 || got.RecursiveCalls != 1 || got.InclusiveCPU != 9 {
		t.Errorf("B on both threads: %+v", got)
	}
}

// FindMethod takes the names people type: the full name, class and name with dots or slashes,
// or a unique part; it lists what an ambiguous name could mean.
func TestFindMethod(t *testing.T) {
	p, _ := build(t, []ev{{1, Enter, mA, 0, 0}, {1, Exit, mA, 1, 1}}, testMethods...)
	for name, want := range map[string]uint64{"p/q/X.a": mA, "p.q.X.b": mB, "Y.c": mC} {
		if id, err := p.FindMethod(name); err != nil || id != want {
			t.Errorf("%q: %#x, %v", name, id, err)
		}
	}
	if _, err := p.FindMethod("p/q/X"); err == nil {
		t.Errorf("a class names several methods: no error")
	}
	if _, err := p.FindMethod("nothing"); err == nil {
		t.Errorf("no such method: no error")
	}
}
