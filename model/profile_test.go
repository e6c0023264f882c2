package model

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
