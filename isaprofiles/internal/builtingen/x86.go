package builtingen

import (
	"fmt"
	"strings"

	"androprof/model/cost"
)

// Cost tables of x86-64 cores. The cycle costs come from LLVM's scheduling models rather than
// GCC's (gcc/config/i386/slm.md and friends) because llvm-mca prices any one instruction, so
// every transcribed number can be checked: for each cost class, the result latency of
// representative instructions (the register forms GCC and Clang emit for x86-64 code),
// averaged. The instructions are written in AT&T syntax, as llvm-mca reads them, and
// x86_test.go runs llvm-mca-16 -instruction-info on them, failing on a mistyped number.

// llvmModel is one LLVM scheduling model and the llvm-mca CPU that selects it.
type llvmModel struct {
	file string // path in llvm-project
	cpu  string // llvm-mca -mcpu
}

// llvmRelease is the LLVM whose models the tables transcribe: Debian 12's llvm-16 package,
// whose llvm-mca-16 the test runs.
const llvmRelease = "LLVM 16.0.6 as packaged by Debian 12 in llvm-16"

// x86Insn is one representative instruction in AT&T syntax, as llvm-mca reads it, with the
// latency llvm-mca-16 -instruction-info reports for it (column [2]) on each core; 0 means the
// model gives no usable figure (the instruction is unsupported there, or priced only with the
// placeholder latency 100), and the core leaves it out of its mean.
type x86Insn struct {
	asm      string
	slm, skl float64 // Silvermont, Skylake
}

// x86Category is one category of every x86-64 table and the instructions that represent its
// cost classes: the register forms GCC and Clang emit for x86-64 code. A category whose
// instructions no core prices uses fallback.
type x86Category struct {
	name     string
	classes  []string
	remark   string
	insns    []x86Insn
	fallback Cost
}

// x86Core is one x86-64 core in LLVM terms.
type x86Core struct {
	model    llvmModel
	latency  func(x86Insn) float64 // the core's column of x86Insn
	remarks  map[string]string     // category name -> remark for this core
	unpriced map[string]Cost       // category name -> cost where LLVM prices none of its instructions
}

// categories prices every x86Category for the core, citing the model for each mean.
func (c x86Core) categories() []Category {
	cats := make([]Category, len(x86Categories))
	for i, xc := range x86Categories {
		cats[i] = Category{Name: xc.name, Classes: xc.classes, Cycles: c.cycles(xc)}
	}
	return cats
}

// cycles is the mean latency of the category's instructions the core prices; without any it is
// the core's unpriced cost, else the category's fallback (an empty Cost, which Generate rejects
// for want of a citation, when neither is given).
func (c x86Core) cycles(xc x86Category) Cost {
	var names []string
	var lats []float64
	for _, in := range xc.insns {
		if l := c.latency(in); l > 0 {
			names, lats = append(names, in.asm), append(lats, l)
		}
	}
	if len(lats) == 0 {
		if u, ok := c.unpriced[xc.name]; ok {
			return u
		}
		return xc.fallback
	}
	remark := strings.TrimSpace(xc.remark + " " + c.remarks[xc.name])
	return c.model.mean(remark, names, lats)
}

// mean averages the latencies (rounded to 2 decimals) and cites them, with an optional remark.
func (m llvmModel) mean(remark string, names []string, lats []float64) Cost {
	var sum float64
	items := make([]string, len(names))
	for i := range names {
		sum += lats[i]
		items[i] = fmt.Sprintf("%s latency %s", names[i], num(lats[i]))
	}
	v := round2(sum / float64(len(lats)))
	text := fmt.Sprintf("%s, %s, as llvm-mca-16 -mcpu=%s -instruction-info reports it: %s",
		llvmRelease, m.file, m.cpu, strings.Join(items, "; "))
	if len(lats) > 1 {
		text += fmt.Sprintf("; mean of the %d = %s", len(lats), num(v))
	}
	text += "."
	if remark != "" {
		text += " " + remark
	}
	return Cost{Value: v, Notes: []Note{{Text: text}}}
}

const (
	x86MemOperands = "A memory operand on an ALU, multiply or SIMD instruction (addq (%rdi), %rax) is priced " +
		"as its register form: the x86-64 catalogue has one entry per mnemonic whatever its operands, so " +
		"the load folded into it is not charged (LLVM adds the load latency, 3 to 5 cycles, to such forms)."
	x86System = "LLVM models system instructions (SYSCALL, CPUID, RDTSC, fences) with placeholder latencies " +
		"(WriteSystem/WriteMicrocoded 100 in several models) or not at all, and no per-instruction figure " +
		"was sourced; they are charged the core's fallback cost (the same as the Undefined category)."
	x86Placeholder = "llvm-mca reports latency 100 for instructions the model leaves microcoded and unmodelled " +
		"(WriteMicrocoded); that placeholder is not a cycle count and is not used."
	x86StringPerIteration = "QEMU (7.2, Debian 12) executes a REP-prefixed string instruction one iteration " +
		"at a time, so a trace counts each iteration as one instruction (1,000-byte rep movsb: 1,000 " +
		"executions under qemu-x86_64 -singlestep -d exec,nochain) and the cost is per iteration."
)

// x86Categories is every category of the x86-64 tables, with each representative instruction's
// latency on each core as llvm-mca-16 reports it (x86_test.go checks every number).
var x86Categories = []x86Category{
	{name: "Integer ALU", classes: []string{"alu"}, remark: x86MemOperands, insns: []x86Insn{
		{"addq %rbx, %rax", 1, 1}, {"subq %rbx, %rax", 1, 1}, {"andq %rbx, %rax", 1, 1},
		{"xorq %rbx, %rax", 1, 1}, {"cmpq %rbx, %rax", 1, 1}, {"testq %rbx, %rax", 1, 1},
		{"movq %rbx, %rax", 1, 1}, {"leaq (%rdi,%rsi,4), %rax", 1, 1}, {"movzbl %bl, %eax", 1, 1},
		{"cmovneq %rbx, %rax", 2, 1}, {"setne %al", 1, 1}, {"incq %rax", 1, 1}, {"negq %rax", 1, 1},
		{"adcq %rbx, %rax", 1, 1}}},
	{name: "Shift/rotate", classes: []string{"shift"}, insns: []x86Insn{
		{"shlq $3, %rax", 1, 1}, {"sarq %cl, %rax", 1, 3}, {"rorq $5, %rax", 1, 1}, {"shldq $3, %rbx, %rax", 1, 3}}},
	{name: "Multiply", classes: []string{"mul"}, insns: []x86Insn{
		{"imull %ebx, %eax", 3, 3}, {"imulq %rbx, %rax", 5, 3}, {"imulq $7, %rbx, %rax", 5, 3}}},
	{name: "Multiply long", classes: []string{"mul-long"}, remark: "One-operand forms: the double-width product goes to RDX:RAX.",
		insns: []x86Insn{{"mulq %rbx", 7, 4}, {"imulq %rbx", 7, 4}}},
	{name: "Integer divide", classes: []string{"div"}, insns: []x86Insn{
		{"divl %ebx", 25, 76}, {"idivl %ebx", 25, 102}, {"divq %rbx", 25, 76}, {"idivq %rbx", 25, 102}}},
	{name: "Load", classes: []string{"load"}, insns: []x86Insn{
		{"movq (%rdi), %rax", 3, 5}, {"movzbl (%rdi), %eax", 3, 5}, {"movslq (%rdi), %rax", 3, 5}, {"popq %rax", 3, 6}}},
	{name: "Store", classes: []string{"store"}, insns: []x86Insn{
		{"movq %rax, (%rdi)", 1, 1}, {"movb %al, (%rdi)", 1, 1}, {"pushq %rax", 1, 2}}},
	{name: "Conditional branch", classes: []string{"branch-cond"},
		remark: "Every Jcc shares the scheduling class of jne.", insns: []x86Insn{{"jne .", 1, 1}}},
	{name: "Unconditional branch", classes: []string{"branch"}, insns: []x86Insn{
		{"jmp .", 1, 1}, {"callq *%rax", 1, 3}, {"retq", 4, 7}, {"jmpq *%rax", 1, 1}}},
	{name: "System", classes: []string{"system"}, fallback: fallback(x86System)},
	{name: "String", classes: []string{"string"}, remark: x86StringPerIteration, insns: []x86Insn{
		{"movsq", 0, 0}, {"lodsq", 0, 0}, {"cmpsb", 0, 0}, {"stosq", 0, 2}, {"scasb", 0, 7}}},
	{name: "FP add/compare/convert", classes: []string{"fp-add"}, insns: []x86Insn{
		{"addsd %xmm1, %xmm0", 3, 4}, {"addss %xmm1, %xmm0", 3, 4}, {"subsd %xmm1, %xmm0", 3, 4},
		{"ucomisd %xmm1, %xmm0", 3, 2}, {"maxsd %xmm1, %xmm0", 3, 4}, {"cvtsi2sd %rax, %xmm0", 5, 5},
		{"cvttsd2si %xmm0, %rax", 5, 6}, {"cvtss2sd %xmm1, %xmm0", 4, 5}, {"fadd %st(1), %st", 3, 3}}},
	{name: "FP multiply", classes: []string{"fp-mul"}, insns: []x86Insn{
		{"mulsd %xmm1, %xmm0", 5, 4}, {"mulss %xmm1, %xmm0", 5, 4}, {"fmul %st(1), %st", 5, 4}}},
	{name: "FP fused multiply-add", classes: []string{"fp-mac"}, insns: []x86Insn{
		{"vfmadd231sd %xmm2, %xmm1, %xmm0", 0, 4}, {"vfmadd231ss %xmm2, %xmm1, %xmm0", 0, 4}}},
	{name: "FP divide/sqrt (single)", classes: []string{"fp-div-s"}, insns: []x86Insn{
		{"divss %xmm1, %xmm0", 19, 11}, {"sqrtss %xmm1, %xmm0", 20, 12}, {"fdiv %st(1), %st", 19, 20}}},
	{name: "FP divide/sqrt (double)", classes: []string{"fp-div-d"}, insns: []x86Insn{
		{"divsd %xmm1, %xmm0", 34, 14}, {"sqrtsd %xmm1, %xmm0", 35, 18}}},
	{name: "FP load", classes: []string{"fp-load"}, insns: []x86Insn{
		{"movsd (%rdi), %xmm0", 3, 5}, {"movss (%rdi), %xmm0", 3, 5}, {"fldl (%rdi)", 3, 7}}},
	{name: "FP store", classes: []string{"fp-store"}, insns: []x86Insn{
		{"movsd %xmm0, (%rdi)", 1, 1}, {"movss %xmm0, (%rdi)", 1, 1}, {"fstpl (%rdi)", 1, 1}}},
	{name: "FP register transfer", classes: []string{"fp-xfer"}, insns: []x86Insn{
		{"movq %rax, %xmm0", 1, 1}, {"movq %xmm0, %rax", 1, 2}, {"movd %eax, %xmm0", 1, 1}, {"movd %xmm0, %eax", 1, 2}}},
	{name: "SIMD integer/FP ALU", classes: []string{"simd-alu"}, insns: []x86Insn{
		{"paddd %xmm1, %xmm0", 1, 1}, {"psubb %xmm1, %xmm0", 1, 1}, {"pxor %xmm1, %xmm0", 1, 1},
		{"pand %xmm1, %xmm0", 1, 1}, {"pcmpeqb %xmm1, %xmm0", 1, 1}, {"pmaxub %xmm1, %xmm0", 1, 1},
		{"psllq $3, %xmm0", 1, 1}, {"addps %xmm1, %xmm0", 3, 4}, {"addpd %xmm1, %xmm0", 4, 4}}},
	{name: "SIMD multiply", classes: []string{"simd-mul"}, insns: []x86Insn{
		{"pmullw %xmm1, %xmm0", 5, 5}, {"pmuludq %xmm1, %xmm0", 5, 5}, {"pmaddwd %xmm1, %xmm0", 5, 5},
		{"pmulld %xmm1, %xmm0", 11, 10}, {"mulps %xmm1, %xmm0", 5, 4}, {"mulpd %xmm1, %xmm0", 7, 4}}},
	{name: "SIMD permute", classes: []string{"simd-perm"}, insns: []x86Insn{
		{"pshufd $0, %xmm1, %xmm0", 1, 1}, {"punpcklbw %xmm1, %xmm0", 1, 1}, {"pshufb %xmm1, %xmm0", 5, 1},
		{"shufps $0, %xmm1, %xmm0", 1, 1}, {"palignr $4, %xmm1, %xmm0", 1, 1}, {"packuswb %xmm1, %xmm0", 1, 1},
		{"pmovmskb %xmm0, %eax", 4, 2}}},
	{name: "SIMD load", classes: []string{"simd-load"}, insns: []x86Insn{
		{"movdqa (%rdi), %xmm0", 3, 6}, {"movdqu (%rdi), %xmm0", 3, 6}, {"movaps (%rdi), %xmm0", 3, 6},
		{"movups (%rdi), %xmm0", 3, 6}}},
	{name: "SIMD store", classes: []string{"simd-store"}, insns: []x86Insn{
		{"movdqa %xmm0, (%rdi)", 1, 1}, {"movdqu %xmm0, (%rdi)", 1, 1}, {"movaps %xmm0, (%rdi)", 1, 1},
		{"movups %xmm0, (%rdi)", 1, 1}}},
	{name: "Crypto/CRC", classes: []string{"crypto"}, remark: "Neither core has the SHA extensions.", insns: []x86Insn{
		{"aesenc %xmm1, %xmm0", 8, 4}, {"aesdec %xmm1, %xmm0", 8, 4}, {"pclmulqdq $0, %xmm1, %xmm0", 10, 6},
		{"crc32q %rbx, %rax", 3, 3}}},
}

// x86Cores lists the x86-64 cores in LLVM terms, for the test that checks them against llvm-mca.
func x86Cores() []x86Core { return []x86Core{silvermontLLVM, skylakeLLVM} }

var silvermontLLVM = x86Core{
	model:   llvmModel{"llvm/lib/Target/X86/X86ScheduleSLM.td, SLMModel", "silvermont"},
	latency: func(in x86Insn) float64 { return in.slm },
	remarks: map[string]string{"Integer divide": "LLVM gives every operand size the same 25 cycles."},
	unpriced: map[string]Cost{
		"String": fallback("LLVM's Silvermont model gives MOVS, STOS, LODS, CMPS and SCAS only the placeholder " +
			"latency 100 of WriteMicrocoded (X86ScheduleSLM.td), which is not a cycle count, and no " +
			"per-instruction figure was sourced; they are charged the core's fallback cost. " + x86StringPerIteration),
		"FP fused multiply-add": fallback("Silvermont has no FMA: X86ScheduleSLM.td marks WriteFMA unsupported " +
			"and VFMADD/VFMSUB raise #UD there. They are charged the core's fallback cost."),
	},
}

var skylakeLLVM = x86Core{
	model:   llvmModel{"llvm/lib/Target/X86/X86SchedSkylakeClient.td, SkylakeClientModel", "skylake"},
	latency: func(in x86Insn) float64 { return in.skl },
	remarks: map[string]string{"String": "movsq, lodsq and cmpsb are left out: " + x86Placeholder},
}

func silvermont() Core {
	const power = "No per-instruction or per-category power is published for Silvermont. AnandTech ('Intel " +
		"Baytrail Preview: Intel Atom Z3770 Tested', A. L. Shimpi, 11 September 2013) reports SoC power, " +
		"measured by Intel at the board level, of 800 mW to 1.2 W while one thread of Cinebench R11.5 runs " +
		"on the Atom Z3770 (four Silvermont cores, 22 nm); the middle of that range, 1000 mW, is used for " +
		"every category. It includes the SoC's uncore and is not a per-core measurement, so it is an estimate."
	return Core{
		Slug: "atom-silvermont", Name: "x86-64 Atom Silvermont", Architecture: "x86-64",
		Organization: "Silvermont (Atom Z3000: Bay Trail, Merrifield, Moorefield)",
		ISAs:         []cost.ISA{cost.X86_64},
		Source: "Silvermont is the core of the 64-bit Android x86 phones and tablets (Atom Z3400/Z3500 " +
			"Merrifield/Moorefield, Z3700 Bay Trail). " + silvermontLLVM.method() +
			" Silvermont issues out of order, two instructions per cycle, so latencies overstate the " +
			"throughput cost of independent instructions. " + x86MemOperands + " Silvermont has no AVX or " +
			"FMA: VEX-encoded instructions are priced like their SSE forms and FMA falls back. System and " +
			"string instructions fall back, since LLVM gives them only a placeholder latency. Power: about " +
			"1 W, from AnandTech's report of Intel's board-level measurement of the Atom Z3770 running one " +
			"thread (2013), an estimate. No CPI, instruction count or cache-miss count of a Silvermont was " +
			"found, so the reference data are left empty (unknown) and the Undefined category falls back " +
			"to the median of the other categories' cycle costs. Each number's citation says whether it " +
			"is an estimate.",
		Power:  Cost{Value: 1000, Notes: []Note{{Estimate: true, Text: power}}},
		Memory: silvermontMemory(), Pipeline: modelSilvermont,
		Categories: silvermontLLVM.categories(),
	}
}

func skylake() Core {
	const power = "No per-instruction, per-category or per-core power of a Skylake core was found: Intel " +
		"publishes a package TDP (a thermal limit for all cores, graphics and uncore together), not a core's " +
		"average power. The power cost is left at 0 (unknown) rather than invented; set it before using the " +
		"energy estimates of this profile."
	return Core{
		Slug: "core-skylake", Name: "x86-64 Core Skylake", Architecture: "x86-64",
		Organization: "Skylake (6th-generation Core, desktop)",
		ISAs:         []cost.ISA{cost.X86_64},
		Source: "A desktop core of the kind that hosts the Android emulator's x86-64 system images. " +
			skylakeLLVM.method() + " Skylake issues out of order, four " +
			"instructions per cycle, so latencies overstate the throughput cost of independent " +
			"instructions. " + x86MemOperands + " System instructions fall back. No power figure for a " +
			"Skylake core was found, so power costs are 0 (unknown); no CPI or other reference data were " +
			"found either, so they are left empty and the Undefined category falls back to the median of " +
			"the other categories' cycle costs. Each number's citation says whether it is an estimate.",
		Power:  Cost{Value: 0, Notes: []Note{{Estimate: true, Text: power}}},
		Memory: skylakeMemory(), Pipeline: modelSkylake,
		Categories: skylakeLLVM.categories(),
	}
}

// method is the Source sentence saying how the core's table was made.
func (c x86Core) method() string {
	return "Cycle costs are LLVM's scheduling model " + c.model.file + " (" + llvmRelease + ") read with " +
		"llvm-mca-16 -mcpu=" + c.model.cpu + " -instruction-info: the result latency of representative " +
		"register-form instructions, averaged per cost class (a test re-runs llvm-mca-16 on each of them)."
}
