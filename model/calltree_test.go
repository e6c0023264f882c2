package model

import (
	"fmt"
	"testing"
)

// main(1) calls a(2) twice; the second a calls b(3); then main calls b directly. Calls arrive
// as CallBuilder finishes them: children first.
func TestCallTreeMergesByPath(t *testing.T) {
	var tree CallTree
	for _, c := range []Call{
		{TID: 1, Method: 2, Depth: 1, ExclusiveCPU: 5},
		{TID: 1, Method: 3, Depth: 2, ExclusiveCPU: 7},
		{TID: 1, Method: 2, Depth: 1, ExclusiveCPU: 1},
		{TID: 1, Method: 3, Depth: 1, ExclusiveCPU: 4},
		{TID: 1, Method: 1, Depth: 0, ExclusiveCPU: 10},
		{TID: 2, Method: 9, Depth: 3, ExclusiveCPU: 2}, // its callers never finished
	} {
		tree.Add(c)
	}
	got := map[string]string{}
	for _, n := range tree.Nodes() {
		got[fmt.Sprint(n.TID, n.Path)] = fmt.Sprint(n.Calls, " ", n.ExclusiveCPU)
	}
	want := map[string]string{
		"1 [1]": "1 10", "1 [1 2]": "2 6", "1 [1 2 3]": "1 7", "1 [1 3]": "1 4", "2 [9]": "1 2",
	}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("nodes = %v\nwant    %v", got, want)
	}
}
