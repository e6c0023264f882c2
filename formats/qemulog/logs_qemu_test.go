package qemulog

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"androprof/emulator/qemutest"
	"androprof/formats/bbprofile"
	"androprof/formats/internal/blocks"
	"androprof/isaprofiles"
	"androprof/model/cost"
)

func guestISAs(tg qemutest.Target) []cost.ISA {
	switch tg.Name {
	case "mips":
		return []cost.ISA{cost.MIPS}
	case "aarch64":
		return []cost.ISA{cost.AArch64}
	case "x86_64":
		return []cost.ISA{cost.X86_64}
	}
	return []cost.ISA{cost.ARM, cost.Thumb}
}

// guests64 are the 64-bit guests of issue 26.
var guests64 = []qemutest.Target{qemutest.AArch64, qemutest.X86_64}

// Real AArch64 and x86-64 programs under QEMU 7.2: the import's total equals the
// `-singlestep` count whether the caller names the instruction set or the log alone tells it,
// every block is of the guest's set, and the encodings are whole instructions laid end to end
// (x86's longer than 8 bytes continue on lines of their own). Naming a 32-bit set for them is
// an error, not blocks read as ARM.
func TestImport64BitGuests(t *testing.T) {
	src := filepath.Join(qemutest.SamplesDir(), "sieve.c")
	for _, tg := range guests64 {
		t.Run(tg.Name, func(t *testing.T) {
			bin := qemutest.Build(t, tg, src)
			log := qemutest.Log(t, tg, bin, []string{"-d", "in_asm,exec,nochain"}, "3000")
			want := qemutest.SinglestepCount(t, tg, bin, nil, "3000")
			isa := guestISAs(tg)[0]
			for _, hint := range [][]cost.ISA{nil, {isa}, {cost.ARM, cost.Thumb, cost.AArch64, cost.MIPS, cost.X86_64}} {
				c := checkedImport(t, []string{log}, hint)
				if got := c.Instructions(); got != want {
					t.Errorf("hint %v: ImportLogs counted %d instructions, qemu -singlestep %d", hint, got, want)
				}
				for k, b := range c.Blocks {
					if k.ISA != isa {
						t.Fatalf("hint %v: block at 0x%x read as %s", hint, k.PC, k.ISA)
					}
					checkLaidEndToEnd(t, b)
				}
				t.Logf("hint %v: %d instructions in %d blocks, as qemu -singlestep", hint, c.Instructions(), len(c.Blocks))
			}
			s := newOrderSink()
			err := ImportLogs(context.Background(), []string{log}, []cost.ISA{cost.ARM, cost.Thumb}, s, nil)
			if err == nil || !strings.Contains(err.Error(), "ARM, Thumb") {
				t.Errorf("read as ARM, Thumb: error %v", err)
			}
		})
	}
}

// checkLaidEndToEnd fails unless each instruction's encoding is whole (8 hex digits for A64,
// 1 to 15 bytes for x86) and ends where the next one starts.
func checkLaidEndToEnd(t *testing.T, b *cost.Block) {
	t.Helper()
	for i, in := range b.Insns {
		n := len(in.Encoding) / 2
		if b.ISA == cost.AArch64 && n != 4 || n < 1 || n > maxX86Bytes || len(in.Encoding)%2 != 0 || strings.Contains(in.Encoding, " ") {
			t.Fatalf("block 0x%x: encoding %q of %+v", b.PC, in.Encoding, in)
		}
		if i+1 < len(b.Insns) && b.Insns[i+1].Addr != in.Addr+uint64(n) {
			t.Fatalf("block 0x%x: %+v is followed by 0x%x", b.PC, in, b.Insns[i+1].Addr)
		}
	}
}

// The definition of done: for real programs built for ARM, Thumb and MIPS, the
// dynamic instruction count ImportLogs finds in an in_asm,exec,nochain log equals the number
// of Trace lines of `-singlestep -d exec,nochain` (one instruction per block) for the same
// program and input.
func TestImportExactCounts(t *testing.T) {
	src := filepath.Join(qemutest.SamplesDir(), "sieve.c")
	for _, tg := range qemutest.Targets {
		t.Run(tg.Name, func(t *testing.T) {
			bin := qemutest.Build(t, tg, src)
			log := qemutest.Log(t, tg, bin, []string{"-d", "in_asm,exec,nochain"}, "3000")
			single := qemutest.Log(t, tg, bin, []string{"-singlestep", "-d", "exec,nochain"}, "3000")
			want := qemutest.TraceLines(t, single)

			c := checkedImport(t, []string{log}, guestISAs(tg))
			if got := c.Instructions(); got != want {
				t.Errorf("ImportLogs counted %d instructions, qemu -singlestep %d", got, want)
			}
			isas := map[cost.ISA]int{}
			for k := range c.Blocks {
				isas[k.ISA]++
			}
			switch tg.Name {
			case "arm": // static glibc is Thumb-2 even in a -marm build (docs/formats.md#arm-and-thumb)
				if isas[cost.ARM] == 0 || isas[cost.Thumb] == 0 {
					t.Errorf("blocks by instruction set = %v, want both ARM and Thumb", isas)
				}
			case "thumb":
				if isas[cost.Thumb] == 0 {
					t.Errorf("blocks by instruction set = %v", isas)
				}
			}
			if len(c.Processes) != 1 || c.Processes[0].PID != 1 || len(c.Threads) != 1 || c.Threads[0].TID != 0 {
				t.Errorf("processes %+v threads %+v", c.Processes, c.Threads)
			}
		})
	}
}

// A QEMU without a disassembler logs OBJD-T bytes instead of text. The real logs, rewritten
// that way, must give the same blocks, encodings and counts; ARM words decode to capstone's
// mnemonics wherever armasm knows them.
func TestImportOBJDTMatchesText(t *testing.T) {
	src := filepath.Join(qemutest.SamplesDir(), "sieve.c")
	for _, tg := range qemutest.Targets {
		t.Run(tg.Name, func(t *testing.T) {
			bin := qemutest.Build(t, tg, src)
			log := qemutest.Log(t, tg, bin, []string{"-d", "in_asm,exec,nochain"}, "300")
			text := checkedImport(t, []string{log}, guestISAs(tg))
			switch tg.Name {
			case "mips":
				t.Skip("Debian's qemu-mipsel prints no encodings to rebuild OBJD-T bytes from")
			case "x86_64":
				t.Skip("QEMU always has an x86 disassembler of its own, so it never prints x86 code as OBJD-T bytes")
			case "aarch64":
				t.Skip("A64 words: TestImportA64OBJDT")
			}
			objd := filepath.Join(t.TempDir(), "objd.log")
			toOBJDT(t, log, objd)
			got := checkedImport(t, []string{objd}, guestISAs(tg))
			var decoded, same, armWords int
			cat := isaprofiles.CatalogFor(cost.ARM)
			eachOBJDTPair(t, got, text, func(isa cost.ISA, in, want cost.Insn) {
				if isa != cost.ARM {
					if in.Mnemonic != blocks.Undecoded {
						t.Fatalf("%s decoded as %q", isa, in.Mnemonic)
					}
					return
				}
				armWords++
				if in.Mnemonic == blocks.Undecoded {
					return
				}
				decoded++
				// GNU and capstone spell some conditions differently (cs/hs, cc/lo); the
				// catalogue's normalisation, which is what profiles see, agrees.
				if cat.Normalize(in.Mnemonic) == cat.Normalize(want.Mnemonic) {
					same++
				} else {
					t.Errorf("0x%x %s: %s %s, capstone %s %s", in.Addr, in.Encoding, in.Mnemonic, in.Operands, want.Mnemonic, want.Operands)
				}
				if strings.HasPrefix(in.Mnemonic, "b") && strings.HasPrefix(want.Operands, "#0x") && in.Operands != want.Operands {
					t.Errorf("0x%x %s: %s %s, capstone %s %s", in.Addr, in.Encoding, in.Mnemonic, in.Operands, want.Mnemonic, want.Operands)
				}
			})
			if decoded < armWords*8/10 { // NEON loads and stores are unknown to armasm (docs/formats.md#qemu-blocks-given-as-bytes)
				t.Errorf("ARM words: %d, armasm decoded only %d", armWords, decoded)
			}
			t.Logf("ARM words %d, decoded %d, same normalised mnemonic as capstone %d", armWords, decoded, same)
		})
	}
}

// toOBJDT rewrites a capstone in_asm log the way QEMU without a disassembler prints it.
func toOBJDT(t *testing.T, src, dst string) {
	t.Helper()
	in, err := os.Open(src)
	if err != nil {
		t.Fatal(err)
	}
	defer in.Close()
	var out bytes.Buffer
	var code []byte
	var first string
	flush := func() {
		if first == "" {
			return
		}
		out.WriteString(first + ":  ")
		for i, c := range code {
			if i%32 == 0 {
				out.WriteString("\nOBJD-T: ")
			}
			fmt.Fprintf(&out, "%02x", c)
		}
		out.WriteString("\n")
		first, code = "", code[:0]
	}
	sc := bufio.NewScanner(in)
	for sc.Scan() {
		ln := sc.Text()
		addr, rest, ok := strings.Cut(ln, ":  ")
		if !ok || !strings.HasPrefix(ln, "0x") {
			flush()
			out.WriteString(ln + "\n")
			continue
		}
		if first == "" {
			first = addr
		}
		for _, u := range strings.Fields(rest) {
			if !isHexUnit([]byte(u)) {
				break
			}
			var v uint32
			fmt.Sscanf(u, "%x", &v)
			if len(u) == 8 {
				code = append(code, byte(v), byte(v>>8), byte(v>>16), byte(v>>24))
			} else {
				code = append(code, byte(v), byte(v>>8))
			}
		}
	}
	flush()
	if err := os.WriteFile(dst, out.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
}

// QEMU 7.2 names `-D log_%d` files by pid, and with `-d tid` by thread id, one file per guest
// thread. A multi-threaded program logged that way is one process with a thread per vCPU,
// blocks translated in one thread's file and executed in another's included, and its count
// still equals the single-step count over all files.
func TestImportPerThreadFiles(t *testing.T) {
	tg := qemutest.Targets[0]
	qemutest.Require(t, tg.CC, tg.QEMU)
	bin := filepath.Join(t.TempDir(), "threads")
	if b, err := exec.Command(tg.CC, "-O2", "-static", "-pthread", "-marm", "-o", bin, "testdata/threads.c").CombinedOutput(); err != nil {
		t.Fatalf("%s: %v\n%s", tg.CC, err, b)
	}
	run := func(opts ...string) []string { // the logs QEMU wrote, in name order
		dir := t.TempDir()
		args := append(append(opts, "-D", filepath.Join(dir, "threads_%d.log")), bin)
		if b, err := exec.Command(tg.QEMU, args...).CombinedOutput(); err != nil {
			t.Fatalf("%s %v: %v\n%s", tg.QEMU, args, err, b)
		}
		files, _ := filepath.Glob(filepath.Join(dir, "*"))
		return files
	}
	logs := run("-d", "in_asm,exec,nochain,tid")
	var want int64
	for _, f := range run("-singlestep", "-d", "exec,nochain,tid") {
		want += qemutest.TraceLines(t, f)
	}
	if len(logs) != 4 {
		t.Fatalf("want a log per guest thread (4), got %v", logs)
	}
	c := checkedImport(t, logs, guestISAs(tg))
	if got := c.Instructions(); got != want {
		t.Errorf("ImportLogs counted %d instructions, qemu -singlestep %d", got, want)
	}
	main := splitFileNumber(logs[0]).num
	if len(c.Processes) != 1 || c.Processes[0].PID != main || c.Processes[0].Name != "threads" || len(c.Threads) != 4 {
		t.Errorf("processes %+v threads %+v, want one process %d with 4 threads", c.Processes, c.Threads, main)
	}

	// Without tid, `-D threads_%d.log` gives one file named by the pid.
	c = checkedImport(t, run("-d", "in_asm,exec,nochain"), guestISAs(tg))
	if got := c.Instructions(); got != want || len(c.Threads) != 4 {
		t.Errorf("one file: %d instructions (want %d), threads %+v", got, want, c.Threads)
	}
}

// checkedImport imports into a Collector through orderSink and fails the test on any error.
// eachOBJDTPair checks that got, a log's import from OBJD-T bytes, has the blocks, addresses
// and encodings of text, the same log's import from capstone's text, and calls each for every
// instruction of got beside its twin in text, with the block's instruction set.
func eachOBJDTPair(t *testing.T, got, text *bbprofile.Collector, each func(isa cost.ISA, in, want cost.Insn)) {
	t.Helper()
	if got.Instructions() != text.Instructions() || len(got.Blocks) != len(text.Blocks) {
		t.Fatalf("OBJD-T: %d instructions in %d blocks, text: %d in %d", got.Instructions(), len(got.Blocks), text.Instructions(), len(text.Blocks))
	}
	for k, want := range text.Blocks {
		b := got.Blocks[k]
		if b == nil || len(b.Insns) != len(want.Insns) {
			t.Fatalf("block %v: OBJD-T %+v, text %+v", k, b, want)
		}
		for i, in := range b.Insns {
			if in.Encoding != want.Insns[i].Encoding || in.Addr != want.Insns[i].Addr {
				t.Fatalf("block %v insn %d: OBJD-T %+v, text %+v", k, i, in, want.Insns[i])
			}
			each(k.ISA, in, want.Insns[i])
		}
	}
}

func checkedImport(t *testing.T, paths []string, isas []cost.ISA) *bbprofile.Collector {
	t.Helper()
	s := newOrderSink()
	if err := ImportLogs(context.Background(), paths, isas, s, nil); err != nil {
		t.Fatal(err)
	}
	if s.err != nil {
		t.Fatal(s.err)
	}
	return s.Collector
}

// A QEMU built with no A64 disassembler prints OBJD-T bytes. The real AArch64 log, rewritten
// that way and read with no instruction set named, gives the same blocks, encodings and counts
// as its text (the 16-digit Trace line after the first block tells A64 from ARM), arm64asm
// decodes the words, and the catalogue classes them as it classes capstone's text.
func TestImportA64OBJDT(t *testing.T) {
	tg := qemutest.AArch64
	bin := qemutest.Build(t, tg, filepath.Join(qemutest.SamplesDir(), "sieve.c"))
	log := qemutest.Log(t, tg, bin, []string{"-d", "in_asm,exec,nochain"}, "300")
	text := checkedImport(t, []string{log}, nil)
	objd := filepath.Join(t.TempDir(), "objd.log")
	toOBJDT(t, log, objd)
	got := checkedImport(t, []string{objd}, nil)
	var words, decoded, sameClass int
	eachOBJDTPair(t, got, text, func(_ cost.ISA, in, want cost.Insn) {
		words++
		if in.Mnemonic != blocks.Undecoded {
			decoded++
		}
		if in.Class == want.Class {
			sameClass++
		}
	})
	if decoded < words*99/100 || sameClass < words*95/100 {
		t.Errorf("A64 words: %d, arm64asm decoded %d, classed as capstone's text %d", words, decoded, sameClass)
	}
	t.Logf("A64 words %d, decoded %d, same class as capstone's text %d", words, decoded, sameClass)
}

// QEMU hands capstone a block's code 1 KiB at a time, and capstone (with SKIPDATA) prints an
// x86 instruction across that boundary as ".byte" lines, then decodes out of step for a few
// instructions: a real program with blocks of more than 1 KiB still imports with QEMU's own
// count, capstone's text kept where it is in step.
func TestImportX86SkippedBytes(t *testing.T) {
	tg := qemutest.X86_64
	bin := qemutest.Build(t, tg, "testdata/longblocks.c")
	log := qemutest.Log(t, tg, bin, []string{"-d", "in_asm,exec,nochain"}, "3")
	want := qemutest.SinglestepCount(t, tg, bin, nil, "3")
	if text := string(must(os.ReadFile(log))); !strings.Contains(text, ".byte") {
		t.Fatal("QEMU printed no skipped bytes: the program no longer has an instruction across 1 KiB of a block; make its blocks longer")
	}
	c := checkedImport(t, []string{log}, nil)
	if got := c.Instructions(); got != want {
		t.Errorf("ImportLogs counted %d instructions, qemu -singlestep %d", got, want)
	}
	for _, b := range c.Blocks {
		checkLaidEndToEnd(t, b)
		for _, in := range b.Insns {
			if in.Mnemonic == skipped {
				t.Errorf("block 0x%x keeps %+v", b.PC, in)
			}
		}
	}
}
