package cost

import (
	"math"
	"strings"
	"testing"
)

func TestClassifier(t *testing.T) {
	p := NewProfile("p", ARM, Thumb)
	p.Undefined.Cycles = 7
	p.Categories = []Category{{Name: "Branch", Cycles: 3, Instructions: []Instruction{{ARM, "BEQ"}}}}
	c := NewClassifier(p)
	if got := c.Classify(Instruction{ARM, "BEQ"}); got.Name != "Branch" {
		t.Errorf("ARM BEQ in %q", got.Name)
	}
	if got := c.Classify(Instruction{Thumb, "BEQ"}); got.Name != UndefinedCategory || got.Cycles != 7 {
		t.Errorf("Thumb BEQ in %q", got.Name)
	}
}

func TestValidatePointsAtTheProblem(t *testing.T) {
	p := NewProfile("p", ARM)
	p.Reference.CPI = math.NaN()
	p.Categories = []Category{
		{Name: "A", Instructions: []Instruction{{ARM, "ADD"}}},
		{Name: "B", PowerMW: math.Inf(1), Instructions: []Instruction{{MIPS, "ADDU"}, {ARM, "ADD"}}},
	}
	p.Undefined.Cycles = -1
	probs := Validate(p)
	want := map[Where]string{
		{-1, -1}: "reference CPI",
		{1, -1}:  "power cost +Inf",
		{1, 0}:   "does not declare",
		{1, 1}:   "in two categories",
		{2, -1}:  "cycle cost -1",
	}
	if len(probs) != len(want) {
		t.Fatalf("problems = %v", probs)
	}
	for _, pr := range probs {
		if !strings.Contains(pr.Msg, want[pr.Where]) {
			t.Errorf("at %+v: %q, want %q", pr.Where, pr.Msg, want[pr.Where])
		}
	}
}

func TestParseISA(t *testing.T) {
	if isa, err := ParseISA("thumb"); err != nil || isa != Thumb {
		t.Errorf("thumb: %v %v", isa, err)
	}
	if _, err := ParseISA("PowerPC"); err == nil {
		t.Error("PowerPC accepted")
	}
}

// TestProfileClone: changing a clone's categories, instructions and ISAs leaves the original as
// it was (the editor goes on editing while a copy is saved).
func TestProfileClone(t *testing.T) {
	p := NewProfile("p", ARM)
	p.Categories = []Category{{Name: "Load", Cycles: 2, Instructions: []Instruction{{ISA: ARM, Mnemonic: "LDR"}},
		Citations: []Citation{{Cost: "cycles", Text: "manual"}}}}
	p.Undefined.Instructions = []Instruction{{ISA: ARM, Mnemonic: "?"}}
	c := p.Clone()
	c.Name = "c"
	c.ISAs[0] = Thumb
	c.Categories[0].Instructions[0].Mnemonic = "STR"
	c.Categories[0].Citations[0].Text = "guess"
	c.Categories[0].Cycles = 9
	c.Undefined.Instructions[0].Mnemonic = "X"
	if p.Name != "p" || p.ISAs[0] != ARM || p.Categories[0].Instructions[0].Mnemonic != "LDR" ||
		p.Categories[0].Citations[0].Text != "manual" || p.Categories[0].Cycles != 2 || p.Undefined.Instructions[0].Mnemonic != "?" {
		t.Errorf("changing the clone changed the original: %+v", p)
	}
}
