package cost

import (
	"fmt"
	"testing"
)

// A comparison row's figure 5.2 estimate is the calculator's, at the row's clock: the seed's
// Cortex-A8 numbers give figure 5.2's time and energy; no CPI or no power is unknown, never 0.
func TestReferenceEstimate(t *testing.T) {
	a8 := Reference{FrequencyGHz: 1, CPI: 13.03, ProcessorPowerW: 0.89, BaseInstructions: 39171751755,
		BaseCacheMisses: 521966483, MemoryAccessEnergy: 2.61}
	e, ok := ReferenceEstimate(a8, 56750218825, 0)
	if !ok || fmt.Sprintf("%.11f", e.TimeS) != "739.45535128975" || fmt.Sprintf("%.13f", e.EnergyJ) != "660.0889468768014" {
		t.Fatalf("A8 at its own clock: %+v, %v; figure 5.2 shows 739.45535128975 s, 660.0889468768014 J", e, ok)
	}
	if e2, _ := ReferenceEstimate(a8, 56750218825, 2); e2.TimeS*2 != e.TimeS || e2.Cycles != e.Cycles {
		t.Errorf("at 2 GHz: %v s, %v cycles; want half the time, the same cycles", e2.TimeS, e2.Cycles)
	}
	if e3, ok := ReferenceEstimate(Reference{CPI: 2, ProcessorPowerW: 1}, 10, 0); !ok || e3.TimeS != 20/(DefaultFrequencyGHz*1e9) {
		t.Errorf("no clock anywhere: %+v, %v; want the default clock", e3, ok)
	}
	for _, r := range []Reference{{}, {CPI: 2}, {ProcessorPowerW: 1}, {FrequencyGHz: 1, BaseInstructions: 5}} {
		if _, ok := ReferenceEstimate(r, 100, 1); ok {
			t.Errorf("%+v: estimated; want unknown (needs a CPI and a power)", r)
		}
	}
}
