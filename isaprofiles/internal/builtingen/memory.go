package builtingen

import (
	"fmt"
	"strings"

	"androprof/model/cost"
)

// The memory hierarchy and the machine model of each built-in core (docs/memory.md). A level's
// geometry comes from the core's technical reference manual and the SoC the profile's other
// numbers were measured on; its miss cost from published latency measurements, as the load-to-use
// latency of the next level less this level's; its access energy from published per-access
// figures. A number no source gives stays 0 (unknown), with a note saying so.

// Level is one cache level with the notes that source it: Geometry for its size, ways, line,
// replacement and write policy, Miss for MissCycles and Energy for AccessEnergyNJ. A cost
// without notes must be 0; a 0 cost may carry notes saying why it is unknown.
type Level struct {
	cost.CacheLevel
	Geometry, Miss, Energy []Note
}

// Machine is the llvm-mca model that prices the core's blocks, or none (zero Model) with notes
// saying why.
type Machine struct {
	Model cost.PipelineModel
	Notes []Note
}

// level starts a level's table row; its costs are added with withMiss and withEnergy.
func level(name string, size int64, ways, line int, r cost.Replacement, writeAllocate bool, geometry ...Note) Level {
	return Level{CacheLevel: cost.CacheLevel{Name: name, SizeBytes: size, Ways: ways, LineBytes: line,
		Replacement: r, WriteAllocate: writeAllocate}, Geometry: geometry}
}

func (l Level) withMiss(cycles float64, notes ...Note) Level {
	l.MissCycles, l.Miss = cycles, notes
	return l
}

func (l Level) withEnergy(nj float64, notes ...Note) Level {
	l.AccessEnergyNJ, l.Energy = nj, notes
	return l
}

func src(format string, args ...any) Note { return Note{Text: fmt.Sprintf(format, args...)} }

func guess(format string, args ...any) Note {
	return Note{Estimate: true, Text: fmt.Sprintf(format, args...)}
}

// addMemory puts the core's hierarchy and machine model into p with their citations, checking
// that each known number is cited and that the hierarchy validates.
func addMemory(core Core, p *cost.Profile) error {
	for _, l := range core.Memory {
		for _, part := range []struct {
			what  string
			value float64
			notes []Note
		}{{"geometry", 1, l.Geometry}, {"miss cycles", l.MissCycles, l.Miss}, {"access energy", l.AccessEnergyNJ, l.Energy}} {
			if err := checkNotes(part.notes, part.value != 0); err != nil {
				return fmt.Errorf("cache level %s %s: %v", l.Name, part.what, err)
			}
			for _, n := range part.notes {
				p.Citations = append(p.Citations, cost.Citation{Cost: l.Name, Estimate: n.Estimate,
					Text: capitalize(part.what) + ": " + n.Text})
			}
		}
		p.Memory.Levels = append(p.Memory.Levels, l.CacheLevel)
	}
	if !p.Memory.IsZero() {
		if err := p.Memory.Validate(); err != nil {
			return err
		}
	}
	if err := checkNotes(core.Pipeline.Notes, !core.Pipeline.Model.IsZero()); err != nil {
		return fmt.Errorf("machine model: %v", err)
	}
	p.Pipeline = core.Pipeline.Model
	for _, n := range core.Pipeline.Notes {
		p.Citations = append(p.Citations, cost.Citation{Cost: cost.PipelineCost, Estimate: n.Estimate, Text: n.Text})
	}
	return nil
}

// checkNotes refuses an empty note, and a number that is known but cites nothing.
func checkNotes(notes []Note, known bool) error {
	if known && len(notes) == 0 {
		return fmt.Errorf("no citation")
	}
	for _, n := range notes {
		if strings.TrimSpace(n.Text) == "" {
			return fmt.Errorf("empty citation")
		}
	}
	return nil
}

func capitalize(s string) string { return strings.ToUpper(s[:1]) + s[1:] }

// nsToCycles converts a latency measured in nanoseconds to cycles of the given clock, rounded.
func nsToCycles(ns, ghz float64) float64 { return round2(ns * ghz) }

// Sources the tables below cite more than once.
const (
	trmA8      = "ARM Cortex-A8 Technical Reference Manual (ARM DDI 0344K, r3p2)"
	trmA9      = "ARM Cortex-A9 Technical Reference Manual (ARM DDI 0388I, r4p1)"
	trmA15     = "ARM Cortex-A15 MPCore Technical Reference Manual (ARM DDI 0438, r4p0)"
	trmA55     = "Arm Cortex-A55 Core Technical Reference Manual (100442_0200)"
	trmA76     = "Arm Cortex-A76 Core Technical Reference Manual (100798_0300)"
	intelOpt   = "Intel 64 and IA-32 Architectures Optimization Reference Manual (order 248966)"
	blemBoards = "Blem, Menon and Sankaralingam, 'Power Struggles: Revisiting the RISC vs. CISC Debate on " +
		"Contemporary ARM and x86 Architectures' (HPCA 2013; the UW-Madison technical report behind seed 000 " +
		"Table 5.3), table of platforms"
	sevenCPUA9  = "7-cpu.com, 'ARM Cortex-A9' (Samsung Exynos 4210, two Cortex-A9 at 1.2 GHz, 1 MB L2), pointer-chasing latencies"
	sevenCPUA15 = "7-cpu.com, 'ARM Cortex-A15' (Samsung Exynos 5250, two Cortex-A15 at 1.7 GHz, Samsung Chromebook XE303C12), pointer-chasing latencies"
	horowitz    = "M. Horowitz, 'Computing's Energy Problem (and what we can do about it)', ISSCC 2014, " +
		"45 nm figures: a 64-bit access costs 10 pJ in an 8 KB cache, 20 pJ in a 32 KB cache and 100 pJ in a 1 MB cache"
	lruAssumed   = "no source found gives this level's replacement policy; LRU, the policy of the cachegrind referee, is assumed"
	waAssumed    = "the write policy is taken as write-back write-allocate (cachegrind's model), since the sources read do not settle it"
	rk3588Caches = "Linux arch/arm64/boot/dts/rockchip/rk3588-base.dtsi (formerly rk3588s.dtsi), the RK3588's cache " +
		"nodes: %s"
)

// assumedPolicy is the note of a level whose replacement and write policy no source gives.
func assumedPolicy() Note { return guess("%s; %s.", capitalize(lruAssumed), waAssumed) }

// missNote is the usual miss-cost citation: the next level's latency less this level's.
func missNote(source string, next, here float64, nextName, hereName string) string {
	return fmt.Sprintf("%s: %s load-to-use latency %s cycles, %s %s cycles; a miss here waits %s − %s = %s cycles more "+
		"than a hit (the full latency: an out-of-order core hides part of it, which the estimate does not model).",
		source, nextName, num(next), hereName, num(here), num(next), num(here), num(next-here))
}

func cortexA8Memory() []Level {
	const l1 = trmA8 + ", chapter 7 (Level 1 Memory System): the L1 instruction and data caches are each 16 KB or 32 KB, 4-way set associative, " +
		"with 64-byte lines and random replacement."
	const soc = "The seed's Cortex-A8 figures (" + blemBoards + ") were measured on a BeagleBoard, TI OMAP3530 at " +
		"600 MHz, whose Cortex-A8 has 16 KB L1 instruction and data caches and a 256 KB L2 (TI OMAP3530/25 " +
		"Applications Processor data manual, SPRS507)."
	const process = "65 nm (TI OMAP3530)"
	loadMiss := src("%s, the instruction cycle timing chapter, memory-system effects on instruction "+
		"timing: a load that misses the L1 data cache and hits the L2 is replayed after 8 cycles (reproduced in "+
		"W. Stallings, Computer Organization and Architecture, 9th ed., Table 14.2).", trmA8)
	dram, dramText := a10A8.miss("64k", "an L2 hit", "65536k", "main memory", 1)
	return []Level{
		level(cost.L1I, 16<<10, 4, 64, cost.Random, true, src("%s %s", l1, soc)).
			withMiss(8, guess("The TRM gives the 8-cycle replay for data loads only; an instruction fetch that misses "+
				"L1 and hits L2 is assumed to wait as long.")).withHorowitz(process),
		level(cost.L1D, 16<<10, 4, 64, cost.Random, true, src("%s %s", l1, soc), guess("%s.", capitalize(waAssumed))).
			withMiss(8, loadMiss).withHorowitz(process),
		level(cost.L2, 256<<10, 8, 64, cost.Random, true,
			src("%s §8.2: the L2 cache is 8-way set associative, physically addressed, of 0, 128, 256, 512 KB or 1 MB; "+
				"64-byte lines. %s", trmA8, soc),
			guess("The L2 chapter read does not state the replacement policy; random, the L1s' policy, is assumed. %s.",
				capitalize(waAssumed))).
			withMiss(dram, guess("%s Converted at the profile's 1 GHz reference clock, the seed's assumed clock (at the "+
				"BeagleBoard's 600 MHz it would be %s cycles). Measured on the Allwinner A10, another Cortex-A8 SoC: no "+
				"memory latency of the OMAP3530 was found. %s This replaces the lower bound of the %s, instruction "+
				"cycle timing chapter: 'the minimum time required to receive the critical word for an L2 cache miss is "+
				"approximately 25 cycles, but can be much longer because of L3 memory latencies'.", dramText, num(nsToCycles(dram, 0.6)), ramlatRows, trmA8)).
			withHorowitz(process),
	}
}

func cortexA9Memory() []Level {
	const l1 = trmA9 + " §7.1: separate 4-way set-associative instruction and data caches of 16, 32 or 64 KB with " +
		"32-byte (eight-word) lines; 'instruction cache replacement policy is either pseudo round-robin or pseudo " +
		"random', 'data cache replacement policy is pseudo random'."
	const soc = "The seed's Cortex-A9 figures (" + blemBoards + ") were measured on a PandaBoard, TI OMAP4430, whose " +
		"Cortex-A9s have 32 KB L1 caches and share a 1 MB PL310 L2."
	const pl310 = "Linux arch/arm/mach-omap2/omap4-common.c, omap_l2_cache_init: the OMAP4430's PL310 (L2C-310) is " +
		"set up '16-way associativity ... way size 64KB (es2.0 +)', i.e. 1 MB, and with aux_ctrl bit 25 " +
		"(L2X0_AUX_CTRL_REPLACE_POLICY_SHIFT) set, round-robin replacement; the L2C-310's lines are 32 bytes " +
		"(ARM CoreLink Level 2 Cache Controller L2C-310 Technical Reference Manual, ARM DDI 0246)."
	const process = "45 nm (TI OMAP4430), the process of the figures themselves"
	l1Miss := guess("%s Measured on another SoC with the same core and L2 size.", missNote(sevenCPUA9, 23, 4, "L2", "L1"))
	return []Level{
		level(cost.L1I, 32<<10, 4, 32, cost.Random, true, src("%s %s", l1, soc),
			guess("Pseudo-random is taken for the instruction cache too (SCTLR.RR = 0, the reset value, selects it).")).
			withMiss(19, l1Miss).withHorowitz(process),
		level(cost.L1D, 32<<10, 4, 32, cost.Random, true, src("%s %s", l1, soc),
			guess("Linux maps normal memory write-back write-allocate on ARMv7 SMP; %s.", waAssumed)).
			withMiss(19, l1Miss).withHorowitz(process),
		level(cost.L2, 1<<20, 16, 32, cost.RoundRobin, true, src("%s %s", pl310, soc), guess("%s.", capitalize(waAssumed))).
			withMiss(220, guess("%s: main memory adds 110 ns to an L2 hit; at the profile's 2 GHz reference clock that is "+
				"%s cycles. Measured on the Exynos 4210, not the OMAP4430.", sevenCPUA9, num(nsToCycles(110, 2)))).
			withHorowitz(process),
	}
}

func cortexA15Memory() []Level {
	const l1 = trmA15 + ": the L1 instruction and data caches are 32 KB, 2-way set associative, with 64-byte lines; " +
		"the L2 is 512 KB to 4 MB, 16-way, 64-byte lines."
	const soc = "The profile's power figure is for the Samsung Exynos 5250 (two Cortex-A15 at 1.7 GHz, 1 MB shared L2); " +
		sevenCPUA15 + " reports its L1 data cache as '32 KB, 64 B/line, 2-WAY, LRU' and its L2 as '1 MB, 64 B/line, 16-WAY'."
	const process = "32 nm (Samsung Exynos 5250)"
	l1Miss := src("%s", missNote(sevenCPUA15, 21, 4, "L2", "L1"))
	return []Level{
		level(cost.L1I, 32<<10, 2, 64, cost.LRU, true, src("%s %s", l1, soc), guess("For the instruction cache %s.", lruAssumed)).
			withMiss(17, dataSideForFetches(l1Miss)).withHorowitz(process),
		level(cost.L1D, 32<<10, 2, 64, cost.LRU, true, src("%s %s", l1, soc), guess("%s.", capitalize(waAssumed))).
			withMiss(17, l1Miss).withHorowitz(process),
		level(cost.L2, 1<<20, 16, 64, cost.LRU, true, src("%s %s", l1, soc), assumedPolicy()).
			withMiss(187, guess("%s: 'RAM Latency = 21 cycles + 110 ns'; 110 ns at the Exynos 5250's 1.7 GHz is %s cycles "+
				"(the profile has no reference clock).", sevenCPUA15, num(nsToCycles(110, 1.7)))).
			withHorowitz(process),
	}
}

// rk3588Process is the RK3588's process node, for the access-energy notes of its cores.
const rk3588Process = "8 nm (Rockchip RK3588)"

// wikichipA76 is Arm's design latency of the A76's L2 and of the DSU's L3, against which the
// RK3588 measurements are set.
const wikichipA76 = "For comparison, Arm's design figures (WikiChip, 'Cortex-A76 - Microarchitectures - ARM', " +
	"Memory Hierarchy): a fastest L2 load-to-use latency of 9 cycles, and 26 to 31 cycles for an L3 of 2 to 4 MB."

// rk3588L3 is the DynamIQ Shared Unit's L3 of the RK3588, shared by its Cortex-A55 and A76 cores;
// what a miss costs is the core's (main memory seen from that core's clock).
func rk3588L3(missCycles float64, miss Note) Level {
	return level(cost.L3, 3<<20, 12, 64, cost.LRU, true,
		src(rk3588Caches+". 3 MB in 4096 sets of 64-byte lines is 12 ways; the L3 belongs to the DynamIQ Shared Unit.",
			"l3_cache: cache-size = <3145728>, cache-line-size = <64>, cache-sets = <4096>"),
		assumedPolicy()).
		withMiss(missCycles, miss).withHorowitz(rk3588Process)
}

func cortexA55Memory() []Level {
	const l1 = trmA55 + " §A6.1: instruction and data caches of 16, 32 or 64 KB each, 4-way set associative, 64-byte lines."
	dt := fmt.Sprintf(rk3588Caches, "the Cortex-A55 cpu nodes give i-cache-size and d-cache-size = <32768> in 128 sets "+
		"(4 ways), l2_cache_l0 cache-size = <131072>, cache-line-size = <64>, cache-sets = <512> (4 ways)")
	const clock = " At the profile's 1.8 GHz reference clock, the clock of the run."
	const noPlateau = " The A55's curve shows no plateau for its 128 KB L2, which is exclusive of the 32 KB L1 data " +
		"cache: the 64 KB buffer is the first past L1 and part of its reads still hit L1, so the L2 figures are estimates."
	l1c, l1t := rock5BA55.miss("4k", "an L1 hit", "64k", "mostly L2 hits", 1.8)
	l2c, l2t := rock5BA55.miss("64k", "mostly L2 hits", "512k", "an L3 hit", 1.8)
	l3c, l3t := rock5BA55.miss("512k", "an L3 hit", "65536k", "main memory", 1.8)
	l1Miss := guess("%s%s%s %s", l1t, clock, noPlateau, ramlatRows)
	return []Level{
		level(cost.L1I, 32<<10, 4, 64, cost.LRU, true, src("%s %s.", l1, dt), guess("%s.", capitalize(lruAssumed))).
			withMiss(l1c, dataSideForFetches(l1Miss)).withHorowitz(rk3588Process),
		level(cost.L1D, 32<<10, 4, 64, cost.LRU, true, src("%s %s.", l1, dt),
			guess("%s; write-allocate as the A53's and A76's manuals describe (a write miss allocates unless the core is in write-streaming mode).", capitalize(lruAssumed))).
			withMiss(l1c, l1Miss).withHorowitz(rk3588Process),
		level(cost.L2, 128<<10, 4, 64, cost.LRU, true, src("%s.", dt),
			guess("%s. %s §A7 'Optional integrated L2 cache': data is allocated to the L2 only when evicted from L1, "+
				"not when first fetched; the simulation allocates on every L2 miss, as cachegrind does.", capitalize(lruAssumed), trmA55)).
			withMiss(l2c, guess("%s%s%s %s", l2t, clock, noPlateau, ramlatRows)).withHorowitz(rk3588Process),
		rk3588L3(l3c, guess("%s%s %s", l3t, clock, ramlatRows)),
	}
}

func cortexA76Memory() []Level {
	const l1 = trmA76 + " §A6.1: the L1 instruction and data caches are 64 KB each, 4-way set associative, 64-byte " +
		"lines, pseudo-LRU replacement; §A6.2.6: 'a cache line is allocated to the L1 on either a read miss or a " +
		"write miss' (outside write-streaming mode)."
	dt := fmt.Sprintf(rk3588Caches, "the Cortex-A76 cpu nodes give 64 KB L1 caches, l2_cache_b0 cache-size = <524288>, "+
		"cache-line-size = <64>, cache-sets = <1024> (8 ways)")
	const clock = " At the profile's 2.4 GHz reference clock, the clock of the run."
	l1c, l1t := rock5BA76.miss("4k", "an L1 hit", "128k", "an L2 hit", 2.4)
	l2c, l2t := rock5BA76.miss("128k", "an L2 hit", "2048k", "an L3 hit", 2.4)
	l3c, l3t := rock5BA76.miss("2048k", "an L3 hit", "65536k", "main memory", 2.4)
	l1Miss := src("%s%s %s %s", l1t, clock, wikichipA76, ramlatRows)
	return []Level{
		level(cost.L1I, 64<<10, 4, 64, cost.PLRU, true, src("%s %s.", l1, dt)).
			withMiss(l1c, dataSideForFetches(l1Miss)).withHorowitz(rk3588Process),
		level(cost.L1D, 64<<10, 4, 64, cost.PLRU, true, src("%s %s.", l1, dt)).
			withMiss(l1c, l1Miss).withHorowitz(rk3588Process),
		level(cost.L2, 512<<10, 8, 64, cost.LRU, true, src("%s.", dt), assumedPolicy()).
			withMiss(l2c, src("%s%s %s %s", l2t, clock, wikichipA76, ramlatRows)).withHorowitz(rk3588Process),
		rk3588L3(l3c, guess("%s%s %s Other RK3588 boards' runs in the same repository give 151 to 220 ns at 64 MB "+
			"(results/XyIw.txt, results/4D0a.txt), so the figure is an estimate.", l3t, clock, ramlatRows)),
	}
}

func silvermontMemory() []Level {
	const geom = intelOpt + ", the Silvermont chapter, and WikiChip 'Silvermont - Microarchitectures - Intel', memory " +
		"hierarchy: L1 instruction cache 32 KB 8-way, L1 data cache 24 KB 6-way, 64-byte lines, per core; L2 1 MB " +
		"16-way, 64-byte lines, shared by the two cores of a module; no L3."
	const process = "22 nm (Intel's Silvermont process)"
	const clock = " Converted at the Z3735F's 1.83 GHz, the clock of the run (the profile has no reference clock)."
	l1c, l1t := z3735F.miss("4k", "an L1 hit", "64k", "an L2 hit", 1.83)
	l2c, l2t := z3735F.miss("64k", "an L2 hit", "65536k", "main memory", 1.83)
	l1Miss := src("%s%s %s", l1t, clock, ramlatRows)
	return []Level{
		level(cost.L1I, 32<<10, 8, 64, cost.LRU, true, src("%s", geom), guess("%s.", capitalize(lruAssumed))).
			withMiss(l1c, dataSideForFetches(l1Miss)).withHorowitz(process),
		level(cost.L1D, 24<<10, 6, 64, cost.LRU, true, src("%s", geom), assumedPolicy()).
			withMiss(l1c, l1Miss).withHorowitz(process),
		level(cost.L2, 1<<20, 16, 64, cost.LRU, true, src("%s", geom), assumedPolicy()).
			withMiss(l2c, guess("%s%s %s Main memory's latency is the Z3735F board's, not every Silvermont SoC's.", l2t, clock, ramlatRows)).
			withHorowitz(process),
	}
}

func skylakeMemory() []Level {
	const geom = intelOpt + ", Skylake client microarchitecture, cache parameters: L1 instruction and data caches " +
		"32 KB 8-way, L2 256 KB 4-way, 64-byte lines; the L3 is 2 MB per core, 16-way (WikiChip 'Skylake (client)'), " +
		"8 MB on the four-core Core i7-6700 taken here."
	const l1 = intelOpt + ", Skylake cache parameters: L1 data load-to-use latency 4 cycles (fastest), L2 12 cycles"
	const l3 = "7-cpu.com 'Intel Skylake' (Core i7-6700 at 4.0 GHz): 'L3 Cache Latency = 42 cycles', " +
		"'RAM Latency = 42 cycles + 51 ns'"
	const process = "14 nm (Intel's Skylake process)"
	l1Miss := src("%s; a miss waits 12 − 4 = 8 cycles more than a hit.", l1)
	return []Level{
		level(cost.L1I, 32<<10, 8, 64, cost.LRU, true, src("%s", geom), guess("%s.", capitalize(lruAssumed))).
			withMiss(8, dataSideForFetches(l1Miss)).withHorowitz(process),
		level(cost.L1D, 32<<10, 8, 64, cost.LRU, true, src("%s", geom), assumedPolicy()).
			withMiss(8, l1Miss).withHorowitz(process),
		level(cost.L2, 256<<10, 4, 64, cost.LRU, true, src("%s", geom), assumedPolicy()).
			withMiss(30, guess("%s; %s: 42 − 12 = 30 cycles. The L3 latency depends on the part's ring and clock.", l1, l3)).
			withHorowitz(process),
		level(cost.L3, 8<<20, 16, 64, cost.LRU, true, src("%s", geom), assumedPolicy()).
			withMiss(204, guess("%s: memory adds 51 ns to an L3 hit, %s cycles at that 4.0 GHz.", l3, num(nsToCycles(51, 4)))).
			withHorowitz(process),
	}
}

// mipsNoMemory is why the MIPS profiles carry no hierarchy; it is added to their source text.
const mipsNoMemory = "No memory hierarchy: the 24K's and 74K's L1 caches are documented (MIPS32 24K and 74K " +
	"Processor Core Family Software User's Manuals: 4-way set associative, 32-byte lines, LRU replacement), but the " +
	"L2 is the SoC's choice: the 74K's optional L2 controller may be 128 KB to 1 MB, 4- or 8-way, with 32- or " +
	"64-byte lines, write-back without write-allocate ('Programming the MIPS32 74K Core Family', MD00541 " +
	"revision 02.14, 'Memory map, caching, reads, writes and translation', p. 33), and no SoC with either core and a " +
	"documented L2 was found (the seed names no MIPS board). A hierarchy needs an L2, so runs are priced without " +
	"memory stalls."

// The machine models, checked by running each llvm-mca on a four-instruction block (machine_test.go).
// They run under llvm-mca-19 even where LLVM 16 has the same model: from LLVM 19 a call can be
// priced as the branch it is (--call-latency=1, docs/pipeline.md), where LLVM 16 charges every
// call 100 cycles, which an in-order model such as the A55's pays on each block ending in one.
const pipelineTool = "llvm-mca-19"

var (
	noModelA8 = Machine{Notes: []Note{src("No machine model: LLVM describes the Cortex-A8 only by an instruction " +
		"itinerary (llvm/lib/Target/ARM/ARMScheduleA8.td), and llvm-mca 16 and 19 refuse -mcpu=cortex-a8: 'cpu " +
		"'cortex-a8' provides itineraries. However, instruction itineraries are currently unsupported.' Blocks are " +
		"priced by category.")}}
	modelA9 = Machine{Model: cost.PipelineModel{Tool: pipelineTool, CPU: "cortex-a9"}, Notes: []Note{src("LLVM's " +
		"Cortex-A9 machine model (llvm/lib/Target/ARM/ARMScheduleA9.td, CortexA9Model). Known defect: llvm-mca 16 and 19 " +
		"die with a floating-point exception under this model on a block that has a store followed by a VFP " +
		"double-precision operation (e.g. 'str r4, [r0, #4]; vadd.f64 d0, d1, d2'), like LLVM issue #225087 for NEON " +
		"structure loads (a different trigger of the same crash site); such a block is left unpriced.")}}
	modelA15 = Machine{Model: cost.PipelineModel{Tool: pipelineTool, CPU: "cortex-a15"}, Notes: []Note{guess("LLVM's " +
		"Cortex-A9 model: LLVM has no Cortex-A15 model, and llvm/lib/Target/ARM/ARM.td defines cortex-a15 as a " +
		"ProcessorModel over CortexA9Model; llvm-mca 16 and 19 print the same timeline for -mcpu=cortex-a15 as for " +
		"-mcpu=cortex-a9 with the A15's divide and VFPv4 features. -mcpu=cortex-a15 is kept so that SDIV and VFMA " +
		"assemble. The Cortex-A9 model's store + VFP double crash applies too.")}}
	modelA55 = Machine{Model: cost.PipelineModel{Tool: pipelineTool, CPU: "cortex-a55"}, Notes: []Note{src("LLVM's " +
		"Cortex-A55 model (llvm/lib/Target/AArch64/AArch64SchedA55.td), the model the profile's category costs come from.")}}
	modelA76 = Machine{Model: cost.PipelineModel{Tool: pipelineTool, CPU: "neoverse-n1"}, Notes: []Note{guess("LLVM 19's " +
		"Neoverse N1 model (llvm/lib/Target/AArch64/AArch64SchedNeoverseN1.td), the model the profile's category costs " +
		"come from: LLVM has no Cortex-A76 model (-mcpu=cortex-a76 uses the Cortex-A57's), and the Neoverse N1 is " +
		"the A76's server derivative.")}}
	modelSilvermont = Machine{Model: cost.PipelineModel{Tool: pipelineTool, CPU: "silvermont"}, Notes: []Note{src("LLVM's " +
		"Silvermont model (llvm/lib/Target/X86/X86ScheduleSLM.td), the model the profile's category costs come from.")}}
	modelSkylake = Machine{Model: cost.PipelineModel{Tool: pipelineTool, CPU: "skylake"}, Notes: []Note{src("LLVM's " +
		"Skylake client model (llvm/lib/Target/X86/X86SchedSkylakeClient.td), the model the profile's category costs come from.")}}
	noModelMIPS = Machine{Notes: []Note{src("No machine model: LLVM has no 24K or 74K model. -mcpu=mips32r2 gets " +
		"LLVM's generic MIPS model (llvm/lib/Target/Mips/MipsScheduleGeneric.td), not this core's, and the one MIPS32 " +
		"core model, the P5600's, is another core (and llvm-mca 16 and 19 stop on it: 'unable to resolve scheduling " +
		"class for write variant'). Blocks are priced by category.")}}
)
