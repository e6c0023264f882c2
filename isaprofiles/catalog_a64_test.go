package isaprofiles

import (
	"bufio"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"golang.org/x/arch/arm64/arm64asm"

	"androprof/emulator/qemutest"
	"androprof/model/cost"
)

// TestCatalogA64CoversArm64asm walks every op arm64asm can print: each is an entry or an alias
// of a64.txt, except FDIV and FSQRT, which are catalogued with their precision.
func TestCatalogA64CoversArm64asm(t *testing.T) {
	c := CatalogFor(cost.AArch64)
	n := 0
	for op := arm64asm.Op(1); !strings.HasPrefix(op.String(), "Op("); op++ {
		n++
		name := op.String()
		if name == "FDIV" || name == "FSQRT" {
			for _, p := range []string{".S", ".D"} {
				if _, ok := c.Lookup(name + p); !ok {
					t.Errorf("arm64asm op %s: %s%s is not in a64.txt", name, name, p)
				}
			}
			continue
		}
		if _, ok := c.Lookup(name); !ok {
			t.Errorf("arm64asm op %s is neither an entry nor an alias of a64.txt", name)
		}
	}
	if n < 450 {
		t.Errorf("only %d arm64asm ops seen (466 in x/arch v0.32.0); the walk stopped early", n)
	}
}

// Real words and capstone's text for them, from qemu-aarch64 7.2 -d in_asm logs of
// testdata/a64prog.c and Debian's arm64 libc. Each must come out the same from its bytes and
// from its text (".byte" is what capstone 4 prints for the atomics and SVE it cannot decode,
// so there only the bytes can tell).
var a64Cases = []struct {
	enc, mn, ops string
	want, class  string
}{
	{"54fffda1", "b.ne", "#0x4005e0", "B.COND", "branch-cond"},
	{"b5ffffe1", "cbnz", "x1, #0x400838", "CBNZ", "branch-cond"},
	{"94000086", "bl", "#0x400804", "BL", "branch"},
	{"0ea28420", "add", "v0.2s, v1.2s, v2.2s", "ADD.V", "simd-alu"},
	{"5ee28400", "add", "d0, d0, d2", "ADD.V", "simd-alu"},
	{"11024000", "add", "w0, w0, #0x90", "ADD", "alu"},
	{"910003e0", "mov", "x0, sp", "MOV", "alu"},
	{"4e259c00", "mul", "v0.16b, v0.16b, v5.16b", "MUL.V", "simd-mul"},
	{"9b017c40", "mul", "x0, x2, x1", "MUL", "mul"},
	{"0e63c000", "smull", "v0.4s, v0.4h, v3.4h", "SMULL.V", "simd-mul"},
	{"9b207ee0", "smull", "x0, w23, w0", "SMULL", "mul-long"},
	{"1e291948", "fdiv", "s8, s10, s9", "FDIV.S", "fp-div-s"},
	{"1e691941", "fdiv", "d1, d10, d9", "FDIV.D", "fp-div-d"},
	{"6e21fce0", "fdiv", "v0.4s, v7.4s, v1.4s", "FDIV.S", "fp-div-s"},
	{"6e61fc42", "fdiv", "v2.2d, v2.2d, v1.2d", "FDIV.D", "fp-div-d"},
	{"1e21c000", "fsqrt", "s0, s0", "FSQRT.S", "fp-div-s"},
	{"6ee1f842", "fsqrt", "v2.2d, v2.2d", "FSQRT.D", "fp-div-d"},
	{"a94407e0", "ldp", "x0, x1, [sp, #0x40]", "LDP", "load-multiple"},
	{"ad4287e0", "ldp", "q0, q1, [sp, #0x50]", "LDP.V", "simd-load"},
	{"a9010000", "stp", "x0, x0, [x0, #0x10]", "STP", "store-multiple"},
	{"6d032fea", "stp", "d10, d11, [sp, #0x30]", "STP.V", "simd-store"},
	{"3dc0f000", "ldr", "q0, [x0, #0x3c0]", "LDR.V", "fp-load"},
	{"f940bbe0", "ldr", "x0, [sp, #0x170]", "LDR", "load"},
	{"3c8e83e0", "stur", "q0, [sp, #0xe8]", "STUR.V", "fp-store"},
	{"c85f7c62", "ldxr", "x2, [x3]", "LDXR", "store"},
	{"885ffc40", "ldaxr", "w0, [x2]", "LDAXR", "store"},
	{"88117c41", "stxr", "w17, w1, [x2]", "STXR", "store"},
	{"8811fc30", "stlxr", "w17, w16, [x1]", "STLXR", "store"},
	{"d280001d", "movz", "x29, #0", "MOV", "alu"},
	{"92800000", "movn", "x0, #0", "MOV", "alu"},
	{"b2400be0", "orr", "x0, xzr, #0x7", "MOV", "alu"},
	{"4ea11c20", "mov", "v0.16b, v1.16b", "MOV.V", "simd-alu"},
	{"4e083c01", "mov", "x1, v0.d[0]", "UMOV", "fp-xfer"},
	{"0e013c01", "umov", "w1, v0.b[0]", "UMOV", "fp-xfer"},
	{"6e0c0461", "ins", "v1.s[1], v3.s[0]", "INS", "simd-perm"},
	{"5e140421", "mov", "s1, v1.s[2]", "DUP", "simd-perm"},
	{"0f10a401", "sshll", "v1.4s, v0.4h, #0", "SSHLL", "simd-alu"},
	{"6e205810", "mvn", "v16.16b, v0.16b", "NOT", "simd-alu"},
	{"aa3703e0", "mvn", "x0, x23", "MVN", "alu"},
	{"9e6702a0", "fmov", "d0, x21", "FMOV", "fp-xfer"},
	{"4e284800", "aese", "v0.16b, v0.16b", "AESE", "crypto"},
	{"9ac14c00", "crc32x", "w0, w0, x1", "CRC32X", "crypto"},
	{"d503245f", "hint", "#0x22", "HINT", "system"},
	{"d4000001", "svc", "#0", "SVC", "system"},
	{"b8e40022", ".byte", "0x22, 0x00, 0xe4, 0xb8", "LDADDAL", "store"},
	{"38e400c2", ".byte", "0xc2, 0x00, 0xe4, 0x38", "LDADDALB", "store"},
	{"f82c0002", ".byte", "0x02, 0x00, 0x2c, 0xf8", "LDADD", "store"},
	{"88e2fc27", ".byte", "0x27, 0xfc, 0xe2, 0x88", "CASAL", "store"},
	{"b8608020", ".byte", "0x20, 0x80, 0x60, 0xb8", "SWPL", "store"},
	{"a400a020", ".byte", "0x20, 0xa0, 0x00, 0xa4", "LD1B", "simd-load"},
	{"e400e000", ".byte", "0x00, 0xe0, 0x00, 0xe4", "ST1B", "simd-store"},
	{"25221fe0", ".byte", "0xe0, 0x1f, 0x22, 0x25", "WHILELO", "simd-alu"},
	{"0420e3e6", ".byte", "0xe6, 0xe3, 0x20, 0x04", "CNTB", "alu"},
}

func TestCatalogA64Classify(t *testing.T) {
	c := CatalogFor(cost.AArch64)
	for _, tc := range a64Cases {
		byBytes := c.Classify(cost.Insn{Encoding: tc.enc, Mnemonic: tc.mn, Operands: tc.ops})
		if byBytes != tc.want {
			t.Errorf("%s (%s %s): from the bytes %s, want %s", tc.enc, tc.mn, tc.ops, byBytes, tc.want)
		}
		if e, ok := c.Lookup(byBytes); !ok || e.Class != tc.class {
			t.Errorf("%s (%s %s): %s has class %q (in the catalogue: %v), want %s", tc.enc, tc.mn, tc.ops, byBytes, e.Class, ok, tc.class)
		}
		if tc.mn == ".byte" {
			continue
		}
		if byText := c.Classify(cost.Insn{Mnemonic: tc.mn, Operands: tc.ops}); byText != tc.want {
			t.Errorf("%s %s: from the text %s, want %s", tc.mn, tc.ops, byText, tc.want)
		}
	}
}

func TestCatalogA64Text(t *testing.T) {
	c := CatalogFor(cost.AArch64)
	for _, tc := range []struct{ mn, ops, want string }{
		{"b.hs", "", "B.COND"},
		{"B.LE", "#0x10", "B.COND"},
		{"add", "", "ADD"},               // operands unknown: the plain entry
		{"fdiv", "", "FDIV"},             // precision unknown: no entry
		{"fdiv", "h0, h1, h2", "FDIV.S"}, // half precision counts as single
		{"ld1", "{v0.16b, v1.16b}, [x0], #32", "LD1"},
		{"ld1", "{v0.s}[1], [x0]", "LD1"},
		{"ldr", "b0, [x0]", "LDR.V"},
		{"ldr", "w0, #0x4008", "LDR"},
		{"mov", "v0.s[1], w0", "INS"},
		{"mov", "z0.b, w1", "DUP"},
		{"orr", "w0, wzr, w1, lsl #2", "ORR"},
		{"orr", "v0.4s, #0x1", "ORR.V"},
		{"rev32", "x0, x1", "REV32"},
		{"rev32", "v0.16b, v1.16b", "REV32.V"},
		{"sxtl", "v0.4s, v0.4h", "SSHLL"},
		{"paciasp", "", "HINT"},
		{"stadd", "w0, [x1]", "LDADD"},
		{".byte", "0x00, 0x00, 0x00, 0x01", ".BYTE"}, // not an instruction capstone knows
		{"add.v", "", "ADD.V"},
	} {
		if got := c.Classify(cost.Insn{Mnemonic: tc.mn, Operands: tc.ops}); got != tc.want {
			t.Errorf("%s %s = %s, want %s", tc.mn, tc.ops, got, tc.want)
		}
	}
}

func TestCatalogA64BytesRejects(t *testing.T) {
	c := CatalogFor(cost.AArch64)
	// Not one word, not hex, an MTE tag store (ARMv8.5, not catalogued) and an unallocated word:
	// the text decides.
	for _, enc := range []string{"d503", "d503201f d503201f", "zzzzzzzz", "d93ff860", "ffffffff"} {
		if m, ok := a64Bytes(c, enc); ok {
			t.Errorf("a64Bytes(%q) = %s, want not decoded", enc, m)
		}
	}
	if m, ok := a64Bytes(c, "00000000"); !ok || m != "UDF" {
		t.Errorf("a64Bytes(00000000) = %s, %v; want UDF", m, ok)
	}
}

// a64LogInsn is one instruction line of a QEMU -d in_asm log: "0x004005c4:  d280001d  movz  x29, #0".
type a64LogInsn struct{ enc, mn, ops string }

func readA64Log(t *testing.T, path string) []a64LogInsn {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out []a64LogInsn
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		addr, rest, ok := strings.Cut(sc.Text(), ":  ")
		if !ok || !strings.HasPrefix(addr, "0x") {
			continue
		}
		f := strings.Fields(rest)
		if len(f) < 2 || len(f[0]) != 8 {
			t.Fatalf("%s: unexpected instruction line %q", path, sc.Text())
		}
		ops := strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(rest[len(f[0]):]), f[1]))
		out = append(out, a64LogInsn{f[0], f[1], ops})
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return out
}

// TestCatalogA64QEMULog builds testdata/a64prog.c (integer, FP, Advanced SIMD, crypto, CRC,
// exclusives and LSE atomics) statically and against Debian's arm64 libc, runs both under
// qemu-aarch64 -d in_asm (default CPU: Debian's glibc then runs its SVE memcpy), and checks
// that every instruction is named from its bytes, that the name is in the catalogue, and that
// capstone's text names it the same wherever capstone could decode it.
func TestCatalogA64QEMULog(t *testing.T) {
	tg := qemutest.AArch64
	// -fno-math-errno: sqrt stays an FSQRT with no call into libm, which a static link
	// (qemutest.Build puts no -lm after the source) could not resolve.
	tg.Flags = []string{"-march=armv8-a+crypto+crc", "-mno-outline-atomics", "-fno-math-errno"}
	src, err := filepath.Abs(filepath.Join("testdata", "a64prog.c"))
	if err != nil {
		t.Fatal(err)
	}
	static := qemutest.Build(t, tg, src)
	dynamic := buildA64Dynamic(t, tg, src)
	c := CatalogFor(cost.AArch64)
	for _, run := range []struct {
		name, bin string
		opts      []string
	}{
		{"static", static, []string{"-d", "in_asm"}},
		{"Debian libc", dynamic, []string{"-L", "/usr/aarch64-linux-gnu", "-d", "in_asm"}},
	} {
		insns := readA64Log(t, qemutest.Log(t, tg, run.bin, run.opts, "40"))
		names, undecoded := map[string]bool{}, 0
		for _, in := range insns {
			byBytes, ok := a64Bytes(c, in.enc)
			if !ok {
				undecoded++
				t.Errorf("%s: %s %s %s is not decoded", run.name, in.enc, in.mn, in.ops)
				continue
			}
			names[byBytes] = true
			if _, ok := c.Lookup(byBytes); !ok {
				t.Errorf("%s: %s %s %s -> %s, which is not in a64.txt", run.name, in.enc, in.mn, in.ops, byBytes)
			}
			if in.mn == ".byte" {
				continue
			}
			if byText := a64Text(c, strings.ToUpper(in.mn), in.ops); byText != byBytes {
				t.Errorf("%s: %s %s %s: text says %s, bytes say %s", run.name, in.enc, in.mn, in.ops, byText, byBytes)
			}
		}
		t.Logf("%s: %d instructions, %d names, %d not decoded", run.name, len(insns), len(names), undecoded)
		// Measured: 6749 translated instructions with 235 names (static), 13165 with 237
		// (Debian libc).
		if len(insns) < 5000 || len(names) < 200 {
			t.Errorf("%s: only %d instructions with %d names; the program or the log reader is broken", run.name, len(insns), len(names))
		}
	}
}

// buildA64Dynamic links src against Debian's arm64 libc (libc6-dev-arm64-cross).
func buildA64Dynamic(t *testing.T, tg qemutest.Target, src string) string {
	t.Helper()
	out := filepath.Join(t.TempDir(), "a64prog-dynamic")
	args := append(append([]string{"-O2", "-o", out}, tg.Flags...), src)
	if b, err := exec.Command(tg.CC, args...).CombinedOutput(); err != nil {
		t.Fatalf("%s: %v\n%s", tg.CC, err, b)
	}
	return out
}

// TestCatalogA64Objdump checks the byte rule, the atomics and SVE decoders included, and the
// text rule against GNU objdump on every instruction of Debian's arm64 libc and libm: the name
// from the bytes must equal the name from objdump's text. MTE's tag instructions (ARMv8.5,
// used by glibc only when memory tagging is switched on) are not catalogued.
func TestCatalogA64Objdump(t *testing.T) {
	qemutest.Require(t, "aarch64-linux-gnu-objdump")
	c := CatalogFor(cost.AArch64)
	mte := map[string]bool{"irg": true, "gmi": true, "ldg": true, "stg": true, "stzg": true, "st2g": true, "stz2g": true}
	for _, lib := range []string{"/usr/aarch64-linux-gnu/lib/libc.so.6", "/usr/aarch64-linux-gnu/lib/libm.so.6"} {
		if _, err := os.Stat(lib); err != nil {
			t.Skipf("%v (libc6-arm64-cross, scripts/deps.sh installs it)", err)
		}
		out, err := exec.Command("aarch64-linux-gnu-objdump", "-d", lib).Output()
		if err != nil {
			t.Fatal(err)
		}
		n, bad := 0, map[string]int{}
		for _, line := range strings.Split(string(out), "\n") {
			f := strings.SplitN(line, "\t", 4) // "  addr:", "word ", mnemonic, operands
			if len(f) < 3 || !strings.HasSuffix(f[0], ":") || len(strings.TrimSpace(f[1])) != 8 {
				continue
			}
			ops := ""
			if len(f) == 4 {
				ops, _, _ = strings.Cut(f[3], "//")
				ops, _, _ = strings.Cut(ops, "<")
			}
			n++
			byBytes, ok := a64Bytes(c, strings.TrimSpace(f[1]))
			byText := a64Text(c, strings.ToUpper(f[2]), ops)
			if mte[f[2]] && !ok {
				continue
			}
			if _, in := c.Lookup(byBytes); !ok || !in || byBytes != byText {
				bad[fmt.Sprintf("%s: bytes %q (decoded %v), text %q", f[2], byBytes, ok, byText)]++
			}
		}
		for k, v := range bad {
			t.Errorf("%s: %d× %s", filepath.Base(lib), v, k)
		}
		if n < 50000 {
			t.Errorf("%s: only %d instructions read from objdump", lib, n)
		}
	}
}
