package cost

import (
	"strings"
	"testing"
)

func TestClockNote(t *testing.T) {
	if n := ClockNote(1, 2, false); !strings.Contains(n, "measured at 1 GHz and held at 2 GHz") || !strings.Contains(n, "is 0.5× that at 1 GHz") {
		t.Errorf("1 → 2 GHz: %q", n)
	}
	if n := ClockNote(0, 2, false); !strings.Contains(n, "held whatever the clock") {
		t.Errorf("no reference: %q", n)
	}
	for _, c := range [][2]float64{{1, 1}, {1, 0}} {
		if n := ClockNote(c[0], c[1], false); n != "" {
			t.Errorf("%v: %q", c, n)
		}
	}
	if n := ClockNote(0, 1, true); n != "" {
		t.Errorf("assumed: %q", n)
	}
}
