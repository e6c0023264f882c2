package ui

import (
	"math"
	"testing"

	"androprof/controller"
	"androprof/model/flame"
)

// The diff table says changes as `androprof diff` does: signed points, "unknown" when a run has
// no time, differences grouped with their sign, and a deep path by its last two frames.
func TestDiffTableText(t *testing.T) {
	for _, c := range []struct{ got, want string }{
		{controller.DiffPointsText(0.015), "+1.50"}, {controller.DiffPointsText(-0.00004), "-0.00"}, {controller.DiffPointsText(math.NaN()), "unknown"},
		{signedGrouped(-743690), "-743 690"}, {signedGrouped(5620), "+5 620"}, {signedGrouped(0), "+0"},
		{pointsWord(1), "1 point"}, {pointsWord(2.5), "2.5 points"}, {pointsWord(0), "0 points"},
		{controller.DiffRowName(flame.DiffRow{Key: "a;b;c", Path: []string{"a", "b", "c"}}), "…;b;c"},
		{controller.DiffRowName(flame.DiffRow{Key: "a;b", Path: []string{"a", "b"}}), "a;b"},
	} {
		if c.got != c.want {
			t.Errorf("got %q, want %q", c.got, c.want)
		}
	}
}
