package cli

import (
	"fmt"
	"io"
	"strings"

	"androprof/internal/human"
	"androprof/model/cost"
)

// levelJSON is one cache level of the waterfall's memory step; a cost the profile does not
// give is null.
type levelJSON struct {
	Level       string   `json:"level"`
	Accesses    int64    `json:"accesses"`
	Misses      int64    `json:"misses"`
	MissRate    float64  `json:"miss_rate"`
	MissCycles  *float64 `json:"miss_cycles"`
	StallCycles *float64 `json:"stall_cycles"`
	EnergyJ     *float64 `json:"energy_j"`
}

// waterfallJSON is cost.Waterfall for scripts (report's "waterfall", estimate --run --json):
// every step, a number that cannot be known null, never 0.
type waterfallJSON struct {
	Instructions     int64       `json:"instructions"`
	CategoryCycles   float64     `json:"category_cycles"`
	PipelineModel    string      `json:"pipeline_model"`
	PipelineCoverage float64     `json:"pipeline_coverage"`
	PipelineCycles   *float64    `json:"pipeline_cycles"`
	PipelineNote     string      `json:"pipeline_note"`
	Geometry         string      `json:"geometry"`
	GeometrySource   string      `json:"geometry_source"`
	Levels           []levelJSON `json:"levels"`
	StallCycles      *float64    `json:"stall_cycles"`
	MemoryNote       string      `json:"memory_note"`
	TotalCycles      float64     `json:"total_cycles"`
	FrequencyGHz     float64     `json:"frequency_ghz"`
	TimeS            float64     `json:"time_s"`
	CoreEnergyJ      *float64    `json:"core_energy_j"`
	MemoryEnergyJ    *float64    `json:"memory_energy_j"`
	EnergyJ          *float64    `json:"energy_j"`
	Complete         bool        `json:"complete"`
	cpiJSON
	GapCycles *float64 `json:"gap_cycles"`
	Gap       string   `json:"gap"`
}

func waterfallOf(w cost.Waterfall) waterfallJSON {
	out := waterfallJSON{Instructions: w.Instructions, CategoryCycles: w.CategoryCycles, PipelineModel: w.PipelineModel,
		PipelineCoverage: w.PipelineCoverage, PipelineCycles: known(w.PipelineCycles, w.PipelineKnown),
		PipelineNote: w.PipelineNote, Geometry: w.Geometry, GeometrySource: w.GeometrySource, Levels: []levelJSON{},
		StallCycles: known(w.StallCycles, w.MemoryKnown), MemoryNote: w.MemoryNote, TotalCycles: w.TotalCycles,
		FrequencyGHz: w.FrequencyGHz, TimeS: w.TimeS, CoreEnergyJ: known(w.CoreEnergyJ, w.CoreEnergyKnown),
		MemoryEnergyJ: known(w.MemoryEnergyJ, w.MemoryEnergyKnown),
		EnergyJ:       known(w.EnergyJ, w.CoreEnergyKnown || w.MemoryEnergyKnown), Complete: w.Complete,
		GapCycles: known(w.GapCycles, w.ReferenceKnown), Gap: w.Gap}
	if w.ReferenceKnown {
		e := w.Reference
		out.cpiJSON = cpiJSON{&e.Cycles, &e.TimeS, &e.PowerW, &e.EnergyJ}
	}
	for _, l := range w.Levels {
		out.Levels = append(out.Levels, levelJSON{l.Level, l.Accesses, l.Misses, l.MissRate,
			known(l.MissCycles, l.MissKnown), known(l.StallCycles, l.MissKnown), known(l.EnergyJ, l.EnergyKnown)})
	}
	return out
}

// writeWaterfall writes the estimate step by step: category cycles, pipeline cycles, memory
// stalls, the total with its time and energy, figure 5.2's estimate beside it and the gap.
// levels adds a line per cache level (estimate --run); report writes the misses in one line.
func writeWaterfall(w io.Writer, wf cost.Waterfall, levels bool) {
	fmt.Fprintln(w, "estimate, step by step:")
	step := func(name string, cycles float64, ok bool, text string) {
		fmt.Fprintf(w, "  %-17s %15s  %s\n", name, cyclesText(cycles, ok), text)
	}
	step("category cycles", wf.CategoryCycles, true, fmt.Sprintf("%s × their category's cycles", human.Count(wf.Instructions, "instruction", "instructions")))
	step("pipeline cycles", wf.PipelineCycles, wf.PipelineKnown, pipelineText(wf))
	step("+ memory stalls", wf.StallCycles, wf.MemoryKnown, memoryText(wf))
	if levels {
		for _, l := range wf.Levels {
			fmt.Fprintf(w, "      %-4s %s accesses, %s misses (%.2f %%) × %s = %s stall cycles\n", l.Level, human.Grouped(l.Accesses),
				human.Grouped(l.Misses), l.MissRate*100, orUnknown("%g cycles", l.MissCycles, l.MissKnown),
				cyclesText(l.StallCycles, l.MissKnown))
		}
	} else if len(wf.Levels) > 0 {
		fmt.Fprintf(w, "      misses: %s\n", missesText(wf.Levels))
	}
	step("= total cycles", wf.TotalCycles, true, fmt.Sprintf("%s at %g GHz; energy %s", human.Quantity(wf.TimeS, "s"), wf.FrequencyGHz, energyText(wf)))
	if wf.ReferenceKnown {
		step("figure 5.2", wf.Reference.Cycles, true, fmt.Sprintf("%s, energy %s (the profile's measured CPI and power)",
			human.Quantity(wf.Reference.TimeS, "s"), human.Quantity(wf.Reference.EnergyJ, "J")))
	} else {
		step("figure 5.2", 0, false, "the profile has no measured CPI and power")
	}
	if wf.Gap != "" {
		fmt.Fprintf(w, "  gap: %s\n", wf.Gap)
	}
}

// cyclesText is a step's cycles, or "unknown".
func cyclesText(v float64, ok bool) string {
	if p := known(v, ok); p != nil {
		return human.Grouped(int64(*p + 0.5))
	}
	return "unknown"
}

// pipelineText says what priced the pipeline step, and what it did not price.
func pipelineText(wf cost.Waterfall) string {
	switch {
	case wf.PipelineNote != "":
		return wf.PipelineNote
	case wf.PipelineModel != "":
		return wf.PipelineModel + " priced every block"
	}
	return "the profile names no machine model"
}

func memoryText(wf cost.Waterfall) string {
	var parts []string
	if g := wf.Simulated(); g != "" {
		parts = append(parts, "misses simulated for "+g)
	}
	if wf.MemoryNote != "" {
		parts = append(parts, wf.MemoryNote)
	}
	return strings.Join(parts, "; ")
}

// missesText is each level's misses on one line: what the run summary says of a simulation.
func missesText(levels []cost.LevelCost) string {
	parts := make([]string, len(levels))
	for i, l := range levels {
		parts[i] = fmt.Sprintf("%s %s of %s", l.Level, human.Grouped(l.Misses), human.Grouped(l.Accesses))
	}
	return strings.Join(parts, ", ")
}

func energyText(wf cost.Waterfall) string {
	if !wf.CoreEnergyKnown && !wf.MemoryEnergyKnown {
		return "unknown"
	}
	core, mem := "unknown", "unknown"
	if wf.CoreEnergyKnown {
		core = human.Quantity(wf.CoreEnergyJ, "J")
	}
	switch {
	case wf.MemoryEnergyKnown:
		mem = human.Quantity(wf.MemoryEnergyJ, "J")
	case wf.MemoryEnergyJ > 0: // some levels' energy known, not all
		mem = human.Quantity(wf.MemoryEnergyJ, "J") + " and more unknown"
	}
	return fmt.Sprintf("%s (core %s + memory %s)", human.Quantity(wf.EnergyJ, "J"), core, mem)
}
