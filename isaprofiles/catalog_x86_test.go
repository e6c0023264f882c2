package isaprofiles

import (
	"bufio"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"golang.org/x/arch/x86/x86asm"

	"androprof/internal/fastlane"
	"androprof/model/cost"
)

// x86Invalid64 are the x86asm ops that are invalid in 64-bit mode (Intel SDM Vol. 2, "64-Bit
// Mode" column), which x86-64.txt leaves out because no x86-64 program can run them.
var x86Invalid64 = map[string]bool{
	"AAA": true, "AAD": true, "AAM": true, "AAS": true, "DAA": true, "DAS": true, "ARPL": true,
	"BOUND": true, "INTO": true, "JCXZ": true, "LDS": true, "LES": true, "PUSHA": true, "PUSHAD": true,
	"POPA": true, "POPAD": true, "PUSHFD": true, "POPFD": true,
}

// x86Extra are the entries x86asm does not name but x86Undecoded does.
var x86Extra = map[string]bool{"ADCX": true, "ADOX": true, "RDSEED": true}

func TestX86CatalogCoversX86asm(t *testing.T) {
	c := CatalogFor(cost.X86_64)
	ops := map[string]bool{}
	n, unnamed := 0, 0
	// x86asm's ops are numbered from 1 without gaps (base ops, then the AVX tables); a run of
	// unnamed numbers ("Op(N)") marks the end.
	for op := x86asm.Op(1); unnamed < 64; op++ {
		name := op.String()
		if name == fmt.Sprintf("Op(%d)", int(op)) {
			unnamed++
			continue
		}
		unnamed, n = 0, n+1
		ops[name] = true
		_, ok := c.Lookup(name)
		switch {
		case x86Invalid64[name] && ok:
			t.Errorf("%s is invalid in 64-bit mode but catalogued", name)
		case !x86Invalid64[name] && !ok:
			t.Errorf("x86asm op %s is not in x86-64.txt", name)
		}
	}
	if n < 1500 {
		t.Errorf("only %d x86asm ops seen; the Op(N) end marker was probably misread", n)
	}
	for _, e := range c.Entries {
		op, _, _ := strings.Cut(e.Mnemonic, ".")
		if !ops[op] && !x86Extra[op] {
			t.Errorf("%s is neither an x86asm op nor one x86Undecoded names", e.Mnemonic)
		}
		if e.Cond || e.SFlag {
			t.Errorf("%s: x86-64 entries take no c/s flags", e.Mnemonic)
		}
		if !documentedClasses[e.Class] {
			t.Errorf("%s: class %q is not in docs/catalogues.md", e.Mnemonic, e.Class)
		}
	}
}

// The MOV family's .LOAD/.STORE entries carry load and store classes; their register form does not.
func TestX86MovFamilyClasses(t *testing.T) {
	c := CatalogFor(cost.X86_64)
	for _, op := range []string{"MOV", "MOVZX", "MOVSX", "MOVSXD", "MOVSS", "MOVSD_XMM", "MOVAPS", "MOVUPS",
		"MOVAPD", "MOVUPD", "MOVDQA", "MOVDQU", "MOVQ", "MOVD", "VMOVDQU", "VMOVUPS", "VMOVSD", "VMOVQ"} {
		reg, _ := c.Lookup(op)
		ld, ok := c.Lookup(op + ".LOAD")
		if !ok || !strings.HasSuffix(ld.Class, "load") || strings.HasSuffix(reg.Class, "load") {
			t.Errorf("%s = %s, %s.LOAD = %+v, %v; want a load class only on .LOAD", op, reg.Class, op, ld, ok)
		}
		st, ok := c.Lookup(op + ".STORE")
		extends := strings.HasPrefix(op, "MOVZX") || strings.HasPrefix(op, "MOVSX")
		if extends == ok || ok && !strings.HasSuffix(st.Class, "store") {
			t.Errorf("%s.STORE = %+v, %v (only the sign/zero extensions cannot store)", op, st, ok)
		}
	}
}

// Bytes and capstone's AT&T text (copied from qemu-x86_64 7.2 -d in_asm logs) of the same
// instruction must name the same entry.
func TestX86Classify(t *testing.T) {
	c := CatalogFor(cost.X86_64)
	for _, tc := range []struct{ enc, mn, ops, want, class string }{
		{"4989d1", "movq", "%rdx, %r9", "MOV", "alu"},
		{"488b842400010000", "movq", "0x100(%rsp), %rax", "MOV.LOAD", "load"},
		{"4c894c2450", "movq", "%r9, 0x50(%rsp)", "MOV.STORE", "store"},
		{"48c7c7f0144000", "movq", "$0x4014f0, %rdi", "MOV", "alu"},
		{"648b142500000000", "movl", "%fs:0, %edx", "MOV.LOAD", "load"},
		{"6641c740220700", "movw", "$7, 0x22(%r8)", "MOV.STORE", "store"},
		{"488b042540106000", "movq", "0x601040, %rax", "MOV.LOAD", "load"},
		{"6448890425280000 00", "movq", "%rax, %fs:0x28", "MOV.STORE", "store"},
		{"48ba8967452301000000", "movabsq", "$0x123456789, %rdx", "MOV", "alu"},
		{"4863c6", "movslq", "%esi, %rax", "MOVSXD", "alu"},
		{"49635004", "movslq", "4(%r8), %rdx", "MOVSXD.LOAD", "load"},
		{"410fb65001", "movzbl", "1(%r8), %edx", "MOVZX.LOAD", "load"},
		{"0fb7d2", "movzwl", "%dx, %edx", "MOVZX", "alu"},
		{"490fbe5002", "movsbq", "2(%r8), %rdx", "MOVSX.LOAD", "load"},
		{"7406", "je", "0x402df0", "JE", "branch-cond"},
		{"75f6", "jne", "0x402df0", "JNE", "branch-cond"},
		{"0f8e10000000", "jle", "0x402df0", "JLE", "branch-cond"},
		{"e3fe", "jrcxz", "0x402df0", "JRCXZ", "branch-cond"},
		{"67e85f170000", "callq", "0x404160", "CALL", "branch"},
		{"c3", "retq", "", "RET", "branch"},
		{"ffe0", "jmpq", "*%rax", "JMP", "branch"},
		{"41ff24c4", "jmpq", "*(%r12, %rax, 8)", "JMP", "branch"},
		{"f3a4", "rep", "movsb (%rsi), (%rdi)", "MOVSB", "string"},
		{"f3a5", "rep", "movsl (%rsi), (%rdi)", "MOVSD", "string"},
		{"f348ab", "rep", "stosq %rax, (%rdi)", "STOSQ", "string"},
		{"f3a6", "repe", "cmpsb (%rdi), (%rsi)", "CMPSB", "string"},
		{"f2ae", "repne", "scasb (%rdi), %al", "SCASB", "string"},
		{"ab", "stosl", "%eax, (%rdi)", "STOSD", "string"},
		{"f2410f1000", "movsd", "(%r8), %xmm0", "MOVSD_XMM.LOAD", "fp-load"},
		{"f2410f114008", "movsd", "%xmm0, 8(%r8)", "MOVSD_XMM.STORE", "fp-store"},
		{"f20f10c8", "movsd", "%xmm0, %xmm1", "MOVSD_XMM", "fp-add"},
		{"f20fc2c101", "cmpltsd", "%xmm1, %xmm0", "CMPSD_XMM", "fp-add"},
		{"f30fc2c106", "cmpnless", "%xmm1, %xmm0", "CMPSS", "fp-add"},
		{"f3410f7e10", "movq", "(%r8), %xmm2", "MOVQ.LOAD", "fp-load"},
		{"66410fd65010", "movq", "%xmm2, 0x10(%r8)", "MOVQ.STORE", "fp-store"},
		{"66480f7ed0", "movd", "%xmm2, %rax", "MOVQ", "fp-xfer"},
		{"660f7eda", "movd", "%xmm3, %edx", "MOVD", "fp-xfer"},
		{"66410f6e6004", "movd", "4(%r8), %xmm4", "MOVD.LOAD", "fp-load"},
		{"0f28f5", "movaps", "%xmm5, %xmm6", "MOVAPS", "simd-alu"},
		{"f30f6f0f", "movdqu", "(%rdi), %xmm1", "MOVDQU.LOAD", "simd-load"},
		{"c5fe7f07", "vmovdqu", "%ymm0, (%rdi)", "VMOVDQU.STORE", "simd-store"},
		{"c5fe6f06", "vmovdqu", "(%rsi), %ymm0", "VMOVDQU.LOAD", "simd-load"},
		{"488d7cc208", "leaq", "8(%rdx, %rax, 8), %rdi", "LEA", "alu"},
		{"4883c201", "addq", "$1, %rdx", "ADD", "alu"},
		{"480305a0000000", "addq", "0xa0(%rip), %rax", "ADD", "alu"}, // memory operands of ALU ops are not split
		{"f0490fc15028", "lock", "xaddq %rdx, 0x28(%r8)", "XADD", "store"},
		{"f0410fb15500", "lock", "cmpxchgl %edx, (%rbp)", "CMPXCHG", "store"},
		{"4898", "cltq", "", "CDQE", "alu"},
		{"4899", "cqto", "", "CQO", "alu"},
		{"98", "cwtl", "", "CWDE", "alu"},
		{"480fafc2", "imulq", "%rdx, %rax", "IMUL", "mul"},
		{"48f7e2", "mulq", "%rdx", "MUL", "mul-long"},
		{"48f7f9", "idivq", "%rcx", "IDIV", "div"},
		{"48d1e2", "shlq", "$1, %rdx", "SHL", "shift"},
		{"480f4cd0", "cmovlq", "%rax, %rdx", "CMOVL", "alu"},
		{"0f9cc2", "setl", "%dl", "SETL", "alu"},
		{"415c", "popq", "%r12", "POP", "load"},
		{"4154", "pushq", "%r12", "PUSH", "store"},
		{"f30f1efa", "endbr64", "", "NOP", "system"},
		{"664c0f38f6f3", "adcxq", "%rbx, %r14", "ADCX", "alu"}, // x86asm decodes neither: x86Undecoded does
		{"f34c0f38f6d3", "adoxq", "%rbx, %r10", "ADOX", "alu"},
		{"490fc7fa", "rdseedq", "%r10", "RDSEED", "system"},
		{"f00fb1ba88000000", "lock cmpxchgl", "%edi, 0x88(%rdx)", "CMPXCHG", "store"}, // capstone's own mnemonic
		{"f27d22", "bnd jge", "0xf6a33", "JGE", "branch-cond"},
		{"dce0", "fsub", "%st(0), %st(0)", "FSUBR", "fp-add"},
		{"d8e1", "fsub", "%st(1)", "FSUB", "fp-add"}, // x86asm cannot decode it: the byte rule knows it
		{"660f1f840000000000", "nopw", "(%rax, %rax)", "NOP", "system"},
		{"0f05", "syscall", "", "SYSCALL", "system"},
		{"f20f59c1", "mulsd", "%xmm1, %xmm0", "MULSD", "fp-mul"},
		{"f30f5ec1", "divss", "%xmm1, %xmm0", "DIVSS", "fp-div-s"},
		{"f20f51c0", "sqrtsd", "%xmm0, %xmm0", "SQRTSD", "fp-div-d"},
		{"f2480f2ac2", "cvtsi2sdq", "%rdx, %xmm0", "CVTSI2SD", "fp-add"},
		{"0f58c1", "addps", "%xmm1, %xmm0", "ADDPS", "simd-alu"},
		{"c4e27d78ff", "vpbroadcastb", "%xmm7, %ymm7", "VPBROADCASTB", "simd-perm"},
		{"c4e2719800", "vfmadd132ps", "(%rax), %xmm1, %xmm0", "VFMADD132PS", "simd-mul"},
		{"660f38dcc1", "aesenc", "%xmm1, %xmm0", "AESENC", "crypto"},
		{"660f3a44c111", "pclmulqdq", "$0x11, %xmm1, %xmm0", "PCLMULQDQ", "crypto"},
		{"f20f38f0c1", "crc32b", "%cl, %eax", "CRC32", "crypto"},
		{"c4e2fbf5c2", "pdepq", "%rdx, %rax, %rax", "PDEP", "alu"},
		{"41dd00", "fldl", "(%r8)", "FLD", "fp-load"},
		{"41df6810", "fildll", "0x10(%r8)", "FILD", "fp-load"},
		{"41db7830", "fstpt", "0x30(%r8)", "FSTP", "fp-store"},
		{"dee9", "fsubrp", "%st(1)", "FSUBP", "fp-add"},
		{"def9", "fdivrp", "%st(1)", "FDIVP", "fp-div-d"},
		{"dee1", "fsubp", "%st(1)", "FSUBRP", "fp-add"},
		{"d8e9", "fsubr", "%st(1)", "FSUBR", "fp-add"},
		{"dce1", "fsub", "%st(0), %st(1)", "FSUBR", "fp-add"},
		{"dcf9", "fdivr", "%st(0), %st(1)", "FDIV", "fp-div-d"},
		{"dfe9", "fucomip", "%st(1), %st", "FUCOMIP", "fp-add"},
	} {
		byBytes, ok := x86FromBytes(c, tc.enc)
		if !ok || byBytes != tc.want {
			t.Errorf("bytes %s = %q, %v; want %s", tc.enc, byBytes, ok, tc.want)
		}
		byText := c.Classify(cost.Insn{Mnemonic: tc.mn, Operands: tc.ops})
		if byText != tc.want {
			t.Errorf("text %q %q = %s, want %s", tc.mn, tc.ops, byText, tc.want)
		}
		if e, ok := c.Lookup(tc.want); !ok || e.Class != tc.class {
			t.Errorf("%s = %+v, %v; want class %s", tc.want, e, ok, tc.class)
		}
	}
	for _, bad := range []string{"", "zz", "0f", "c4", "4889", "4889e5c3"} {
		if m, ok := x86FromBytes(c, bad); ok {
			t.Errorf("bytes %q decoded as %s; want ok=false so the text decides", bad, m)
		}
	}
}

// x86LogInsn is one instruction of a qemu-x86_64 -d in_asm log.
type x86LogInsn struct {
	line         int
	enc, mn, ops string
}

// readX86Log reads the instruction lines of an in_asm log: "0x004029e2:  49 89 d1   movq %rdx, %r9".
// QEMU prints at most 8 bytes a line and puts the rest on an address line of bytes alone.
func readX86Log(r io.Reader) ([]x86LogInsn, error) {
	var out []x86LogInsn
	sc := bufio.NewScanner(r)
	for n := 1; sc.Scan(); n++ {
		enc, mn, ops, ok := splitX86Line(sc.Text())
		switch {
		case !ok:
		case mn == "" && len(out) > 0:
			out[len(out)-1].enc += enc
		case mn == "" || enc == "":
			return nil, fmt.Errorf("line %d: no bytes or no mnemonic: %q", n, sc.Text())
		default:
			out = append(out, x86LogInsn{line: n, enc: enc, mn: mn, ops: ops})
		}
	}
	return out, sc.Err()
}

// splitX86Line splits an in_asm instruction line into its bytes, mnemonic and operands; ok is
// false for other lines, and the mnemonic is "" on a line that continues the bytes of the last.
func splitX86Line(ln string) (enc, mn, ops string, ok bool) {
	addr, rest, ok := strings.Cut(ln, ":  ")
	if !ok || !strings.HasPrefix(addr, "0x") {
		return "", "", "", false
	}
	f := strings.Fields(rest)
	i := 0
	for i < len(f) && len(f[i]) == 2 && isHex(f[i]) {
		i++
	}
	enc = strings.Join(f[:i], "")
	if i == len(f) {
		return enc, "", "", true
	}
	return enc, f[i], strings.Join(f[i+1:], " "), true
}

func isHex(s string) bool {
	return strings.Trim(s, "0123456789abcdef") == ""
}

// x86LogAgrees checks every instruction of a real log: in the catalogue both from its bytes and
// from its text, and the same entry from both.
func x86LogAgrees(t *testing.T, log []x86LogInsn) {
	c := CatalogFor(cost.X86_64)
	seen := map[string]bool{}
	undecoded := 0
	for _, in := range log {
		if in.mn == ".byte" { // capstone lost its way (see docs/catalogues.md); not an instruction
			undecoded++
			continue
		}
		byBytes, ok := x86FromBytes(c, in.enc)
		byText := c.Classify(cost.Insn{Mnemonic: in.mn, Operands: in.ops})
		if _, known := c.Lookup(byText); !known {
			t.Errorf("line %d: %s %s -> %s, not in the catalogue", in.line, in.mn, in.ops, byText)
		}
		if !ok || byBytes != byText {
			t.Errorf("line %d: bytes %s -> %q (%v), text %s %s -> %s", in.line, in.enc, byBytes, ok, in.mn, in.ops, byText)
		}
		seen[byText] = true
	}
	for _, want := range []string{"MOV", "MOV.LOAD", "MOV.STORE", "JNE", "MOVSB", "MOVSD", "MOVSD_XMM.LOAD", "AESENC", "VFMADD132PS", "FSUBP"} {
		if !seen[want] {
			t.Errorf("the log has no %s; the program should exercise it", want)
		}
	}
	if len(log) < 300 || undecoded*1000 > len(log) {
		t.Errorf("%d instructions read, %d that capstone printed as .byte", len(log), undecoded)
	}
}

// testdata/x86/ops.log is every distinct mnemonic-and-operand-shape of the in_asm log of
// testdata/x86/ops.c (gcc 12 -O2 -static, Debian 12 glibc 2.36, qemu-x86_64 7.2 -d in_asm), the
// first up to three lines of each, with their continuation lines: see TestX86QEMULog to remake it.
func TestX86KeptLog(t *testing.T) {
	x86LogFileAgrees(t, "testdata/x86/ops.log")
}

// x86LogFileAgrees reads an in_asm log file and checks it with x86LogAgrees.
func x86LogFileAgrees(t *testing.T, path string) {
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	log, err := readX86Log(f)
	if err != nil {
		t.Fatal(err)
	}
	x86LogAgrees(t, log)
}

// TestX86QEMULog compiles testdata/x86/ops.c (integer, x87, SSE, string ops, AES-NI, PCLMUL,
// CRC32, BMI, AVX2 and FMA, and Debian's static glibc with its AVX2 string functions), runs it
// under qemu-x86_64 -d in_asm and checks every instruction QEMU translated.
func TestX86QEMULog(t *testing.T) {
	fastlane.Needs(t, "gcc and qemu-x86_64")
	for _, tool := range []string{"gcc", "qemu-x86_64"} {
		if _, err := exec.LookPath(tool); err != nil {
			t.Skipf("no %s (scripts/deps.sh installs it)", tool)
		}
	}
	for _, link := range []string{"-static", "-dynamic"} { // libc.a, and Debian's libc.so.6 and ld.so
		t.Run(link, func(t *testing.T) {
			logPath := runX86Program(t, link)
			x86LogFileAgrees(t, logPath)
			if os.Getenv("X86_UPDATE_LOG") != "" && link == "-static" {
				if err := keepX86Log(logPath, "testdata/x86/ops.log"); err != nil {
					t.Fatal(err)
				}
			}
		})
	}
}

// runX86Program builds testdata/x86/ops.c with gcc -O2 and the link option given and returns the
// path of its qemu-x86_64 -d in_asm log.
func runX86Program(t *testing.T, link string) string {
	dir := t.TempDir()
	prog, logPath := filepath.Join(dir, "ops"), filepath.Join(dir, "in_asm.log")
	if out, err := exec.Command("gcc", "-O2", link, "-o", prog, "testdata/x86/ops.c", "-lm").CombinedOutput(); err != nil {
		t.Fatalf("gcc %s: %v\n%s", link, err, out)
	}
	if out, err := exec.Command("qemu-x86_64", "-d", "in_asm", "-D", logPath, prog).CombinedOutput(); err != nil {
		t.Fatalf("qemu-x86_64: %v\n%s", err, out)
	}
	return logPath
}

// keepX86Log writes the kept excerpt of an in_asm log (X86_UPDATE_LOG=1 go test -run
// TestX86QEMULog ./isaprofiles/): the first three distinct lines of each mnemonic and operand
// shape (register, immediate or memory in each place), each with its continuation line.
func keepX86Log(from, to string) error {
	in, err := os.ReadFile(from)
	if err != nil {
		return err
	}
	var b strings.Builder
	b.WriteString("# Excerpt of qemu-x86_64 7.2 -d in_asm of testdata/x86/ops.c (gcc -O2 -static, Debian 12);\n")
	b.WriteString("# remade by X86_UPDATE_LOG=1 go test -run TestX86QEMULog ./isaprofiles/\n")
	count, lines := map[string]int{}, map[string]bool{}
	keep := false
	for _, ln := range strings.Split(string(in), "\n") {
		enc, mn, ops, ok := splitX86Line(ln)
		if !ok {
			continue
		}
		if mn != "" { // an instruction, not a continuation of the one before
			key, text := mn+x86Shape(ops), enc+" "+mn+" "+ops
			keep = !lines[text] && count[key] < 3
			if keep {
				count[key]++
				lines[text] = true
			}
		}
		if keep {
			b.WriteString(ln + "\n")
		}
	}
	return os.WriteFile(to, []byte(b.String()), 0o644)
}

// x86Shape abstracts AT&T operands to r, i or m in each place.
func x86Shape(operands string) string {
	s := " "
	for _, o := range x86Operands(operands) {
		switch {
		case x86Memory(o):
			s += "m"
		case strings.HasPrefix(o, "$"):
			s += "i"
		default:
			s += "r"
		}
	}
	return s
}

// amdFMA4 are AMD's four-operand FMA4 instructions, which libm carries for AMD CPUs of 2011-2016
// but QEMU does not emulate (so glibc never picks them under QEMU) and x86asm does not decode; the
// catalogue leaves them out, like XOP and 3DNow!.
var amdFMA4 = regexp.MustCompile(`^vfn?m(add|sub|addsub|subadd)[ps][sd]$`)

// TestX86CapstoneAgrees disassembles Debian's libc.so.6, libm.so.6 and ld.so (every encoding in
// their .text, AVX-512 and x87 included) with capstone 4 as QEMU 7.2 prints it, and checks that
// the text rule names every instruction from the catalogue and agrees with the byte rule wherever
// x86asm decodes the bytes. The one known difference is the EVEX compare with predicate 0, which
// capstone prints as vpcmpeq[bwdq] like the other instruction of that name: same class.
func TestX86CapstoneAgrees(t *testing.T) {
	fastlane.Needs(t, "python3, objcopy and libcapstone.so.4 (QEMU's disassembler)")
	tsv := filepath.Join(t.TempDir(), "capstone.tsv")
	libs := []string{"/lib/x86_64-linux-gnu/libc.so.6", "/lib/x86_64-linux-gnu/libm.so.6", "/lib64/ld-linux-x86-64.so.2"}
	out, err := exec.Command("python3", append([]string{"testdata/x86/capstone.py", tsv}, libs...)...).CombinedOutput()
	if err != nil {
		t.Skipf("capstone.py (needs python3, binutils and Debian's libcapstone4 on amd64): %v\n%s", err, out)
	}
	f, err := os.Open(tsv)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	c := CatalogFor(cost.X86_64)
	n, undecoded := 0, 0
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		enc, rest, _ := strings.Cut(sc.Text(), "\t")
		mn, ops, _ := strings.Cut(rest, "\t")
		if mn == ".byte" {
			continue
		}
		n++
		byBytes, ok := x86FromBytes(c, enc)
		byText := c.Classify(cost.Insn{Mnemonic: mn, Operands: ops})
		if _, known := c.Lookup(byText); !known && (ok || !amdFMA4.MatchString(mn)) {
			t.Errorf("%s %s %s -> %s, not in the catalogue", enc, mn, ops, byText)
		}
		switch {
		case !ok:
			undecoded++
		case byBytes != byText && !(strings.HasPrefix(mn, "vpcmpeq") && strings.HasPrefix(byBytes, "VPCMP")):
			t.Errorf("bytes %s -> %s, text %s %s -> %s", enc, byBytes, mn, ops, byText)
		}
	}
	if n < 50000 || undecoded*100 > n {
		t.Errorf("%d instructions, %d that x86asm does not decode", n, undecoded)
	}
	t.Logf("%d distinct encodings, %d x86asm does not decode", n, undecoded)
}
