package ui

import (
	"math"
	"testing"

	"androprof/model/flame"
)

// The diff table says changes as `androprof diff` does: signed points, "unknown" when a run has
// no time, differences grouped with their sign, and a deep path by its last two frames.
func TestDiffTableText(t *testing.T) {
	for _, c := range []struct{ got, want string }{
		{DiffPoints(1.5), "+1.50"}, {DiffPoints(-0.004), "-0.00"}, {DiffPoints(math.NaN()), "unknown"},
		{signedGrouped(-743690), "-743 690"}, {signedGrouped(5620), "+5 620"}, {signedGrouped(0), "+0"},
		{pointsWord(1), "1 point"}, {pointsWord(2.5), "2.5 points"}, {pointsWord(0), "0 points"},
		{DiffRowName(flame.DiffRow{Key: "a;b;c", Path: []string{"a", "b", "c"}}), "…;b;c"},
		{DiffRowName(flame.DiffRow{Key: "a;b", Path: []string{"a", "b"}}), "a;b"},
	} {
		if c.got != c.want {
			t.Errorf("got %q, want %q", c.got, c.want)
		}
	}
}
