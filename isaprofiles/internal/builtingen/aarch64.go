package builtingen

import (
	"fmt"
	"math"
	"strings"

	"androprof/model/cost"
)

// Cost tables of the AArch64 cores of a phone: a Cortex-A55 little core and a Cortex-A76 big
// core. Cycle costs come from LLVM's scheduling models, read through llvm-mca: for each cost
// class a few representative instructions, and the mean of the latencies `llvm-mca
// -instruction-info` prints for them. Stores and branches have a latency of 1 there (LLVM's
// issue cost for an instruction with no register result). aarch64_test.go runs the same
// instructions through the same llvm-mca, so a wrongly copied number fails a test.
//
// LLVM has no model of the Cortex-A76 itself: LLVM 16, 19 and llvm-project main (read at
// 001224ab375822a1) map `-mcpu=cortex-a76` to the Cortex-A57's CortexA57Model (AArch64.td,
// later AArch64Processors.td). The A76 table uses the Neoverse N1 model instead
// (AArch64SchedNeoverseN1.td: in LLVM 19, not in 16), the model of Arm's server derivative of
// the A76, read with llvm-mca-19; its citations say so and count as estimates for the A76.

// a64Model is one LLVM scheduling model and the llvm-mca binary that reports it.
type a64Model struct {
	tool, cpu string            // llvm-mca binary and its -mcpu value
	file      string            // the model's .td file in llvm-project
	release   string            // the LLVM release and Debian package that were read
	column    int               // which latency of a64Insn is this model's
	estimate  bool              // the model is of another core than the profile's
	note      string            // said after every citation of this model
	remarks   map[string]string // cost class -> what this model's figures for it leave out
}

// a64Insn is one instruction and its latency in each model (a55, n1 below).
type a64Insn struct {
	asm     string
	latency [2]float64
}

func mca(asm string, a55, n1 float64) a64Insn { return a64Insn{asm, [2]float64{a55, n1}} }

// a64Row is one category whose cycle cost is the mean latency of its instructions.
type a64Row struct {
	name   string
	class  string
	insns  []a64Insn
	remark string // true of both models
}

// args is the llvm-mca command line the citations name and the test runs.
func (m a64Model) args() []string {
	return []string{"-mtriple=aarch64", "-mcpu=" + m.cpu, "-instruction-info", "-iterations=1"}
}

// cycles averages a row's latencies and cites the model, the command and every instruction.
func (m a64Model) cycles(r a64Row) Cost {
	var sum float64
	items := make([]string, len(r.insns))
	for i, in := range r.insns {
		sum += in.latency[m.column]
		items[i] = fmt.Sprintf("`%s` %s", in.asm, num(in.latency[m.column]))
	}
	v := round2(sum / float64(len(r.insns)))
	text := fmt.Sprintf("%s %s, as `%s %s` prints it (Latency column): %s",
		m.release, m.file, m.tool, strings.Join(m.args()[:3], " "), strings.Join(items, "; "))
	if len(r.insns) > 1 {
		text += fmt.Sprintf("; mean of the %d = %s", len(r.insns), num(v))
	}
	text += "."
	for _, extra := range []string{r.remark, m.remarks[r.class], m.note} {
		if extra != "" {
			text += " " + extra
		}
	}
	return Cost{Value: v, Notes: []Note{{Estimate: m.estimate, Text: text}}}
}

// categories is the model's cost table: one category per row of a64Rows.
func (m a64Model) categories() []Category {
	out := make([]Category, len(a64Rows))
	for i, r := range a64Rows {
		out[i] = Category{Name: r.name, Classes: []string{r.class}, Cycles: m.cycles(r)}
	}
	return out
}

const a55Forwarding = "AArch64SchedA55.td gives these latencies without forwarding ('modeled without taking " +
	"into account forwarding paths'): an ALU result reaches a dependent ALU instruction 2 cycles sooner " +
	"(ReadAdvance 2)."

var (
	llvmA55 = a64Model{tool: "llvm-mca-16", cpu: "cortex-a55", column: 0,
		file:    "llvm/lib/Target/AArch64/AArch64SchedA55.td",
		release: "LLVM 16.0.6 (Debian llvm-16 1:16.0.6-15~deb12u1)",
		remarks: map[string]string{
			"alu": a55Forwarding, "shift": a55Forwarding,
			"div":         "LLVM gives one figure (8) whatever the operands.",
			"branch-cond": "A mispredicted branch costs more (MispredictPenalty 8 in the model).",
			"fp-div-s": "LLVM 16 (and 19) give FSQRT (single) 22, the generic WriteFDiv latency, though the file " +
				"(as of llvm-project 1d7cce3f3b45) also defines a 12-cycle CortexA55WriteFSqrtSP; LLVM's figure is kept.",
		}}
	llvmN1 = a64Model{tool: "llvm-mca-19", cpu: "neoverse-n1", column: 1,
		file:     "llvm/lib/Target/AArch64/AArch64SchedNeoverseN1.td",
		release:  "LLVM 19.1.7 (Debian llvm-19 1:19.1.7-3~deb12u1)",
		estimate: true,
		note: "This is LLVM's Neoverse N1 model (after the Arm Neoverse N1 Software Optimization Guide), standing " +
			"in for the Cortex-A76, whose infrastructure derivative the N1 is; LLVM has no Cortex-A76 model.",
		remarks: map[string]string{
			"div":         "LLVM gives one figure per register width (W 12, X 20).",
			"branch-cond": "A mispredicted branch costs more (MispredictPenalty 11 in the model).",
		}}
)

// rk3588 cites the Linux device tree of the Rockchip RK3588 (four Cortex-A76 and four Cortex-A55
// cores), the one public source found that gives a per-core power figure for both cores.
const rk3588 = "Linux arch/arm64/boot/dts/rockchip/rk3588-base.dtsi (torvalds/linux as of commit " +
	"05b24f63b49b) and rk3588-opp.dtsi (as of commit 276856db91b4): Rockchip's figures for the RK3588"

// rk3588Power is the dynamic power of one RK3588 core at its top operating point, as the kernel's
// Energy Model computes it (drivers/opp/of.c _get_power: µW = C × mV² × MHz / 10⁶).
func rk3588Power(core string, coeff, mhz, mv float64) (mw float64, text string) {
	mw = round2(coeff * mv * mv * mhz / 1e9)
	text = fmt.Sprintf("%s: the %s cores have dynamic-power-coefficient = <%s> (µW/MHz/V², "+
		"Documentation/devicetree/bindings/arm/cpus.yaml) and a top operating point of %s MHz at %s mV. "+
		"The kernel's Energy Model (drivers/opp/of.c, _get_power: P = C × V² × f) gives %s × %s² V² × %s MHz "+
		"= %s mW per core. It is a vendor's model coefficient for one SoC, dynamic power only (no "+
		"leakage), at full load and top clock, not a measurement; the same figure is used for every category.",
		rk3588, core, num(coeff), num(mhz), num(mv), num(coeff), num(mv/1000), num(mhz), num(mw))
	return mw, text
}

// a64Reference is the reference data of figure 5.2 that a source gives for an RK3588 core: its
// clock and power. No public CPI, instruction or cache-miss count of these cores was found.
func a64Reference(core string, ghz, powerMW float64, powerText string) (cost.Reference, []cost.Citation) {
	r := cost.Reference{FrequencyGHz: ghz, ProcessorPowerW: watts(powerMW)}
	return r, []cost.Citation{
		{Cost: "frequency-ghz", Text: fmt.Sprintf("%s: top operating point of the %s cores, %s GHz; "+
			"phones clock the core differently.", rk3588, core, num(ghz))},
		{Cost: "processor-power-w", Estimate: true, Text: powerText},
		{Cost: "cpi", Estimate: true, Text: "Unknown: no public measurement of the average CPI of a " +
			core + " was found (Arm's optimisation guides give per-instruction figures, reviews give " +
			"benchmark scores, not instruction counts), so the calculator needs it from the user."},
	}
}

// a64PowerSource is the part of a profile's source paragraph about its power and reference data.
func a64PowerSource(core string, ghz, powerMW float64) string {
	return fmt.Sprintf("Power is the dynamic power of one %s of the Rockchip RK3588 at %s GHz, %s mW, from "+
		"Rockchip's dynamic-power-coefficient and operating points in the Linux device tree through the "+
		"kernel's Energy Model, an estimate. Reference data: frequency %s GHz and processor power %s W from "+
		"the same source; no public CPI was found, so CPI and the other reference numbers are unknown (0) and "+
		"the Undefined category falls back to the median of the category cycle costs. Each number's citation "+
		"says whether it is an estimate.", core, num(ghz), num(powerMW), num(ghz), num(watts(powerMW)))
}

// watts converts the rounded milliwatts of a power figure to watts without binary noise.
func watts(mw float64) float64 { return math.Round(mw*100) / 1e5 }

func cortexA55() Core {
	powerMW, powerText := rk3588Power("Cortex-A55", 228, 1800, 950)
	ref, refCites := a64Reference("Cortex-A55", 1.8, powerMW, powerText)
	return Core{
		Slug: "cortex-a55", Name: "ARMv8.2-A Cortex-A55", Architecture: "ARMv8.2-A", Organization: "Cortex-A55",
		ISAs: []cost.ISA{cost.AArch64},
		Source: "Cycle costs are LLVM 16.0.6's Cortex-A55 scheduling model (llvm/lib/Target/AArch64/" +
			"AArch64SchedA55.td, contributed by Arm from the Arm Cortex-A55 Software Optimization Guide, " +
			"ARM-EPM-128372, per its review https://reviews.llvm.org/D46884) as `llvm-mca-16 -mcpu=cortex-a55 " +
			"-instruction-info` prints it: the mean latency of representative instructions per cost class. " +
			"The A55 is in order and dual-issue, and LLVM's A55 latencies leave out forwarding (the file: " +
			"'modeled without taking into account forwarding paths'), so they overstate back-to-back costs. " +
			a64PowerSource("Cortex-A55", 1.8, powerMW),
		Reference: ref, ReferenceCite: refCites,
		Power:  Cost{Value: powerMW, Notes: []Note{{Estimate: true, Text: powerText}}},
		Memory: cortexA55Memory(), Pipeline: modelA55,
		Categories: llvmA55.categories(),
	}
}

func cortexA76() Core {
	powerMW, powerText := rk3588Power("Cortex-A76", 416, 2400, 1000)
	ref, refCites := a64Reference("Cortex-A76", 2.4, powerMW, powerText)
	return Core{
		Slug: "cortex-a76", Name: "ARMv8.2-A Cortex-A76", Architecture: "ARMv8.2-A", Organization: "Cortex-A76",
		ISAs: []cost.ISA{cost.AArch64},
		Source: "LLVM has no Cortex-A76 scheduling model: LLVM 16 and 19 map -mcpu=cortex-a76 to the Cortex-A57's " +
			"(AArch64.td / AArch64Processors.td: ProcessorModel<\"cortex-a76\", CortexA57Model, …>). Cycle costs " +
			"therefore come from LLVM 19.1.7's Neoverse N1 model (llvm/lib/Target/AArch64/" +
			"AArch64SchedNeoverseN1.td, after the Arm Neoverse N1 Software Optimization Guide); the Neoverse N1 " +
			"is Arm's infrastructure core based on the Cortex-A76, announced 20 February 2019 (Wikipedia, " +
			"'ARM Cortex-A76', section Neoverse N1). They are the mean latencies `llvm-mca-19 -mcpu=neoverse-n1 -instruction-info` prints for " +
			"representative instructions per cost class, and count as estimates for the A76. The A76 issues " +
			"out of order, up to 8 micro-ops a cycle, so latencies overstate the cost of independent " +
			"instructions. " + a64PowerSource("Cortex-A76", 2.4, powerMW),
		Reference: ref, ReferenceCite: refCites,
		Power:  Cost{Value: powerMW, Notes: []Note{{Estimate: true, Text: powerText}}},
		Memory: cortexA76Memory(), Pipeline: modelA76,
		Categories: llvmN1.categories(),
	}
}

const (
	atomicsRemark = "LSE atomics (LDADD, SWP, CAS…), which the catalogue also puts in this class, are not " +
		"modelled by LLVM (WriteAtomic is Unsupported) and are priced at this mean."
	systemRemark = "LLVM charges system, barrier and hint instructions one issue cycle; the wait of a " +
		"barrier and the kernel's work behind SVC are not in it (a user-mode trace does not count them either)."
)

// a64Rows are the categories of both AArch64 tables: per cost class, representative instructions
// and their latency in each model, in the form llvm-mca accepts.
var a64Rows = []a64Row{
	{"Integer ALU", "alu", []a64Insn{
		mca("add x0, x1, x2", 3, 1), mca("sub w0, w1, #1", 3, 1), mca("and x0, x1, x2", 3, 1),
		mca("mov x0, #1", 3, 1), mca("movk x0, #1, lsl #16", 3, 1), mca("cmp x0, x1", 3, 1),
		mca("csel x0, x1, x2, eq", 3, 1), mca("add x0, x1, x2, lsl #2", 3, 1), mca("sxtw x0, w1", 3, 1),
		mca("ubfx x0, x1, #2, #3", 3, 1), mca("clz x0, x1", 3, 1), mca("rev x0, x1", 3, 1),
	}, ""},
	{"Shift/rotate", "shift", []a64Insn{
		mca("lsl x0, x1, #3", 3, 1), mca("lsr x0, x1, x2", 3, 1), mca("asr w0, w1, #3", 3, 1), mca("ror x0, x1, #3", 3, 1),
	}, ""},
	{"Multiply", "mul", []a64Insn{
		mca("mul w0, w1, w2", 4, 2), mca("mul x0, x1, x2", 4, 4), mca("madd w0, w1, w2, w3", 4, 2),
		mca("madd x0, x1, x2, x3", 4, 4), mca("msub x0, x1, x2, x3", 4, 4),
	}, ""},
	{"Multiply long", "mul-long", []a64Insn{
		mca("smull x0, w1, w2", 4, 2), mca("umull x0, w1, w2", 4, 2), mca("smaddl x0, w1, w2, x3", 4, 2),
		mca("smulh x0, x1, x2", 4, 5), mca("umulh x0, x1, x2", 4, 5),
	}, ""},
	{"Integer divide", "div", []a64Insn{
		mca("sdiv w0, w1, w2", 8, 12), mca("sdiv x0, x1, x2", 8, 20), mca("udiv w0, w1, w2", 8, 12), mca("udiv x0, x1, x2", 8, 20),
	}, ""},
	{"Load", "load", []a64Insn{
		mca("ldr x0, [x1]", 3, 4), mca("ldr w0, [x1, #4]", 3, 4), mca("ldrb w0, [x1]", 3, 4), mca("ldrsw x0, [x1]", 3, 4),
		mca("ldr x0, [x1, x2, lsl #3]", 4, 4), mca("ldr x0, [x1], #8", 3, 4), mca("ldur x0, [x1, #-8]", 3, 4),
		mca("ldar x0, [x1]", 3, 4), mca("prfm pldl1keep, [x1]", 3, 4),
	}, ""},
	{"Load pair", "load-multiple", []a64Insn{
		mca("ldp x0, x1, [x2]", 5, 4), mca("ldp w0, w1, [x2]", 4, 4), mca("ldp x29, x30, [sp], #16", 5, 4),
		mca("ldpsw x0, x1, [x2]", 4, 5),
	}, ""},
	{"Store, exclusive, atomic", "store", []a64Insn{
		mca("str x0, [x1]", 1, 1), mca("strb w0, [x1]", 1, 1), mca("str x0, [x1, x2, lsl #3]", 1, 1),
		mca("str x0, [x1, #-8]!", 1, 1), mca("stur x0, [x1, #-8]", 1, 1), mca("stlr x0, [x1]", 1, 1),
		mca("ldxr x0, [x1]", 3, 4), mca("stxr w2, x0, [x1]", 4, 5), mca("ldaxr x0, [x1]", 3, 4), mca("stlxr w2, x0, [x1]", 4, 5),
	}, atomicsRemark},
	{"Store pair", "store-multiple", []a64Insn{
		mca("stp x0, x1, [x2]", 1, 1), mca("stp w0, w1, [x2]", 1, 1), mca("stp x29, x30, [sp, #-16]!", 1, 1),
	}, ""},
	{"Conditional branch", "branch-cond", []a64Insn{
		mca("b.eq .", 1, 1), mca("cbz x0, .", 1, 1), mca("tbnz x0, #3, .", 1, 1),
	}, ""},
	{"Unconditional branch", "branch", []a64Insn{
		mca("b .", 1, 1), mca("bl .", 1, 1), mca("br x0", 1, 1), mca("blr x0", 1, 1), mca("ret", 1, 1),
	}, ""},
	{"System", "system", []a64Insn{
		mca("nop", 1, 1), mca("dmb ish", 1, 1), mca("isb", 1, 1), mca("mrs x0, tpidr_el0", 1, 1), mca("svc #0", 1, 1), mca("yield", 1, 1),
		mca("mrs x0, fpcr", 1, 1), mca("msr fpcr, x0", 1, 1),
	}, systemRemark},
	{"FP add/compare/convert", "fp-add", []a64Insn{
		mca("fadd d0, d1, d2", 4, 2), mca("fsub s0, s1, s2", 4, 2), mca("fabs d0, d1", 4, 2), mca("fneg s0, s1", 4, 2),
		mca("fcmp d0, d1", 3, 2), mca("fcvt d0, s1", 4, 3), mca("fcvtzs w0, d1", 3, 4), mca("scvtf d0, x1", 4, 6),
		mca("fcsel d0, d1, d2, eq", 4, 2), mca("fmaxnm d0, d1, d2", 4, 2),
		mca("frintm d0, d1", 4, 3), mca("fadd v0.4s, v1.4s, v2.4s", 4, 2),
	}, ""},
	{"FP multiply", "fp-mul", []a64Insn{
		mca("fmul d0, d1, d2", 4, 3), mca("fmul s0, s1, s2", 4, 3), mca("fnmul d0, d1, d2", 4, 3), mca("fmul v0.4s, v1.4s, v2.4s", 4, 3),
	}, ""},
	{"FP multiply-accumulate", "fp-mac", []a64Insn{
		mca("fmadd d0, d1, d2, d3", 4, 4), mca("fmsub s0, s1, s2, s3", 4, 4), mca("fmla v0.4s, v1.4s, v2.4s", 4, 4),
	}, ""},
	{"FP divide/sqrt (single)", "fp-div-s", []a64Insn{
		mca("fdiv s0, s1, s2", 13, 10), mca("fsqrt s0, s1", 22, 10), mca("fdiv v0.4s, v1.4s, v2.4s", 13, 10),
	}, ""},
	{"FP divide/sqrt (double)", "fp-div-d", []a64Insn{
		mca("fdiv d0, d1, d2", 22, 15), mca("fsqrt d0, d1", 22, 17), mca("fdiv v0.2d, v1.2d, v2.2d", 22, 15),
	}, ""},
	{"FP load", "fp-load", []a64Insn{
		mca("ldr d0, [x1]", 3, 5), mca("ldr s0, [x1]", 3, 5), mca("ldr q0, [x1]", 3, 5),
	}, ""},
	{"FP store", "fp-store", []a64Insn{
		mca("str d0, [x1]", 1, 2), mca("str s0, [x1]", 1, 2), mca("str q0, [x1]", 1, 2),
	}, ""},
	{"FP register transfer", "fp-xfer", []a64Insn{
		mca("fmov x0, d1", 3, 2), mca("fmov d0, x1", 3, 3), mca("fmov w0, s1", 3, 2), mca("fmov s0, w1", 3, 3),
		mca("fmov d0, d1", 4, 2), mca("fmov d0, #1.0", 3, 2), mca("umov w0, v1.s[1]", 4, 2),
		mca("smov x0, v1.h[1]", 4, 2),
	}, ""},
	{"SIMD integer ALU", "simd-alu", []a64Insn{
		mca("add v0.4s, v1.4s, v2.4s", 2, 2), mca("sub v0.8h, v1.8h, v2.8h", 2, 2), mca("and v0.16b, v1.16b, v2.16b", 1, 2),
		mca("cmeq v0.4s, v1.4s, v2.4s", 2, 2), mca("shl v0.4s, v1.4s, #3", 2, 2), mca("ushr v0.2d, v1.2d, #3", 2, 2),
		mca("sqadd v0.16b, v1.16b, v2.16b", 3, 2), mca("abs v0.4s, v1.4s", 3, 2), mca("addv s0, v1.4s", 3, 3),
		mca("umax v0.4s, v1.4s, v2.4s", 4, 2), mca("uaba v0.8h, v1.8h, v2.8h", 4, 4), mca("bsl v0.16b, v1.16b, v2.16b", 4, 2),
		mca("cnt v0.16b, v1.16b", 4, 2), mca("movi v0.16b, #1", 4, 2),
	}, ""},
	{"SIMD integer multiply", "simd-mul", []a64Insn{
		mca("mul v0.4s, v1.4s, v2.4s", 4, 5), mca("mla v0.8h, v1.8h, v2.8h", 4, 5), mca("umull v0.2d, v1.2s, v2.2s", 4, 4),
		mca("smlal v0.4s, v1.4h, v2.4h", 4, 4), mca("sqdmulh v0.4s, v1.4s, v2.4s", 4, 5), mca("sdot v0.4s, v1.16b, v2.16b", 4, 2),
	}, ""},
	{"SIMD permute", "simd-perm", []a64Insn{
		mca("zip1 v0.4s, v1.4s, v2.4s", 4, 2), mca("uzp1 v0.16b, v1.16b, v2.16b", 4, 2), mca("trn1 v0.8h, v1.8h, v2.8h", 4, 2),
		mca("ext v0.16b, v1.16b, v2.16b, #3", 4, 2), mca("dup v0.4s, w1", 2, 3), mca("dup v0.4s, v1.s[0]", 2, 2),
		mca("tbl v0.16b, {v1.16b}, v2.16b", 4, 2), mca("ins v0.s[1], w1", 4, 5),
		mca("xtn v0.8b, v1.8h", 2, 2), mca("rev64 v0.4s, v1.4s", 4, 2),
	}, ""},
	{"SIMD load", "simd-load", []a64Insn{
		mca("ld1 {v0.16b}, [x0]", 5, 5), mca("ld1 {v0.16b, v1.16b}, [x0]", 7, 5), mca("ld2 {v0.4s, v1.4s}, [x0]", 7, 7),
		mca("ld4 {v0.4s, v1.4s, v2.4s, v3.4s}, [x0]", 11, 10), mca("ld1r {v0.4s}, [x0]", 4, 7), mca("ld1 {v0.s}[1], [x0]", 4, 7),
		mca("ldp d0, d1, [x0]", 5, 5), mca("ldp q0, q1, [x0]", 6, 7),
	}, ""},
	{"SIMD store", "simd-store", []a64Insn{
		mca("st1 {v0.16b}, [x0]", 4, 2), mca("st1 {v0.16b, v1.16b}, [x0]", 4, 2), mca("st2 {v0.4s, v1.4s}, [x0]", 5, 5),
		mca("st4 {v0.4s, v1.4s, v2.4s, v3.4s}, [x0]", 5, 9), mca("st1 {v0.s}[1], [x0]", 4, 4),
		mca("stp d0, d1, [x0]", 1, 2), mca("stp q0, q1, [x0]", 1, 3),
	}, ""},
	{"Crypto and CRC", "crypto", []a64Insn{
		mca("aese v0.16b, v1.16b", 4, 2), mca("aesmc v0.16b, v1.16b", 4, 2), mca("sha256h q0, q1, v2.4s", 4, 4),
		mca("sha1c q0, s1, v2.4s", 4, 4), mca("pmull v0.1q, v1.1d, v2.1d", 4, 2), mca("crc32w w0, w1, w2", 3, 2),
		mca("crc32x w0, w1, x2", 3, 2),
	}, ""},
}
