package cost

import (
	"strings"
	"testing"
)

// Columns apply by what the report has, and a row that cannot know a number says "unknown".
func TestColumns(t *testing.T) {
	keys := func(rep *Report) string {
		var out []string
		for _, c := range rep.Columns() {
			out = append(out, c.Key)
		}
		return strings.Join(out, " ")
	}
	all := "pipeline_cycles stall_cycles total_cycles l1i_misses l1d_misses l2_misses l1_miss_rate data_reads data_writes"
	for _, c := range []struct {
		name string
		edit func(*RunData, *ReportOptions)
		want string
	}{
		{"both", nil, all},
		{"no model", func(_ *RunData, o *ReportOptions) { o.BlockCycles = nil }, strings.TrimPrefix(all, "pipeline_cycles ")},
		{"not simulated", func(d *RunData, _ *ReportOptions) { d.Cache, d.Geometry = nil, CacheGeometry{} }, "pipeline_cycles total_cycles"},
		{"neither", func(d *RunData, o *ReportOptions) { d.Cache, d.Geometry, o.BlockCycles = nil, CacheGeometry{}, nil }, ""},
		{"with l3", func(d *RunData, _ *ReportOptions) {
			d.Geometry.Levels = append(d.Geometry.Levels, CacheLevel{Name: L3, SizeBytes: 65536, Ways: 8, LineBytes: 64, Replacement: LRU})
		}, strings.Replace(all, "l2_misses", "l2_misses l3_misses", 1)},
	} {
		d, p := memoryRun(t)
		opts := ReportOptions{Profile: p, By: ByFunction, BlockCycles: memoryBlockCycles}
		if c.edit != nil {
			c.edit(d, &opts)
		}
		if got := keys(mustReport(t, d, opts)); got != c.want {
			t.Errorf("%s: columns %q, want %q", c.name, got, c.want)
		}
	}

	d, p := memoryRun(t)
	byFunction := mustReport(t, d, ReportOptions{Profile: p, By: ByFunction, BlockCycles: memoryBlockCycles})
	byCategory := mustReport(t, d, ReportOptions{Profile: p, By: ByCategory, BlockCycles: memoryBlockCycles})
	p.Memory.Levels[2].MissCycles = 0 // L2 misses no longer priced: stalls unknown
	unpriced := mustReport(t, d, ReportOptions{Profile: p, By: ByFunction, BlockCycles: memoryBlockCycles})
	for _, c := range []struct {
		rep  *Report
		row  ReportRow
		want string // every column's text, in order
	}{
		// main: 550 pipeline + 1402 stall; L1 misses 26 of 750 accesses = 3.47 %
		{byFunction, byFunction.Rows[0], "550|1 402|1 952|5|21|11|3.5 %|150|100"},
		{byFunction, byFunction.Total, "570|5 092|5 662|8|51|44|7.3 %|180|100"},
		{byCategory, byCategory.Rows[0], "unknown|unknown|unknown|unknown|unknown|unknown|unknown|unknown|unknown"},
		{byCategory, byCategory.Total, "570|5 092|5 662|8|51|44|7.3 %|180|100"},
		{unpriced, unpriced.Rows[0], "550|unknown|unknown|5|21|11|3.5 %|150|100"},
	} {
		var got []string
		for _, col := range c.rep.Columns() {
			got = append(got, col.Text(c.row, c.rep))
		}
		if g := strings.Join(got, "|"); g != c.want {
			t.Errorf("%s %s: %s, want %s", c.rep.By, c.row.Key, g, c.want)
		}
	}
	if v, ok := MemoryColumns[7].Value(byFunction.Rows[0], byFunction); !ok || !near(v, 26.0/750) {
		t.Errorf("l1_miss_rate = %v %v", v, ok)
	}
}
