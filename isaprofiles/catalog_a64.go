package isaprofiles

import (
	"encoding/binary"
	"strconv"
	"strings"

	"golang.org/x/arch/arm64/arm64asm"

	"androprof/model/cost"
)

// AArch64 names come from the bytes where arm64asm decodes them, else from capstone's text;
// both go through a64Name, so the two agree (docs/catalogues.md, "AArch64").
func init() {
	textRules[cost.AArch64] = a64Text
	byteRules[cost.AArch64] = a64Bytes
}

// a64Kind is what one operand is, as far as naming the instruction needs to know.
type a64Kind uint8

const (
	a64Other   a64Kind = iota // memory address part, shift, condition, label
	a64Imm                    // #immediate
	a64GPR                    // w0, x1, sp, wsp
	a64Zero                   // wzr, xzr
	a64Scalar                 // SIMD&FP register as a scalar: b0, h1, s2, d3, q4
	a64Vector                 // v0.4s, or a register of a list
	a64Element                // v0.s[1]
	a64SVEReg                 // z0.b, p0 (SVE)
)

// a64Operand is one operand; size is the element or scalar size letter (b, h, s, d, q) of a
// SIMD&FP register, which decides the precision of FDIV and FSQRT.
type a64Operand struct {
	kind a64Kind
	size byte
}

// a64Text names what a disassembler printed: B.COND for every b.<cond>, a name that is already
// the catalogue's (ADD.V, FDIV.S) as it is, anything else from the operands (a64Name).
func a64Text(c *Catalog, upper, operands string) string {
	if strings.HasPrefix(upper, "B.") {
		return "B.COND"
	}
	if strings.Contains(upper, ".") {
		if e, ok := c.Lookup(upper); ok {
			return e.Mnemonic
		}
		return upper
	}
	var ops []a64Operand
	if strings.TrimSpace(operands) != "" {
		for _, tok := range strings.Split(operands, ",") {
			ops = append(ops, a64ParseOperand(tok))
		}
	}
	return a64Name(c, upper, ops)
}

// a64Bytes names one instruction word ("d503201f", the value QEMU prints; little-endian in
// memory) with arm64asm, or with a64Undecoded for the atomics and SVE arm64asm does not know.
func a64Bytes(c *Catalog, encoding string) (string, bool) {
	if len(encoding) != 8 {
		return "", false
	}
	w, err := strconv.ParseUint(encoding, 16, 32)
	if err != nil {
		return "", false
	}
	var b [4]byte
	binary.LittleEndian.PutUint32(b[:], uint32(w))
	inst, err := arm64asm.Decode(b[:])
	if err != nil {
		return a64Undecoded(c, uint32(w))
	}
	if _, cond := inst.Args[0].(arm64asm.Cond); cond && inst.Op == arm64asm.B {
		return "B.COND", true
	}
	var ops []a64Operand
	for _, a := range inst.Args {
		if a == nil {
			break
		}
		ops = append(ops, a64ParseOperand(a.String()))
	}
	return a64Name(c, inst.Op.String(), ops), true
}

// a64Name turns a disassembler's op name and its operands into the catalogue's name:
// MOV with a vector element is the instruction it stands for (UMOV, INS, DUP); capstone's
// ORR from the zero register with an immediate is MOV, as arm64asm prints it; FDIV and FSQRT
// get the precision; an op with a .V entry on SIMD&FP registers gets .V. Without operands the
// plain name stays (FDIV and FSQRT then name no entry).
func a64Name(c *Catalog, op string, ops []a64Operand) string {
	switch {
	case op == "MOV":
		op = a64Mov(ops)
	case op == "ORR" && len(ops) == 3 && ops[1].kind == a64Zero && ops[2].kind == a64Imm:
		op = "MOV"
	case (op == "FDIV" || op == "FSQRT") && len(ops) > 0:
		op += a64Precision(ops)
	}
	if a64OnSIMD(ops) {
		if e, ok := c.Lookup(op + ".V"); ok {
			return e.Mnemonic
		}
	}
	if e, ok := c.Lookup(op); ok {
		return e.Mnemonic
	}
	return op
}

// a64Mov names the instruction a MOV alias stands for when a vector element is involved.
func a64Mov(ops []a64Operand) string {
	if len(ops) != 2 {
		return "MOV"
	}
	switch {
	case ops[0].kind == a64SVEReg:
		return "DUP" // MOV Zd.T, Rn: the only SVE MOV the catalogue has
	case ops[0].kind == a64Element:
		return "INS"
	case ops[1].kind != a64Element:
		return "MOV"
	case ops[0].kind == a64Scalar:
		return "DUP"
	case ops[0].kind == a64GPR:
		return "UMOV"
	}
	return "MOV"
}

// a64Precision is ".D" when the first SIMD&FP operand holds doubles, else ".S" (half precision
// counts as single: it is never slower).
func a64Precision(ops []a64Operand) string {
	for _, o := range ops {
		if o.size != 0 {
			if o.size == 'd' {
				return ".D"
			}
			return ".S"
		}
	}
	return ".S"
}

// a64OnSIMD reports whether any operand is a SIMD&FP register.
func a64OnSIMD(ops []a64Operand) bool {
	for _, o := range ops {
		if o.kind == a64Scalar || o.kind == a64Vector || o.kind == a64Element {
			return true
		}
	}
	return false
}

// a64ParseOperand classifies one comma-separated piece of an operand list, in capstone's
// ("v0.4s", "[x0", "#8]!") or arm64asm's ("V0.4S", "[X0,#8]") spelling.
func a64ParseOperand(tok string) a64Operand {
	t := strings.ToLower(strings.TrimSpace(tok))
	t = strings.TrimLeft(t, "{[")
	t = strings.TrimRight(t, "}!")
	if strings.HasPrefix(t, "#") {
		return a64Operand{kind: a64Imm}
	}
	if !strings.Contains(t, "[") {
		t = strings.TrimSuffix(t, "]")
	}
	if i := strings.IndexByte(t, '-'); i > 0 { // a register range: {v0.16b-v3.16b}
		t = t[:i]
	}
	switch {
	case t == "sp" || t == "wsp":
		return a64Operand{kind: a64GPR}
	case t == "wzr" || t == "xzr":
		return a64Operand{kind: a64Zero}
	case len(t) < 2:
		return a64Operand{}
	}
	num, rest := a64RegNumber(t[1:])
	switch {
	case num && rest == "" && (t[0] == 'w' || t[0] == 'x'):
		return a64Operand{kind: a64GPR}
	case num && rest == "" && strings.IndexByte("bhsdq", t[0]) >= 0:
		return a64Operand{kind: a64Scalar, size: t[0]}
	case num && t[0] == 'v' && strings.HasPrefix(rest, "."):
		return a64VectorOperand(rest[1:])
	case num && (t[0] == 'z' || t[0] == 'p') && (rest == "" || rest[0] == '.' || rest[0] == '/'):
		return a64Operand{kind: a64SVEReg}
	}
	return a64Operand{}
}

// a64RegNumber reports whether s starts with a register number (1 or 2 digits) and returns
// what follows it.
func a64RegNumber(s string) (ok bool, rest string) {
	n := 0
	for n < len(s) && n < 2 && s[n] >= '0' && s[n] <= '9' {
		n++
	}
	return n > 0, s[n:]
}

// a64VectorOperand reads the arrangement after "v0.": "4s", "16b" (a vector), "s[1]" or "s"
// (an element, or one register of a lane list).
func a64VectorOperand(arr string) a64Operand {
	kind := a64Vector
	if i := strings.IndexByte(arr, '['); i >= 0 {
		kind, arr = a64Element, arr[:i]
	}
	arr = strings.TrimRight(arr, "}")
	if arr == "" {
		return a64Operand{kind: kind}
	}
	return a64Operand{kind: kind, size: arr[len(arr)-1]}
}

// a64Undecoded names the words arm64asm (an ARMv8.0 decoder) rejects but programs run: the
// ARMv8.1 atomics, the SVE instructions of Debian's glibc (memcpy, memmove, memset choose SVE
// on qemu-aarch64's default CPU), and UDF. Encodings: Arm DDI 0487, C4.1 (reserved: UDF;
// loads and stores: atomic memory operations, compare and swap) and C4.3 (SVE). Anything else
// is not decoded.
func a64Undecoded(c *Catalog, w uint32) (string, bool) {
	name, ok := "UDF", w>>16 == 0 // UDF #imm16
	if !ok {
		name, ok = a64Atomic(w)
	}
	if !ok {
		name, ok = a64SVE(w)
	}
	if !ok {
		return "", false
	}
	if e, found := c.Lookup(name); found {
		return e.Mnemonic, true
	}
	return name, true
}

var (
	a64AtomicOps = [8]string{"LDADD", "LDCLR", "LDEOR", "LDSET", "LDSMAX", "LDSMIN", "LDUMAX", "LDUMIN"}
	a64Sizes     = [4]string{"B", "H", "", ""}   // size field: byte, halfword, word, doubleword
	a64Orders    = [4]string{"", "L", "A", "AL"} // acquire bit <<1 | release bit
)

// a64Atomic decodes the LSE atomics: LD<op>, SWP and LDAPR (atomic memory operations), CAS and
// CASP (compare and swap). The ST<op> aliases come out as their LD<op>.
func a64Atomic(w uint32) (string, bool) {
	size := a64Sizes[w>>30]
	switch {
	case w&0x3F200C00 == 0x38200000: // size 111 0 00 A R 1 Rs o3 opc 00 Rn Rt
		order := a64Orders[w>>22&3]
		o3, opc, rs := w>>15&1, w>>12&7, w>>16&31
		switch {
		case o3 == 0:
			return a64AtomicOps[opc] + order + size, true
		case opc == 0:
			return "SWP" + order + size, true
		case opc == 4 && order == "A" && rs == 31:
			return "LDAPR" + size, true
		}
	case w&0x3FA07C00 == 0x08A07C00: // size 001000 1 L 1 Rs o0 11111 Rn Rt
		return "CAS" + a64Orders[(w>>22&1)<<1|w>>15&1] + size, true
	case w&0xBFA07C00 == 0x08207C00: // 0 sz 001000 0 L 1 Rs o0 11111 Rn Rt
		return "CASP" + a64Orders[(w>>22&1)<<1|w>>15&1], true
	}
	return "", false
}

// a64SVEPatterns are the SVE encodings Debian's arm64 glibc uses (mask, value, name).
var a64SVEPatterns = []struct {
	mask, value uint32
	name        string
}{
	{0xFF90E000, 0xA400A000, "LD1B"},    // scalar plus immediate
	{0xFF80E000, 0xA4004000, "LD1B"},    // scalar plus scalar
	{0xFF90E000, 0xE400E000, "ST1B"},    // scalar plus immediate
	{0xFF80E000, 0xE4004000, "ST1B"},    // scalar plus scalar
	{0xFF20EC10, 0x25200C00, "WHILELO"}, // 00100101 size 1 Rm 000 sf 1 1 Rn 0 Pd
	{0xFF3FFC10, 0x2518E000, "PTRUE"},   // 00100101 size 011 00 0 111000 pattern 0 Pd
	{0xFF3FFC00, 0x05203800, "DUP"},     // DUP (scalar), printed MOV Zd.T, Rn
}

// a64SVE decodes the SVE instructions of a64SVEPatterns, and CNTB/CNTH/CNTW/CNTD.
func a64SVE(w uint32) (string, bool) {
	if w&0xFF30FC00 == 0x0420E000 { // 00000100 size 10 imm4 111000 pattern Rd
		return "CNT" + [4]string{"B", "H", "W", "D"}[w>>22&3], true
	}
	for _, p := range a64SVEPatterns {
		if w&p.mask == p.value {
			return p.name, true
		}
	}
	return "", false
}
