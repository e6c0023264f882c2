package cost

import (
	"math"

	"androprof/internal/human"
)

// RowColumn is one of the numbers the memory and pipeline steps add to a report row. The
// window's tables, `report`'s text, CSV and JSON all take their columns from MemoryColumns
// (through Report.Columns), so they show the same numbers under the same names, and a number
// that cannot be known reads "unknown" (null in JSON), never 0.
type RowColumn struct {
	Key   string // snake_case: the JSON and CSV key
	Label string // the window's and the command line's header
	Unit  string // "cycles", "misses", "accesses" or "share" (0…1, like every share in JSON; tables print a percentage)
	// Value is the row's number and whether it is known; rep is the report the row is from.
	Value   func(r ReportRow, rep *Report) (float64, bool)
	applies func(rep *Report) bool
}

// Text writes the row's value as a person reads it: counts grouped ("1 234 567"), a rate as a
// percentage ("3.2 %"), "unknown" when it is not known.
func (c RowColumn) Text(r ReportRow, rep *Report) string {
	v, ok := c.Value(r, rep)
	switch {
	case !ok || math.IsNaN(v):
		return "unknown"
	case c.Unit == "share":
		return Percent(v)
	}
	return human.Grouped(int64(math.Round(v)))
}

// MemoryColumns lists every column the waterfall's steps give a row, in the order tables show
// them; Report.Columns keeps those that apply to a report.
var MemoryColumns = []RowColumn{
	{"pipeline_cycles", "Pipeline cycles", "cycles", pipelineCycles, (*Report).priced},
	{"stall_cycles", "Stall cycles", "cycles", stallCycles, (*Report).simulated},
	{"total_cycles", "Total cycles", "cycles", totalCycles, func(rep *Report) bool { return rep.priced() || rep.simulated() }},
	{"l1i_misses", "L1I misses", "misses", cacheValue(func(c *CacheCounts) int64 { return c.FetchMiss[0] }), (*Report).simulated},
	{"l1d_misses", "L1D misses", "misses", cacheValue(func(c *CacheCounts) int64 { return c.ReadMiss[0] + c.WriteMiss[0] }), (*Report).simulated},
	{"l2_misses", "L2 misses", "misses", cacheValue(func(c *CacheCounts) int64 { return c.Misses(1) }), (*Report).simulated},
	{"l3_misses", "L3 misses", "misses", cacheValue(func(c *CacheCounts) int64 { return c.Misses(2) }), hasL3},
	{"l1_miss_rate", "L1 miss rate", "share", l1MissRate, (*Report).simulated},
	{"data_reads", "Data reads", "accesses", cacheValue(func(c *CacheCounts) int64 { return c.Reads }), (*Report).simulated},
	{"data_writes", "Data writes", "accesses", cacheValue(func(c *CacheCounts) int64 { return c.Writes }), (*Report).simulated},
}

// Columns are the MemoryColumns that apply to the report: the pipeline's when a machine model
// priced it, the misses' when its run was simulated (L3's when the geometry has one), none
// when neither.
func (r *Report) Columns() []RowColumn {
	var out []RowColumn
	for _, c := range MemoryColumns {
		if c.applies(r) {
			out = append(out, c)
		}
	}
	return out
}

// priced tells that a machine model's block cycles were given to the report.
func (r *Report) priced() bool { return r.input.Priced }

// simulated tells that the report's run has simulated cache counts.
func (r *Report) simulated() bool { return !r.input.Geometry.IsZero() }

func hasL3(r *Report) bool { return r.input.Geometry.Level(L3) != nil }

func pipelineCycles(r ReportRow, _ *Report) (float64, bool) { return r.PipelineCycles, r.PipelineKnown }

func stallCycles(r ReportRow, _ *Report) (float64, bool) {
	return r.StallCycles, r.Cache != nil && r.StallKnown
}

// totalCycles is the row's cycles with every step the report has: pipeline cycles for the
// category cycles when priced, plus stall cycles when simulated; unknown when a step the
// report has is unknown for the row.
func totalCycles(r ReportRow, rep *Report) (float64, bool) {
	v := r.Cycles
	if rep.priced() {
		if !r.PipelineKnown {
			return 0, false
		}
		v = r.PipelineCycles
	}
	if rep.simulated() {
		s, ok := stallCycles(r, rep)
		if !ok {
			return 0, false
		}
		v += s
	}
	return v, true
}

// cacheValue reads a count of the row's cache counts, unknown where it has none.
func cacheValue(f func(*CacheCounts) int64) func(ReportRow, *Report) (float64, bool) {
	return func(r ReportRow, _ *Report) (float64, bool) {
		if r.Cache == nil {
			return 0, false
		}
		return float64(f(r.Cache)), true
	}
}

// l1MissRate is the percentage of L1 accesses (fetches, loads, stores) that missed.
func l1MissRate(r ReportRow, _ *Report) (float64, bool) {
	if r.Cache == nil || r.Cache.Accesses(0) == 0 {
		return 0, false
	}
	return float64(r.Cache.Misses(0)) / float64(r.Cache.Accesses(0)), true
}
