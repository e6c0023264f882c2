package cost

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
)

// Coverage tells how much of what a profile priced it really knows. An instruction it has no
// category for is charged the Undefined category's cost, an instruction set it does not list
// is another processor's, and a category with power 0 has no known power: a cost built on
// those is a guess, and whoever shows the cost must say so beside it.
type Coverage struct {
	Profile      string
	ProfileISAs  []ISA
	Instructions int64 // executed instructions priced
	Cycles       float64
	Undefined    int64 // instructions priced at the Undefined category's cost
	// UndefinedCycles is what those instructions cost: UndefinedCPI each.
	UndefinedCycles float64
	UndefinedCPI    float64
	ForeignISAs     []ISA // instruction sets that ran but the profile does not price
	Foreign         int64 // instructions of those sets
	UnknownPower    int64 // instructions priced in a category whose power is 0 (not known)
}

// NewCoverage measures how well the classifier's profile covers instruction counts.
func NewCoverage(c *Classifier, counts []InstructionCount) Coverage {
	p := c.profile
	cov := Coverage{Profile: p.Name, ProfileISAs: p.ISAs, UndefinedCPI: p.Undefined.Cycles}
	for _, ic := range counts {
		cat := c.Classify(ic.Instruction)
		cycles := float64(ic.Count) * cat.Cycles
		cov.Instructions += ic.Count
		cov.Cycles += cycles
		if cat.Name == UndefinedCategory {
			cov.Undefined += ic.Count
			cov.UndefinedCycles += cycles
		}
		if cat.PowerMW == 0 {
			cov.UnknownPower += ic.Count
		}
		if isa := ic.Instruction.ISA; !p.HasISA(isa) && ic.Count > 0 {
			cov.Foreign += ic.Count
			if !slices.Contains(cov.ForeignISAs, isa) {
				cov.ForeignISAs = append(cov.ForeignISAs, isa)
			}
		}
	}
	slices.SortFunc(cov.ForeignISAs, func(a, b ISA) int { return isaRank(a) - isaRank(b) })
	return cov
}

// UndefinedShare is the share of instructions priced as Undefined, 0 to 1.
func (c Coverage) UndefinedShare() float64 {
	return share(float64(c.Undefined), float64(c.Instructions))
}

// UndefinedCycleShare is the share of cycles those instructions account for, 0 to 1.
func (c Coverage) UndefinedCycleShare() float64 { return share(c.UndefinedCycles, c.Cycles) }

// PowerUnknown tells that no instruction priced has a known power: the energy is not an
// estimate at all, whatever number the sum gives (0 J).
func (c Coverage) PowerUnknown() bool { return c.Instructions > 0 && c.UnknownPower == c.Instructions }

// Fits tells that nothing needs saying: every instruction is in a category of the profile's
// own instruction sets, with a known power.
func (c Coverage) Fits() bool { return c.Undefined == 0 && c.Foreign == 0 && c.UnknownPower == 0 }

// Warnings says, in sentences a user can act on, what of the cost is a guess; none when the
// profile fits.
func (c Coverage) Warnings() []string {
	var out []string
	if c.Foreign > 0 {
		out = append(out, fmt.Sprintf("%s prices %s, not %s: choose a profile for %s.",
			c.Profile, joinISAs(c.ProfileISAs, "and"), joinISAs(c.ForeignISAs, "or"), joinISAs(c.ForeignISAs, "or")))
	}
	if c.Undefined > 0 {
		how := fmt.Sprintf("priced as Undefined, %s cycles each", strconv.FormatFloat(c.UndefinedCPI, 'g', 4, 64))
		if c.UndefinedCPI == 0 {
			how = "priced as Undefined at 0 cycles, so the cycles leave them out"
		}
		insns, cycles := Percent(c.UndefinedShare()), Percent(c.UndefinedCycleShare())
		insns += " of instructions"
		if cycles != Percent(c.UndefinedShare()) {
			insns += " (" + cycles + " of cycles)"
		}
		out = append(out, fmt.Sprintf("%s are not in this profile (%s).", insns, how))
	}
	switch {
	case c.PowerUnknown():
		out = append(out, "Power unknown: energy not estimated (the profile gives no power).")
	case c.UnknownPower > 0:
		out = append(out, fmt.Sprintf("Power unknown for %s of instructions: the energy leaves them out.",
			Percent(share(float64(c.UnknownPower), float64(c.Instructions)))))
	}
	return out
}

// Warning is Warnings in one line ("" when the profile fits).
func (c Coverage) Warning() string { return strings.Join(c.Warnings(), " ") }

// Percent writes a share (0 to 1) the way a warning reads it: "92 %", "0.5 %", "99.9 %",
// "< 0.1 %"; a share that is not 0 never reads as 0, and one that is not all never as 100.
func Percent(s float64) string {
	p := s * 100
	switch {
	case p <= 0:
		return "0 %"
	case p < 0.1:
		return "< 0.1 %"
	case p >= 99.95 && p < 100:
		return "> 99.9 %"
	case p < 9.95 || (p >= 99.5 && p < 100):
		return strconv.FormatFloat(p, 'f', 1, 64) + " %"
	}
	return strconv.FormatFloat(p, 'f', 0, 64) + " %"
}

func share(part, whole float64) float64 {
	if whole <= 0 {
		return 0
	}
	return part / whole
}

// joinISAs writes "ARM and Thumb", "MIPS" or "ARM, Thumb or MIPS".
func joinISAs(isas []ISA, conj string) string {
	if len(isas) == 0 {
		return "no instruction set"
	}
	s := make([]string, len(isas))
	for i, isa := range isas {
		s[i] = string(isa)
	}
	if len(s) == 1 {
		return s[0]
	}
	return strings.Join(s[:len(s)-1], ", ") + " " + conj + " " + s[len(s)-1]
}
