package cost

// Waterfall is the estimate of a run (or one report row) step by step, so the difference
// between the per-category estimate and figure 5.2's CPI-based one is shown as where cycles
// come from (docs/memory.md):
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
	// CoreEnergyJ is the profile's per-category power over the total time; MemoryEnergyJ is
	// Σ accesses × energy per access over the levels and main memory (Reference's
	// MemoryAccessEnergy for the last level's misses).
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
