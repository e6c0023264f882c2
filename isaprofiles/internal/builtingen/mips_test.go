package builtingen

import (
	"math"
	"strings"
	"testing"
)

// TestCoreMarkCPI74K redoes the arithmetic of the 74K's CPI from the figures its citation gives,
// so the constant, the counts and the text cannot drift apart.
func TestCoreMarkCPI74K(t *testing.T) {
	const coremarkPerMHz, insns10, insns30 = 3.48, 3109124, 9223719
	perIteration := float64(insns30-insns10) / 20
	cpi := math.Round(1e6/coremarkPerMHz/perIteration*100) / 100
	if perIteration != 305729.75 || cpi != coremarkCPI74K {
		t.Errorf("%v instructions per iteration, CPI %v; the table says 305729.75 and %v", perIteration, cpi, coremarkCPI74K)
	}
	for _, figure := range []string{"3.48 CoreMark/MHz", "3,109,124", "9,223,719", "305,729.75", "= 0.94"} {
		if !strings.Contains(cpi74K, figure) {
			t.Errorf("the CPI citation does not give %q", figure)
		}
	}
}
