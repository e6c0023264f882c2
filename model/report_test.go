package model

import (
	"fmt"
	"testing"
)

func TestTopN(t *testing.T) {
	list := []int{5, 1, 9, 3, 7, 9, 2, 8}
	desc := func(a, b int) int { return b - a }
	if got := topN(list, 3, desc); fmt.Sprint(got) != "[9 9 8]" {
		t.Errorf("topN = %v", got)
	}
	if got := topN(list, 8, desc); fmt.Sprint(got) != "[9 9 8 7 5 3 2 1]" {
		t.Errorf("topN all = %v", got)
	}
}

func TestRadixSortDesc(t *testing.T) {
	type item struct {
		v   float64
		pos int
	}
	list := []item{{3, 0}, {0, 1}, {1e300, 2}, {3, 3}, {0.5, 4}, {0, 5}, {2.5e-300, 6}}
	radixSortDesc(list, func(i item) float64 { return i.v })
	if got := fmt.Sprint(list); got != "[{1e+300 2} {3 0} {3 3} {0.5 4} {2.5e-300 6} {0 1} {0 5}]" {
		t.Errorf("sorted = %s", got)
	}
}
