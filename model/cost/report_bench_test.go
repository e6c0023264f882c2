package cost

import (
	"fmt"
	"math"
	"testing"

	modelmodel "androprof/model"
)

// benchRun is 100,000 synthetic blocks of 2–9 instructions (as controller's
// BenchmarkReport100kBlocks makes them), test input never shown as measured data; simulated
// adds cache counts for every block and the machine model's cycles for half of them.
func benchRun(simulated bool) (*RunData, *Profile, []float64) {
	mnemonics := []string{"ADD", "SUB", "LDR", "STR", "MOV", "CMP", "BNE", "MUL", "LSL", "ORR", "AND", "EOR", "B", "BL", "PUSH", "POP"}
	p := NewProfile("bench", ARM)
	for i, m := range mnemonics {
		p.Categories = append(p.Categories, Category{Name: m, Cycles: float64(1 + i%3), PowerMW: 500, Instructions: []Instruction{{ARM, m}}})
	}
	p.Memory, _ = ParseCacheGeometry("l1i=32k:4:64,l1d=32k:4:64,l2=512k:8:64")
	for i := range p.Memory.Levels {
		p.Memory.Levels[i].MissCycles, p.Memory.Levels[i].AccessEnergyNJ = 10, 0.1
	}
	const n = 100_000
	blocks := make([]BlockSummary, n)
	cycles := make([]float64, n)
	var cache []CacheCounts
	if simulated {
		cache = make([]CacheCounts, n)
	}
	for i := range blocks {
		b := BlockSummary{ID: int64(i + 1), PID: 1, PC: uint64(0x10000 + 64*i), ISA: ARM, Symbol: fmt.Sprintf("f%d", i/20),
			Insns: 2 + i%8, Executions: int64(1 + i%1000)}
		for j := 0; j < b.Insns; j++ {
			b.Mix = append(b.Mix, InstructionCount{Instruction{ARM, mnemonics[(i*7+j*13)%len(mnemonics)]}, 1})
		}
		blocks[i] = b
		cycles[i] = float64(b.Insns) / 2
		if i%2 == 1 {
			cycles[i] = math.NaN()
		}
		if simulated {
			cache[i] = CacheCounts{Fetches: b.Executions * int64(b.Insns), FetchMiss: [3]int64{int64(i % 7), int64(i % 3)}, Reads: b.Executions,
				ReadMiss: [3]int64{int64(i % 11), int64(i % 5)}}
		}
	}
	d := NewRunData("big", []ProcessSummary{{Process: modelmodel.Process{PID: 1}}}, blocks)
	if simulated {
		d.Geometry, d.Cache = p.Memory.Geometry(), cache
	} else {
		cycles = nil
	}
	return d, p, cycles
}

// The budget is a report on 100,000 blocks in < 50 ms (controller's
// BenchmarkReport100kBlocks adds only loading the run); the memory and pipeline steps must not
// take it over.
func BenchmarkReport100k(b *testing.B) {
	for _, sim := range []bool{false, true} {
		d, p, cycles := benchRun(sim)
		for _, c := range []struct {
			name string
			opts ReportOptions
		}{{"function", ReportOptions{By: ByFunction}}, {"category", ReportOptions{By: ByCategory}},
			{"bb-top200", ReportOptions{By: ByBlock, Top: 200}}, {"bb", ReportOptions{By: ByBlock}},
			{"bb-misses-top200", ReportOptions{By: ByBlock, Top: 200, MissesFirst: true}}} {
			b.Run(fmt.Sprintf("%s/simulated=%v", c.name, sim), func(b *testing.B) {
				opts := c.opts
				opts.Profile, opts.BlockCycles = p, cycles
				for i := 0; i < b.N; i++ {
					if _, err := d.Report(opts); err != nil {
						b.Fatal(err)
					}
				}
				b.ReportMetric(float64(b.Elapsed().Microseconds())/1000/float64(b.N), "ms/report")
			})
		}
	}
}
