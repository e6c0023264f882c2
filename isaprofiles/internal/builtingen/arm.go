package builtingen

import (
	"androprof/model/cost"
)

// Cost tables of the ARMv7-A cores. Cycle costs come from GCC's machine descriptions
// (define_insn_reservation): the result latency, averaged over the reservations whose insn
// types fall into the class; for stores and branches, which have no register result and
// latency 0 in GCC, the issue cost (cycles the reservation holds its issue unit) is used.
// Floating-point classes use the VFP (scalar) reservations, as armeabi-v7a code does; the
// NEON vector forms of the same mnemonics are priced by GCC's NEON reservations and noted.

var (
	gccA8   = gccFile{"gcc/config/arm/cortex-a8.md", "FSF 2007-2013 revision"}
	gccA8N  = gccFile{"gcc/config/arm/cortex-a8-neon.md", "FSF 2007-2017 revision"}
	gccA9   = gccFile{"gcc/config/arm/cortex-a9.md", "FSF 2008-2013 revision"}
	gccA9N  = gccFile{"gcc/config/arm/cortex-a9-neon.md", "FSF 2010-2013 revision"}
	gccA15  = gccFile{"gcc/config/arm/cortex-a15.md", "FSF 2011-2020 revision"}
	gccA15N = gccFile{"gcc/config/arm/cortex-a15-neon.md", "FSF 2012-2014 revision"}
)

const (
	seedBranchCycles = "Seed 000 §4.2.1: an ARMv7 conditional branch costs 3 CPU cycles (ARM, 2013, " +
		"'Instructions cycle count', infocenter.arm.com com.arm.doc.ddi0214b). The seed gives this for " +
		"the ARMv7 architecture, not for one core."
	seedBranchPower = "Seed 000 §4.2.1: an ARMv7 conditional branch dissipates 113 mW (Bazzaz, Salehi and " +
		"Ejlali, 'An Accurate Instruction-Level Energy Estimation Model and Tool for Embedded Systems', " +
		"IEEE Trans. Instrum. Meas. 62(7):1927-1934, 2013). The seed gives this for the ARMv7 " +
		"architecture, not for one core."
	blemRef = "Blem, Menon and Sankaralingam, 'A Detailed Analysis of Contemporary ARM and x86 " +
		"Architectures', UW-Madison technical report, 2013, arithmetic mean over its benchmarks as " +
		"tabulated in seed 000 Table 5.3"
	itCycles = "GCC has no reservation for the Thumb IT instruction (it is emitted inside conditional-" +
		"execution patterns), and no cycle figure was sourced; one issue cycle is assumed."
	systemCycles = "GCC does not schedule system, barrier, exception or coprocessor instructions and no " +
		"per-instruction figure was sourced for this core; they are charged the core's fallback cost " +
		"(the same as the Undefined category)."
)

// seedBranch is the seed's ARMv7 conditional-branch category, with what GCC says for the core.
func seedBranch(gccNote string) Category {
	power := Cost{Value: 113, Notes: []Note{{Text: seedBranchPower}}}
	return Category{
		Name: "Conditional branch", Classes: []string{"branch-cond"},
		Cycles: Cost{Value: 3, Notes: []Note{{Text: seedBranchCycles + " " + gccNote}}},
		Power:  &power,
	}
}

// neonMulA8A9 is the integer NEON multiply reservations, identical for Cortex-A8 and A9.
func neonMulA8A9(f gccFile, prefix string) Cost {
	return f.mean("",
		lat(prefix+"mul_ddd_8_16_qdd_16_8_long_32_16_long", 6, ""),
		lat(prefix+"mul_qqq_8_16_32_ddd_32", 7, ""),
		lat(prefix+"mul_qdd_64_32_long_qqd_16_ddd_32_scalar_64_32_long_scalar", 7, ""),
		lat(prefix+"mla_ddd_8_16_qdd_16_8_long_32_16_long", 6, ""),
		lat(prefix+"mla_qqq_8_16", 7, ""),
		lat(prefix+"mla_ddd_32_qqd_16_ddd_32_scalar_qdd_64_32_long_scalar_qdd_64_32_long", 7, ""),
		lat(prefix+"mla_qqq_32_qqd_32_scalar", 9, ""),
		lat(prefix+"mul_ddd_16_scalar_32_16_long_scalar", 6, ""),
		lat(prefix+"mul_qqd_32_scalar", 9, ""),
		lat(prefix+"mla_ddd_16_scalar_qdd_32_16_long_scalar", 6, ""))
}

func cortexA8() Core {
	const cpuPower = "No per-instruction or per-category power is published for the Cortex-A8 (seed 000 §5.2: " +
		"the source gives none, so all instructions were taken to dissipate the same power); the average " +
		"processor power 0.89 W of " + blemRef + " is used for every category."
	const noDiv = "The Cortex-A8 has no hardware integer divider: SDIV/UDIV are UNDEFINED on it (ARMv7-A " +
		"without the divide extension) and trap, and compilers call a library routine instead. No cycle " +
		"figure exists; GCC gcc/config/arm/arm.c cortexa8_extra_costs prices an SImode division at " +
		"COSTS_N_INSNS (30), i.e. the cost of 30 simple instructions, which is used."
	return Core{
		Slug: "cortex-a8", Name: "ARMv7-A Cortex-A8", Architecture: "ARMv7-A", Organization: "Cortex-A8",
		ISAs: []cost.ISA{cost.ARM, cost.Thumb},
		Source: "Cycle costs are GCC's Cortex-A8 scheduling model (gcc/config/arm/cortex-a8.md, FSF 2007-2013 " +
			"revision, and cortex-a8-neon.md, FSF 2007-2017 revision): define_insn_reservation result latencies " +
			"averaged per cost class, issue cycles for stores and branches, VFP (VFPLite) reservations for " +
			"floating point; the integer-divide cost is GCC's cortexa8_extra_costs (gcc/config/arm/arm.c). " +
			"Conditional branches cost 3 cycles and 113 mW as in seed 000 §4.2.1 (ARM, 2013, 'Instructions " +
			"cycle count'; Bazzaz, Salehi and Ejlali, IEEE Trans. Instrum. Meas. 62(7), 2013). Every other " +
			"category, and the reference data, use the Cortex-A8 measurements of Blem, Menon and " +
			"Sankaralingam, 'A Detailed Analysis of Contemporary ARM and x86 Architectures' (UW-Madison " +
			"technical report, 2013) as tabulated in seed 000 Table 5.3: average processor power 0.89 W, CPI " +
			"13.03, 39,171,751,755 instructions and 521,966,483 cache misses, with the seed's assumed 1 GHz " +
			"clock (ARM Cortex-A series product page, 2013) and 2.61 nJ per main-memory access from CACTI 6.5. " +
			"The Undefined category and system instructions fall back to the measured CPI. Each number's " +
			"citation says whether it is an estimate.",
		Reference: cost.Reference{FrequencyGHz: 1, CPI: 13.03, ProcessorPowerW: 0.89,
			BaseInstructions: 39171751755, BaseCacheMisses: 521966483, MemoryAccessEnergy: 2.61},
		ReferenceCite: armReferenceCites("Cortex-A8", "1 GHz", "0.89 W", "13.03", "39,171,751,755", "521,966,483"),
		Power:         Cost{Value: 890, Notes: []Note{{Estimate: true, Text: cpuPower}}},
		CPI: &Cost{Value: 13.03, Notes: []Note{{Text: "Measured average CPI 13.03 of the Cortex-A8 (" + blemRef +
			"), used for instructions no source prices."}}},
		Memory: cortexA8Memory(), Pipeline: noModelA8,
		Categories: []Category{
			{Name: "Integer ALU", Classes: []string{"alu"}, Cycles: gccA8.mean("",
				lat("cortex_a8_alu", 2, "data processing, clz"),
				lat("cortex_a8_alu_shift", 2, "extend and immediate-shifted operands"),
				lat("cortex_a8_alu_shift_reg", 2, "register-shifted operands"),
				lat("cortex_a8_mov", 1, "mov/mvn"))},
			{Name: "Shift/rotate", Classes: []string{"shift"}, Cycles: gccA8.mean("",
				lat("cortex_a8_alu", 2, "types shift, shift_reg"))},
			{Name: "Multiply", Classes: []string{"mul"}, Cycles: gccA8.mean("",
				lat("cortex_a8_mul", 6, "mul, smulxy, smmul"),
				lat("cortex_a8_mla", 6, "mla, smlaxy, smlawy, smmla, smlad, smlsd"),
				lat("cortex_a8_smulwy", 5, "smulwy, smuad, smusd"))},
			{Name: "Multiply long", Classes: []string{"mul-long"}, Cycles: gccA8.mean("",
				lat("cortex_a8_mull", 7, "smull, umull, smlal, umlal, umaal, smlalxy"),
				lat("cortex_a8_smlald", 6, "smlald, smlsld"))},
			{Name: "Integer divide", Classes: []string{"div"}, Cycles: est(30, noDiv)},
			{Name: "DSP (packed/saturating)", Classes: []string{"dsp"}, Cycles: est(2,
				"GCC's Cortex-A8 model has no reservation of its own for ARMv6 SIMD and saturating arithmetic; "+
					"they execute in the integer ALU pipeline, so the latency 2 of cortex_a8_alu "+
					"(gcc/config/arm/cortex-a8.md) is assumed.")},
			{Name: "Load", Classes: []string{"load"}, Cycles: gccA8.mean("",
				lat("cortex_a8_load1_2", 3, "load1, load2, load_byte"))},
			{Name: "Load multiple", Classes: []string{"load-multiple"}, Cycles: gccA8.mean("",
				lat("cortex_a8_load3_4", 5, "load3, load4"))},
			{Name: "Store", Classes: []string{"store"}, Cycles: gccA8.mean("",
				issue("cortex_a8_store1_2", 1, "one cycle of cortex_a8_load_store_1; GCC latency 0"))},
			{Name: "Store multiple", Classes: []string{"store-multiple"}, Cycles: gccA8.mean("",
				issue("cortex_a8_store3_4", 2, "two cycles of cortex_a8_load_store_2; GCC latency 0"))},
			seedBranch("GCC's cortex_a8_branch has latency 0 and one issue cycle, i.e. no branch cost, so the seed's figure is used."),
			{Name: "Unconditional branch", Classes: []string{"branch"}, Cycles: gccA8.mean(
				"cortex_a8_call's latency 32 is, in GCC's words, a semi-arbitrary 'positive infinity' for scheduling and is not used.",
				issue("cortex_a8_branch", 1, "one cycle of cortex_a8_issue_branch; GCC latency 0"))},
			{Name: "If-then (IT)", Classes: []string{"it"}, Cycles: est(1, itCycles)},
			{Name: "System", Classes: []string{"system"}, Cycles: fallback(systemCycles)},
			{Name: "FP add/compare/convert", Classes: []string{"fp-add"}, Cycles: gccA8N.mean(
				"These are the non-pipelined VFPLite unit's worst-case latencies; NEON vector forms of the same "+
					"mnemonics are faster (cortex_a8_neon_fp_vadd_ddd_vabs_dd latency 5).",
				lat("cortex_a8_vfp_add_sub", 10, "fadds, faddd, fconsts, fconstd"),
				lat("cortex_a8_vfp_farith", 4, "fmov, ffariths, ffarithd, fcmps, fcmpd"),
				lat("cortex_a8_vfp_cvt", 7, "f_cvt, f_cvtf2i, f_cvti2f"))},
			{Name: "FP multiply", Classes: []string{"fp-mul"}, Cycles: gccA8N.mean(
				"NEON vector forms: cortex_a8_neon_fp_vmul_ddd latency 5.",
				lat("cortex_a8_vfp_muls", 12, "fmuls"),
				lat("cortex_a8_vfp_muld", 17, "fmuld"))},
			{Name: "FP multiply-accumulate", Classes: []string{"fp-mac"}, Cycles: gccA8N.mean(
				"NEON vector forms: cortex_a8_neon_fp_vmla_ddd latency 9.",
				lat("cortex_a8_vfp_macs", 21, "fmacs, ffmas"),
				lat("cortex_a8_vfp_macd", 26, "fmacd, ffmad"))},
			{Name: "FP divide/sqrt (single)", Classes: []string{"fp-div-s"}, Cycles: gccA8N.mean("",
				lat("cortex_a8_vfp_divs", 37, "fdivs, fsqrts"))},
			{Name: "FP divide/sqrt (double)", Classes: []string{"fp-div-d"}, Cycles: gccA8N.mean("",
				lat("cortex_a8_vfp_divd", 65, "fdivd, fsqrtd"))},
			{Name: "FP load", Classes: []string{"fp-load"}, Cycles: gccA8N.mean("",
				lat("cortex_a8_neon_vld1_vld2_lane", 4, "GCC maps f_loads, f_loadd to it"))},
			{Name: "FP store", Classes: []string{"fp-store"}, Cycles: gccA8N.mean("",
				issue("cortex_a8_neon_vld1_vld2_lane", 3, "three cycles of cortex_a8_neon_ls_3; GCC maps f_stores, f_stored to it"))},
			{Name: "FP register transfer", Classes: []string{"fp-xfer"}, Cycles: gccA8N.mean("",
				lat("cortex_a8_neon_mcr", 2, "f_mcr, neon_from_gp"),
				lat("cortex_a8_neon_mcr_2_mcrr", 2, "f_mcrr, neon_from_gp_q"),
				lat("cortex_a8_neon_mrc", 20, "f_mrc, neon_to_gp"),
				lat("cortex_a8_neon_mrrc", 21, "f_mrrc, neon_to_gp_q"))},
			{Name: "NEON integer ALU", Classes: []string{"simd-alu"}, Cycles: gccA8N.mean("",
				lat("cortex_a8_neon_int_1", 3, ""), lat("cortex_a8_neon_int_2", 3, ""),
				lat("cortex_a8_neon_int_3", 3, ""), lat("cortex_a8_neon_int_4", 4, ""),
				lat("cortex_a8_neon_int_5", 4, ""), lat("cortex_a8_neon_vqneg_vqabs", 4, ""),
				lat("cortex_a8_neon_vmov", 3, ""), lat("cortex_a8_neon_vaba", 6, ""),
				lat("cortex_a8_neon_vaba_qqq", 7, ""), lat("cortex_a8_neon_bit_ops_q", 4, ""),
				lat("cortex_a8_neon_shift_1", 3, ""), lat("cortex_a8_neon_shift_2", 4, ""),
				lat("cortex_a8_neon_shift_3", 4, ""), lat("cortex_a8_neon_vqshl_vrshl_vqrshl_qqq", 5, ""),
				lat("cortex_a8_neon_vsra_vrsra", 6, ""))},
			{Name: "NEON integer multiply", Classes: []string{"simd-mul"}, Cycles: neonMulA8A9(gccA8N, "cortex_a8_neon_")},
			{Name: "NEON permute", Classes: []string{"simd-perm"}, Cycles: gccA8N.mean("",
				lat("cortex_a8_neon_bp_simple", 2, ""), lat("cortex_a8_neon_bp_2cycle", 3, ""),
				lat("cortex_a8_neon_bp_3cycle", 4, ""))},
			{Name: "NEON load", Classes: []string{"simd-load"}, Cycles: gccA8N.mean("",
				lat("cortex_a8_neon_vld1_1_2_regs", 2, ""), lat("cortex_a8_neon_vld1_3_4_regs", 3, ""),
				lat("cortex_a8_neon_vld2_2_regs_vld1_vld2_all_lanes", 3, ""), lat("cortex_a8_neon_vld2_4_regs", 4, ""),
				lat("cortex_a8_neon_vld3_vld4", 5, ""), lat("cortex_a8_neon_vld1_vld2_lane", 4, ""),
				lat("cortex_a8_neon_vld3_vld4_lane", 6, ""))},
			{Name: "NEON store", Classes: []string{"simd-store"}, Cycles: gccA8N.mean("GCC latency is 0 for all of them.",
				issue("cortex_a8_neon_vst1_1_2_regs_vst2_2_regs", 2, "cortex_a8_neon_ls_2"),
				issue("cortex_a8_neon_vst1_3_4_regs", 3, "cortex_a8_neon_ls_3"),
				issue("cortex_a8_neon_vst2_4_regs_vst3_vst4", 4, "cortex_a8_neon_ls_4"),
				issue("cortex_a8_neon_vst1_vst2_lane", 2, "cortex_a8_neon_ls_2"),
				issue("cortex_a8_neon_vst3_vst4_lane", 3, "cortex_a8_neon_ls_3"))},
		},
	}
}

func cortexA9() Core {
	const cpuPower = "No per-instruction or per-category power is published for the Cortex-A9 (seed 000 §5.2: " +
		"the source gives none, so all instructions were taken to dissipate the same power); the average " +
		"processor power 1.25 W of " + blemRef + " is used for every category."
	const noDiv = "The Cortex-A9 has no hardware integer divider: SDIV/UDIV are UNDEFINED on it (ARMv7-A " +
		"without the divide extension) and trap, and compilers call a library routine instead. No cycle " +
		"figure exists; GCC gcc/config/arm/arm.c cortexa9_extra_costs prices an SImode division at " +
		"COSTS_N_INSNS (30), i.e. the cost of 30 simple instructions, which is used."
	return Core{
		Slug: "cortex-a9", Name: "ARMv7-A Cortex-A9", Architecture: "ARMv7-A", Organization: "Cortex-A9",
		ISAs: []cost.ISA{cost.ARM, cost.Thumb},
		Source: "Cycle costs are GCC's Cortex-A9 scheduling model (gcc/config/arm/cortex-a9.md, FSF 2008-2013 " +
			"revision, and cortex-a9-neon.md, FSF 2010-2013 revision): define_insn_reservation result latencies " +
			"averaged per cost class, issue cycles for stores and branches, VFP reservations for floating " +
			"point; the integer-divide cost is GCC's cortexa9_extra_costs (gcc/config/arm/arm.c). Conditional " +
			"branches cost 3 cycles and 113 mW as in seed 000 §4.2.1 (ARM, 2013, 'Instructions cycle count'; " +
			"Bazzaz, Salehi and Ejlali, IEEE Trans. Instrum. Meas. 62(7), 2013). Every other category, and the " +
			"reference data, use the Cortex-A9 measurements of Blem, Menon and Sankaralingam, 'A Detailed " +
			"Analysis of Contemporary ARM and x86 Architectures' (UW-Madison technical report, 2013) as " +
			"tabulated in seed 000 Table 5.3: average processor power 1.25 W, CPI 2.37, 39,372,723,114 " +
			"instructions and 451,238,875 cache misses, with the seed's assumed 2 GHz clock (ARM Cortex-A " +
			"series product page, 2013) and 2.61 nJ per main-memory access from CACTI 6.5. The Undefined " +
			"category and system instructions fall back to the measured CPI. Each number's citation says " +
			"whether it is an estimate.",
		Reference: cost.Reference{FrequencyGHz: 2, CPI: 2.37, ProcessorPowerW: 1.25,
			BaseInstructions: 39372723114, BaseCacheMisses: 451238875, MemoryAccessEnergy: 2.61},
		ReferenceCite: armReferenceCites("Cortex-A9", "2 GHz", "1.25 W", "2.37", "39,372,723,114", "451,238,875"),
		Power:         Cost{Value: 1250, Notes: []Note{{Estimate: true, Text: cpuPower}}},
		CPI: &Cost{Value: 2.37, Notes: []Note{{Text: "Measured average CPI 2.37 of the Cortex-A9 (" + blemRef +
			"), used for instructions no source prices."}}},
		Memory: cortexA9Memory(), Pipeline: modelA9,
		Categories: []Category{
			{Name: "Integer ALU", Classes: []string{"alu"}, Cycles: gccA9.mean("",
				lat("cortex_a9_dp", 2, "data processing without shift, and mov"),
				lat("cortex_a9_dp_shift", 3, "shifted operands, extend"))},
			{Name: "Shift/rotate", Classes: []string{"shift"}, Cycles: gccA9.mean("",
				lat("cortex_a9_dp", 2, "types shift, shift_reg"))},
			{Name: "Multiply", Classes: []string{"mul"}, Cycles: gccA9.mean("",
				lat("cortex_a9_mult16", 3, "smulxy"),
				lat("cortex_a9_mac16", 3, "smlaxy"),
				lat("cortex_a9_multiply", 4, "mul, smmul, smmulr"),
				lat("cortex_a9_mac", 4, "mla, smmla"))},
			{Name: "Multiply long", Classes: []string{"mul-long"}, Cycles: gccA9.mean("",
				lat("cortex_a9_multiply_long", 5, "smull, umull, smlal, umlal and their flag-setting forms"))},
			{Name: "Integer divide", Classes: []string{"div"}, Cycles: est(30, noDiv)},
			{Name: "DSP (packed/saturating)", Classes: []string{"dsp"}, Cycles: est(2,
				"GCC's Cortex-A9 model has no reservation of its own for ARMv6 SIMD and saturating arithmetic; "+
					"they execute in the integer data-processing pipelines, so the latency 2 of cortex_a9_dp "+
					"(gcc/config/arm/cortex-a9.md) is assumed.")},
			{Name: "Load", Classes: []string{"load"}, Cycles: gccA9.mean("",
				lat("cortex_a9_load1_2", 4, "load1, load2, load_byte"))},
			{Name: "Load multiple", Classes: []string{"load-multiple"}, Cycles: gccA9.mean("",
				lat("cortex_a9_load3_4", 5, "load3, load4"))},
			{Name: "Store", Classes: []string{"store"}, Cycles: gccA9.mean("",
				issue("cortex_a9_store1_2", 1, "one cycle of cortex_a9_ls; GCC latency 0"))},
			{Name: "Store multiple", Classes: []string{"store-multiple"}, Cycles: gccA9.mean("",
				issue("cortex_a9_store3_4", 2, "cortex_a9_ls on two cycles; GCC latency 0"))},
			seedBranch("GCC's cortex_a9_branch has latency 0 and one issue cycle, i.e. no branch cost, so the seed's figure is used."),
			{Name: "Unconditional branch", Classes: []string{"branch"}, Cycles: gccA9.mean(
				"cortex_a9_call also has latency 0.",
				issue("cortex_a9_branch", 1, "one cycle of the cortex_a9_branch unit; GCC latency 0"))},
			{Name: "If-then (IT)", Classes: []string{"it"}, Cycles: est(1, itCycles)},
			{Name: "System", Classes: []string{"system"}, Cycles: fallback(systemCycles)},
			{Name: "FP add/compare/convert", Classes: []string{"fp-add"}, Cycles: gccA9.mean(
				"NEON vector forms: cortex_a9_neon_fp_vadd_ddd_vabs_dd latency 5 (cortex-a9-neon.md).",
				lat("cortex_a9_fps", 2, "fcpys, fconsts, fconstd, ffariths, ffarithd"),
				lat("cortex_a9_fadd", 4, "fadds, faddd, f_cvt"),
				lat("cortex_a9_fcmp", 1, "fcmps, fcmpd"))},
			{Name: "FP multiply", Classes: []string{"fp-mul"}, Cycles: gccA9.mean("",
				lat("cortex_a9_fmuls", 4, "fmuls"),
				lat("cortex_a9_fmuld", 5, "fmuld"))},
			{Name: "FP multiply-accumulate", Classes: []string{"fp-mac"}, Cycles: gccA9.mean("",
				lat("cortex_a9_fmacs", 8, "fmacs, ffmas"),
				lat("cortex_a9_fmacd", 9, "fmacd, ffmad"))},
			{Name: "FP divide/sqrt (single)", Classes: []string{"fp-div-s"}, Cycles: gccA9.mean("",
				lat("cortex_a9_fdivs", 15, "fdivs"))},
			{Name: "FP divide/sqrt (double)", Classes: []string{"fp-div-d"}, Cycles: gccA9.mean("",
				lat("cortex_a9_fdivd", 25, "fdivd"))},
			{Name: "FP load", Classes: []string{"fp-load"}, Cycles: gccA9.mean("",
				lat("cortex_a9_load1_2", 4, "f_loads, f_loadd"))},
			{Name: "FP store", Classes: []string{"fp-store"}, Cycles: gccA9.mean("",
				issue("cortex_a9_store1_2", 1, "f_stores, f_stored; one cycle of cortex_a9_ls; GCC latency 0"))},
			{Name: "FP register transfer", Classes: []string{"fp-xfer"}, Cycles: combine("",
				from(gccA9, lat("cortex_a9_fps", 2, "r_2_f, f_2_r, f_flag")),
				from(gccA9N, lat("ca9_neon_mrc", 1, "neon_mrc"), lat("ca9_neon_mrrc", 1, "neon_mrrc")))},
			{Name: "NEON integer ALU", Classes: []string{"simd-alu"}, Cycles: gccA9N.mean("",
				lat("cortex_a9_neon_int_1", 3, ""), lat("cortex_a9_neon_int_2", 3, ""),
				lat("cortex_a9_neon_int_3", 3, ""), lat("cortex_a9_neon_int_4", 4, ""),
				lat("cortex_a9_neon_int_5", 4, ""), lat("cortex_a9_neon_vqneg_vqabs", 4, ""),
				lat("cortex_a9_neon_vmov", 3, ""), lat("cortex_a9_neon_vaba", 6, ""),
				lat("cortex_a9_neon_vaba_qqq", 7, ""), lat("cortex_a9_neon_vsma", 6, ""),
				lat("cortex_a9_neon_shift_1", 3, ""), lat("cortex_a9_neon_shift_2", 4, ""),
				lat("cortex_a9_neon_shift_3", 4, ""), lat("cortex_a9_neon_vshl_ddd", 1, ""),
				lat("cortex_a9_neon_vqshl_vrshl_vqrshl_qqq", 5, ""), lat("cortex_a9_neon_vsra_vrsra", 6, ""))},
			{Name: "NEON integer multiply", Classes: []string{"simd-mul"}, Cycles: neonMulA8A9(gccA9N, "cortex_a9_neon_")},
			{Name: "NEON permute", Classes: []string{"simd-perm"}, Cycles: gccA9N.mean("",
				lat("cortex_a9_neon_bp_simple", 2, ""), lat("cortex_a9_neon_bp_2cycle", 3, ""),
				lat("cortex_a9_neon_bp_3cycle", 4, ""))},
			{Name: "NEON load", Classes: []string{"simd-load"}, Cycles: gccA9N.mean("",
				lat("cortex_a9_neon_vld1_1_2_regs", 2, ""), lat("cortex_a9_neon_vld1_3_4_regs", 3, ""),
				lat("cortex_a9_neon_vld2_2_regs_vld1_vld2_all_lanes", 3, ""), lat("cortex_a9_neon_vld2_4_regs", 4, ""),
				lat("cortex_a9_neon_vld3_vld4", 5, ""), lat("cortex_a9_neon_vld1_vld2_lane", 4, ""),
				lat("cortex_a9_neon_vld3_vld4_lane", 6, ""), lat("cortex_a9_neon_vld3_vld4_all_lanes", 3, ""))},
			{Name: "NEON store", Classes: []string{"simd-store"}, Cycles: gccA9N.mean("GCC latency is 0 for all of them.",
				issue("cortex_a9_neon_vst1_1_2_regs_vst2_2_regs", 2, "cortex_a9_neon_ls_2"),
				issue("cortex_a9_neon_vst1_3_4_regs", 3, "cortex_a9_neon_ls_3"),
				issue("cortex_a9_neon_vst2_4_regs_vst3_vst4", 4, "cortex_a9_neon_ls_4"),
				issue("cortex_a9_neon_vst3_vst4", 4, "cortex_a9_neon_ls_4"),
				issue("cortex_a9_neon_vst1_vst2_lane", 2, "cortex_a9_neon_ls_2"),
				issue("cortex_a9_neon_vst3_vst4_lane", 3, "cortex_a9_neon_ls_3"))},
		},
	}
}

func cortexA15() Core {
	const corePower = "No per-instruction, per-category or average power of a Cortex-A15 core is published by " +
		"ARM or in the seed. Best published figure found: AnandTech measured the CPU block of the Samsung " +
		"Exynos 5250 (two Cortex-A15 at 1.7 GHz) peaking just over 4 W running multithreaded CoreMark on both " +
		"cores (A. Lal Shimpi, 'ARM vs x86: The Real Showdown', AnandTech, January 2013), i.e. about 2 W per " +
		"core. That is a peak under a CPU-bound load, so it overstates the average; it is used for every " +
		"category as an estimate."
	return Core{
		Slug: "cortex-a15", Name: "ARMv7-A Cortex-A15", Architecture: "ARMv7-A", Organization: "Cortex-A15",
		ISAs: []cost.ISA{cost.ARM, cost.Thumb},
		Source: "Cycle costs are GCC's Cortex-A15 scheduling model (gcc/config/arm/cortex-a15.md, FSF 2011-2020 " +
			"revision, and cortex-a15-neon.md, FSF 2012-2014 revision): define_insn_reservation result latencies " +
			"averaged per cost class, issue cost for stores and branches, VFP reservations for floating point. " +
			"The Cortex-A15 issues out of order, up to three instructions per cycle, so latencies overstate the " +
			"throughput cost of independent instructions. Conditional branches cost 3 cycles and 113 mW as in " +
			"seed 000 §4.2.1 (ARM, 2013, 'Instructions cycle count'; Bazzaz, Salehi and Ejlali, IEEE Trans. " +
			"Instrum. Meas. 62(7), 2013), an ARMv7-wide figure. The seed has no Cortex-A15 data: every other " +
			"category is charged about 2 W, derived from AnandTech's measurement of the Exynos 5250's two " +
			"Cortex-A15 cores peaking just over 4 W under CoreMark ('ARM vs x86: The Real Showdown', 2013), an " +
			"estimate. No CPI, instruction count, cache-miss count or memory energy was found for this core, so " +
			"the reference data are left empty (unknown) and the Undefined category falls back to the median " +
			"of the other categories' cycle costs. Each number's citation says whether it is an estimate.",
		Power:  Cost{Value: 2000, Notes: []Note{{Estimate: true, Text: corePower}}},
		Memory: cortexA15Memory(), Pipeline: modelA15,
		Categories: []Category{
			{Name: "Integer ALU", Classes: []string{"alu"}, Cycles: gccA15.mean("",
				lat("cortex_a15_alu", 2, "alu, logic, mov, mvn, adr, bfm, clz, rbit, rev"),
				lat("cortex_a15_alu_shift", 3, "extend, immediate-shifted operands"),
				lat("cortex_a15_alu_shift_reg", 3, "register-shifted operands"))},
			{Name: "Shift/rotate", Classes: []string{"shift"}, Cycles: gccA15.mean("",
				lat("cortex_a15_alu", 2, "types shift_imm, shift_reg"))},
			{Name: "Multiply", Classes: []string{"mul"}, Cycles: gccA15.mean("",
				lat("cortex_a15_mult32", 3, "32-bit multiplies"))},
			{Name: "Multiply long", Classes: []string{"mul-long"}, Cycles: gccA15.mean("",
				lat("cortex_a15_mult64", 4, "64-bit-result multiplies"))},
			{Name: "Integer divide", Classes: []string{"div"}, Cycles: gccA15.mean("",
				lat("cortex_a15_udiv", 9, "udiv"), lat("cortex_a15_sdiv", 10, "sdiv"))},
			{Name: "DSP (packed/saturating)", Classes: []string{"dsp"}, Cycles: gccA15.mean("",
				lat("cortex_a15_alu", 2, "type alu_dsp_reg"))},
			{Name: "Load", Classes: []string{"load"}, Cycles: gccA15.mean("",
				lat("cortex_a15_load1", 4, "load_byte, load_4, load_8"))},
			{Name: "Load multiple", Classes: []string{"load-multiple"}, Cycles: gccA15.mean("",
				lat("cortex_a15_load3", 5, "load_12, load_16"))},
			{Name: "Store", Classes: []string{"store"}, Cycles: gccA15.mean("",
				issue("cortex_a15_store1", 1, "one cycle of ca15_str; GCC latency 0"))},
			{Name: "Store multiple", Classes: []string{"store-multiple"}, Cycles: gccA15.mean("",
				issue("cortex_a15_store3", 2, "two cycles of ca15_str; GCC latency 0"))},
			seedBranch("GCC's cortex_a15_branch has latency 0 and takes one issue slot, i.e. no branch cost, so the seed's figure is used."),
			{Name: "Unconditional branch", Classes: []string{"branch"}, Cycles: gccA15.mean(
				"cortex_a15_call has latency 1 but blocks all issue slots for a cycle.",
				issue("cortex_a15_branch", 1, "one issue slot and one cycle of ca15_bx; GCC latency 0"))},
			{Name: "If-then (IT)", Classes: []string{"it"}, Cycles: est(1, itCycles)},
			{Name: "System", Classes: []string{"system"}, Cycles: fallback(systemCycles)},
			{Name: "FP add/compare/convert", Classes: []string{"fp-add"}, Cycles: gccA15N.mean(
				"NEON vector forms: cortex_a15_neon_fp_arith latency 6.",
				lat("cortex_a15_vfp_const", 4, "fconsts, fconstd"),
				lat("cortex_a15_vfp_adds_subs", 6, "fadds"),
				lat("cortex_a15_vfp_addd_subd", 10, "faddd"),
				lat("cortex_a15_vfp_cvt", 6, "f_cvt, f_cvtf2i, f_cvti2f"),
				lat("cortex_a15_vfp_cmps", 8, "fcmps"),
				lat("cortex_a15_vfp_cmpd", 8, "fcmpd"),
				lat("cortex_a15_vfp_ariths", 7, "ffariths"),
				lat("cortex_a15_vfp_arithd", 7, "ffarithd"),
				lat("cortex_a15_vfp_cpys", 4, "fmov"))},
			{Name: "FP multiply", Classes: []string{"fp-mul"}, Cycles: gccA15N.mean(
				"NEON vector forms: cortex_a15_neon_fp_mul latency 5.",
				lat("cortex_a15_vfp_muls", 7, "fmuls"),
				lat("cortex_a15_vfp_muld", 12, "fmuld"))},
			{Name: "FP multiply-accumulate", Classes: []string{"fp-mac"}, Cycles: gccA15N.mean(
				"NEON vector forms: cortex_a15_neon_fp_mla latency 9.",
				lat("cortex_a15_vfp_macs", 6, "fmacs, ffmas"),
				lat("cortex_a15_vfp_macd", 11, "fmacd, ffmad"))},
			{Name: "FP divide/sqrt (single)", Classes: []string{"fp-div-s"}, Cycles: gccA15N.mean("",
				lat("cortex_a15_vfp_divs", 10, "fdivs, fsqrts"))},
			{Name: "FP divide/sqrt (double)", Classes: []string{"fp-div-d"}, Cycles: gccA15N.mean("",
				lat("cortex_a15_vfp_divd", 18, "fdivd, fsqrtd"))},
			{Name: "FP load", Classes: []string{"fp-load"}, Cycles: gccA15N.mean("",
				lat("cortex_a15_neon_load_a", 6, "f_loads, f_loadd"))},
			{Name: "FP store", Classes: []string{"fp-store"}, Cycles: gccA15N.mean("",
				issue("cortex_a15_neon_store_a", 1, "f_stores, f_stored; one cycle of ca15_str; GCC latency 0"))},
			{Name: "FP register transfer", Classes: []string{"fp-xfer"}, Cycles: gccA15N.mean("",
				lat("cortex_a15_vfp_to_from_gp", 5, "f_mcr, f_mcrr, f_mrc, f_mrrc"),
				lat("cortex_a15_neon_from_gp", 9, "neon_from_gp"),
				lat("cortex_a15_neon_to_gp", 7, "neon_to_gp"))},
			{Name: "NEON integer ALU", Classes: []string{"simd-alu"}, Cycles: gccA15N.mean("",
				lat("cortex_a15_neon_abd", 5, ""), lat("cortex_a15_neon_abd_q", 5, ""),
				lat("cortex_a15_neon_aba", 7, ""), lat("cortex_a15_neon_aba_q", 8, ""),
				lat("cortex_a15_neon_arith_basic", 4, ""), lat("cortex_a15_neon_arith_complex", 5, ""),
				lat("cortex_a15_neon_shift_acc", 7, ""), lat("cortex_a15_neon_shift_imm_basic", 4, ""),
				lat("cortex_a15_neon_shift_imm_complex", 5, ""), lat("cortex_a15_neon_shift_reg_basic", 4, ""),
				lat("cortex_a15_neon_shift_reg_basic_q", 5, ""), lat("cortex_a15_neon_shift_reg_complex", 5, ""),
				lat("cortex_a15_neon_shift_reg_complex_q", 6, ""))},
			{Name: "NEON integer multiply", Classes: []string{"simd-mul"}, Cycles: gccA15N.mean("",
				lat("cortex_a15_neon_multiply", 6, ""), lat("cortex_a15_neon_multiply_q", 7, ""),
				lat("cortex_a15_neon_mla", 6, ""), lat("cortex_a15_neon_mla_q", 7, ""),
				lat("cortex_a15_neon_sat_mla_long", 6, ""))},
			{Name: "NEON permute", Classes: []string{"simd-perm"}, Cycles: gccA15N.mean(
				"GCC's bitops group (bsl, cls, cnt, rev, zip, dup, ext, move) runs on the permute pipeline.",
				lat("cortex_a15_neon_bitops", 4, ""), lat("cortex_a15_neon_bitops_q", 4, ""),
				lat("cortex_a15_neon_tbl3_tbl4", 7, ""), lat("cortex_a15_neon_zip_q", 7, ""))},
			{Name: "NEON load", Classes: []string{"simd-load"}, Cycles: gccA15N.mean("",
				lat("cortex_a15_neon_load_a", 6, ""), lat("cortex_a15_neon_load_b", 7, ""),
				lat("cortex_a15_neon_load_c", 9, ""), lat("cortex_a15_neon_load_d", 11, ""),
				lat("cortex_a15_neon_load_e", 9, ""), lat("cortex_a15_neon_load_f", 11, ""))},
			{Name: "NEON store", Classes: []string{"simd-store"}, Cycles: gccA15N.mean(
				"Issue cost = cycles holding ca15_str; GCC latency is 0 for all of them.",
				issue("cortex_a15_neon_store_a", 1, ""), issue("cortex_a15_neon_store_b", 2, ""),
				issue("cortex_a15_neon_store_c", 3, ""), issue("cortex_a15_neon_store_d", 4, ""),
				issue("cortex_a15_neon_store_e", 1, ""), issue("cortex_a15_neon_store_f", 2, ""),
				issue("cortex_a15_neon_store_g", 2, ""), issue("cortex_a15_neon_store_h", 2, ""))},
		},
	}
}

// armReferenceCites cites the seed's Table 5.3 reference data of one core.
func armReferenceCites(core, freq, power, cpi, insns, misses string) []cost.Citation {
	return []cost.Citation{
		{Cost: "frequency-ghz", Estimate: true, Text: "Seed 000 §5.2: the seed assumed " + freq + " for the " + core +
			" (ARM-CORTEX-A, 2013, ARM Cortex-A series product page); an assumed operating clock, not the clock of " +
			"the measurements below."},
		{Cost: "cpi", Text: "CPI " + cpi + ", " + blemRef + "."},
		{Cost: "processor-power-w", Text: "Average processor power " + power + ", " + blemRef + "."},
		{Cost: "base-instructions", Text: "Number of instructions " + insns + ", " + blemRef + "."},
		{Cost: "base-cache-misses", Text: "Number of cache misses " + misses + ", " + blemRef + "."},
		{Cost: "memory-access-energy-nj", Estimate: true, Text: "Seed 000 §5.2: 2.61 nJ per main-memory access, the " +
			"mean of the read (2.66 nJ) and write (2.56 nJ) energy modelled by CACTI 6.5 for 512 MB, 8 banks, " +
			"64-byte blocks, 45 nm; a model output, not a measurement."},
	}
}
