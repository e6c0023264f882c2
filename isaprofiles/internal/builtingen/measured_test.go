package builtingen

import (
	"strings"
	"testing"
)

// Horowitz's figures are returned at their sizes, interpolated in log2(size) between them, and
// refused outside 8 KB–1 MB.
func TestHorowitzPJ(t *testing.T) {
	for _, tc := range []struct {
		size int64
		pj   float64
		ok   bool
	}{
		{8 << 10, 10, true}, {16 << 10, 15, true}, {24 << 10, 17.9, true}, {32 << 10, 20, true},
		{64 << 10, 36, true}, {256 << 10, 68, true}, {1 << 20, 100, true},
		{4 << 10, 0, false}, {3 << 20, 0, false},
	} {
		if pj, ok := horowitzPJ(tc.size); pj != tc.pj || ok != tc.ok {
			t.Errorf("horowitzPJ(%d) = %v, %v; want %v, %v", tc.size, pj, ok, tc.pj, tc.ok)
		}
	}
}

// A miss cost read from a ramlat run is the difference of two rows at the given clock, and its
// text names both rows, the difference and the clock.
func TestRamlatMiss(t *testing.T) {
	cycles, text := rock5BA76.miss("4k", "an L1 hit", "128k", "an L2 hit", 2.4)
	if cycles != 8.65 {
		t.Errorf("cycles = %v, want (5.326 − 1.721) × 2.4 = 8.65", cycles)
	}
	for _, want := range []string{"results/4qJr.txt", "1.721 ns with a 4 KB buffer", "5.326 ns with a 128 KB buffer",
		"3.605 ns more", "8.65 cycles at 2.4 GHz", "column 1xPTR"} {
		if !strings.Contains(text, want) {
			t.Errorf("text lacks %q:\n%s", want, text)
		}
	}
}

// A level beyond Horowitz's range keeps an unknown energy with a note saying why.
func TestWithHorowitzUnknown(t *testing.T) {
	l := level("l3", 3<<20, 12, 64, "lru", true, src("x")).withHorowitz("8 nm")
	if l.AccessEnergyNJ != 0 || len(l.Energy) != 1 || !strings.Contains(l.Energy[0].Text, "none is extrapolated") {
		t.Errorf("3 MB level: energy %v, notes %+v", l.AccessEnergyNJ, l.Energy)
	}
}
