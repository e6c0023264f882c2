package cost

import (
	"fmt"
	"math"
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

// A ratio to a first item that has nothing (0 instructions, cycles or energy), or whose energy
// is unknown, is unknown (NaN), never 0: "0.000 times the base" reads as a fact.
func TestCompareRowsRatioToNothingIsUnknown(t *testing.T) {
	items := []CompareItem{{Run: "empty"}, {Run: "full"}, {Run: "unpowered"}}
	known := Coverage{Instructions: 10}
	reps := []*Report{
		{Profile: "p", Coverage: Coverage{}},
		{Profile: "p", Coverage: known, Total: ReportRow{Instructions: 10, Cycles: 20, EnergyJ: 1}},
		{Profile: "p", Coverage: Coverage{Instructions: 10, UnknownPower: 10}, Total: ReportRow{Instructions: 10, Cycles: 20}},
	}
	rows := CompareRows(items, reps)
	for _, r := range rows {
		if !math.IsNaN(r.InstructionRatio) || !math.IsNaN(r.CycleRatio) || !math.IsNaN(r.EnergyRatio) {
			t.Errorf("%s: ratios to nothing %v %v %v, want NaN", r.Item, r.InstructionRatio, r.CycleRatio, r.EnergyRatio)
		}
	}
	rows = CompareRows(items[1:], reps[1:])
	if rows[1].InstructionRatio != 1 || rows[1].CycleRatio != 1 || !math.IsNaN(rows[1].EnergyRatio) || rows[0].EnergyRatio != 1 {
		t.Errorf("ratios to a full base: %+v", rows)
	}
}
