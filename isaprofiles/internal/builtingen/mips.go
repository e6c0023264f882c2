package builtingen

import (
	"androprof/model/cost"
)

// Cost tables of the MIPS32 Release 2 cores, from GCC's 24k.md and 74k.md. The FPU figures are
// those of GCC's -mtune=24kf and -mtune=74kf, which GCC maps to the 2:1 configurations
// (24kf2_1, 74kf2_1: the FPU runs at half the core clock); they are in core cycles. MIPS has no
// 64-bit-result multiply class of its own (MULT and MULTU write HI/LO), and GCC gives FP
// multiply and multiply-add the same reservation, so those classes share a category.

var (
	gcc24K = gccFile{"gcc/config/mips/24k.md", "FSF 2005 revision"}
	gcc74K = gccFile{"gcc/config/mips/74k.md", "FSF 2007-2013 revision"}
)

const (
	fpu24K = "24Kf figures: the FPU runs at half the core clock, and GCC gives its latencies in core cycles."
	fpu74K = "74kf2_1 figures (GCC's -mtune=74kf): the FPU runs at half the core clock; latencies in core cycles."
)

func mips24K() Core {
	const corePower = "No power figure for the MIPS 24K was found: the seed gives none, and MIPS Technologies' " +
		"24K datasheets (which state mW/MHz for a process node) could not be retrieved from any stored source; " +
		"no measurement of a 24K-based chip's core power was found either. The power cost is left at 0 " +
		"(unknown) rather than invented; set it before using the energy estimates of this profile."
	return Core{
		Slug: "mips-24k", Name: "MIPS32 Release 2 24K", Architecture: "MIPS32 Release 2", Organization: "24K",
		ISAs: []cost.ISA{cost.MIPS},
		Source: "Cycle costs are GCC's MIPS 24K scheduling model (gcc/config/mips/24k.md, FSF 2005 revision, which " +
			"cites the 'MIPS32 24K Processor Core Family Software User's Manual, Rev 3.04'): define_insn_reservation " +
			"latencies averaged per cost class, with the FPU figures of the 24Kf (FPU at half the core clock, in " +
			"core cycles). The 24K is single-issue and in order. System instructions use the latency 3 of GCC's " +
			"disabled coprocessor-0 reservation, an estimate. The seed has no MIPS cost or power data, and no " +
			"published 24K power figure was found, so power costs are 0 (unknown). No CPI of a 24K was found, " +
			"nor a CoreMark/MHz score from which one could be derived as for the 74K, so the reference data are " +
			"left empty; the Undefined category falls back to the median of the other categories' cycle costs. " +
			"Each number's citation says whether it is an estimate.",
		Power:    Cost{Value: 0, Notes: []Note{{Estimate: true, Text: corePower}}},
		NoMemory: mipsNoMemory, Pipeline: noModelMIPS,
		Categories: []Category{
			{Name: "Integer ALU", Classes: []string{"alu"}, Cycles: gcc24K.mean(
				"GCC's comment lists movn/movz among these arithmetic instructions.",
				lat("r24k_int_arith", 1, "arith, const, nop, shift, slt"))},
			{Name: "Shift/rotate", Classes: []string{"shift"}, Cycles: gcc24K.mean("",
				lat("r24k_int_arith", 1, "type shift"))},
			{Name: "Multiply", Classes: []string{"mul", "mul-long"}, Cycles: gcc24K.mean("",
				lat("r24k_int_mult", 1, "mult, result to HI/LO"),
				lat("r24k_int_madd", 1, "madd, msub"),
				lat("r24k_int_mul3", 5, "mul, result to a GPR"),
				lat("r24k_int_mfhilo", 5, "mfhi, mflo"),
				lat("r24k_int_mthilo", 1, "mthi, mtlo"))},
			{Name: "Integer divide", Classes: []string{"div"}, Cycles: gcc24K.mean(
				"GCC's default for 32-bit operands; narrower operands finish sooner.",
				lat("r24k_int_div", 36, "idiv"))},
			{Name: "Load", Classes: []string{"load"}, Cycles: gcc24K.mean("",
				lat("r24k_int_load", 2, "load"),
				lat("r24k_int_prefetch", 1, "prefetch, prefetchx"))},
			{Name: "Store", Classes: []string{"store"}, Cycles: gcc24K.mean("",
				lat("r24k_int_store", 1, "store"))},
			{Name: "Conditional branch", Classes: []string{"branch-cond"}, Cycles: gcc24K.mean(
				"The branch delay slot is counted as its own instruction.",
				lat("r24k_int_branch", 1, "branch"))},
			{Name: "Unconditional branch", Classes: []string{"branch"}, Cycles: gcc24K.mean("",
				lat("r24k_int_jump", 1, "call, jump"))},
			{Name: "System", Classes: []string{"system"}, Cycles: est(3,
				"GCC gcc/config/mips/24k.md (FSF 2005 revision): r24k_int_cop latency 3 for cfc1, di, ei, mfc0, "+
					"mtc0, a reservation GCC has commented out ('Disabled until we add proper cop0 support'). It "+
					"covers coprocessor-0 moves only, not cache, sync, syscall or eret, so it is an estimate for the class.")},
			{Name: "FP add/compare/convert", Classes: []string{"fp-add"}, Cycles: gcc24K.mean(fpu24K,
				lat("r24k_fadd", 8, "fadd, fabs, fneg"),
				lat("r24k_fmove", 8, "fmove, condmove"),
				lat("r24k_fcmp", 4, "fcmp"),
				lat("r24k_fcvt_i2f_s2d", 8, "cvt.d.s, cvt.[sd].[wl]"),
				lat("r24k_fcvt_s2d", 12, "cvt.s.d"),
				lat("r24k_fcvt_f2i", 10, "cvt.[wl].[sd]"))},
			{Name: "FP multiply/multiply-add", Classes: []string{"fp-mul", "fp-mac"}, Cycles: gcc24K.mean(fpu24K,
				lat("r24k_fmul_sf", 8, "fmul, fmadd single"),
				lat("r24k_fmul_df", 10, "fmul, fmadd double"))},
			{Name: "FP divide/sqrt (single)", Classes: []string{"fp-div-s"}, Cycles: gcc24K.mean(fpu24K,
				lat("r24k_fdiv_sf", 34, "fdiv, fsqrt, frsqrt single"))},
			{Name: "FP divide/sqrt (double)", Classes: []string{"fp-div-d"}, Cycles: gcc24K.mean(fpu24K,
				lat("r24k_fdiv_df", 64, "fdiv, fsqrt double"),
				lat("r24k_frsqrt_df", 70, "frsqrt double"))},
			{Name: "FP load", Classes: []string{"fp-load"}, Cycles: gcc24K.mean(fpu24K,
				lat("r24k_fload", 6, "fpload, fpidxload"))},
			{Name: "FP store", Classes: []string{"fp-store"}, Cycles: gcc24K.mean(fpu24K,
				lat("r24k_fstore", 2, "fpstore"))},
			{Name: "FP register transfer", Classes: []string{"fp-xfer"}, Cycles: gcc24K.mean(fpu24K,
				lat("r24k_fxfer", 4, "mfc1, mfhc1, mtc1, mthc1"))},
		},
	}
}

func mips74K() Core {
	const corePower = "No per-instruction, per-category or average power of a 74K core is published in the seed. " +
		"Best published figure found: MIPS Technologies stated that a dual-core MIPS32 1074K system (two enhanced " +
		"74K cores) on TSMC 40 nm at 1.5 GHz dissipates 640 mW (reported by ITProPortal, 'MIPS Technologies " +
		"pushes Atom buster', 28 September 2010), i.e. about 320 mW per core. It is a vendor claim for a later, " +
		"multicore derivative in a newer process, not a measurement of a 74K; it is used for every category as " +
		"an estimate."
	return Core{
		Slug: "mips-74k", Name: "MIPS32 Release 2 74K", Architecture: "MIPS32 Release 2", Organization: "74K",
		ISAs: []cost.ISA{cost.MIPS},
		Source: "Cycle costs are GCC's MIPS 74K scheduling model (gcc/config/mips/74k.md, FSF 2007-2013 revision, " +
			"which cites the 'MIPS32 74K Microarchitecture Specification Rev. 01.02' and the '74Kf Processor Core " +
			"Datasheet', 2006): define_insn_reservation latencies averaged per cost class, with the FPU figures of " +
			"GCC's 74kf (74kf2_1: FPU at half the core clock, in core cycles). The 74K issues out of order, up to " +
			"two instructions per cycle, so latencies overstate the throughput cost of independent instructions. " +
			"The seed has no MIPS data. Power: about 320 mW per core, derived from MIPS Technologies' statement " +
			"that a dual-core 1074K (74K-based) system at 1.5 GHz in 40 nm dissipates 640 mW (ITProPortal, 2010), " +
			"an estimate. Reference data for figure 5.2, all estimates: that 320 mW at that 1.5 GHz, and CPI " +
			"0.94, derived from MIPS Technologies' 3.48 CoreMark/MHz for the 74Kc/f and the MIPS32 instructions " +
			"one CoreMark iteration executes (counted under qemu-mipsel; see the CPI citation). No instruction " +
			"count, cache-miss count or memory energy of a 74K was found, so those stay empty. System " +
			"instructions and the Undefined category fall back to that CPI. Each number's citation says " +
			"whether it is an estimate.",
		Reference:     cost.Reference{FrequencyGHz: 1.5, CPI: coremarkCPI74K, ProcessorPowerW: 0.32},
		ReferenceCite: mips74KReferenceCites(corePower),
		Power:         Cost{Value: 320, Notes: []Note{{Estimate: true, Text: corePower}}},
		CPI:           &Cost{Value: coremarkCPI74K, Notes: []Note{{Estimate: true, Text: cpi74K}}},
		NoMemory:      mipsNoMemory, Pipeline: noModelMIPS,
		Categories: []Category{
			{Name: "Integer ALU", Classes: []string{"alu"}, Cycles: gcc74K.mean("",
				lat("r74k_int_logical", 1, "logical, move, signext, slt"),
				lat("r74k_int_arith", 2, "arith, const, shift, clz"),
				lat("r74k_int_cmove", 4, "condmove"))},
			{Name: "Shift/rotate", Classes: []string{"shift"}, Cycles: gcc74K.mean("",
				lat("r74k_int_arith", 2, "type shift"))},
			{Name: "Multiply", Classes: []string{"mul", "mul-long"}, Cycles: gcc74K.mean("",
				lat("r74k_int_mult", 4, "mult, result to HI/LO"),
				lat("r74k_int_madd", 4, "madd, msub"),
				lat("r74k_int_mul3", 7, "mul, result to a GPR"),
				lat("r74k_int_mfhilo", 7, "mfhi, mflo"),
				lat("r74k_int_mthilo", 7, "mthi, mtlo"))},
			{Name: "Integer divide", Classes: []string{"div"}, Cycles: gcc74K.mean(
				"GCC's default for 32-bit operands; narrower operands finish sooner.",
				lat("r74k_int_div", 50, "idiv"))},
			{Name: "DSP (packed/saturating)", Classes: []string{"dsp"}, Cycles: gcc74K.mean("",
				lat("r74k_dsp_alu", 2, "dspalu"),
				lat("r74k_dsp_alu_sat", 3, "dspalusat"))},
			{Name: "Load", Classes: []string{"load"}, Cycles: gcc74K.mean("",
				lat("r74k_int_load", 3, "load, prefetch, prefetchx"))},
			{Name: "Store", Classes: []string{"store"}, Cycles: gcc74K.mean("",
				lat("r74k_int_store", 1, "store"))},
			{Name: "Conditional branch", Classes: []string{"branch-cond"}, Cycles: gcc74K.mean(
				"The branch delay slot is counted as its own instruction.",
				lat("r74k_int_jump", 1, "branch, jump"))},
			{Name: "Unconditional branch", Classes: []string{"branch"}, Cycles: gcc74K.mean("",
				lat("r74k_int_call", 1, "call"),
				lat("r74k_int_jump", 1, "branch, jump"))},
			{Name: "System", Classes: []string{"system"}, Cycles: fallback(
				"GCC's 74K model has no reservation for system, cache, sync or coprocessor-0 instructions and no " +
					"per-instruction figure was sourced; they are charged the core's fallback cost (the same as " +
					"the Undefined category).")},
			{Name: "FP add/compare/convert", Classes: []string{"fp-add"}, Cycles: gcc74K.mean(fpu74K,
				lat("r74kf2_1_fadd", 8, "fadd, fabs, fneg"),
				lat("r74kf2_1_fmove", 8, "fmove"),
				lat("r74kf2_1_fcmp", 8, "fcmp"),
				lat("r74kf2_1_fcvt", 8, "fcvt"))},
			{Name: "FP multiply/multiply-add", Classes: []string{"fp-mul", "fp-mac"}, Cycles: gcc74K.mean(fpu74K,
				lat("r74kf2_1_fmul_sf", 8, "fmul, fmadd single"),
				lat("r74kf2_1_fmul_df", 10, "fmul, fmadd double"))},
			{Name: "FP divide/sqrt (single)", Classes: []string{"fp-div-s"}, Cycles: gcc74K.mean(fpu74K,
				lat("r74kf2_1_fdiv_sf", 34, "fdiv, fsqrt single"),
				lat("r74kf2_1_frsqrt_sf", 34, "frsqrt single"))},
			{Name: "FP divide/sqrt (double)", Classes: []string{"fp-div-d"}, Cycles: gcc74K.mean(fpu74K,
				lat("r74kf2_1_fdiv_df", 64, "fdiv, fsqrt double"),
				lat("r74kf2_1_frsqrt_df", 72, "frsqrt double"))},
			{Name: "FP load", Classes: []string{"fp-load"}, Cycles: gcc74K.mean(fpu74K,
				lat("r74kf2_1_fload", 8, "fpload, fpidxload"))},
			{Name: "FP store", Classes: []string{"fp-store"}, Cycles: gcc74K.mean(fpu74K,
				lat("r74kf2_1_fstore", 2, "fpstore, fpidxstore"))},
			{Name: "FP register transfer", Classes: []string{"fp-xfer"}, Cycles: gcc74K.mean(fpu74K,
				lat("r74kf2_1_fxfer_to_c1", 8, "mtc"),
				lat("r74kf2_1_fxfer_from_c1", 2, "mfc"))},
		},
	}
}

// coremarkCPI74K is the 74K's CPI on CoreMark: MIPS Technologies gives 3.48 CoreMark/MHz, i.e.
// 10^6/3.48 = 287,356 cycles per CoreMark iteration, and one iteration executes 305,729.75
// MIPS32 instructions (counted as cpi74K says); 287,356 / 305,729.75 = 0.94.
const coremarkCPI74K = 0.94

const cpi74K = "Estimated CPI 0.94 on CoreMark. MIPS Technologies states 3.48 CoreMark/MHz for the 74Kc/f " +
	"(quoted, with 1.93 DMIPS/MHz, on OpenWrt's instruction-set page mipsel_74kc, " +
	"openwrt.org/docs/techref/instructionset/mipsel_74kc), i.e. 10^6 / 3.48 = 287,356 cycles per CoreMark " +
	"iteration. The instructions of one iteration were counted here: CoreMark (github.com/eembc/coremark, " +
	"commit d5fad6b, posix port) built with Debian's mipsel-linux-gnu-gcc 12.2.0 -O2 -march=74kc -static " +
	"and run with seeds 0 0 0x66 under qemu-mipsel 7.2 -cpu 74Kf -singlestep -d exec,nochain executes " +
	"3,109,124 instructions for 10 iterations and 9,223,719 for 30, so 305,729.75 per iteration (-O3: " +
	"301,754, CPI 0.95); 287,356 / 305,729.75 = 0.94. It is an estimate: MIPS's compiler and flags are " +
	"not stated and change the instruction count, and CoreMark is one small integer benchmark that fits " +
	"in the caches, unlike the seed's measured averages over many programs."

// mips74KReferenceCites cites the 74K's reference data, every number an estimate.
func mips74KReferenceCites(power string) []cost.Citation {
	return []cost.Citation{
		{Cost: "frequency-ghz", Estimate: true, Text: "1.5 GHz: the clock of MIPS Technologies' 640 mW figure for a " +
			"dual-core 1074K (74K-based) system in TSMC 40 nm (ITProPortal, 28 September 2010), at which the " +
			"processor power below applies; a 74K in 65 nm runs at up to 1.11 GHz (BDTI, 'An Independent " +
			"Analysis of the MIPS Technologies MIPS32 74K Licensable Processor Core')."},
		{Cost: "cpi", Estimate: true, Text: cpi74K},
		{Cost: "processor-power-w", Estimate: true, Text: "0.32 W. " + power},
	}
}
