package cost

import (
	"fmt"
	"math"
	"strings"
)

// Where points at the part of a profile a Problem is about, so a file reader can turn it
// into a line number and the editor into a highlighted row.
type Where struct {
	Category int // index into Categories; len(Categories) means Undefined; -1 the profile itself
	Insn     int // index into that category's Instructions; -1 the category itself
}

// Problem is one reason a profile cannot be saved or used.
type Problem struct {
	Where Where
	Msg   string
}

func (p Problem) Error() string { return p.Msg }

// Validate lists every problem, not just the first, so `profile check` and the editor can show
// them all at once. The rules live here only; file readers map Where to lines.
func Validate(p *Profile) []Problem {
	var out []Problem
	add := func(w Where, format string, args ...any) {
		out = append(out, Problem{Where: w, Msg: fmt.Sprintf(format, args...)})
	}
	top := Where{-1, -1}
	if strings.TrimSpace(p.Name) == "" {
		add(top, "profile has no name")
	}
	if len(p.ISAs) == 0 {
		add(top, "profile declares no instruction set")
	}
	seenISA := map[ISA]bool{}
	for _, isa := range p.ISAs {
		if canon, err := ParseISA(string(isa)); err != nil {
			add(top, "%v", err)
		} else if canon != isa {
			add(top, "instruction set %q must be spelled %s", isa, canon)
		}
		if seenISA[isa] {
			add(top, "instruction set %s declared twice", isa)
		}
		seenISA[isa] = true
	}
	for _, f := range referenceFields(p.Reference) {
		if bad(f.value) {
			add(top, "reference %s is %v; it must be a finite number ≥ 0", f.name, f.value)
		}
	}

	placed := map[Instruction]string{}
	names := map[string]bool{}
	all := append(append([]Category(nil), p.Categories...), p.Undefined)
	for ci, c := range all {
		w := Where{ci, -1}
		isUndefined := ci == len(p.Categories)
		switch {
		case strings.TrimSpace(c.Name) == "":
			add(w, "category %d has no name", ci+1)
		case !isUndefined && strings.EqualFold(c.Name, UndefinedCategory):
			add(w, "category name %q is reserved for the default category", c.Name)
		case names[strings.ToLower(c.Name)]:
			add(w, "category %q is defined twice", c.Name)
		}
		names[strings.ToLower(c.Name)] = true
		if bad(c.Cycles) {
			add(w, "category %q: cycle cost %v must be a finite number ≥ 0", c.Name, c.Cycles)
		}
		if bad(c.PowerMW) {
			add(w, "category %q: power cost %v mW must be a finite number ≥ 0", c.Name, c.PowerMW)
		}
		for ii, in := range c.Instructions {
			iw := Where{ci, ii}
			if strings.TrimSpace(in.Mnemonic) == "" {
				add(iw, "category %q: instruction %d has no mnemonic", c.Name, ii+1)
				continue
			}
			if canon, err := ParseISA(string(in.ISA)); err != nil || canon != in.ISA {
				if err == nil {
					err = fmt.Errorf("instruction set %q must be spelled %s", in.ISA, canon)
				}
				add(iw, "category %q: instruction %s: %v", c.Name, in.Mnemonic, err)
				continue
			}
			if !seenISA[in.ISA] {
				add(iw, "category %q: instruction %s uses instruction set %s, which the profile does not declare", c.Name, in, in.ISA)
			}
			if prev, dup := placed[in]; dup {
				if prev == c.Name {
					add(iw, "category %q lists %s twice", c.Name, in)
				} else {
					add(iw, "instruction %s is in two categories: %q and %q", in, prev, c.Name)
				}
				continue
			}
			placed[in] = c.Name
		}
	}
	return out
}

type namedValue struct {
	name  string
	value float64
}

func referenceFields(r Reference) []namedValue {
	return []namedValue{
		{"frequency", r.FrequencyGHz}, {"CPI", r.CPI}, {"processor power", r.ProcessorPowerW},
		{"base instructions", r.BaseInstructions}, {"base cache misses", r.BaseCacheMisses},
		{"memory-access energy", r.MemoryAccessEnergy},
	}
}

func bad(v float64) bool { return v < 0 || math.IsNaN(v) || math.IsInf(v, 0) }
