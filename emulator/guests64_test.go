package emulator

import (
	"bytes"
	"context"
	"errors"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"

	"androprof/emulator/qemutest"
	"androprof/formats/bbprofile"
	"androprof/model/cost"
)

// targets64 are the 64-bit guests of issue 26 (an x86-64 program runs under qemu-x86_64 even
// on this x86-64 host), each with the instruction set its blocks must carry.
var targets64 = []struct {
	tg  qemutest.Target
	isa cost.ISA
}{{qemutest.AArch64, cost.AArch64}, {qemutest.X86_64, cost.X86_64}}

// checkGuest checks what every run of a 64-bit guest must show: one ISA on every block, each
// instruction's encoding in the units the catalogues read, and system calls named by the
// guest's own table (the process line's target chose it).
func checkGuest(t *testing.T, c *bbprofile.Collector, isa cost.ISA) {
	t.Helper()
	checkNamedSyscalls(t, c, "exit_group")
	for k, b := range c.Blocks {
		if k.ISA != isa {
			t.Fatalf("block 0x%x is %s, want %s", k.PC, k.ISA, isa)
		}
		for _, in := range b.Insns {
			// AArch64: one little-endian word as QEMU prints it; x86-64: 1–15 bytes, no spaces.
			if isa == cost.AArch64 && len(in.Encoding) != 8 || isa == cost.X86_64 && (len(in.Encoding) < 2 || len(in.Encoding) > 30 || strings.Contains(in.Encoding, " ")) {
				t.Fatalf("block 0x%x: instruction %+v has encoding %q", k.PC, in, in.Encoding)
			}
		}
	}
}

// A fork and two threads on each 64-bit guest, statically and dynamically linked: the child is
// its own process and the two add up to -singlestep's count of both; the workers' function is
// credited to the two workers alike (checkWorkers), and each thread's system calls are named.
func TestRun64ForkAndThreads(t *testing.T) {
	for _, g := range targets64 {
		d := dynTargetOf(t, g.tg)
		for _, linking := range []string{"static", "dynamic"} {
			build := func(t *testing.T, sample string) string {
				if linking == "static" {
					return qemutest.Build(t, g.tg, filepath.Join(qemutest.SamplesDir(), sample))
				}
				return buildDynamic(t, d, sample)
			}
			t.Run(g.tg.Name+"/"+linking+"/fork", func(t *testing.T) {
				bin := build(t, "forker.c")
				var out bytes.Buffer
				c, err := runCollect(t, RunOptions{Program: bin, Args: []string{"20000"}, Stdout: &out})
				if err != nil {
					t.Fatalf("%v\n%s", err, out.String())
				}
				if len(c.Processes) != 2 || c.Processes[1].ParentPID != c.Processes[0].PID {
					t.Fatalf("processes = %+v", c.Processes)
				}
				var opts []string
				if linking == "dynamic" {
					opts = d.qemuOpts()
				}
				want := qemutest.SinglestepCount(t, g.tg, bin, opts, "20000")
				if c.Instructions() != want {
					t.Errorf("plugin counted %d instructions in both processes, -singlestep %d", c.Instructions(), want)
				}
				t.Logf("%s %s fork: plugin %d instructions (two processes), -singlestep %d", g.tg.Name, linking, c.Instructions(), want)
				checkGuest(t, c, g.isa)
				checkNamedSyscalls(t, c, "wait4")
			})
			t.Run(g.tg.Name+"/"+linking+"/threads", func(t *testing.T) {
				bin := build(t, "threads.c")
				for _, n := range []int64{100000, 10} {
					c, err := runCollect(t, RunOptions{Program: bin, Args: []string{strconv.FormatInt(n, 10)}, Stdout: io.Discard})
					if err != nil {
						t.Fatal(err)
					}
					checkWorkers(t, c, n)
					checkGuest(t, c, g.isa)
					checkNamedSyscalls(t, c, "exit")
					if linking == "dynamic" {
						checkImageSums(t, c)
					}
				}
			})
		}
	}
}

// dynTargetOf finds the dynamically linked configuration of a target in dynTargets.
func dynTargetOf(t *testing.T, tg qemutest.Target) dynTarget {
	t.Helper()
	for _, d := range dynTargets {
		if d.tg.Name == tg.Name {
			return d
		}
	}
	t.Fatalf("no dynamic target %s", tg.Name)
	return dynTarget{}
}

// checkNamedSyscalls: every system call has its kernel name, and the named ones were made.
func checkNamedSyscalls(t *testing.T, c *bbprofile.Collector, names ...string) {
	t.Helper()
	made := map[string]bool{}
	for _, s := range c.Syscalls {
		if s.Name == "" || strings.HasPrefix(s.Name, "syscall_") {
			t.Errorf("system call %d has no name: %+v", s.Number, s)
		}
		made[s.Name] = true
	}
	for _, n := range names {
		if !made[n] {
			t.Errorf("no %s among the system calls %+v", n, c.Syscalls)
		}
	}
}

// checkImageSums: the images' instructions add up to each process's, and no block is left
// without a name.
func checkImageSums(t *testing.T, c *bbprofile.Collector) {
	t.Helper()
	perImage := map[string]int64{}
	for k, n := range c.Counts {
		b := c.Blocks[k.BlockKey]
		if b.Image == "" || b.Symbol == "" {
			t.Errorf("block 0x%x: image %q, symbol %q", b.PC, b.Image, b.Symbol)
		}
		perImage[b.Image] += n * int64(len(b.Insns))
	}
	var sum int64
	for _, n := range perImage {
		sum += n
	}
	if sum != c.Instructions() {
		t.Errorf("images add up to %d, the run counted %d (%v)", sum, c.Instructions(), perImage)
	}
}

// A guest the plugin does not know (32-bit x86, RISC-V) is refused: by the runner before QEMU
// starts, and by the plugin itself with a sentence and exit status 1, never a crash (the
// plugin once read the missing target name and died of SIGSEGV under qemu-aarch64).
func TestRunUnsupportedGuest(t *testing.T) {
	for _, u := range []struct {
		qemu    string
		machine elfMachine
		class64 bool
		kind    string
	}{
		{"qemu-i386", emI386, false, "32-bit 386"},
		{"qemu-riscv64", emRISCV, true, "64-bit RISCV"},
	} {
		t.Run(u.qemu, func(t *testing.T) {
			prog := elfHeader(t, u.machine, false, u.class64)
			err := Run(context.Background(), RunOptions{Program: prog, CacheDir: t.TempDir()}, bbprofile.NewCollector(), nil)
			if err == nil || !strings.Contains(err.Error(), "is a "+u.kind+" program") || !strings.Contains(err.Error(), "AArch64 and x86-64") {
				t.Errorf("Run: %v", err)
			}
			err = Run(context.Background(), RunOptions{Program: prog, Arch: u.qemu, CacheDir: t.TempDir()}, bbprofile.NewCollector(), nil)
			if err == nil || !strings.Contains(err.Error(), "unknown guest architecture") {
				t.Errorf("Run --arch %s: %v", u.qemu, err)
			}

			qemutest.Require(t, "gcc", u.qemu)
			plugin, err := BuildPlugin(testCacheDir)
			if err != nil {
				t.Fatal(err)
			}
			cmd := exec.Command(u.qemu, "-plugin", plugin+",outdir="+t.TempDir(), prog)
			var stderr bytes.Buffer
			cmd.Stderr = &stderr
			err = cmd.Run()
			var ee *exec.ExitError
			if !errors.As(err, &ee) {
				t.Fatalf("%s with the plugin: %v, want a refusal", u.qemu, err)
			}
			if ws, ok := ee.Sys().(syscall.WaitStatus); ok && ws.Signaled() {
				t.Fatalf("%s with the plugin died of %v:\n%s", u.qemu, ws.Signal(), stderr.String())
			}
			target := strings.TrimPrefix(u.qemu, "qemu-")
			if want := "bbcount plugin: unsupported guest " + target + ":"; !strings.Contains(stderr.String(), want) {
				t.Errorf("stderr %q lacks %q", stderr.String(), want)
			}
		})
	}
}

// QEMU 7.2's x86 translator lists an instruction that crosses a page end in the block before it
// although that block does not run it, and runs each REP string instruction once more than
// -singlestep counts it; the plugin corrects both (bbcount.c, "x86: instructions QEMU lists but
// does not run"). testdata/x86habits.c does both in three threads (the main one inline-counted,
// the workers per thread): each thread's instructions in crosspage() and reps() are the same,
// and together what -singlestep counts there.
func TestRunX86Habits(t *testing.T) {
	bin := qemutest.Build(t, qemutest.X86_64, filepath.Join("testdata", "x86habits.c"))
	const rounds = "300"
	c, err := runCollect(t, RunOptions{Program: bin, Args: []string{rounds}, Stdout: io.Discard})
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]map[int]int64{} // function → thread → instructions
	for k, n := range c.Counts {
		b := c.Blocks[k.BlockKey]
		if got[b.Symbol] == nil {
			got[b.Symbol] = map[int]int64{}
		}
		got[b.Symbol][k.TID] += n * int64(len(b.Insns))
	}
	want := traceBySymbol(t, qemutest.Log(t, qemutest.X86_64, bin, []string{"-singlestep", "-d", "exec,nochain"}, rounds))
	for _, fn := range []string{"crosspage", "reps"} {
		var sum int64
		for _, n := range got[fn] {
			sum += n
		}
		if len(got[fn]) != 3 || sum != want[fn] || sum%3 != 0 {
			t.Errorf("%s: plugin %d instructions by thread %v, -singlestep %d", fn, sum, got[fn], want[fn])
		}
		for tid, n := range got[fn] {
			if n != sum/3 {
				t.Errorf("%s: thread %d ran %d instructions, want a third of %d", fn, tid, n, sum)
			}
		}
		t.Logf("%s: plugin %d instructions (%v by thread), -singlestep %d", fn, sum, got[fn], want[fn])
	}
}

// traceBySymbol counts a -d exec log's Trace lines by the symbol QEMU ends each with.
func traceBySymbol(t *testing.T, log string) map[string]int64 {
	t.Helper()
	data, err := os.ReadFile(log)
	if err != nil {
		t.Fatal(err)
	}
	n := map[string]int64{}
	for _, ln := range strings.Split(string(data), "\n") {
		if _, sym, ok := strings.Cut(ln, "] "); ok && strings.HasPrefix(ln, "Trace ") {
			n[sym]++
		}
	}
	return n
}
