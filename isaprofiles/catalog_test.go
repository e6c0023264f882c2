package isaprofiles

import (
	"fmt"
	"strings"
	"testing"

	"golang.org/x/arch/arm/armasm"

	"androprof/model/cost"
)

// documentedClasses is the cost-class table of docs/catalogues.md.
var documentedClasses = map[string]bool{
	"alu": true, "shift": true, "mul": true, "mul-long": true, "div": true, "dsp": true,
	"load": true, "load-multiple": true, "store": true, "store-multiple": true,
	"branch-cond": true, "branch": true, "it": true, "system": true,
	"fp-add": true, "fp-mul": true, "fp-mac": true, "fp-div-s": true, "fp-div-d": true,
	"fp-load": true, "fp-store": true, "fp-xfer": true,
	"simd-alu": true, "simd-mul": true, "simd-perm": true, "simd-load": true, "simd-store": true,
	"crypto": true, "string": true,
}

// armConds are the 14 condition codes B, BL, BX and BLX are catalogued with.
var armConds = []string{"EQ", "NE", "CS", "CC", "MI", "PL", "VS", "VC", "HI", "LS", "GE", "LT", "GT", "LE"}

func TestCatalogParses(t *testing.T) {
	// Minimums sit a little under the measured sizes (ARM 460, Thumb 457, MIPS 302, x86-64 1578,
	// AArch64 686 entries, not counting aliases), so losing a block of instructions fails while
	// small corrections do not.
	for _, tc := range []struct {
		isa        cost.ISA
		minEntries int
	}{{cost.ARM, 440}, {cost.Thumb, 440}, {cost.MIPS, 290}, {cost.X86_64, 1550}, {cost.AArch64, 660}} {
		c := CatalogFor(tc.isa)
		if c == nil {
			t.Fatalf("CatalogFor(%s) = nil", tc.isa)
		}
		if c.ISA != tc.isa {
			t.Errorf("CatalogFor(%s).ISA = %s", tc.isa, c.ISA)
		}
		if len(c.Entries) < tc.minEntries {
			t.Errorf("%s catalogue has %d entries, want at least %d", tc.isa, len(c.Entries), tc.minEntries)
		}
		if got := len(c.Instructions()); got != len(c.Entries) {
			t.Errorf("%s: Instructions() returned %d, want %d", tc.isa, got, len(c.Entries))
		}
		for i, e := range c.Entries {
			if !documentedClasses[e.Class] {
				t.Errorf("%s %s: class %q is not in docs/catalogues.md", tc.isa, e.Mnemonic, e.Class)
			}
			if e.Description == "" {
				t.Errorf("%s %s: no description", tc.isa, e.Mnemonic)
			}
			if i > 0 && c.Entries[i-1].Mnemonic >= e.Mnemonic {
				t.Errorf("%s: entries not sorted at %s", tc.isa, e.Mnemonic)
			}
			if tc.isa == cost.MIPS && (e.Cond || e.SFlag) {
				t.Errorf("MIPS %s: MIPS entries take no c/s flags", e.Mnemonic)
			}
			if got, ok := c.Lookup(e.Mnemonic); !ok || got.Mnemonic != e.Mnemonic {
				t.Errorf("%s: Lookup(%s) = %v, %v", tc.isa, e.Mnemonic, got, ok)
			}
			// An entry must come back unchanged from normalisation, or profiles keyed by it
			// would never match the log.
			if got := c.Normalize(strings.ToLower(e.Mnemonic)); got != e.Mnemonic {
				t.Errorf("%s: Normalize(%q) = %q, want the entry itself", tc.isa, strings.ToLower(e.Mnemonic), got)
			}
		}
		for alias, target := range c.aliases {
			if got := c.Normalize(strings.ToLower(alias)); got != target {
				t.Errorf("%s: Normalize(alias %q) = %q, want %q", tc.isa, alias, got, target)
			}
		}
	}
}

func TestCatalogParseErrors(t *testing.T) {
	for _, tc := range []struct{ name, text, want string }{
		{"lower case", "add alu cs Add\n", "upper case"},
		{"short line", "ADD alu\n", "want MNEMONIC CLASS FLAGS"},
		{"bad flag", "ADD alu x Add\n", "unknown flag"},
		{"duplicate", "ADD alu - Add\nADD alu - Add\n", "listed twice"},
		{"dangling alias", "FOO =BAR\n", "not in the catalogue"},
		{"alias is entry", "ADD alu - Add\nADD =ADD\n", "also an entry"},
		{"alias twice", "ADD alu - Add\nPLUS =ADD\nPLUS =ADD\n", "defined twice"},
	} {
		_, err := ParseCatalog(strings.NewReader(tc.text), "t.txt", cost.ARM)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: error %v, want one containing %q", tc.name, err, tc.want)
		}
	}
}

// armasmText turns an armasm op name ("ADC.S.EQ", "VCMP.E.EQ.F32", "B.ZZ") into the spelling a
// UAL disassembler prints ("adcseq", "vcmpeeq.f32", "b"): one-letter modifiers (S, X, R, B, W, E)
// join the mnemonic, the condition follows them, data types stay dotted. ZZ is armasm's name for
// the condition field value 1111 (unconditional instructions) and is not printed.
func armasmText(op string) (text, base, cond string, setsFlags bool) {
	parts := strings.Split(op, ".")
	base = parts[0]
	var types []string
	for _, p := range parts[1:] {
		switch {
		case len(p) == 1 && p[0] >= 'A' && p[0] <= 'Z':
			setsFlags = setsFlags || p == "S"
			base += p
		case p == "ZZ":
		case conditionCodes[p]:
			cond = p
		default:
			types = append(types, p)
		}
	}
	text = base + cond
	if len(types) > 0 {
		text += "." + strings.Join(types, ".")
	}
	return strings.ToLower(text), base, cond, setsFlags
}

func TestCatalogCoversArmasm(t *testing.T) {
	c := CatalogFor(cost.ARM)
	// armasm's op numbers start at 16 and have short unnamed gaps between groups (an unnamed op
	// prints as "Op(N)"), so walk on until a long run of unnamed numbers marks the end.
	n, unnamed := 0, 0
	for op := armasm.Op(1); op < 0xffff && unnamed < 256; op++ {
		name := op.String()
		if name == fmt.Sprintf("Op(%d)", int(op)) {
			unnamed++
			continue
		}
		unnamed = 0
		n++
		text, base, cond, setsFlags := armasmText(name)
		norm := c.Normalize(text)
		e, ok := c.Lookup(norm)
		if !ok {
			t.Errorf("armasm op %s (%q) normalises to %q, which is not in arm.txt", name, text, norm)
			continue
		}
		if cond != "" && !e.Cond && e.Class != "branch-cond" {
			t.Errorf("armasm op %s is conditional but %s has no c flag", name, e.Mnemonic)
		}
		if setsFlags && !e.SFlag {
			t.Errorf("armasm op %s sets flags but %s has no s flag", name, e.Mnemonic)
		}
		switch base {
		case "B", "BL", "BX", "BLX":
			want, class := base+cond, "branch-cond"
			if cond == "" {
				class = "branch"
			}
			if e.Mnemonic != want || e.Class != class {
				t.Errorf("armasm op %s -> %s (%s), want %s (%s)", name, e.Mnemonic, e.Class, want, class)
			}
		}
	}
	if n < 4000 {
		t.Errorf("only %d armasm ops seen; the Op(N) end marker was probably misread", n)
	}
}

func TestCatalogArmasmText(t *testing.T) {
	for _, tc := range []struct{ op, want string }{
		{"ADC.S.EQ", "adcseq"}, {"VCMP.E.EQ.F32", "vcmpeeq.f32"}, {"B.ZZ", "b"}, {"PLD.W", "pldw"},
		{"SMMLA.R.LS", "smmlarls"}, {"VCVT.F32.F64", "vcvt.f32.f64"}, {"VMOV.NE.32", "vmovne.32"},
	} {
		if got, _, _, _ := armasmText(tc.op); got != tc.want {
			t.Errorf("armasmText(%s) = %q, want %q", tc.op, got, tc.want)
		}
	}
}

func TestCatalogBranchConditions(t *testing.T) {
	for _, isa := range []cost.ISA{cost.ARM, cost.Thumb} {
		c := CatalogFor(isa)
		for _, b := range []string{"B", "BL", "BX", "BLX"} {
			if e, ok := c.Lookup(b); !ok || e.Class != "branch" {
				t.Errorf("%s: %s = %+v, %v; want class branch", isa, b, e, ok)
			}
			for _, cc := range armConds {
				if e, ok := c.Lookup(b + cc); !ok || e.Class != "branch-cond" || e.Mnemonic != b+cc {
					t.Errorf("%s: %s%s = %+v, %v; want its own branch-cond entry", isa, b, cc, e, ok)
				}
			}
			for alias, target := range map[string]string{"HS": "CS", "LO": "CC"} {
				if got := c.Normalize(strings.ToLower(b + alias)); got != b+target {
					t.Errorf("%s: Normalize(%s%s) = %s, want %s%s", isa, b, alias, got, b, target)
				}
			}
		}
	}
}

// Mnemonics as they appear in QEMU -d in_asm logs: capstone 4 (QEMU 7.x), the built-in
// disassembler of QEMU 2.x (binutils-derived, pre-UAL VFP names), and the older pre-UAL
// condition placement of QEMU 0.x.
func TestCatalogNormalize(t *testing.T) {
	for _, tc := range []struct {
		isa       cost.ISA
		raw, want string
		class     string // checked when not empty
	}{
		// ARM, capstone
		{cost.ARM, "push", "PUSH", "store-multiple"},
		{cost.ARM, "pop", "POP", "load-multiple"},
		{cost.ARM, "addseq", "ADD", "alu"},
		{cost.ARM, "bics", "BIC", "alu"},
		{cost.ARM, "bls", "BLS", "branch-cond"},
		{cost.ARM, "blls", "BLLS", "branch-cond"},
		{cost.ARM, "bl", "BL", "branch"},
		{cost.ARM, "bxne", "BXNE", "branch-cond"},
		{cost.ARM, "bx", "BX", "branch"},
		{cost.ARM, "bhs", "BCS", "branch-cond"},
		{cost.ARM, "blo", "BCC", "branch-cond"},
		{cost.ARM, "teq", "TEQ", "alu"},
		{cost.ARM, "teqeq", "TEQ", "alu"},
		{cost.ARM, "mls", "MLS", "mul"},
		{cost.ARM, "mlsls", "MLS", "mul"},
		{cost.ARM, "smmlsr", "SMMLSR", "mul"},
		{cost.ARM, "umullseq", "UMULL", "mul-long"},
		{cost.ARM, "sdiv", "SDIV", "div"},
		{cost.ARM, "qadd8", "QADD8", "dsp"},
		{cost.ARM, "lsl", "LSL", "shift"},
		{cost.ARM, "lsrs", "LSR", "shift"},
		{cost.ARM, "rrxs", "RRX", "shift"},
		{cost.ARM, "ldm", "LDM", "load-multiple"},
		{cost.ARM, "ldmfd", "LDM", "load-multiple"},
		{cost.ARM, "ldmia", "LDM", "load-multiple"},
		{cost.ARM, "stmfd", "STMDB", "store-multiple"},
		{cost.ARM, "stmdb", "STMDB", "store-multiple"},
		{cost.ARM, "stmea", "STM", "store-multiple"},
		{cost.ARM, "ldrbeq", "LDRB", "load"},
		{cost.ARM, "ldrexd", "LDREXD", "load"},
		{cost.ARM, "strexne", "STREX", "store"},
		{cost.ARM, "pldw", "PLDW", "load"},
		{cost.ARM, "swpb", "SWPB", "store"},
		{cost.ARM, "nop", "NOP", "system"},
		{cost.ARM, "udf", "UDF", "system"},
		{cost.ARM, "trap", "UDF", "system"},
		{cost.ARM, "hint", "NOP", "system"},
		{cost.ARM, "svc", "SVC", "system"},
		{cost.ARM, "mcr", "MCR", "system"},
		{cost.ARM, "mrc2", "MRC2", "system"},
		{cost.ARM, "ldc2l", "LDC2L", "system"},
		{cost.ARM, "dmb", "DMB", "system"},
		{cost.ARM, "vadd.i32", "VADD", "simd-alu"},
		{cost.ARM, "vadd.f32", "VADD.F32", "fp-add"},
		{cost.ARM, "vaddeq.f64", "VADD.F64", "fp-add"},
		{cost.ARM, "vmul.f32", "VMUL.F32", "fp-mul"},
		{cost.ARM, "vmul.i16", "VMUL", "simd-mul"},
		{cost.ARM, "vmla.f64", "VMLA.F64", "fp-mac"},
		{cost.ARM, "vfma.f32", "VFMA.F32", "fp-mac"},
		{cost.ARM, "vdiv.f32", "VDIV.F32", "fp-div-s"},
		{cost.ARM, "vsqrt.f64", "VSQRT.F64", "fp-div-d"},
		{cost.ARM, "vcvt.f64.s32", "VCVT.F64", "fp-add"},
		{cost.ARM, "vcvt.f32.f64", "VCVT.F64", "fp-add"},
		{cost.ARM, "vcvt.s32.f32", "VCVT.F32", "fp-add"},
		{cost.ARM, "vcvtr.s32.f64", "VCVTR.F64", "fp-add"},
		{cost.ARM, "vcvtb.f16.f32", "VCVTB.F32", "fp-add"},
		{cost.ARM, "vcmpe.f32", "VCMPE.F32", "fp-add"},
		{cost.ARM, "vmov", "VMOV", "fp-xfer"},
		{cost.ARM, "vmov.32", "VMOV", "fp-xfer"},
		{cost.ARM, "vmov.f64", "VMOV.F64", "fp-add"},
		{cost.ARM, "vmov.i32", "VMOV", "fp-xfer"},
		{cost.ARM, "vmrs", "VMRS", "fp-xfer"},
		{cost.ARM, "vldr", "VLDR", "fp-load"},
		{cost.ARM, "vstr", "VSTR", "fp-store"},
		{cost.ARM, "vldmia", "VLDM", "fp-load"},
		{cost.ARM, "vstmdb", "VSTM", "fp-store"},
		{cost.ARM, "vpush", "VPUSH", "fp-store"},
		{cost.ARM, "vpop", "VPOP", "fp-load"},
		{cost.ARM, "fldmdbx", "VLDM", "fp-load"},
		{cost.ARM, "vld1.32", "VLD1", "simd-load"},
		{cost.ARM, "vst4.8", "VST4", "simd-store"},
		{cost.ARM, "vdup.32", "VDUP", "simd-perm"},
		{cost.ARM, "vmovl.u8", "VMOVL", "simd-perm"},
		{cost.ARM, "vqdmulh.s16", "VQDMULH", "simd-mul"},
		{cost.ARM, "vshr.u64", "VSHR", "simd-alu"},
		{cost.ARM, "vceq.f32", "VCEQ.F32", "fp-add"},
		{cost.ARM, "vrecpe.f32", "VRECPE.F32", "fp-div-s"},
		{cost.ARM, "vmull.p8", "VMULL", "simd-mul"},
		// ARM, QEMU 2.x built-in disassembler and pre-UAL spellings
		{cost.ARM, "addeqs", "ADD", "alu"},
		{cost.ARM, "moveqs", "MOV", "alu"},
		{cost.ARM, "ldreqb", "LDRB", "load"},
		{cost.ARM, "ldrnesh", "LDRSH", "load"},
		{cost.ARM, "streqd", "STRD", "store"},
		{cost.ARM, "ldmeqia", "LDM", "load-multiple"},
		{cost.ARM, "ldmnefd", "LDM", "load-multiple"},
		{cost.ARM, "stmeqdb", "STMDB", "store-multiple"},
		{cost.ARM, "swpeqb", "SWPB", "store"},
		{cost.ARM, "fadds", "VADD.F32", "fp-add"},
		{cost.ARM, "faddd", "VADD.F64", "fp-add"},
		{cost.ARM, "faddseq", "VADD.F32", "fp-add"},
		{cost.ARM, "fmuld", "VMUL.F64", "fp-mul"},
		{cost.ARM, "fmacd", "VMLA.F64", "fp-mac"},
		{cost.ARM, "fdivs", "VDIV.F32", "fp-div-s"},
		{cost.ARM, "fldd", "VLDR", "fp-load"},
		{cost.ARM, "fsts", "VSTR", "fp-store"},
		{cost.ARM, "fldmiad", "VLDM", "fp-load"},
		{cost.ARM, "fstmdbd", "VSTM", "fp-store"},
		{cost.ARM, "fmstat", "VMRS", "fp-xfer"},
		{cost.ARM, "fmrx", "VMRS", "fp-xfer"},
		{cost.ARM, "fmxr", "VMSR", "fp-xfer"},
		{cost.ARM, "fcpyd", "VMOV.F64", "fp-add"},
		{cost.ARM, "fcvtds", "VCVT.F64", "fp-add"},
		{cost.ARM, "fsitod", "VCVT.F64", "fp-add"},
		{cost.ARM, "ftosizd", "VCVT.F64", "fp-add"},
		{cost.ARM, "fmdrr", "VMOV", "fp-xfer"},
		{cost.ARM, "fmrrd", "VMOV", "fp-xfer"},
		{cost.ARM, "fmsr", "VMOV", "fp-xfer"},
		{cost.ARM, "fmrs", "VMOV", "fp-xfer"},
		{cost.ARM, "fcmpezd", "VCMPE.F64", "fp-add"},
		{cost.ARM, "uqaddsubx", "UQASX", "dsp"},
		{cost.ARM, "saddaddx", "SASX", "dsp"},
		{cost.ARM, "undefined", "UDF", "system"},
		{cost.ARM, "swi", "SVC", "system"},
		// not ARMv7: kept, upper-cased, to be shown as uncategorised
		{cost.ARM, "crc32b", "CRC32B", ""},
		{cost.ARM, "vrinta.f32", "VRINTA.F32", ""},

		// Thumb, capstone
		{cost.Thumb, "movle.w", "MOV", "alu"},
		{cost.Thumb, "movs", "MOV", "alu"},
		{cost.Thumb, "adds.w", "ADD", "alu"},
		{cost.Thumb, "addw", "ADD", "alu"},
		{cost.Thumb, "subw", "SUB", "alu"},
		{cost.Thumb, "orns", "ORN", "alu"},
		{cost.Thumb, "rsbs", "RSB", "alu"},
		{cost.Thumb, "negs", "RSB", "alu"},
		{cost.Thumb, "itte", "IT", "it"},
		{cost.Thumb, "it", "IT", "it"},
		{cost.Thumb, "iteet", "IT", "it"},
		{cost.Thumb, "cbz", "CBZ", "branch-cond"},
		{cost.Thumb, "cbnz", "CBNZ", "branch-cond"},
		{cost.Thumb, "tbb", "TBB", "branch"},
		{cost.Thumb, "tbh", "TBH", "branch"},
		{cost.Thumb, "b.n", "B", "branch"},
		{cost.Thumb, "b.w", "B", "branch"},
		{cost.Thumb, "beq.n", "BEQ", "branch-cond"},
		{cost.Thumb, "bne.w", "BNE", "branch-cond"},
		{cost.Thumb, "bhs.w", "BCS", "branch-cond"},
		{cost.Thumb, "bxne", "BXNE", "branch-cond"},
		{cost.Thumb, "blxlt", "BLXLT", "branch-cond"},
		{cost.Thumb, "bleq", "BLEQ", "branch-cond"},
		{cost.Thumb, "ble", "BLE", "branch-cond"},
		{cost.Thumb, "ldr.w", "LDR", "load"},
		{cost.Thumb, "ldrbeq.w", "LDRB", "load"},
		{cost.Thumb, "pop.w", "POP", "load-multiple"},
		{cost.Thumb, "push.w", "PUSH", "store-multiple"},
		{cost.Thumb, "stmdb", "STMDB", "store-multiple"},
		{cost.Thumb, "ldmia.w", "LDM", "load-multiple"},
		{cost.Thumb, "vaddeq.f32", "VADD.F32", "fp-add"},
		{cost.Thumb, "vaddne.i16", "VADD", "simd-alu"},
		{cost.Thumb, "sdiv", "SDIV", "div"},
		{cost.Thumb, "udiv", "UDIV", "div"},
		{cost.Thumb, "movw", "MOVW", "alu"},
		{cost.Thumb, "movt", "MOVT", "alu"},
		{cost.Thumb, "mul", "MUL", "mul"},
		{cost.Thumb, "muls", "MUL", "mul"},
		{cost.Thumb, "nop.w", "NOP", "system"},
		{cost.Thumb, "dmb", "DMB", "system"},
		{cost.Thumb, "nopeq.w", "NOP", "system"},
		{cost.Thumb, "cpsie.w", "CPSIE", "system"},
		{cost.Thumb, "teq.w", "TEQ", "alu"},
		{cost.Thumb, "vldmia", "VLDM", "fp-load"},
		// from a real qemu-arm 7.2 -d in_asm log of a static armhf program
		{cost.Thumb, "subshs", "SUB", "alu"},
		{cost.Thumb, "stmhs", "STM", "store-multiple"},
		{cost.Thumb, "strbhs", "STRB", "store"},
		{cost.Thumb, "ldrhhs", "LDRH", "load"},
		{cost.Thumb, "rsbne.w", "RSB", "alu"},
		{cost.Thumb, "ornne", "ORN", "alu"},
		{cost.Thumb, "itett", "IT", "it"},
		{cost.Thumb, "bls.w", "BLS", "branch-cond"},
		{cost.Thumb, "uqsub8", "UQSUB8", "dsp"},
		// QEMU 2.x's built-in Thumb disassembler
		{cost.Thumb, "neg", "RSB", "alu"},
		{cost.Thumb, "ldmia", "LDM", "load-multiple"},
		{cost.Thumb, "saddsubx", "SASX", "dsp"},
		{cost.Thumb, "undefined", "UDF", "system"},
		{cost.Thumb, "fldd", "VLDR", "fp-load"},

		// MIPS, QEMU's built-in disassembler (binutils mips-dis)
		{cost.MIPS, "addiu", "ADDIU", "alu"},
		{cost.MIPS, "lui", "LUI", "alu"},
		{cost.MIPS, "move", "MOVE", "alu"},
		{cost.MIPS, "li", "LI", "alu"},
		{cost.MIPS, "negu", "NEGU", "alu"},
		{cost.MIPS, "nop", "NOP", "alu"},
		{cost.MIPS, "sll", "SLL", "shift"},
		{cost.MIPS, "rotr", "ROTR", "shift"},
		{cost.MIPS, "mult", "MULT", "mul"},
		{cost.MIPS, "mflo", "MFLO", "mul"},
		{cost.MIPS, "divu", "DIVU", "div"},
		{cost.MIPS, "lw", "LW", "load"},
		{cost.MIPS, "sw", "SW", "store"},
		{cost.MIPS, "beqz", "BEQZ", "branch-cond"},
		{cost.MIPS, "bnez", "BNEZ", "branch-cond"},
		{cost.MIPS, "bltzal", "BLTZAL", "branch-cond"},
		{cost.MIPS, "beql", "BEQL", "branch-cond"},
		{cost.MIPS, "bc1t", "BC1T", "branch-cond"},
		{cost.MIPS, "b", "B", "branch"},
		{cost.MIPS, "bal", "BAL", "branch"},
		{cost.MIPS, "jalr", "JALR", "branch"},
		{cost.MIPS, "jr.hb", "JR.HB", "branch"},
		{cost.MIPS, "c.eq.d", "C.EQ.D", "fp-add"},
		{cost.MIPS, "c.ngle.ps", "C.NGLE.PS", "fp-add"},
		{cost.MIPS, "add.s", "ADD.S", "fp-add"},
		{cost.MIPS, "cvt.d.w", "CVT.D.W", "fp-add"},
		{cost.MIPS, "mul.d", "MUL.D", "fp-mul"},
		{cost.MIPS, "madd.s", "MADD.S", "fp-mac"},
		{cost.MIPS, "div.s", "DIV.S", "fp-div-s"},
		{cost.MIPS, "sqrt.d", "SQRT.D", "fp-div-d"},
		{cost.MIPS, "ldc1", "LDC1", "fp-load"},
		{cost.MIPS, "swc1", "SWC1", "fp-store"},
		{cost.MIPS, "mfc1", "MFC1", "fp-xfer"},
		{cost.MIPS, "ctc1", "CTC1", "fp-xfer"},
		{cost.MIPS, "syscall", "SYSCALL", "system"},
		{cost.MIPS, "ehb", "EHB", "system"},
		{cost.MIPS, "mfc0", "MFC0", "system"},
		{cost.MIPS, "rdhwr", "RDHWR", "system"},
		// QEMU's table prints some Release 2 instructions under vendor or Release 6 names
		{cost.MIPS, "mad", "MADD", "mul"},
		{cost.MIPS, "madu", "MADDU", "mul"},
		{cost.MIPS, "ror", "ROTR", "shift"},
		{cost.MIPS, "rorv", "ROTRV", "shift"},
		{cost.MIPS, "bgeuc", "BLEZ", "branch-cond"},
		{cost.MIPS, "bltuc", "BGTZ", "branch-cond"},
		{cost.MIPS, "bgec", "BLEZL", "branch-cond"},
		{cost.MIPS, "bovc", "ADDI", "alu"},
		{cost.MIPS, "dbreak", "SDBBP", "system"},
		{cost.MIPS, "c2", "COP2", "system"},
		{cost.MIPS, "nal", "NAL", "branch-cond"},
		{cost.MIPS, "jalr.hb", "JALR.HB", "branch"},
		{cost.MIPS, "di", "DI", "system"},
		{cost.MIPS, "movf.ps", "MOVF.PS", "fp-add"},
		{cost.MIPS, "luxc1", "LUXC1", "fp-load"},
		{cost.MIPS, "recip.d", "RECIP.D", "fp-div-d"},
		// unknown MIPS text stays upper-cased and whole
		{cost.MIPS, "dadd", "DADD", ""},
	} {
		c := CatalogFor(tc.isa)
		got := c.Normalize(tc.raw)
		if got != tc.want {
			t.Errorf("%s Normalize(%q) = %q, want %q", tc.isa, tc.raw, got, tc.want)
			continue
		}
		e, ok := c.Lookup(got)
		switch {
		case tc.class == "":
			if ok {
				t.Errorf("%s %q: %s unexpectedly in the catalogue", tc.isa, tc.raw, got)
			}
		case !ok:
			t.Errorf("%s %q: %s not in the catalogue", tc.isa, tc.raw, got)
		case e.Class != tc.class:
			t.Errorf("%s %q: %s has class %s, want %s", tc.isa, tc.raw, got, e.Class, tc.class)
		}
	}
}

func TestCatalogMIPSFloatingPointComplete(t *testing.T) {
	c := CatalogFor(cost.MIPS)
	for _, cond := range []string{"F", "UN", "EQ", "UEQ", "OLT", "ULT", "OLE", "ULE", "SF", "NGLE", "SEQ", "NGL", "LT", "NGE", "LE", "NGT"} {
		for _, f := range []string{"S", "D", "PS"} {
			if e, ok := c.Lookup("C." + cond + "." + f); !ok || e.Class != "fp-add" {
				t.Errorf("C.%s.%s = %+v, %v", cond, f, e, ok)
			}
		}
	}
	for _, op := range []string{"ABS", "ADD", "MADD", "MOV", "MOVF", "MOVN", "MOVT", "MOVZ", "MSUB", "MUL", "NEG", "NMADD", "NMSUB", "SUB"} {
		for _, f := range []string{"S", "D", "PS"} {
			if _, ok := c.Lookup(op + "." + f); !ok {
				t.Errorf("%s.%s missing", op, f)
			}
		}
	}
	for _, op := range []string{"CEIL.L", "CEIL.W", "CVT.L", "CVT.W", "DIV", "FLOOR.L", "FLOOR.W", "RECIP", "ROUND.L", "ROUND.W", "RSQRT", "SQRT", "TRUNC.L", "TRUNC.W"} {
		for _, f := range []string{"S", "D"} {
			if _, ok := c.Lookup(op + "." + f); !ok {
				t.Errorf("%s.%s missing", op, f)
			}
		}
	}
	for _, m := range []string{"CVT.D.S", "CVT.D.W", "CVT.D.L", "CVT.S.D", "CVT.S.W", "CVT.S.L", "CVT.PS.S", "CVT.S.PL", "CVT.S.PU"} {
		if _, ok := c.Lookup(m); !ok {
			t.Errorf("%s missing", m)
		}
	}
}

// TestCatalogCoversCapstone feeds every mnemonic capstone 4 (the disassembler of QEMU 7.x) printed
// for 30 million random ARM words and for every 16-bit and 20 million random 32-bit Thumb
// encodings, plain and inside an IT block, with and without CS_MODE_V8, through normalisation.
// ARMv8-only instructions (VRINT*, VSEL, VMAXNM, CRC32, AES, SHA, LDA/STL...) are left out of the
// lists, and so are condition suffixes other than EQ, to keep them short.
func TestCatalogCoversCapstone(t *testing.T) {
	for _, tc := range []struct {
		isa  cost.ISA
		list string
	}{{cost.ARM, capstoneARM}, {cost.Thumb, capstoneThumb}} {
		c := CatalogFor(tc.isa)
		n := 0
		for _, raw := range strings.Fields(tc.list) {
			n++
			if got := c.Normalize(raw); !knownTo(c, got) {
				t.Errorf("%s: capstone prints %q, which normalises to %q, not in the catalogue", tc.isa, raw, got)
			}
		}
		if n < 800 {
			t.Errorf("%s: only %d capstone mnemonics in the list", tc.isa, n)
		}
	}
}

func knownTo(c *Catalog, m string) bool {
	_, ok := c.Lookup(m)
	return ok
}

const capstoneARM = `
adc adceq adcs adcseq add addeq adds addseq and andeq ands andseq asr asreq asrs asrseq b beq
bfc bfceq bfi bfieq bge bgt bhi bhs bic biceq bics bicseq bkpt bl ble bleq blge blgt blhi blhs
blle bllo blls bllt blmi blne blo blpl bls blt blvc blvs blx bmi bne bpl bvc bvs bxlt cdp cdp2
cdpeq clzeq cmn cmneq cmp cmpeq cps cpsid cpsie dsb eor eoreq eors eorseq fldmdbx fldmdbxeq
fldmiax fldmiaxeq fstmdbx fstmdbxeq fstmiax fstmiaxeq hint hinteq hvc ldc ldc2 ldc2l ldceq ldcl
ldcleq ldm ldmda ldmdaeq ldmdb ldmdbeq ldmeq ldmib ldmibeq ldr ldrb ldrbeq ldrbt ldrbteq ldrd
ldrdeq ldreq ldrexb ldrexbeq ldrexd ldrexdeq ldrexeq ldrexh ldrexheq ldrh ldrheq ldrht ldrhteq
ldrsb ldrsbeq ldrsbt ldrsbteq ldrsh ldrsheq ldrsht ldrshteq ldrt ldrteq lsl lsleq lslseq lsr
lsreq lsrs lsrseq mcr mcr2 mcreq mcrr mcrr2 mcrreq mla mlaeq mlas mlaseq mls mlseq mov moveq
movseq movt movteq movw movweq mrc mrc2 mrceq mrrc mrrc2 mrrceq mrs mrseq msr msreq mul muleq
mulseq mvn mvneq mvns mvnseq orr orreq orrs orrseq pkhbt pkhbteq pkhtb pkhtbeq pld pldw pli pop
popeq push pusheq qadd qadd16 qadd16eq qadd8 qadd8eq qaddeq qasx qasxeq qdadd qdaddeq qdsub
qdsubeq qsax qsaxeq qsub qsub16 qsub16eq qsub8 qsub8eq qsubeq rbit rbiteq rev rev16 rev16eq
reveq revsheq rfeda rfedb rfeia rfeib ror roreq rors rorseq rrxs rrxseq rsb rsbeq rsbs rsbseq
rsc rsceq rscs rscseq sadd16 sadd16eq sadd8 sadd8eq sasx sasxeq sbc sbceq sbcs sbcseq sbfx
sbfxeq sdiv sdiveq sel seleq shsax shsaxeq shsub16 shsub16eq shsub8 shsub8eq smlabb smlabbeq
smlabt smlabteq smlad smladeq smladx smladxeq smlal smlalbb smlalbbeq smlalbt smlalbteq smlald
smlaldeq smlaldx smlaldxeq smlaleq smlalseq smlaltb smlaltbeq smlaltt smlaltteq smlatb smlatbeq
smlatt smlatteq smlawb smlawbeq smlawt smlawteq smlsd smlsdeq smlsdx smlsdxeq smlsld smlsldeq
smlsldx smlsldxeq smmla smmlaeq smmlar smmlareq smmls smmlseq smmlsr smmlsreq smmul smmuleq
smmulr smmulreq smuad smuadeq smuadx smuadxeq smulbb smulbbeq smulbt smulbteq smull smulleq
smullseq smultb smultbeq smultt smultteq smulwb smulwbeq smulwt smulwteq smusd smusdeq smusdx
smusdxeq srsdb srsia ssat ssat16 ssat16eq ssateq ssax ssaxeq ssub16 ssub16eq ssub8 ssub8eq stc
stc2 stc2l stceq stcl stcleq stm stmda stmdaeq stmdb stmdbeq stmeq stmib stmibeq str strb strbeq
strbt strbteq strd strdeq streq strex strexb strexbeq strexd strexdeq strexeq strexh strexheq
strh strheq strht strhteq strt strteq sub subeq subs subseq svc svceq swp swpb swpbeq swpeq
sxtab sxtab16 sxtab16eq sxtabeq sxtah sxtaheq sxtb sxtb16 sxtb16eq sxtbeq sxth sxtheq teq teqeq
tst tsteq uadd16 uadd16eq uadd8 uadd8eq uasx uasxeq ubfx ubfxeq udf udiv udiveq uhadd16
uhadd16eq uhadd8 uhadd8eq uhasx uhasxeq uhsax uhsaxeq uhsub16 uhsub16eq uhsub8 uhsub8eq umaal
umaaleq umlal umlaleq umlalseq umull umulleq umullseq uqadd16 uqadd16eq uqadd8 uqadd8eq uqasx
uqasxeq uqsax uqsaxeq uqsub16 uqsub16eq uqsub8 uqsub8eq usad8 usad8eq usada8 usada8eq usat
usat16 usat16eq usateq usax usaxeq usub16 usub16eq usub8 usub8eq uxtab uxtab16 uxtab16eq uxtabeq
uxtah uxtaheq uxtb uxtb16 uxtb16eq uxtbeq uxth uxtheq vaba.s16 vaba.s32 vaba.s8 vaba.u16
vaba.u32 vaba.u8 vabal.s16 vabal.s32 vabal.s8 vabal.u16 vabal.u32 vabal.u8 vabd.f32 vabd.s16
vabd.s32 vabd.s8 vabd.u16 vabd.u32 vabd.u8 vabdl.s16 vabdl.s32 vabdl.s8 vabdl.u16 vabdl.u32
vabdl.u8 vabs.f32 vabs.f64 vabs.s16 vabs.s32 vabs.s8 vabseq.f32 vabseq.f64 vacge.f32 vacgt.f32
vadd.f32 vadd.f64 vadd.i16 vadd.i32 vadd.i64 vadd.i8 vaddeq.f32 vaddeq.f64 vaddhn.i16 vaddhn.i32
vaddhn.i64 vaddl.s16 vaddl.s32 vaddl.s8 vaddl.u16 vaddl.u32 vaddl.u8 vaddw.s16 vaddw.s32
vaddw.s8 vaddw.u16 vaddw.u32 vaddw.u8 vand vbic vbic.i16 vbic.i32 vbif vbit vbsl vceq.f32
vceq.i16 vceq.i32 vceq.i8 vcge.f32 vcge.s16 vcge.s32 vcge.s8 vcge.u16 vcge.u32 vcge.u8 vcgt.f32
vcgt.s16 vcgt.s32 vcgt.s8 vcgt.u16 vcgt.u32 vcgt.u8 vcle.f32 vcle.s16 vcle.s32 vcle.s8 vcls.s16
vcls.s32 vcls.s8 vclt.f32 vclt.s16 vclt.s32 vclt.s8 vclz.i16 vclz.i32 vclz.i8 vcmp.f32 vcmp.f64
vcmpe.f32 vcmpe.f64 vcmpeeq.f32 vcmpeeq.f64 vcmpeq.f32 vcmpeq.f64 vcnt.8 vcvt.f16.f32
vcvt.f32.f16 vcvt.f32.f64 vcvt.f32.s16 vcvt.f32.s32 vcvt.f32.u16 vcvt.f32.u32 vcvt.f64.f32
vcvt.f64.s16 vcvt.f64.s32 vcvt.f64.u16 vcvt.f64.u32 vcvt.s16.f32 vcvt.s16.f64 vcvt.s32.f32
vcvt.s32.f64 vcvt.u16.f32 vcvt.u16.f64 vcvt.u32.f32 vcvt.u32.f64 vcvtb.f16.f32 vcvtb.f32.f16
vcvtbeq.f16.f32 vcvtbeq.f32.f16 vcvteq.f32.f64 vcvteq.f32.s16 vcvteq.f32.s32 vcvteq.f32.u16
vcvteq.f32.u32 vcvteq.f64.f32 vcvteq.f64.s16 vcvteq.f64.s32 vcvteq.f64.u16 vcvteq.f64.u32
vcvteq.s16.f32 vcvteq.s16.f64 vcvteq.s32.f32 vcvteq.s32.f64 vcvteq.u16.f32 vcvteq.u16.f64
vcvteq.u32.f32 vcvteq.u32.f64 vcvtr.s32.f32 vcvtr.s32.f64 vcvtr.u32.f32 vcvtr.u32.f64
vcvtreq.s32.f32 vcvtreq.s32.f64 vcvtreq.u32.f32 vcvtreq.u32.f64 vcvtt.f16.f32 vcvtt.f32.f16
vcvtteq.f16.f32 vcvtteq.f32.f16 vdiv.f32 vdiv.f64 vdiveq.f32 vdiveq.f64 vdup.16 vdup.32 vdup.8
vdupeq.16 vdupeq.32 vdupeq.8 veor vext.16 vext.32 vext.64 vext.8 vfma.f32 vfma.f64 vfmaeq.f32
vfmaeq.f64 vfms.f32 vfms.f64 vfmseq.f32 vfmseq.f64 vfnma.f32 vfnma.f64 vfnmaeq.f32 vfnmaeq.f64
vfnms.f32 vfnms.f64 vfnmseq.f32 vfnmseq.f64 vhadd.s16 vhadd.s32 vhadd.s8 vhadd.u16 vhadd.u32
vhadd.u8 vhsub.s16 vhsub.s32 vhsub.s8 vhsub.u16 vhsub.u32 vhsub.u8 vld1.16 vld1.32 vld1.64
vld1.8 vld2.16 vld2.32 vld2.8 vld3.16 vld3.32 vld3.8 vld4.16 vld4.32 vld4.8 vldmdb vldmdbeq
vldmia vldmiaeq vldr vldreq vmax.f32 vmax.s16 vmax.s32 vmax.s8 vmax.u16 vmax.u32 vmax.u8
vmin.f32 vmin.s16 vmin.s32 vmin.s8 vmin.u16 vmin.u32 vmin.u8 vmla.f32 vmla.f64 vmla.i16 vmla.i32
vmla.i8 vmlaeq.f32 vmlaeq.f64 vmlal.s16 vmlal.s32 vmlal.s8 vmlal.u16 vmlal.u32 vmlal.u8 vmls.f32
vmls.f64 vmls.i16 vmls.i32 vmls.i8 vmlseq.f32 vmlseq.f64 vmlsl.s16 vmlsl.s32 vmlsl.s8 vmlsl.u16
vmlsl.u32 vmlsl.u8 vmov vmov.16 vmov.32 vmov.8 vmov.f32 vmov.f64 vmov.i16 vmov.i32 vmov.i64
vmov.i8 vmov.s16 vmov.s8 vmov.u16 vmov.u8 vmoveq vmoveq.16 vmoveq.32 vmoveq.8 vmoveq.f32
vmoveq.f64 vmoveq.s16 vmoveq.s8 vmoveq.u16 vmoveq.u8 vmovl.s16 vmovl.s32 vmovl.s8 vmovl.u16
vmovl.u32 vmovl.u8 vmovn.i16 vmovn.i32 vmovn.i64 vmrs vmrseq vmsr vmsreq vmul.f32 vmul.f64
vmul.i16 vmul.i32 vmul.i8 vmul.p8 vmuleq.f32 vmuleq.f64 vmull.p64 vmull.p8 vmull.s16 vmull.s32
vmull.s8 vmull.u16 vmull.u32 vmull.u8 vmvn vmvn.i16 vmvn.i32 vneg.f32 vneg.f64 vneg.s16 vneg.s32
vneg.s8 vnegeq.f32 vnegeq.f64 vnmla.f32 vnmla.f64 vnmlaeq.f32 vnmlaeq.f64 vnmls.f32 vnmls.f64
vnmlseq.f32 vnmlseq.f64 vnmul.f32 vnmul.f64 vnmuleq.f32 vnmuleq.f64 vorn vorr vorr.i16 vorr.i32
vpadal.s16 vpadal.s32 vpadal.s8 vpadal.u16 vpadal.u32 vpadal.u8 vpadd.f32 vpadd.i16 vpadd.i32
vpadd.i8 vpaddl.s16 vpaddl.s32 vpaddl.s8 vpaddl.u16 vpaddl.u32 vpaddl.u8 vpmax.f32 vpmax.s16
vpmax.s32 vpmax.s8 vpmax.u16 vpmax.u32 vpmax.u8 vpmin.f32 vpmin.s16 vpmin.s32 vpmin.s8 vpmin.u16
vpmin.u32 vpmin.u8 vpop vpopeq vpush vpusheq vqabs.s16 vqabs.s32 vqabs.s8 vqadd.s16 vqadd.s32
vqadd.s64 vqadd.s8 vqadd.u16 vqadd.u32 vqadd.u64 vqadd.u8 vqdmlal.s16 vqdmlal.s32 vqdmlsl.s16
vqdmlsl.s32 vqdmulh.s16 vqdmulh.s32 vqdmull.s16 vqdmull.s32 vqmovn.s16 vqmovn.s32 vqmovn.s64
vqmovn.u16 vqmovn.u32 vqmovn.u64 vqmovun.s16 vqmovun.s32 vqmovun.s64 vqneg.s16 vqneg.s32
vqneg.s8 vqrdmulh.s16 vqrdmulh.s32 vqrshl.s16 vqrshl.s32 vqrshl.s64 vqrshl.s8 vqrshl.u16
vqrshl.u32 vqrshl.u64 vqrshl.u8 vqrshrn.s16 vqrshrn.s32 vqrshrn.s64 vqrshrn.u16 vqrshrn.u32
vqrshrn.u64 vqrshrun.s16 vqrshrun.s32 vqrshrun.s64 vqshl.s16 vqshl.s32 vqshl.s64 vqshl.s8
vqshl.u16 vqshl.u32 vqshl.u64 vqshl.u8 vqshlu.s16 vqshlu.s32 vqshlu.s64 vqshlu.s8 vqshrn.s16
vqshrn.s32 vqshrn.s64 vqshrn.u16 vqshrn.u32 vqshrn.u64 vqshrun.s16 vqshrun.s32 vqshrun.s64
vqsub.s16 vqsub.s32 vqsub.s64 vqsub.s8 vqsub.u16 vqsub.u32 vqsub.u64 vqsub.u8 vraddhn.i16
vraddhn.i32 vraddhn.i64 vrecpe.f32 vrecpe.u32 vrecps.f32 vrev16.8 vrev32.16 vrev32.8 vrev64.16
vrev64.32 vrev64.8 vrhadd.s16 vrhadd.s32 vrhadd.s8 vrhadd.u16 vrhadd.u32 vrhadd.u8 vrshl.s16
vrshl.s32 vrshl.s64 vrshl.s8 vrshl.u16 vrshl.u32 vrshl.u64 vrshl.u8 vrshr.s16 vrshr.s32
vrshr.s64 vrshr.s8 vrshr.u16 vrshr.u32 vrshr.u64 vrshr.u8 vrshrn.i16 vrshrn.i32 vrshrn.i64
vrsqrte.f32 vrsqrte.u32 vrsqrts.f32 vrsra.s16 vrsra.s32 vrsra.s64 vrsra.s8 vrsra.u16 vrsra.u32
vrsra.u64 vrsra.u8 vrsubhn.i16 vrsubhn.i32 vrsubhn.i64 vshl.i16 vshl.i32 vshl.i64 vshl.i8
vshl.s16 vshl.s32 vshl.s64 vshl.s8 vshl.u16 vshl.u32 vshl.u64 vshl.u8 vshll.i16 vshll.i32
vshll.i8 vshll.s16 vshll.s32 vshll.s8 vshll.u16 vshll.u32 vshll.u8 vshr.s16 vshr.s32 vshr.s64
vshr.s8 vshr.u16 vshr.u32 vshr.u64 vshr.u8 vshrn.i16 vshrn.i32 vshrn.i64 vsli.16 vsli.32 vsli.64
vsli.8 vsqrt.f32 vsqrt.f64 vsqrteq.f32 vsqrteq.f64 vsra.s16 vsra.s32 vsra.s64 vsra.s8 vsra.u16
vsra.u32 vsra.u64 vsra.u8 vsri.16 vsri.32 vsri.64 vsri.8 vst1.16 vst1.32 vst1.64 vst1.8 vst2.16
vst2.32 vst2.8 vst3.16 vst3.32 vst3.8 vst4.16 vst4.32 vst4.8 vstmdb vstmdbeq vstmia vstmiaeq
vstr vstreq vsub.f32 vsub.f64 vsub.i16 vsub.i32 vsub.i64 vsub.i8 vsubeq.f32 vsubeq.f64
vsubhn.i16 vsubhn.i32 vsubhn.i64 vsubl.s16 vsubl.s32 vsubl.s8 vsubl.u16 vsubl.u32 vsubl.u8
vsubw.s16 vsubw.s32 vsubw.s8 vsubw.u16 vsubw.u32 vsubw.u8 vswp vtbl.8 vtbx.8 vtrn.16 vtrn.32
vtrn.8 vtst.16 vtst.32 vtst.8 vuzp.16 vuzp.32 vuzp.8 vzip.16 vzip.32 vzip.8
`

const capstoneThumb = `
adc adc.w adceq adcs adcs.w add add.w addeq adds adds.w addw adr adreq and and.w andeq ands
ands.w asr.w asreq asrs asrs.w b b.w beq beq.w bfc bfi bge bge.w bgt bgt.w bhi bhi.w bhs bhs.w
bic bic.w biceq bics bics.w bkpt bl ble ble.w blne blo blo.w bls bls.w blt blt.w blx blxeq blxne
bmi bmi.w bne bne.w bpl bpl.w bvc bvc.w bvs bvs.w bx bxeq cbnz cbz cdp cdp2 clz cmn cmn.w cmneq
cmp cmp.w cmpeq cps cpsid cpsie dmb dsb eor eor.w eoreq eors eors.w fldmdbx fldmiax fstmdbx
fstmiax hint hint.w hinteq hvc.w isb it ite itee iteee iteet itet itete itett itt itte ittee
ittet ittt ittte itttt ldc ldc2 ldc2l ldcl ldm ldm.w ldmdb ldmeq ldr ldr.w ldrb ldrb.w ldrbeq
ldrbt ldrd ldreq ldrex ldrexb ldrexd ldrexh ldrh ldrh.w ldrheq ldrht ldrsb ldrsb.w ldrsbeq
ldrsbt ldrsh ldrsh.w ldrsheq ldrsht ldrt lsl.w lsleq lsr.w lsreq lsrs lsrs.w mcr mcr2 mcrr mcrr2
mla mls mov mov.w moveq movt movw mrc mrc2 mrrc mrrc2 mrs mrseq msr msreq mul muleq mvn mvn.w
mvneq mvns mvns.w nop nopeq orn orns orr orr.w orreq orrs orrs.w pkhbt pkhtb pld pldw pli pop
pop.w popeq push push.w pusheq qadd qadd16 qadd8 qasx qdadd qdsub qsax qsub qsub16 qsub8 rbit
rev rev.w rev16 rev16.w rev16eq reveq revsh revsh.w revsheq rfedb ror.w roreq rors rors.w rrx
rrxs rsb rsb.w rsbeq rsbs rsbs.w sadd16 sadd8 sasx sbc sbc.w sbceq sbcs sbcs.w sbfx sdiv sel
setend sev seveq shsax shsub16 shsub8 smc smlabb smlabt smlad smladx smlal smlalbb smlalbt
smlald smlaldx smlaltb smlaltt smlatb smlatt smlawb smlawt smlsd smlsdx smlsld smlsldx smmla
smmlar smmls smmlsr smmul smmulr smuad smuadx smulbb smulbt smull smultb smultt smulwb smulwt
smusd smusdx srsdb srsia ssat ssat16 ssax ssub16 ssub8 stc stc2 stc2l stcl stm stm.w stmdb stmeq
str str.w strb strb.w strbeq strbt strd streq strex strexb strexd strexh strh strh.w strheq
strht strt sub sub.w subeq subs subs.w subw svc svceq sxtab sxtab16 sxtah sxtb sxtb.w sxtb16
sxtbeq sxth sxth.w sxtheq tbb tbh teq.w trap tst tst.w tsteq uadd16 uadd8 uasx ubfx udf udf.w
udiv uhadd16 uhadd8 uhasx uhsax uhsub16 uhsub8 umaal umlal umull uqadd16 uqadd8 uqasx uqsax
uqsub16 uqsub8 usad8 usada8 usat usat16 usax usub16 usub8 uxtab uxtab16 uxtah uxtb uxtb.w uxtb16
uxtbeq uxth uxth.w uxtheq vaba.s16 vaba.s32 vaba.s8 vaba.u16 vaba.u32 vaba.u8 vabal.s16
vabal.s32 vabal.s8 vabal.u16 vabal.u32 vabal.u8 vabd.f32 vabd.s16 vabd.s32 vabd.s8 vabd.u16
vabd.u32 vabd.u8 vabdl.s16 vabdl.s32 vabdl.s8 vabdl.u16 vabdl.u32 vabdl.u8 vabs.f32 vabs.f64
vabs.s16 vabs.s32 vabs.s8 vacge.f32 vacgt.f32 vadd.f32 vadd.f64 vadd.i16 vadd.i32 vadd.i64
vadd.i8 vaddl.s16 vaddl.s32 vaddl.s8 vaddl.u16 vaddl.u32 vaddl.u8 vaddw.s16 vaddw.s32 vaddw.s8
vaddw.u16 vaddw.u32 vaddw.u8 vand vbic vbic.i16 vbic.i32 vbif vbit vbsl vceq.f32 vceq.i16
vceq.i32 vceq.i8 vcge.f32 vcge.s16 vcge.s32 vcge.s8 vcge.u16 vcge.u32 vcge.u8 vcgt.f32 vcgt.s16
vcgt.s32 vcgt.s8 vcgt.u16 vcgt.u32 vcgt.u8 vcle.f32 vcle.s16 vcle.s32 vcle.s8 vcls.s16 vcls.s32
vcls.s8 vclt.f32 vclt.s16 vclt.s32 vclt.s8 vclz.i16 vclz.i32 vclz.i8 vcmp.f32 vcmp.f64 vcmpe.f32
vcmpe.f64 vcnt.8 vcvt.f32.f16 vcvt.f32.f64 vcvt.f32.s16 vcvt.f32.s32 vcvt.f32.u16 vcvt.f32.u32
vcvt.f64.f32 vcvt.f64.s16 vcvt.f64.s32 vcvt.f64.u16 vcvt.f64.u32 vcvt.s16.f32 vcvt.s16.f64
vcvt.s32.f32 vcvt.s32.f64 vcvt.u16.f32 vcvt.u16.f64 vcvt.u32.f32 vcvt.u32.f64 vcvtb.f16.f32
vcvtb.f32.f16 vcvtr.s32.f32 vcvtr.s32.f64 vcvtr.u32.f32 vcvtr.u32.f64 vcvtt.f16.f32
vcvtt.f32.f16 vdiv.f32 vdiv.f64 vdup.16 vdup.32 vdup.8 veor vext.16 vext.32 vext.8 vfma.f32
vfma.f64 vfms.f32 vfms.f64 vfnma.f32 vfnma.f64 vfnms.f32 vfnms.f64 vhadd.s16 vhadd.s32 vhadd.s8
vhadd.u16 vhadd.u32 vhadd.u8 vhsub.s16 vhsub.s32 vhsub.s8 vhsub.u16 vhsub.u32 vhsub.u8 vld1.16
vld1.32 vld1.64 vld1.8 vld2.16 vld2.32 vld2.8 vld3.16 vld3.32 vld3.8 vld4.16 vld4.32 vld4.8
vldmdb vldmia vldr vmax.f32 vmax.s16 vmax.s32 vmax.s8 vmax.u16 vmax.u32 vmax.u8 vmin.f32
vmin.s16 vmin.s32 vmin.s8 vmin.u16 vmin.u32 vmin.u8 vmla.f32 vmla.f64 vmla.i16 vmla.i32 vmla.i8
vmlal.s16 vmlal.s32 vmlal.s8 vmlal.u16 vmlal.u32 vmlal.u8 vmls.f32 vmls.f64 vmls.i16 vmls.i32
vmls.i8 vmlsl.s16 vmlsl.s32 vmlsl.s8 vmlsl.u16 vmlsl.u32 vmlsl.u8 vmov vmov.16 vmov.32 vmov.8
vmov.f32 vmov.f64 vmov.i16 vmov.i32 vmov.i64 vmov.i8 vmov.s16 vmov.s8 vmov.u16 vmov.u8 vmovl.s16
vmovl.s32 vmovl.s8 vmovl.u16 vmovl.u32 vmovl.u8 vmsr vmul.f32 vmul.f64 vmul.i16 vmul.i32 vmul.i8
vmul.p8 vmull.p64 vmull.p8 vmull.s16 vmull.s32 vmull.s8 vmull.u16 vmull.u32 vmull.u8 vmvn
vmvn.i16 vmvn.i32 vneg.f32 vneg.f64 vneg.s16 vneg.s32 vneg.s8 vnmla.f32 vnmla.f64 vnmls.f32
vnmls.f64 vnmul.f32 vnmul.f64 vorn vorr vorr.i16 vorr.i32 vpadal.s16 vpadal.s32 vpadal.s8
vpadal.u16 vpadal.u32 vpadal.u8 vpadd.f32 vpadd.i16 vpadd.i32 vpadd.i8 vpaddl.s16 vpaddl.s32
vpaddl.s8 vpaddl.u16 vpaddl.u32 vpaddl.u8 vpmax.f32 vpmax.s16 vpmax.s32 vpmax.s8 vpmax.u16
vpmax.u32 vpmax.u8 vpmin.f32 vpmin.s16 vpmin.s32 vpmin.s8 vpmin.u16 vpmin.u32 vpmin.u8 vpop
vpush vqabs.s16 vqabs.s32 vqabs.s8 vqadd.s16 vqadd.s32 vqadd.s64 vqadd.s8 vqadd.u16 vqadd.u32
vqadd.u64 vqadd.u8 vqdmlal.s16 vqdmlal.s32 vqdmlsl.s16 vqdmlsl.s32 vqdmulh.s16 vqdmulh.s32
vqdmull.s16 vqdmull.s32 vqneg.s16 vqneg.s32 vqneg.s8 vqrdmulh.s16 vqrdmulh.s32 vqrshl.s16
vqrshl.s32 vqrshl.s64 vqrshl.s8 vqrshl.u16 vqrshl.u32 vqrshl.u64 vqrshl.u8 vqrshrn.s16
vqrshrn.s32 vqrshrn.s64 vqrshrn.u16 vqrshrn.u32 vqrshrn.u64 vqrshrun.s16 vqrshrun.s32
vqrshrun.s64 vqshl.s16 vqshl.s32 vqshl.s64 vqshl.s8 vqshl.u16 vqshl.u32 vqshl.u64 vqshl.u8
vqshlu.s16 vqshlu.s32 vqshlu.s64 vqshlu.s8 vqshrn.s16 vqshrn.s32 vqshrn.s64 vqshrn.u16
vqshrn.u32 vqshrn.u64 vqshrun.s16 vqshrun.s32 vqshrun.s64 vqsub.s16 vqsub.s32 vqsub.s64 vqsub.s8
vqsub.u16 vqsub.u32 vqsub.u64 vqsub.u8 vrecpe.f32 vrecpe.u32 vrecps.f32 vrev16.8 vrev32.16
vrev32.8 vrev64.16 vrev64.32 vrev64.8 vrhadd.s16 vrhadd.s32 vrhadd.s8 vrhadd.u16 vrhadd.u32
vrhadd.u8 vrshl.s16 vrshl.s32 vrshl.s64 vrshl.s8 vrshl.u16 vrshl.u32 vrshl.u64 vrshl.u8
vrshr.s16 vrshr.s32 vrshr.s64 vrshr.s8 vrshr.u16 vrshr.u32 vrshr.u64 vrshr.u8 vrshrn.i16
vrshrn.i32 vrshrn.i64 vrsqrte.f32 vrsqrte.u32 vrsqrts.f32 vrsra.s16 vrsra.s32 vrsra.s64 vrsra.s8
vrsra.u16 vrsra.u32 vrsra.u64 vrsra.u8 vshl.i16 vshl.i32 vshl.i64 vshl.i8 vshl.s16 vshl.s32
vshl.s64 vshl.s8 vshl.u16 vshl.u32 vshl.u64 vshl.u8 vshll.i16 vshll.i32 vshll.i8 vshll.s16
vshll.s32 vshll.s8 vshll.u16 vshll.u32 vshll.u8 vshr.s16 vshr.s32 vshr.s64 vshr.s8 vshr.u16
vshr.u32 vshr.u64 vshr.u8 vshrn.i16 vshrn.i32 vshrn.i64 vsli.16 vsli.32 vsli.64 vsli.8 vsqrt.f32
vsqrt.f64 vsra.s16 vsra.s32 vsra.s64 vsra.s8 vsra.u16 vsra.u32 vsra.u64 vsra.u8 vsri.16 vsri.32
vsri.64 vsri.8 vst1.16 vst1.32 vst1.64 vst1.8 vst2.16 vst2.32 vst2.8 vst3.16 vst3.32 vst3.8
vst4.16 vst4.32 vst4.8 vstmdb vstmia vstr vsub.f32 vsub.f64 vsub.i16 vsub.i32 vsub.i64 vsub.i8
vsubl.s16 vsubl.s32 vsubl.s8 vsubl.u16 vsubl.u32 vsubl.u8 vsubw.s16 vsubw.s32 vsubw.s8 vsubw.u16
vsubw.u32 vsubw.u8 vswp vtbl.8 vtbx.8 vtrn.16 vtrn.32 vtrn.8 vtst.16 vtst.32 vtst.8 vuzp.16
vuzp.8 vzip.16 vzip.8 wfe wfeeq wfi wfieq yield yieldeq
`
