package cost

import (
	"fmt"
	"math"
	"strings"
	"testing"

	modelmodel "androprof/model"
)

// memoryRun is a small simulated run whose every number below is worked out by hand:
//
//	block  function  mix (per execution)   execs  category cycles  model cycles  L1 misses (I, D)
//	b0     main      ADD ADD LDR STR       100    6 → 600          4 → 400       4, 16
//	b1     main      MOV LDR               50     3 → 150          NaN → 150     1, 5
//	b2     helper    LDR LDR LDR           10     6 → 60           2 → 20        3, 30
//
// alu (ADD, MOV) costs 1 cycle at 500 mW, mem (LDR, STR) 2 cycles at 1000 mW, at 1 GHz. The
// hierarchy prices a miss at 10 cycles in L1I, 12 in L1D and 100 in L2; an access costs 0.1, 0.2
// and 0.5 nJ, main memory 2 nJ.
func memoryRun(t *testing.T) (*RunData, *Profile) {
	t.Helper()
	p := NewProfile("p", ARM)
	p.Categories = []Category{
		{Name: "alu", Cycles: 1, PowerMW: 500, Instructions: []Instruction{{ARM, "ADD"}, {ARM, "MOV"}}},
		{Name: "mem", Cycles: 2, PowerMW: 1000, Instructions: []Instruction{{ARM, "LDR"}, {ARM, "STR"}}},
	}
	p.Undefined.Cycles = 3
	p.Reference = Reference{FrequencyGHz: 1, CPI: 20, ProcessorPowerW: 1, BaseInstructions: 1000, BaseCacheMisses: 10, MemoryAccessEnergy: 2}
	geometry, err := ParseCacheGeometry("l1i=1k:2:64,l1d=1k:2:64,l2=8k:4:64")
	if err != nil {
		t.Fatal(err)
	}
	p.Memory = geometry
	for i, c := range []struct{ miss, nj float64 }{{10, 0.1}, {12, 0.2}, {100, 0.5}} {
		p.Memory.Levels[i].MissCycles, p.Memory.Levels[i].AccessEnergyNJ = c.miss, c.nj
	}
	mix := func(m ...any) []InstructionCount {
		var out []InstructionCount
		for i := 0; i < len(m); i += 2 {
			out = append(out, InstructionCount{Instruction{ARM, m[i].(string)}, int64(m[i+1].(int))})
		}
		return out
	}
	blocks := []BlockSummary{
		{ID: 1, PID: 1, PC: 0x1000, ISA: ARM, Symbol: "main", Insns: 4, Executions: 100, Mix: mix("ADD", 2, "LDR", 1, "STR", 1)},
		{ID: 2, PID: 1, PC: 0x1010, ISA: ARM, Symbol: "main", Insns: 2, Executions: 50, Mix: mix("MOV", 1, "LDR", 1)},
		{ID: 3, PID: 1, PC: 0x2000, ISA: ARM, Symbol: "helper", Insns: 3, Executions: 10, Mix: mix("LDR", 3)},
	}
	procs := []ProcessSummary{{Process: modelmodel.Process{PID: 1}, BlocksExecuted: 160, Instructions: 530}}
	d := NewRunData("r", procs, blocks)
	d.Geometry, d.GeometrySource = geometry.Geometry(), "--cache"
	d.Cache = []CacheCounts{
		{Fetches: 400, FetchMiss: [3]int64{4, 2}, Reads: 100, ReadMiss: [3]int64{10, 5}, Writes: 100, WriteMiss: [3]int64{6, 1}},
		{Fetches: 100, FetchMiss: [3]int64{1, 1}, Reads: 50, ReadMiss: [3]int64{5, 2}},
		{Fetches: 30, FetchMiss: [3]int64{3, 3}, Reads: 30, ReadMiss: [3]int64{30, 30}},
	}
	return d, p
}

var memoryBlockCycles = []float64{4, math.NaN(), 2}

func near(a, b float64) bool { return math.Abs(a-b) <= 1e-9*math.Max(math.Abs(a), math.Abs(b)) }

func mustReport(t *testing.T, d *RunData, opts ReportOptions) *Report {
	t.Helper()
	rep, err := d.Report(opts)
	if err != nil {
		t.Fatal(err)
	}
	return rep
}

// Rows of whole blocks carry their blocks' pipeline cycles (the category cost where the model
// priced nothing: b1), cache counts and stall cycles; the total carries every block's.
func TestReportRowsCarryPipelineAndMisses(t *testing.T) {
	d, p := memoryRun(t)
	rep := mustReport(t, d, ReportOptions{Profile: p, By: ByFunction, BlockCycles: memoryBlockCycles, Pipeline: "m"})
	for _, c := range []struct {
		row                       ReportRow
		key                       string
		cycles, pipeline, stall   float64
		pipelineInsns, l1Misses   int64
		reads, writes, l2Accesses int64
	}{
		// main: stall = 5 L1I × 10 + 21 L1D × 12 + 11 L2 × 100 = 1402
		{rep.Rows[0], "main", 750, 550, 1402, 400, 26, 150, 100, 26},
		// helper: 3 × 10 + 30 × 12 + 33 × 100 = 3690
		{rep.Rows[1], "helper", 60, 20, 3690, 30, 33, 30, 0, 33},
		{rep.Total, "total", 810, 570, 5092, 430, 59, 180, 100, 59},
	} {
		r := c.row
		if r.Key != c.key || r.Cycles != c.cycles || r.PipelineCycles != c.pipeline || r.PipelineInsns != c.pipelineInsns || !r.PipelineKnown {
			t.Errorf("%s: key %q cycles %v pipeline %v (%d insns, known %v), want %q %v %v (%d)", c.key, r.Key, r.Cycles,
				r.PipelineCycles, r.PipelineInsns, r.PipelineKnown, c.key, c.cycles, c.pipeline, c.pipelineInsns)
		}
		if r.Cache == nil || r.StallCycles != c.stall || !r.StallKnown || r.Cache.Misses(0) != c.l1Misses ||
			r.Cache.Reads != c.reads || r.Cache.Writes != c.writes || r.Cache.Accesses(1) != c.l2Accesses {
			t.Errorf("%s: stall %v (known %v), cache %+v; want stall %v, %d L1 misses", c.key, r.StallCycles, r.StallKnown, r.Cache, c.stall, c.l1Misses)
		}
	}
}

// The waterfall of the total, worked by hand from memoryRun.
func TestWaterfallSteps(t *testing.T) {
	d, p := memoryRun(t)
	w := mustReport(t, d, ReportOptions{Profile: p, By: ByFunction, BlockCycles: memoryBlockCycles, Pipeline: "m"}).Waterfall
	core := 6.85e-7 * 5662 / 810 // the category estimate's energy, stretched to the total time
	// L1I 530 × 0.1 nJ + L1D 280 × 0.2 + L2 59 × 0.5 + memory 44 × 2 = 226.5 nJ
	memory := 226.5e-9
	for _, c := range []struct {
		name      string
		got, want float64
	}{
		{"category cycles", w.CategoryCycles, 810},
		{"pipeline cycles", w.PipelineCycles, 570},
		{"pipeline coverage", w.PipelineCoverage, 430.0 / 530},
		{"stall cycles", w.StallCycles, 5092},
		{"total cycles", w.TotalCycles, 5662},
		{"time", w.TimeS, 5662e-9},
		{"core energy", w.CoreEnergyJ, core},
		{"memory energy", w.MemoryEnergyJ, memory},
		{"energy", w.EnergyJ, core + memory},
		{"reference cycles", w.Reference.Cycles, 10600},
		{"gap", w.GapCycles, 10600 - 5662},
	} {
		if !near(c.got, c.want) {
			t.Errorf("%s = %v, want %v", c.name, c.got, c.want)
		}
	}
	if !w.PipelineKnown || !w.MemoryKnown || !w.CoreEnergyKnown || !w.MemoryEnergyKnown || !w.Complete || !w.ReferenceKnown {
		t.Errorf("known flags: %+v", w)
	}
	if w.Geometry != "l1i=1k:2:64:lru:wa,l1d=1k:2:64:lru:wa,l2=8k:4:64:lru:wa" || w.GeometrySource != "--cache" || w.MemoryNote != "" {
		t.Errorf("geometry %q from %q, note %q", w.Geometry, w.GeometrySource, w.MemoryNote)
	}
	want := []LevelCost{
		{Level: L1I, Accesses: 530, Misses: 8, MissRate: 8.0 / 530, MissCycles: 10, MissKnown: true, StallCycles: 80, EnergyJ: 53e-9, EnergyKnown: true},
		{Level: L1D, Accesses: 280, Misses: 51, MissRate: 51.0 / 280, MissCycles: 12, MissKnown: true, StallCycles: 612, EnergyJ: 56e-9, EnergyKnown: true},
		{Level: L2, Accesses: 59, Misses: 44, MissRate: 44.0 / 59, MissCycles: 100, MissKnown: true, StallCycles: 4400, EnergyJ: 29.5e-9, EnergyKnown: true},
	}
	if len(w.Levels) != len(want) {
		t.Fatalf("levels %+v", w.Levels)
	}
	for i, l := range w.Levels {
		e := want[i]
		if l.Level != e.Level || l.Accesses != e.Accesses || l.Misses != e.Misses || !near(l.MissRate, e.MissRate) || l.MissCycles != e.MissCycles ||
			!l.MissKnown || l.StallCycles != e.StallCycles || !near(l.EnergyJ, e.EnergyJ) || !l.EnergyKnown {
			t.Errorf("level %d = %+v, want %+v", i, l, e)
		}
	}
	if w.PipelineNote != "m priced 81 % of the instructions; the rest keep their category cost" {
		t.Errorf("pipeline note %q", w.PipelineNote)
	}
}

// The gap to figure 5.2 is named both ways: what the model leaves out when it explains less,
// and that it charges too much when it explains more.
func TestWaterfallGapSentence(t *testing.T) {
	d, p := memoryRun(t)
	for _, c := range []struct {
		cpi  float64
		want string
	}{
		{20, "figure 5.2's measured CPI 20 gives 10.6 k cycles; the model explains 5.66 k cycles; the other 4.94 k cycles (47 %) " +
			"are what it does not model: " + unmodelled},
		{10, "figure 5.2's measured CPI 10 gives 5.3 k cycles; the model's 5.66 k cycles exceed it by 362 cycles (6.8 %): " +
			"the model charges every miss in full where the measured core overlaps misses with work, and the CPI was measured on other programs"},
	} {
		p.Reference.CPI = c.cpi
		w := mustReport(t, d, ReportOptions{Profile: p, By: ByPID, BlockCycles: memoryBlockCycles, Pipeline: "m"}).Waterfall
		if w.Gap != c.want {
			t.Errorf("CPI %v: gap\n%q\nwant\n%q", c.cpi, w.Gap, c.want)
		}
	}
	p.Reference.CPI = 0
	if w := mustReport(t, d, ReportOptions{Profile: p, By: ByPID}).Waterfall; w.ReferenceKnown || !strings.HasPrefix(w.Gap, "no gap to name") {
		t.Errorf("no CPI: %v %q", w.ReferenceKnown, w.Gap)
	}
}

// Without a hierarchy in the profile, without a simulation or without a model, the step says
// why it is missing, the gap names it, and the total carries the steps that are known.
func TestWaterfallMissingSteps(t *testing.T) {
	for _, c := range []struct {
		name              string
		edit              func(*RunData, *Profile, *ReportOptions)
		total, stall      float64
		memoryKnown       bool
		memoryNote        string
		pipelineNote      string
		stallKnown, cache bool
	}{
		{"no hierarchy", func(_ *RunData, p *Profile, _ *ReportOptions) { p.Memory = CacheGeometry{} },
			570, 0, false, "the profile has no memory hierarchy", "", false, true},
		{"no L2 price", func(_ *RunData, p *Profile, _ *ReportOptions) { p.Memory.Levels[2].MissCycles = 0 },
			570 + 80 + 612, 692, false, "the profile gives no miss cycles for l2", "", false, true},
		{"not simulated", func(d *RunData, _ *Profile, _ *ReportOptions) { d.Cache, d.Geometry = nil, CacheGeometry{} },
			570, 0, false, "not simulated: run with --cache", "", false, false},
		{"no model", func(_ *RunData, _ *Profile, o *ReportOptions) { o.BlockCycles = nil },
			810 + 5092, 5092, true, "", "the profile names no machine model", true, true},
		{"no tool", func(_ *RunData, _ *Profile, o *ReportOptions) {
			o.BlockCycles, o.PipelineNote = nil, "llvm-mca-16 is not installed"
		},
			810 + 5092, 5092, true, "", "llvm-mca-16 is not installed", true, true},
	} {
		t.Run(c.name, func(t *testing.T) {
			d, p := memoryRun(t)
			opts := ReportOptions{Profile: p, By: ByFunction, BlockCycles: memoryBlockCycles, Pipeline: "m"}
			c.edit(d, p, &opts)
			rep := mustReport(t, d, opts)
			w := rep.Waterfall
			if w.TotalCycles != c.total || w.StallCycles != c.stall || w.MemoryKnown != c.memoryKnown || w.MemoryNote != c.memoryNote || w.Complete {
				t.Errorf("total %v stall %v memory known %v note %q complete %v", w.TotalCycles, w.StallCycles, w.MemoryKnown, w.MemoryNote, w.Complete)
			}
			if c.pipelineNote != "" && (w.PipelineNote != c.pipelineNote || w.PipelineKnown || w.PipelineCycles != 810) {
				t.Errorf("pipeline %v known %v note %q", w.PipelineCycles, w.PipelineKnown, w.PipelineNote)
			}
			r := rep.Total
			if r.StallKnown != c.stallKnown || (r.Cache != nil) != c.cache || r.StallCycles != c.stall {
				t.Errorf("total row: stall %v known %v cache %v", r.StallCycles, r.StallKnown, r.Cache)
			}
			missing := "memory stalls (" + c.memoryNote + ")"
			if c.pipelineNote != "" {
				missing = "pipeline dependencies and issue width (" + c.pipelineNote + ")"
			}
			if !strings.Contains(w.Gap, "does not model: "+missing+"; branch mispredictions") {
				t.Errorf("gap %q does not name %q", w.Gap, missing)
			}
		})
	}
}

// A run simulated for another hierarchy than the profile's is priced level by level, and the
// note says so; a level the profile lacks is unknown.
func TestWaterfallOtherGeometry(t *testing.T) {
	d, p := memoryRun(t)
	g, err := ParseCacheGeometry("l1i=1k:2:64,l1d=1k:2:64,l2=8k:4:64,l3=64k:8:64")
	if err != nil {
		t.Fatal(err)
	}
	d.Geometry = g
	w := mustReport(t, d, ReportOptions{Profile: p, By: ByPID}).Waterfall
	want := "the profile gives no miss cycles for l3; the profile's own caches are " + p.Memory.Geometry().String() +
		": its miss cycles are applied to the simulated ones level by level"
	if w.MemoryNote != want || w.MemoryKnown || len(w.Levels) != 4 || w.Levels[3].MissKnown || w.StallCycles != 5092 {
		t.Errorf("note %q known %v levels %+v stall %v", w.MemoryNote, w.MemoryKnown, w.Levels, w.StallCycles)
	}
}

// An instruction or category row is part of many blocks: it has neither pipeline cycles nor
// misses, and says so; the total still has both.
func TestCategoryRowsHaveNoBlockNumbers(t *testing.T) {
	d, p := memoryRun(t)
	rep := mustReport(t, d, ReportOptions{Profile: p, By: ByCategory, BlockCycles: memoryBlockCycles, Pipeline: "m"})
	if len(rep.Rows) != 2 || rep.Rows[0].Key != "mem" || rep.Rows[0].Cycles != 2*(200+50+30) {
		t.Fatalf("rows %+v", rep.Rows)
	}
	for _, r := range rep.Rows {
		if r.Cache != nil || r.PipelineKnown || r.StallKnown {
			t.Errorf("%s: cache %v pipeline known %v", r.Key, r.Cache, r.PipelineKnown)
		}
		w := rep.RowWaterfall(r)
		if w.PipelineKnown || w.MemoryKnown || !strings.Contains(w.PipelineNote, "whole blocks") || !strings.Contains(w.MemoryNote, "per block") {
			t.Errorf("%s: waterfall %+v", r.Key, w)
		}
	}
	if rep.Total.PipelineCycles != 570 || rep.Total.StallCycles != 5092 || rep.Waterfall.TotalCycles != 5662 {
		t.Errorf("total %+v", rep.Total)
	}
	byFunction := mustReport(t, d, ReportOptions{Profile: p, By: ByFunction, BlockCycles: memoryBlockCycles, Pipeline: "m"})
	if w := byFunction.RowWaterfall(byFunction.Rows[1]); w.TotalCycles != 20+3690 || !w.Complete {
		t.Errorf("helper's waterfall %+v", w)
	}
}

// MissesFirst puts the rows that miss most at L1 first (then L2, L3), whatever they cost in
// cycles; without misses the order stays by cycles.
func TestMissesFirst(t *testing.T) {
	for _, c := range []struct {
		name string
		opts ReportOptions
		edit func(*RunData)
		want string
	}{
		{"cycles", ReportOptions{By: ByBlock}, nil, "b0 b1 b2"},
		{"misses", ReportOptions{By: ByBlock, MissesFirst: true}, nil, "b2 b0 b1"},
		{"misses top", ReportOptions{By: ByBlock, MissesFirst: true, Top: 2}, nil, "b2 b0"},
		{"functions", ReportOptions{By: ByFunction, MissesFirst: true}, nil, "helper main"},
		{"L1 tie, then L2", ReportOptions{By: ByBlock, MissesFirst: true}, func(d *RunData) {
			d.Cache[1].ReadMiss = [3]int64{19, 9} // b1 ties b0 at L1 (20) and misses more at L2 (10 > 8)
		}, "b2 b1 b0"},
		{"not simulated", ReportOptions{By: ByBlock, MissesFirst: true}, func(d *RunData) { d.Cache = nil }, "b0 b1 b2"},
	} {
		d, p := memoryRun(t)
		if c.edit != nil {
			c.edit(d)
		}
		c.opts.Profile = p
		rep := mustReport(t, d, c.opts)
		var got []string
		for _, r := range rep.Rows {
			name := r.Key
			if r.BlockID != 0 {
				name = "b" + string(rune('0'+r.BlockID-1))
			}
			got = append(got, name)
		}
		if strings.Join(got, " ") != c.want {
			t.Errorf("%s: order %v, want %s", c.name, got, c.want)
		}
	}
}

// A report that has a block's count for none of its blocks, or for other blocks, is refused.
func TestReportRefusesMismatchedBlockData(t *testing.T) {
	d, p := memoryRun(t)
	if _, err := d.Report(ReportOptions{Profile: p, By: ByPID, BlockCycles: []float64{1}}); err == nil {
		t.Error("1 block cycle for 3 blocks accepted")
	}
	d.Cache = d.Cache[:2]
	if _, err := d.Report(ReportOptions{Profile: p, By: ByPID}); err == nil {
		t.Error("cache counts for 2 of 3 blocks accepted")
	}
}

// Function, image and layer groups are keyed without strings: same-named functions of two
// processes stay apart, blocks with no symbol or image group together.
func TestReportGroupNames(t *testing.T) {
	one := []InstructionCount{{Instruction{ARM, "ADD"}, 1}}
	blocks := []BlockSummary{
		{ID: 1, PID: 1, PC: 0x10, ISA: ARM, Symbol: "main", Image: "a", ImageKind: ImageProgram, Insns: 1, Executions: 5, Mix: one},
		{ID: 2, PID: 2, PC: 0x10, ISA: ARM, Symbol: "main", Image: "a", ImageKind: ImageProgram, Insns: 1, Executions: 4, Mix: one},
		{ID: 3, PID: 1, PC: 0x20, ISA: ARM, Insns: 1, Executions: 3, Mix: one},
		{ID: 4, PID: 1, PC: 0x30, ISA: ARM, Insns: 1, Executions: 2, Mix: one},
	}
	procs := []ProcessSummary{{Process: modelmodel.Process{PID: 1}}, {Process: modelmodel.Process{PID: 2}}}
	d := NewRunData("r", procs, blocks)
	p := NewProfile("p", ARM)
	p.Undefined.Cycles = 1
	for _, c := range []struct {
		by   Grouping
		pid  int
		want string
	}{
		{ByFunction, 0, "1:main=5 1:(no symbol)=5 2:main=4"},
		{ByFunction, 1, "main=5 (no symbol)=5"},
		{ByImage, 0, "1:a=5 1:(no image)=5 2:a=4"},
		{ByLayer, 0, "program=9 (no image)=5"},
	} {
		var got []string
		for _, r := range mustReport(t, d, ReportOptions{Profile: p, By: c.by, PID: c.pid}).Rows {
			got = append(got, fmt.Sprintf("%s=%d", r.Key, r.Instructions))
		}
		if strings.Join(got, " ") != c.want {
			t.Errorf("%s pid %d: %v, want %s", c.by, c.pid, got, c.want)
		}
	}
}
