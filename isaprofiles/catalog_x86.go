package isaprofiles

import (
	"encoding/hex"
	"regexp"
	"slices"
	"strings"

	"golang.org/x/arch/x86/x86asm"

	"androprof/model/cost"
)

// x86-64 names instructions by golang.org/x/arch/x86/x86asm's op names, from the bytes where
// QEMU gives them and from capstone's AT&T text otherwise (docs/catalogues.md, "x86-64").
func init() {
	byteRules[cost.X86_64] = x86FromBytes
	textRules[cost.X86_64] = x86FromText
}

// x86FromBytes decodes one instruction ("4889e5"; spaces between bytes are allowed, as QEMU prints
// them) in 64-bit mode; bytes that are not exactly one instruction leave the text to decide.
// Prefixes do not change the op: x86asm names REP MOVSB MOVSB and LOCK XADD XADD, which is what
// the catalogue wants.
func x86FromBytes(c *Catalog, encoding string) (string, bool) {
	code, err := hex.DecodeString(strings.ReplaceAll(encoding, " ", ""))
	if err != nil || len(code) == 0 {
		return "", false
	}
	if op := x86Undecoded(code); op != "" {
		return x86Entry(c, op, false, false), true
	}
	inst, err := x86asm.Decode(code, 64)
	if err != nil || inst.Op == 0 || inst.Len != len(code) { // not one whole instruction
		return "", false
	}
	// Intel operand order: Args[0] is the destination.
	load, store := false, false
	for i, a := range inst.Args {
		if _, mem := a.(x86asm.Mem); mem {
			store = store || i == 0
			load = load || i > 0
		}
	}
	return x86Entry(c, inst.Op.String(), load, store), true
}

// x86Undecoded names the few instructions of real x86-64 programs that x86asm does not decode:
// ENDBR64/ENDBR32 (F3 0F 1E FA/FB), the CET markers every function of Debian's libraries starts
// with, which run as NOPs; ADCX (66 0F 38 F6) and ADOX (F3 0F 38 F6), which OpenSSL's bignum code
// runs where CPUID reports ADX, as QEMU's does; and RDSEED (0F C7 /7, register form). It returns ""
// for anything else.
func x86Undecoded(code []byte) string {
	if len(code) == 4 && code[0] == 0xf3 && string(code[1:3]) == "\x0f\x1e" && code[3]&0xfe == 0xfa {
		return "ENDBR64"
	}
	var legacy byte
	for len(code) > 0 && (code[0] == 0x66 || code[0] == 0xf2 || code[0] == 0xf3) {
		legacy, code = code[0], code[1:]
	}
	if len(code) > 0 && code[0]&0xf0 == 0x40 { // REX
		code = code[1:]
	}
	switch {
	case len(code) >= 4 && string(code[:3]) == "\x0f\x38\xf6" && legacy == 0x66:
		return "ADCX"
	case len(code) >= 4 && string(code[:3]) == "\x0f\x38\xf6" && legacy == 0xf3:
		return "ADOX"
	case len(code) == 3 && code[0] == 0x0f && code[1] == 0xc7 && code[2]&0xf8 == 0xf8:
		return "RDSEED"
	}
	return ""
}

// x86Entry resolves an op name through the aliases and picks the MOV family's .LOAD or .STORE
// entry when the instruction has one for its memory operand.
func x86Entry(c *Catalog, op string, load, store bool) string {
	if e, ok := c.Lookup(op); ok {
		op = e.Mnemonic
	}
	if store {
		if _, ok := c.byName[op+".STORE"]; ok {
			return op + ".STORE"
		}
	}
	if load {
		if _, ok := c.byName[op+".LOAD"]; ok {
			return op + ".LOAD"
		}
	}
	return op
}

// x86Prefixes are the prefixes capstone prints as a word of their own before the mnemonic.
var x86Prefixes = map[string]bool{
	"REP": true, "REPE": true, "REPZ": true, "REPNE": true, "REPNZ": true, "LOCK": true,
	"NOTRACK": true, "BND": true, "XACQUIRE": true, "XRELEASE": true, "DATA16": true, "ADDR32": true,
}

// x86FromText turns capstone's AT&T text into an entry: prefixes go ("rep movsb" is MOVSB, "lock
// cmpxchgl" CMPXCHG), "movq"/"movsd"/"cmpsd" are told apart by their registers, a size suffix is
// dropped only when what is left is an entry or alias, and the AT&T operands (source first,
// destination last, "(" or a segment marking memory) choose .LOAD or .STORE.
func x86FromText(c *Catalog, upper, operands string) string {
	if first, rest, ok := strings.Cut(upper, " "); ok { // capstone's own mnemonic is "lock cmpxchgl"
		upper, operands = first, rest+" "+operands
	}
	for x86Prefixes[upper] {
		word, rest, _ := strings.Cut(strings.TrimSpace(operands), " ")
		if word == "" {
			break
		}
		upper, operands = strings.ToUpper(word), rest
	}
	ops := x86Operands(operands)
	load, store := false, false
	for i, o := range ops {
		if x86Memory(o) {
			store = store || i == len(ops)-1
			load = load || i < len(ops)-1
		}
	}
	return x86Entry(c, x86Mnemonic(c, upper, operands), load, store)
}

// x86Mnemonic maps the upper-cased AT&T mnemonic onto a catalogue name before the memory split.
func x86Mnemonic(c *Catalog, m, operands string) string {
	// Without operands the entry itself is the answer; with them, registers tell these apart.
	vector := strings.Contains(operands, "%xmm") || strings.Contains(operands, "%mm")
	switch {
	case m == "MOVQ" && operands != "" && !vector: // AT&T movq is also the 64-bit integer MOV
		return "MOV"
	case (m == "MOVSD" || m == "CMPSD") && vector: // the string forms print as movsl and cmpsl
		return m + "_XMM"
	case m == "MOVD" && slices.ContainsFunc(x86Operands(operands), gpr64): // capstone's movd %xmm0, %rax is MOVQ
		return "MOVQ"
	}
	if r, ok := x87Reversed(m, operands); ok {
		return r
	}
	if x86Known(c, m) {
		return m
	}
	for _, suffix := range []string{"B", "W", "L", "Q", "S", "T", "LL"} {
		if base, ok := strings.CutSuffix(m, suffix); ok && base != "" && x86Known(c, base) {
			return base
		}
	}
	return m
}

// gpr64 tells a 64-bit general register operand ("%rax", "%r9"; not "%r9d" or "(%r8)").
func gpr64(op string) bool {
	return gpr64Names.MatchString(op)
}

var gpr64Names = regexp.MustCompile(`^%r([abcd]x|[sd]i|[sb]p|8|9|1[0-5])$`)

// x87Reversed undoes the AT&T swap of the reversed x87 subtract and divide (the SysV assembler
// convention capstone follows): in the DC forms, whose destination capstone prints as "%st(i)", and
// in every popping form, AT&T fsub means Intel FSUBR and fsubr means FSUB (likewise FDIV/FDIVR), so
// "fsubrp %st(1)" is the FSUBP that x86asm decodes from DE E9.
func x87Reversed(m, operands string) (string, bool) {
	base, pop := strings.CutSuffix(m, "P")
	switch base {
	case "FSUB", "FSUBR", "FDIV", "FDIVR":
	default:
		return "", false
	}
	ops := x86Operands(operands)
	toStackTop := len(ops) != 2 || !strings.HasPrefix(ops[1], "%st(") // "fsub %st(1)": AT&T keeps it
	if len(ops) == 0 || !pop && toStackTop {
		return "", false
	}
	if r, ok := strings.CutSuffix(base, "R"); ok {
		base = r
	} else {
		base += "R"
	}
	if pop {
		base += "P"
	}
	return base, true
}

// x86Known tells an entry or alias, so a suffix is only dropped when what is left is one.
func x86Known(c *Catalog, m string) bool {
	_, ok := c.Lookup(m)
	return ok
}

// x86Operands splits AT&T operands at commas outside parentheses ("8(%rdx, %rax, 8), %rdi").
func x86Operands(s string) []string {
	var out []string
	depth, start := 0, 0
	for i, r := range s {
		switch r {
		case '(':
			depth++
		case ')':
			depth--
		case ',':
			if depth == 0 {
				out = append(out, strings.TrimSpace(s[start:i]))
				start = i + 1
			}
		}
	}
	if t := strings.TrimSpace(s[start:]); t != "" {
		out = append(out, t)
	}
	return out
}

// x86Memory tells a memory operand in AT&T syntax: "0x10(%rsp)", "%fs:0x28", or a bare absolute
// address; immediates start with "$" and registers with "%" (after the "*" of an indirect jump).
func x86Memory(op string) bool {
	op = strings.TrimPrefix(op, "*")
	switch {
	case strings.Contains(op, "("), strings.HasPrefix(op, "%") && strings.Contains(op, ":"):
		return true
	case strings.HasPrefix(op, "$"), strings.HasPrefix(op, "%"):
		return false
	}
	return op != ""
}
