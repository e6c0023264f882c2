package cost

import (
	"errors"
	"fmt"
)

// DefaultFrequencyGHz is assumed when neither the user nor the profile gives a clock; reports
// say when it was used, because time and energy scale with it.
const DefaultFrequencyGHz = 1.0

// EstimateInput is what the calculator of seed 000 figure 5.2 asks for.
type EstimateInput struct {
	Instructions       float64 // dynamic instruction count of the program or process
	CPI                float64
	FrequencyGHz       float64
	ProcessorPowerW    float64
	BaseInstructions   float64 // the reference run's instructions…
	BaseCacheMisses    float64 // …and its cache misses give the memory-access rate
	MemoryAccessEnergy float64 // nJ per main-memory access
}

// InputFromReference prefills the calculator from a profile's reference data.
func InputFromReference(r Reference, instructions float64) EstimateInput {
	return EstimateInput{Instructions: instructions, CPI: r.CPI, FrequencyGHz: r.FrequencyGHz,
		ProcessorPowerW: r.ProcessorPowerW, BaseInstructions: r.BaseInstructions,
		BaseCacheMisses: r.BaseCacheMisses, MemoryAccessEnergy: r.MemoryAccessEnergy}
}

// Estimate is the calculator's result.
type Estimate struct {
	Cycles         float64
	TimeS          float64
	MemoryAccesses float64
	MemoryPowerW   float64 // MemAcPwDis, equation (3)
	PowerW         float64 // EstimPwDis, equation (4)
	EnergyJ        float64
}

// EstimateCPI applies equations (1)–(4) of seed 000 §5.2 and energy = power × time.
func EstimateCPI(in EstimateInput) (Estimate, error) {
	for _, v := range []struct {
		name  string
		value float64
	}{{"instructions", in.Instructions}, {"CPI", in.CPI}, {"frequency", in.FrequencyGHz},
		{"processor power", in.ProcessorPowerW}, {"base instructions", in.BaseInstructions},
		{"base cache misses", in.BaseCacheMisses}, {"memory-access energy", in.MemoryAccessEnergy}} {
		if bad(v.value) {
			return Estimate{}, fmt.Errorf("%s is %v; it must be a finite number ≥ 0", v.name, v.value)
		}
	}
	if in.FrequencyGHz == 0 {
		return Estimate{}, errors.New("the frequency must be above 0 GHz")
	}
	if in.BaseCacheMisses > 0 && in.BaseInstructions == 0 {
		return Estimate{}, errors.New("base cache misses need the base instruction count they were measured over")
	}
	var e Estimate
	e.Cycles = in.CPI * in.Instructions          // (1)
	e.TimeS = e.Cycles / (in.FrequencyGHz * 1e9) // (2)
	rate := 0.0
	if in.BaseInstructions > 0 {
		rate = in.BaseCacheMisses / in.BaseInstructions // misses per instruction of the reference
	}
	e.MemoryAccesses = rate * in.Instructions
	if e.TimeS > 0 {
		e.MemoryPowerW = in.MemoryAccessEnergy * 1e-9 * e.MemoryAccesses / e.TimeS // (3)
	}
	e.PowerW = in.ProcessorPowerW + e.MemoryPowerW // (4)
	e.EnergyJ = e.PowerW * e.TimeS
	return e, nil
}

// CategoryCost is one category's share of a per-category estimate.
type CategoryCost struct {
	Category     string
	Instructions int64
	Cycles       float64
	EnergyJ      float64
}

// Costing is the per-category estimate (docs/formats.md#the-estimate): cycles = Σ count × cycles(category),
// energy = Σ count × cycles(category) / frequency × power(category).
type Costing struct {
	Categories   []CategoryCost // in profile order, Undefined last
	Instructions int64
	Cycles       float64
	TimeS        float64
	EnergyJ      float64
	PowerW       float64 // average: energy / time
	Coverage     Coverage
}

// InstructionCount is how often one instruction ran.
type InstructionCount struct {
	Instruction Instruction
	Count       int64
}

// Cost prices instruction counts with a profile at a clock frequency.
func Cost(c *Classifier, counts []InstructionCount, frequencyGHz float64) Costing {
	byName := map[string]*CategoryCost{}
	var out Costing
	for _, name := range c.profile.CategoryNames() {
		out.Categories = append(out.Categories, CategoryCost{Category: name})
	}
	for i := range out.Categories {
		byName[out.Categories[i].Category] = &out.Categories[i]
	}
	hz := frequencyGHz * 1e9
	for _, ic := range counts {
		cat := c.Classify(ic.Instruction)
		cc := byName[cat.Name]
		cycles := float64(ic.Count) * cat.Cycles
		cc.Instructions += ic.Count
		cc.Cycles += cycles
		if hz > 0 {
			cc.EnergyJ += cycles / hz * cat.PowerMW / 1000
		}
	}
	for _, cc := range out.Categories {
		out.Instructions += cc.Instructions
		out.Cycles += cc.Cycles
		out.EnergyJ += cc.EnergyJ
	}
	if hz > 0 {
		out.TimeS = out.Cycles / hz
	}
	if out.TimeS > 0 {
		out.PowerW = out.EnergyJ / out.TimeS
	}
	out.Coverage = NewCoverage(c, counts)
	return out
}
