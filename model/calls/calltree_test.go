package calls

import (
	"fmt"
	"testing"
)

// main(1) calls a(2) twice; the second a calls b(3); then main calls b directly. Thread 2
// exits a method (9) it never entered: an orphan, a root of its own.
func TestCallTreeMergesByPath(t *testing.T) {
	b := NewCallBuilder()
	for id := uint64(1); id <= 9; id++ {
		b.Method(MethodInfo{ID: id, Class: "C", Name: fmt.Sprint("m", id)})
	}
	b.Header(TraceHeader{Clock: ClockThreadCPU})
	for _, e := range []MethodEvent{
		{TID: 1, Method: 1, Action: Enter, ThreadCPU: 0},
		{TID: 1, Method: 2, Action: Enter, ThreadCPU: 10}, {TID: 1, Method: 2, Action: Exit, ThreadCPU: 15},
		{TID: 1, Method: 2, Action: Enter, ThreadCPU: 15},
		{TID: 1, Method: 3, Action: Enter, ThreadCPU: 16}, {TID: 1, Method: 3, Action: Exit, ThreadCPU: 23},
		{TID: 1, Method: 2, Action: Exit, ThreadCPU: 23},
		{TID: 1, Method: 3, Action: Enter, ThreadCPU: 23}, {TID: 1, Method: 3, Action: Exit, ThreadCPU: 27},
		{TID: 1, Method: 1, Action: Exit, ThreadCPU: 27},
		{TID: 2, Method: 9, Action: Exit, ThreadCPU: 2},
	} {
		if err := b.Event(e); err != nil {
			t.Fatal(err)
		}
	}
	got := map[string]string{}
	tree := b.Finish().Tree
	for i, n := range tree {
		got[fmt.Sprint(n.TID, CallPath(tree, i))] = fmt.Sprint(n.Calls, " ", n.ExclusiveCPU)
	}
	want := map[string]string{
		"1 [1]": "1 10", "1 [1 2]": "2 6", "1 [1 2 3]": "1 7", "1 [1 3]": "1 4", "2 [9]": "1 0",
	}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("nodes = %v\nwant    %v", got, want)
	}
}
