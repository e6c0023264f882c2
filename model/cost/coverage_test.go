package cost

import (
	"math"
	"strings"
	"testing"
)

// A profile that knows one of three executed instructions, and no MIPS: the coverage counts
// what it priced as Undefined, the instruction set it lacks, and the power it does not know.
func TestCoverage(t *testing.T) {
	p := NewProfile("tiny", ARM)
	p.Undefined.Cycles = 13.03
	p.Categories = []Category{{Name: "Branch", Cycles: 3, PowerMW: 0, Instructions: []Instruction{{ARM, "BNE"}}}}
	p.Undefined.PowerMW = 890
	counts := []InstructionCount{{Instruction{ARM, "BNE"}, 80}, {Instruction{ARM, "ADD"}, 15}, {Instruction{MIPS, "ADDIU"}, 5}}
	c := NewCoverage(NewClassifier(p), counts)
	if c.Instructions != 100 || c.Undefined != 20 || c.Foreign != 5 || c.UnknownPower != 80 || c.UndefinedCPI != 13.03 {
		t.Fatalf("coverage %+v", c)
	}
	if c.UndefinedShare() != 0.2 || math.Abs(c.UndefinedCycles-20*13.03) > 1e-9 || c.Fits() || c.PowerUnknown() {
		t.Errorf("share %g, undefined cycles %g", c.UndefinedShare(), c.UndefinedCycles)
	}
	w := c.Warning()
	for _, want := range []string{"tiny prices ARM, not MIPS: choose a profile for MIPS.",
		"20 % of instructions (52 % of cycles) are not in this profile (priced as Undefined, 13.03 cycles each).",
		"Power unknown for 80 % of instructions: the energy leaves them out."} {
		if !strings.Contains(w, want) {
			t.Errorf("warning %q lacks %q", w, want)
		}
	}
	if cost := Cost(NewClassifier(p), counts, 1); cost.Coverage.Undefined != 20 {
		t.Errorf("the per-category estimate's coverage %+v", cost.Coverage)
	}

	// Every instruction known, none with a power: no energy at all, and no Undefined note.
	p.Categories[0].Instructions = append(p.Categories[0].Instructions, Instruction{ARM, "ADD"})
	c = NewCoverage(NewClassifier(p), counts[:2])
	if !c.PowerUnknown() || c.Warning() != "Power unknown: energy not estimated (the profile gives no power)." {
		t.Errorf("no power: %q", c.Warning())
	}
	// An Undefined category of 0 cycles prices what it does not know at nothing: say so.
	p.Undefined.Cycles = 0
	c = NewCoverage(NewClassifier(p), []InstructionCount{{Instruction{ARM, "BNE"}, 1}, {Instruction{ARM, "LDR"}, 999}})
	if w := c.Warning(); !strings.Contains(w, "99.9 % of instructions (0 % of cycles) are not in this profile (priced as Undefined at 0 cycles, so the cycles leave them out)") {
		t.Errorf("Undefined at 0 cycles: %q", w)
	}
	p.Categories[0].PowerMW = 1
	p.Categories[0].Instructions = append(p.Categories[0].Instructions, Instruction{ARM, "LDR"})
	if c = NewCoverage(NewClassifier(p), counts[:2]); !c.Fits() || c.Warning() != "" {
		t.Errorf("a fitting profile warns %q", c.Warning())
	}
}

func TestPercent(t *testing.T) {
	for _, c := range []struct {
		share float64
		want  string
	}{{0, "0 %"}, {0.0004, "< 0.1 %"}, {0.005, "0.5 %"}, {0.0999, "10 %"}, {0.92, "92 %"}, {0.996, "99.6 %"}, {0.99996, "> 99.9 %"}, {1, "100 %"}} {
		if got := Percent(c.share); got != c.want {
			t.Errorf("Percent(%g) = %q, want %q", c.share, got, c.want)
		}
	}
}
