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
	if tg.Name == "mips" {
		return []cost.ISA{cost.MIPS}
	}
	return []cost.ISA{cost.ARM, cost.Thumb}
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
			if tg.Name == "mips" {
				t.Skip("Debian's qemu-mipsel prints no encodings to rebuild OBJD-T bytes from")
			}
			objd := filepath.Join(t.TempDir(), "objd.log")
			toOBJDT(t, log, objd)
			got := checkedImport(t, []string{objd}, guestISAs(tg))
			if got.Instructions() != text.Instructions() || len(got.Blocks) != len(text.Blocks) {
				t.Fatalf("OBJD-T: %d instructions in %d blocks, text: %d in %d", got.Instructions(), len(got.Blocks), text.Instructions(), len(text.Blocks))
			}
			var decoded, same, armWords int
			cat := isaprofiles.CatalogFor(cost.ARM)
			for k, want := range text.Blocks {
				b := got.Blocks[k]
				if b == nil || len(b.Insns) != len(want.Insns) {
					t.Fatalf("block %v: OBJD-T %+v, text %+v", k, b, want)
				}
				for i, in := range b.Insns {
					if in.Encoding != want.Insns[i].Encoding || in.Addr != want.Insns[i].Addr {
						t.Fatalf("block %v insn %d: OBJD-T %+v, text %+v", k, i, in, want.Insns[i])
					}
					if k.ISA != cost.ARM {
						if in.Mnemonic != blocks.Undecoded {
							t.Fatalf("%s decoded as %q", k.ISA, in.Mnemonic)
						}
						continue
					}
					armWords++
					if in.Mnemonic != blocks.Undecoded {
						decoded++
						// GNU and capstone spell some conditions differently (cs/hs, cc/lo); the
						// catalogue's normalisation, which is what profiles see, agrees.
						if cat.Normalize(in.Mnemonic) == cat.Normalize(want.Insns[i].Mnemonic) {
							same++
						} else {
							t.Errorf("0x%x %s: %s %s, capstone %s %s", in.Addr, in.Encoding, in.Mnemonic, in.Operands, want.Insns[i].Mnemonic, want.Insns[i].Operands)
						}
						if strings.HasPrefix(in.Mnemonic, "b") && strings.HasPrefix(want.Insns[i].Operands, "#0x") && in.Operands != want.Insns[i].Operands {
							t.Errorf("0x%x %s: %s %s, capstone %s %s", in.Addr, in.Encoding, in.Mnemonic, in.Operands, want.Insns[i].Mnemonic, want.Insns[i].Operands)
						}
					}
				}
			}
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
