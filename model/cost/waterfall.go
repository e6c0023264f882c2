package cost

import (
	"slices"
	"strconv"
	"strings"

	"androprof/internal/human"
)

// Waterfall is the estimate of a run (or one report row) step by step, so the difference
// between the per-category estimate and figure 5.2's CPI-based one is shown as where cycles
// come from (docs/waterfall.md: the steps, their equations and what is not modelled):
//
//	category cycles (Σ instructions × their category's cycles)
//	→ pipeline cycles (blocks the machine model priced at its steady-state cycles)
//	→ + memory stall cycles (misses × the profile's miss cycles per level)
//	→ total cycles, time at the clock, energy (core + cache and memory accesses)
//
// beside figure 5.2's estimate, with the remaining gap named. A step that cannot be known
// (no machine model, no simulation, no miss costs) says so in its Known flag and its Note;
// the totals then carry the steps that are known and Complete is false.
type Waterfall struct {
	Instructions   int64
	CategoryCycles float64

	// Pipeline: PipelineModel names the model ("" none); PipelineCoverage is the share of
	// instructions in blocks it priced (0…1); PipelineCycles is CategoryCycles with those
	// blocks at the model's cycles. Without a model PipelineCycles = CategoryCycles.
	PipelineModel    string
	PipelineKnown    bool
	PipelineCoverage float64
	PipelineCycles   float64
	PipelineNote     string // why it is missing or partial, in one line

	// Memory: Geometry is the simulated hierarchy (its String; "" when the run has none) and
	// GeometrySource where it came from. Levels has one entry per level of the geometry.
	Geometry       string
	GeometrySource string
	MemoryKnown    bool // simulated and every level's miss cycles known
	Levels         []LevelCost
	StallCycles    float64
	MemoryNote     string

	TotalCycles  float64 // PipelineCycles + StallCycles
	FrequencyGHz float64
	TimeS        float64
	// CoreEnergyJ is the category estimate's average power (its energy ÷ its time) over the
	// total time: the core draws power while it stalls, so stalls cost core energy too. Not
	// known when no category's power is. MemoryEnergyJ is Σ accesses × energy per access over
	// the levels and main memory (Reference's MemoryAccessEnergy for each of the last level's
	// misses); known when every one of those energies is.
	CoreEnergyJ       float64
	CoreEnergyKnown   bool
	MemoryEnergyJ     float64
	MemoryEnergyKnown bool
	EnergyJ           float64 // the sum of the known parts
	Complete          bool    // every step known

	// Reference is figure 5.2's CPI-based estimate of the same instructions at the same clock
	// (ReferenceKnown false when the profile has no CPI or power); GapCycles is its cycles less
	// TotalCycles, and Gap says in one line what the gap is made of.
	Reference      Estimate
	ReferenceKnown bool
	GapCycles      float64
	Gap            string
}

// Simulated names the hierarchy the misses are for and where it came from,
// "l1i=…,l2=… (profile NAME)", or "" when the run was not simulated: the window and the
// command line say it in those words.
func (w Waterfall) Simulated() string {
	if w.Geometry == "" || w.GeometrySource == "" {
		return w.Geometry
	}
	return w.Geometry + " (" + w.GeometrySource + ")"
}

// LevelCost is one cache level's share of the memory step.
type LevelCost struct {
	Level       string // l1i, l1d, l2, l3
	Accesses    int64
	Misses      int64
	MissRate    float64 // Misses ÷ Accesses (0 with no accesses)
	MissCycles  float64 // the profile's cycles per miss; 0 with MissKnown false
	MissKnown   bool
	StallCycles float64 // Misses × MissCycles
	EnergyJ     float64 // Accesses × the level's access energy
	EnergyKnown bool
}

// WaterfallInput is what prices a waterfall besides its row: the report's profile and clock,
// the geometry the run was simulated for and the machine model that priced its blocks. A
// report keeps its own (Report.RowWaterfall), so each row can be shown step by step too.
type WaterfallInput struct {
	Profile        *Profile
	FrequencyGHz   float64
	Geometry       CacheGeometry // the run's simulated hierarchy; zero: not simulated
	GeometrySource string
	Pipeline       string // the machine model's description ("llvm-mca-16 -mcpu=cortex-a8")
	Priced         bool   // the model's cycles were given (ReportOptions.BlockCycles)
	PipelineNote   string // what whoever ran the model says ("llvm-mca-16 is not installed")
	// ReferenceForeign tells that most instructions are of a set the profile does not price:
	// figure 5.2's CPI was measured on another processor, so there is no reference to hold.
	ReferenceForeign bool
}

// What the measured CPI holds that no step models: named by the gap sentence.
const unmodelled = "branch mispredictions, TLB misses, the OS and other programs on the measured core, " +
	"and the programs' difference (the CPI was measured on other programs)"

// NewWaterfall prices one report row step by step (docs/waterfall.md). A row made of parts of
// blocks (an instruction or a category) has neither pipeline cycles nor misses: the model
// prices whole blocks and the simulation counts per block, and its notes say so.
func NewWaterfall(in WaterfallInput, row ReportRow) Waterfall {
	w := Waterfall{Instructions: row.Instructions, CategoryCycles: row.Cycles, FrequencyGHz: in.FrequencyGHz}
	w.pipelineStep(in, row)
	w.memoryStep(in, row)
	w.TotalCycles = w.PipelineCycles + w.StallCycles
	if in.FrequencyGHz > 0 {
		w.TimeS = w.TotalCycles / (in.FrequencyGHz * 1e9)
	}
	w.energyStep(in, row)
	w.Complete = w.PipelineKnown && w.MemoryKnown && w.CoreEnergyKnown && w.MemoryEnergyKnown
	w.referenceStep(in)
	return w
}

// pipelineStep replaces the category cycles of the blocks the model priced by its cycles.
func (w *Waterfall) pipelineStep(in WaterfallInput, row ReportRow) {
	w.PipelineModel, w.PipelineCycles = in.Pipeline, row.Cycles
	switch {
	case !in.Priced:
		w.PipelineNote = in.PipelineNote
		if w.PipelineNote == "" {
			w.PipelineNote = noModelNote(in.Profile)
		}
	case !row.PipelineKnown:
		w.PipelineNote = "the machine model prices whole blocks, and this row's instructions come from many"
	case row.PipelineInsns == 0:
		w.PipelineNote = joinNotes(in.Pipeline+" priced none of these blocks: the category cost stands", in.PipelineNote)
	default:
		w.PipelineKnown, w.PipelineCycles = true, row.PipelineCycles
		w.PipelineCoverage = share(float64(row.PipelineInsns), float64(row.Instructions))
		if row.PipelineInsns < row.Instructions {
			how := ""
			if in.PipelineNote != "" {
				how = " (" + in.PipelineNote + ")"
			}
			w.PipelineNote = in.Pipeline + " priced " + Percent(w.PipelineCoverage) + " of the instructions" + how +
				"; the rest keep their category cost"
		} else {
			w.PipelineNote = in.PipelineNote
		}
	}
}

func noModelNote(p *Profile) string {
	if p == nil || p.Pipeline.IsZero() {
		return "the profile names no machine model"
	}
	return "the profile's machine model (-mcpu=" + p.Pipeline.CPU + ") was not run"
}

// joinNotes writes the notes that are not empty as one line.
func joinNotes(notes ...string) string {
	var out []string
	for _, n := range notes {
		if n != "" {
			out = append(out, n)
		}
	}
	return strings.Join(out, "; ")
}

// memoryStep adds each simulated level's misses at the profile's miss cycles for that level.
func (w *Waterfall) memoryStep(in WaterfallInput, row ReportRow) {
	g := in.Geometry
	if g.IsZero() {
		w.MemoryNote = "not simulated: run with --cache"
		return
	}
	w.Geometry, w.GeometrySource = g.String(), in.GeometrySource
	if row.Cache == nil {
		w.MemoryNote = "misses are counted per block, and this row's instructions come from many"
		return
	}
	var mem CacheGeometry
	if in.Profile != nil {
		mem = in.Profile.Memory
	}
	w.Levels = make([]LevelCost, len(g.Levels))
	var unpriced []string
	for i, l := range g.Levels {
		w.Levels[i] = levelCost(l.Name, *row.Cache, mem.Level(l.Name))
		w.StallCycles += w.Levels[i].StallCycles
		if !w.Levels[i].MissKnown {
			unpriced = append(unpriced, l.Name)
		}
	}
	w.MemoryKnown = len(unpriced) == 0
	switch {
	case mem.IsZero():
		w.MemoryNote = "the profile has no memory hierarchy"
	case len(unpriced) > 0:
		w.MemoryNote = "the profile gives no miss cycles for " + strings.Join(unpriced, ", ")
	}
	if !mem.IsZero() && !mem.SameGeometry(g) {
		w.MemoryNote = joinNotes(w.MemoryNote, "the profile's own caches are "+mem.Geometry().String()+
			": its miss cycles are applied to the simulated ones level by level")
	}
}

// levelCost is one level's accesses and misses in c, priced by the profile's level p (nil:
// the profile has no such level).
func levelCost(name string, c CacheCounts, p *CacheLevel) LevelCost {
	lc := LevelCost{Level: name}
	lc.Accesses, lc.Misses = levelCounts(c, levelIndex(name))
	lc.MissRate = share(float64(lc.Misses), float64(lc.Accesses))
	if p != nil && p.MissCycles > 0 {
		lc.MissCycles, lc.MissKnown = p.MissCycles, true
		lc.StallCycles = float64(lc.Misses) * p.MissCycles
	}
	if p != nil && p.AccessEnergyNJ > 0 {
		lc.EnergyJ, lc.EnergyKnown = float64(lc.Accesses)*p.AccessEnergyNJ*1e-9, true
	}
	return lc
}

// levelIndex is a level's place in CacheLevelNames: 0 l1i, 1 l1d, 2 l2, 3 l3 (-1 unknown).
func levelIndex(name string) int { return slices.Index(CacheLevelNames, name) }

// levelCounts is what level i of CacheLevelNames saw: the L1I every fetch, the L1D every load
// and store, a unified level below the misses of the levels above it.
func levelCounts(c CacheCounts, i int) (accesses, misses int64) {
	switch i {
	case 0:
		return c.Fetches, c.FetchMiss[0]
	case 1:
		return c.Reads + c.Writes, c.ReadMiss[0] + c.WriteMiss[0]
	case 2, 3:
		return c.Accesses(i - 1), c.Misses(i - 1)
	}
	return 0, 0
}

// energyStep prices the core at the category estimate's average power over the total time
// (the core draws power while it waits for memory) and the memory at its accesses' energy.
func (w *Waterfall) energyStep(in WaterfallInput, row ReportRow) {
	if row.Cycles > 0 && row.Instructions > 0 && row.EnergyKnown() {
		w.CoreEnergyJ, w.CoreEnergyKnown = row.EnergyJ*w.TotalCycles/row.Cycles, true
	}
	if len(w.Levels) > 0 {
		w.MemoryEnergyKnown = true
		for _, l := range w.Levels {
			w.MemoryEnergyJ += l.EnergyJ
			w.MemoryEnergyKnown = w.MemoryEnergyKnown && l.EnergyKnown
		}
		var nj float64
		if in.Profile != nil {
			nj = in.Profile.Reference.MemoryAccessEnergy
		}
		w.MemoryEnergyJ += float64(w.Levels[len(w.Levels)-1].Misses) * nj * 1e-9
		w.MemoryEnergyKnown = w.MemoryEnergyKnown && nj > 0
	}
	if w.CoreEnergyKnown {
		w.EnergyJ = w.CoreEnergyJ
	}
	w.EnergyJ += w.MemoryEnergyJ
}

// referenceStep holds figure 5.2's estimate of the same instructions beside the total.
func (w *Waterfall) referenceStep(in WaterfallInput) {
	switch {
	case in.Profile == nil || !in.Profile.Reference.Estimable():
		w.Gap = "no gap to name: the profile has no measured CPI and power for figure 5.2's estimate"
		return
	case in.ReferenceForeign:
		w.Gap = "no gap to name: figure 5.2's CPI was measured on another processor than the one that ran"
		return
	}
	e, ok := ReferenceEstimate(in.Profile.Reference, w.Instructions, in.FrequencyGHz)
	if !ok || w.Instructions == 0 {
		return
	}
	w.Reference, w.ReferenceKnown = e, true
	w.GapCycles = e.Cycles - w.TotalCycles
	w.Gap = gapSentence(*w, in.Profile.Reference.CPI)
}

// gapSentence names what remains between figure 5.2's cycles and the model's total: what no
// step models, and the steps this waterfall could not price.
func gapSentence(w Waterfall, cpi float64) string {
	ref := "figure 5.2's measured CPI " + strconv.FormatFloat(cpi, 'g', 4, 64) + " gives " + human.Quantity(w.Reference.Cycles, "cycles")
	model := human.Quantity(w.TotalCycles, "cycles")
	if w.GapCycles < 0 {
		return ref + "; the model's " + model + " exceed it by " + human.Quantity(-w.GapCycles, "cycles") + " (" +
			Percent(-w.GapCycles/w.Reference.Cycles) + "): the model charges every miss in full where the measured " +
			"core overlaps misses with work, and the CPI was measured on other programs"
	}
	what := unmodelled
	if missing := w.missingSteps(); missing != "" {
		what = missing + "; " + what
	}
	return ref + "; the model explains " + model + "; the other " + human.Quantity(w.GapCycles, "cycles") + " (" +
		Percent(share(w.GapCycles, w.Reference.Cycles)) + ") are what it does not model: " + what
}

// missingSteps names the steps of the waterfall that are not priced, with why.
func (w Waterfall) missingSteps() string {
	var out []string
	if !w.PipelineKnown {
		out = append(out, "pipeline dependencies and issue width ("+w.PipelineNote+")")
	}
	if !w.MemoryKnown {
		out = append(out, "memory stalls ("+w.MemoryNote+")")
	}
	return strings.Join(out, ", ")
}

// missPrices is the profile's cycles for a miss at each level of CacheLevelNames, for the
// levels of a run's geometry, so each report row's stall cycles are four products.
type missPrices struct {
	cycles [4]float64 // 0 where the run has no such level or the profile no price for it
	known  bool       // every level of the run's geometry is priced
}

func newMissPrices(profile, run CacheGeometry) missPrices {
	m := missPrices{known: len(run.Levels) > 0}
	for _, l := range run.Levels {
		p, i := profile.Level(l.Name), levelIndex(l.Name)
		if p == nil || p.MissCycles <= 0 || i < 0 {
			m.known = false
			continue
		}
		m.cycles[i] = p.MissCycles
	}
	return m
}

// stall is the cycles c's misses wait for at the priced levels.
func (m missPrices) stall(c CacheCounts) float64 {
	var s float64
	for i, cycles := range m.cycles {
		_, misses := levelCounts(c, i)
		s += float64(misses) * cycles
	}
	return s
}
