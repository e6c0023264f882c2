package emulator

import (
	"bufio"
	"bytes"
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"androprof/emulator/qemutest"
	"androprof/formats/bbprofile"
	"androprof/internal/proc"
	"androprof/model"
	"androprof/model/cost"
)

// testCacheDir keeps the built plugin between test runs (its name carries the source hash).
var testCacheDir = filepath.Join(os.TempDir(), "androprof-test-plugin")

func runCollect(t testing.TB, opts RunOptions) (*bbprofile.Collector, error) {
	t.Helper()
	qemutest.Require(t, "gcc")
	if opts.CacheDir == "" {
		opts.CacheDir = testCacheDir
	}
	c := bbprofile.NewCollector()
	err := Run(context.Background(), opts, c, func(s string) { t.Logf("progress: %s", s) })
	return c, err
}

// modesFromExecLog reads QEMU's own ARM/Thumb flag for every executed block start
// (docs/formats.md#qemu-execution-lines: bit 0x00800000 of the first bracketed field on 7.2), the truth the plugin cannot see.
func modesFromExecLog(t *testing.T, tg qemutest.Target, qemuOpts []string, bin string, args ...string) map[uint64]cost.ISA {
	t.Helper()
	log := qemutest.Log(t, tg, bin, append([]string{"-d", "exec,nochain"}, qemuOpts...), args...)
	f, err := os.Open(log)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	modes := map[uint64]cost.ISA{}
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		ln := sc.Text()
		open, end := strings.IndexByte(ln, '['), strings.IndexByte(ln, ']')
		if !strings.HasPrefix(ln, "Trace ") || open < 0 || end < open {
			continue
		}
		fields := strings.Split(ln[open+1:end], "/")
		if len(fields) != 4 {
			t.Fatalf("%s: not a QEMU 7.2 Trace line: %q", log, ln)
		}
		flags, err1 := strconv.ParseUint(fields[0], 16, 32)
		pc, err2 := strconv.ParseUint(fields[1], 16, 64)
		if err1 != nil || err2 != nil {
			t.Fatalf("%s: %q", log, ln)
		}
		modes[pc] = cost.ARM
		if flags&0x00800000 != 0 {
			modes[pc] = cost.Thumb
		}
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return modes
}

// The definition of done: through the plugin runner, the dynamic instruction count of
// a run equals the Trace lines of `-singlestep -d exec,nochain`, for ARM, Thumb, MIPS, AArch64
// and x86-64 builds.
func TestRunExactCounts(t *testing.T) {
	src := filepath.Join(qemutest.SamplesDir(), "sieve.c")
	for _, tg := range qemutest.Targets {
		t.Run(tg.Name, func(t *testing.T) {
			bin := qemutest.Build(t, tg, src)
			keep := t.TempDir()
			var out bytes.Buffer
			c, err := runCollect(t, RunOptions{Program: bin, Args: []string{"3000"}, KeepDir: keep, Stdout: &out})
			if err != nil {
				t.Fatal(err)
			}
			if !strings.Contains(out.String(), "primes below 3000: 430") {
				t.Errorf("guest output %q", out.String())
			}
			want := qemutest.SinglestepCount(t, tg, bin, nil, "3000")
			if got := c.Instructions(); got != want {
				t.Errorf("plugin counted %d instructions, qemu -singlestep %d", got, want)
			}
			t.Logf("%s: plugin %d instructions, -singlestep %d", tg.Name, c.Instructions(), want)
			if len(c.Processes) != 1 || c.Processes[0].ParentPID != 0 || c.Processes[0].Name != filepath.Base(bin) {
				t.Errorf("processes = %+v", c.Processes)
			}
			pid := c.Processes[0].PID
			if len(c.Threads) != 1 || c.Threads[0] != (model.Thread{PID: pid, TID: pid}) {
				t.Errorf("threads = %+v", c.Threads)
			}

			// The raw file is kept and reads back to the same total.
			kept, err := filepath.Glob(filepath.Join(keep, "bbprofile-*.txt"))
			if err != nil || len(kept) != 1 {
				t.Fatalf("kept %v, %v", kept, err)
			}
			f, err := os.Open(kept[0])
			if err != nil {
				t.Fatal(err)
			}
			defer f.Close()
			again := bbprofile.NewCollector()
			if err := bbprofile.NewReader(f, kept[0]).Feed(again); err != nil {
				t.Fatal(err)
			}
			if again.Instructions() != want {
				t.Errorf("kept file counts %d", again.Instructions())
			}
			for _, g := range targets64 {
				if g.tg.Name == tg.Name {
					checkGuest(t, c, g.isa)
				}
			}
			if tg.QEMU != "qemu-arm" {
				return // only ARM programs mix two instruction sets
			}

			// Instruction sets agree with QEMU's own flag, block by block.
			truth := modesFromExecLog(t, tg, nil, bin, "3000")
			isas := map[cost.ISA]int{}
			for k := range c.Blocks {
				isas[k.ISA]++
				if want, ok := truth[k.PC]; ok && want != k.ISA {
					t.Errorf("block 0x%x: runner says %s, QEMU %s", k.PC, k.ISA, want)
				}
			}
			if tg.Name == "arm" && (isas[cost.ARM] == 0 || isas[cost.Thumb] == 0) {
				// main is ARM, Debian's static glibc Thumb-2 (docs/formats.md#arm-and-thumb)
				t.Errorf("blocks by instruction set = %v, want both", isas)
			}
			t.Logf("blocks by instruction set: %v", isas)
		})
	}
}

// Without the ELF's symbols (a stripped program), steps 2 and 3 of the format's rule decide:
// on the real ARM build they must agree with QEMU's flag on every block.
func TestGuessARMISA(t *testing.T) {
	tg := qemutest.Targets[0]
	bin := qemutest.Build(t, tg, filepath.Join(qemutest.SamplesDir(), "sieve.c"))
	stripped := bin + "-stripped"
	qemutest.Require(t, "arm-linux-gnueabihf-strip")
	if msg, err := exec.Command("arm-linux-gnueabihf-strip", "-o", stripped, bin).CombinedOutput(); err != nil {
		t.Fatalf("strip: %v\n%s", err, msg)
	}
	if m, err := LoadELFModes(stripped); err != nil || len(m.marks) != 0 {
		t.Fatalf("stripped program still has %v modes (%v)", m, err)
	}
	c, err := runCollect(t, RunOptions{Program: stripped, Args: []string{"3000"}})
	if err != nil {
		t.Fatal(err)
	}
	truth := modesFromExecLog(t, tg, nil, stripped, "3000")
	checked, long := 0, 0
	for k, b := range c.Blocks {
		short := false
		for _, in := range b.Insns {
			short = short || len(in.Encoding) == 4
		}
		if !short {
			long++
		}
		want, ok := truth[k.PC]
		if !ok {
			continue // the two runs need not start blocks at the same addresses
		}
		checked++
		if want != k.ISA {
			t.Errorf("block 0x%x %s %+v: guessed %s, QEMU says %s", k.PC, b.Symbol, b.Insns, k.ISA, want)
		}
	}
	if checked < len(c.Blocks)*9/10 {
		t.Errorf("only %d of %d blocks start where the exec log's do", checked, len(c.Blocks))
	}
	t.Logf("%d blocks, %d with only 4-byte instructions (decided by step 3), %d checked against QEMU", len(c.Blocks), long, checked)
}

// A dynamically linked PIE program (Debian's default) runs with the cross sysroot as -L, its
// symbols are relocated to where QEMU loaded it, and the shared libraries' blocks, which no
// symbols cover, are decided by their encodings; counts stay exact.
func TestRunDynamicPIE(t *testing.T) {
	tg := qemutest.Targets[0]
	qemutest.Require(t, tg.CC, tg.QEMU)
	root := "/usr/arm-linux-gnueabihf"
	if _, err := os.Stat(filepath.Join(root, "lib", "ld-linux-armhf.so.3")); err != nil {
		t.Skipf("no ARM sysroot: %v", err)
	}
	bin := filepath.Join(t.TempDir(), "sieve-pie")
	src := filepath.Join(qemutest.SamplesDir(), "sieve.c")
	if msg, err := exec.Command(tg.CC, "-O2", "-marm", "-fPIE", "-pie", "-o", bin, src).CombinedOutput(); err != nil {
		t.Fatalf("%v\n%s", err, msg)
	}
	// Output to a pipe, as in the -singlestep run: glibc sizes stdout's buffer from fstat, so
	// /dev/null would take a slightly different path.
	c, err := runCollect(t, RunOptions{Program: bin, Args: []string{"3000"}, Stdout: io.Discard})
	if err != nil {
		t.Fatal(err)
	}
	if want := qemutest.SinglestepCount(t, tg, bin, []string{"-L", root}, "3000"); c.Instructions() != want {
		t.Errorf("plugin counted %d instructions, -singlestep %d", c.Instructions(), want)
	}
	truth := modesFromExecLog(t, tg, []string{"-L", root}, bin, "3000")
	checked, arm := 0, 0
	for k := range c.Blocks {
		if k.ISA == cost.ARM {
			arm++
		}
		if want, ok := truth[k.PC]; ok {
			checked++
			if want != k.ISA {
				t.Errorf("block 0x%x: runner says %s, QEMU %s", k.PC, k.ISA, want)
			}
		}
	}
	if arm == 0 || checked < len(c.Blocks)*9/10 {
		t.Errorf("%d ARM blocks, %d of %d checked", arm, checked, len(c.Blocks))
	}
}

// A forked child is its own process with the right parent, and the two add up to what
// -singlestep counts for both (they share its log file).
func TestRunFork(t *testing.T) {
	tg := qemutest.Targets[0]
	bin := qemutest.Build(t, tg, filepath.Join(qemutest.SamplesDir(), "forker.c"))
	var out bytes.Buffer
	c, err := runCollect(t, RunOptions{Program: bin, Args: []string{"20000"}, Stdout: &out})
	if err != nil {
		t.Fatalf("%v\n%s", err, out.String())
	}
	if len(c.Processes) != 2 {
		t.Fatalf("processes = %+v", c.Processes)
	}
	parent, child := c.Processes[0], c.Processes[1]
	if parent.ParentPID != 0 || child.ParentPID != parent.PID || child.PID == parent.PID {
		t.Errorf("parent %+v, child %+v", parent, child)
	}
	perPID := map[int]int64{}
	for k, n := range c.Counts {
		perPID[k.PID] += n * int64(len(c.Blocks[k.BlockKey].Insns))
		if k.TID != k.PID {
			t.Errorf("thread %d in process %d", k.TID, k.PID)
		}
	}
	if perPID[child.PID] < 20000*4 || perPID[parent.PID] == 0 {
		t.Errorf("instructions per process = %v", perPID)
	}
	if want := qemutest.SinglestepCount(t, tg, bin, nil, "20000"); c.Instructions() != want {
		t.Errorf("plugin counted %d instructions in both processes, -singlestep %d", c.Instructions(), want)
	}
}

// Per-thread counts are exact at any load: every block is credited to the thread that ran it.
// The test stresses the moment the plugin switches from one shared counter to per-thread
// counting (bbcount.c, "Counting has two modes"): a worker short enough to end before the
// switch, and threads that end their whole process before QEMU gets to flush.
func TestRunThreads(t *testing.T) {
	t.Run("workers", func(t *testing.T) {
		tg := qemutest.Targets[0]
		bin := qemutest.Build(t, tg, filepath.Join(qemutest.SamplesDir(), "threads.c"))
		// glibc's start-up reads every environment variable (about 570 instructions each on
		// ARM), so the main thread's total grows with the environment: a larger one than the
		// usual shell's, as under a CI runner, must not change the verdict.
		for i := range 20 {
			t.Setenv(fmt.Sprintf("ANDROPROF_TEST_PAD%d", i), "x")
		}
		for _, n := range []int64{100000, 3000, 10} {
			c, err := runCollect(t, RunOptions{Program: bin, Args: []string{strconv.FormatInt(n, 10)}})
			if err != nil {
				t.Fatal(err)
			}
			checkWorkers(t, c, n)
		}
	})
	t.Run("a thread ends its process before the switch", func(t *testing.T) {
		tg := qemutest.Targets[0]
		bin := qemutest.Build(t, tg, filepath.Join("testdata", "threadexit.c"))
		const children = 200
		c, err := runCollect(t, RunOptions{Program: bin, Args: []string{strconv.Itoa(children)}})
		if err != nil {
			t.Fatal(err)
		}
		checkThreadExit(t, c, children)
	})
}

// checkWorkers checks a run of assets/samples/threads.c: the workers' function is credited
// to the two workers alone, the same to the instruction, and main's only to the main thread.
// (The main thread's own total depends on the environment's size, glibc's start-up reads every
// variable, so it is not compared with a worker's.)
func checkWorkers(t *testing.T, c *bbprofile.Collector, n int64) {
	t.Helper()
	if len(c.Processes) != 1 || len(c.Threads) != 3 {
		t.Fatalf("n=%d: processes %+v threads %+v", n, c.Processes, c.Threads)
	}
	pid := c.Processes[0].PID
	work := map[int]int64{} // instructions in work() per thread
	for k, e := range c.Counts {
		b := c.Blocks[k.BlockKey]
		insns := e * int64(len(b.Insns))
		switch {
		case b.Symbol == "work":
			work[k.TID] += insns
		case (b.Symbol == "main" || b.Symbol == "__libc_start_main") && k.TID != pid:
			t.Errorf("n=%d: thread %d ran %d instructions of %s, the main thread's", n, k.TID, insns, b.Symbol)
		}
	}
	if work[pid] != 0 || len(work) != 2 {
		t.Fatalf("n=%d: instructions in work() per thread = %v (main thread %d)", n, work, pid)
	}
	var each []int64
	for _, w := range work {
		each = append(each, w)
	}
	if each[0] != each[1] || each[0] < n*4 {
		t.Errorf("n=%d: the two workers ran work() for %v instructions, want the same, at least %d", n, each, n*4)
	}
}

// checkThreadExit checks a run of testdata/threadexit.c: in every child process, the thread
// that ended it is listed and quit() is credited to it, never to the process's main thread.
func checkThreadExit(t *testing.T, c *bbprofile.Collector, children int) {
	t.Helper()
	if len(c.Processes) != children+1 {
		t.Fatalf("%d processes, want %d", len(c.Processes), children+1)
	}
	threads := map[int]int{}
	for _, th := range c.Threads {
		threads[th.PID]++
	}
	quit := map[int]int64{}   // executions of quit()'s blocks by the child's worker
	wrong := map[int]string{} // child process → what is wrong
	for k, e := range c.Counts {
		switch {
		case c.Blocks[k.BlockKey].Symbol != "quit":
		case k.TID == k.PID:
			wrong[k.PID] = fmt.Sprintf("its main thread ran quit()'s block 0x%x %d times", k.PC, e)
		default:
			quit[k.PID] += e
		}
	}
	for _, p := range c.Processes {
		if p.ParentPID == 0 {
			continue // the parent, which only forks and waits
		}
		if threads[p.PID] != 2 || quit[p.PID] == 0 {
			wrong[p.PID] += fmt.Sprintf("; %d thread(s), quit() by its worker %d times", threads[p.PID], quit[p.PID])
		}
	}
	for pid, why := range wrong {
		t.Logf("process %d: %s", pid, why)
	}
	if len(wrong) > 0 {
		t.Errorf("%d of %d threads that ended their process were not counted as themselves", len(wrong), children)
	}
}

// A guest that dies of SIGSEGV: a clear error naming the program and the signal, and the
// profile up to the crash still reaches the sink.
func TestRunCrash(t *testing.T) {
	tg := qemutest.Targets[0]
	bin := qemutest.Build(t, tg, filepath.Join(qemutest.SamplesDir(), "crash.c"))
	c, err := runCollect(t, RunOptions{Program: bin})
	var pe *proc.ExitError
	if !errors.As(err, &pe) {
		t.Fatalf("got %v, want a *proc.ExitError", err)
	}
	if pe.Program != filepath.Base(bin) || !strings.HasPrefix(pe.Signal, "SIGSEGV") || pe.ExitCode != -1 || pe.Imported != 1 {
		t.Errorf("error = %+v", pe)
	}
	msg := err.Error()
	for _, want := range []string{filepath.Base(bin), "SIGSEGV", "qemu-arm", "uncaught target signal 11"} {
		if !strings.Contains(msg, want) {
			t.Errorf("message %q lacks %q", msg, want)
		}
	}
	t.Log(msg)
	// 1000 loop iterations ran before the crash.
	if len(c.Processes) != 1 || c.Instructions() < 1000*3 {
		t.Errorf("processes %+v, instructions %d", c.Processes, c.Instructions())
	}
}

// A program's own failure (sieve's usage error, status 2) is reported with its status.
func TestRunExitStatus(t *testing.T) {
	bin := qemutest.Build(t, qemutest.Targets[2], filepath.Join(qemutest.SamplesDir(), "sieve.c"))
	var stderr bytes.Buffer
	c, err := runCollect(t, RunOptions{Program: bin, Args: []string{"1"}, Stderr: &stderr})
	var pe *proc.ExitError
	if !errors.As(err, &pe) || pe.ExitCode != 2 || pe.Signal != "" || pe.Imported != 1 {
		t.Fatalf("got %v", err)
	}
	if !strings.Contains(err.Error(), "exited with status 2") || !strings.Contains(stderr.String(), "usage: sieve") {
		t.Errorf("error %q, guest stderr %q", err, stderr.String())
	}
	if c.Instructions() == 0 {
		t.Error("nothing imported")
	}
}

// A big-endian MIPS program (no libc: the cross compiler has no big-endian one) picks
// qemu-mips, reads big-endian encodings, and counts exactly.
func TestRunBigEndianMIPS(t *testing.T) {
	tg := qemutest.Target{Name: "mipseb", CC: "mipsel-linux-gnu-gcc", Flags: []string{"-EB", "-nostdlib"}, QEMU: "qemu-mips"}
	bin := qemutest.Build(t, tg, filepath.Join("testdata", "mips-be.c"))
	if arch, err := GuestArch(bin); err != nil || arch != "mips" {
		t.Fatalf("GuestArch = %q, %v", arch, err)
	}
	c, err := runCollect(t, RunOptions{Program: bin})
	if err != nil {
		t.Fatal(err)
	}
	if want := qemutest.SinglestepCount(t, tg, bin, nil); c.Instructions() != want {
		t.Errorf("plugin counted %d, -singlestep %d", c.Instructions(), want)
	}
	found := false
	for _, b := range c.Blocks {
		for _, in := range b.Insns {
			if in.Mnemonic == "addiu" && strings.HasPrefix(in.Operands, "sp,sp,") {
				found = true
				if !strings.HasPrefix(in.Encoding, "27bd") { // addiu sp,sp,imm = 0x27bdxxxx
					t.Errorf("addiu sp encoded %q", in.Encoding)
				}
			}
		}
	}
	if !found {
		t.Error("no addiu sp,sp in the program")
	}
}

// elfHeader writes the 52-byte header of a 32-bit ELF executable (or 64-bit when class64),
// enough for the runner's choice of qemu.
func elfHeader(t *testing.T, machine elfMachine, big, class64 bool) string {
	t.Helper()
	var bo binary.AppendByteOrder = binary.LittleEndian
	h := []byte{0x7f, 'E', 'L', 'F', 1, 1, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0}
	if class64 {
		h[4] = 2
	}
	if big {
		h[5], bo = 2, binary.BigEndian
	}
	h = bo.AppendUint16(h, 2) // ET_EXEC
	h = bo.AppendUint16(h, uint16(machine))
	h = bo.AppendUint32(h, 1)
	if class64 {
		h = bo.AppendUint64(h, 0)                 // entry
		h = bo.AppendUint64(h, 0)                 // phoff
		h = bo.AppendUint64(h, 0)                 // shoff
		h = bo.AppendUint32(h, 0)                 // flags
		h = bo.AppendUint16(h, 64)                // ehsize
		h = append(h, make([]byte, 64-len(h))...) // no program or section headers
	} else {
		h = bo.AppendUint32(h, 0)
		h = bo.AppendUint32(h, 0)
		h = bo.AppendUint32(h, 0)
		h = bo.AppendUint32(h, 0)
		h = bo.AppendUint16(h, 52)
		h = append(h, make([]byte, 52-len(h))...)
	}
	p := filepath.Join(t.TempDir(), "prog")
	if err := os.WriteFile(p, h, 0o755); err != nil {
		t.Fatal(err)
	}
	return p
}

type elfMachine uint16

const (
	emI386    elfMachine = 3
	emMIPS    elfMachine = 8
	emARM     elfMachine = 40
	emX8664   elfMachine = 62
	emAArch64 elfMachine = 183
	emRISCV   elfMachine = 243
)

func TestGuestArch(t *testing.T) {
	for _, tc := range []struct {
		machine      elfMachine
		big, class64 bool
		want         string
	}{
		{emARM, false, false, "arm"}, {emARM, true, false, "armeb"}, {emMIPS, false, false, "mipsel"}, {emMIPS, true, false, "mips"},
		{emAArch64, false, true, "aarch64"}, {emX8664, false, true, "x86_64"},
	} {
		if got, err := GuestArch(elfHeader(t, tc.machine, tc.big, tc.class64)); err != nil || got != tc.want {
			t.Errorf("machine %d big %v 64-bit %v: %q, %v", tc.machine, tc.big, tc.class64, got, err)
		}
	}
	for _, tc := range []struct {
		machine      elfMachine
		big, class64 bool
		kind         string
	}{
		{emI386, false, false, "32-bit 386"}, {emRISCV, false, true, "64-bit RISCV"},
		{emAArch64, true, true, "64-bit AARCH64 big-endian"}, {emX8664, false, false, "32-bit X86_64"},
		{emARM, false, true, "64-bit ARM"},
	} {
		prog := elfHeader(t, tc.machine, tc.big, tc.class64)
		_, err := GuestArch(prog)
		if err == nil || !strings.Contains(err.Error(), prog) || !strings.Contains(err.Error(), "is a "+tc.kind+" program: androprof runs 32-bit ARM and MIPS, and 64-bit AArch64 and x86-64") {
			t.Errorf("%s: %v", tc.kind, err)
		}
	}
	text := filepath.Join(t.TempDir(), "script.sh")
	os.WriteFile(text, []byte("#!/bin/sh\necho hi\n"), 0o755)
	if _, err := GuestArch(text); err == nil || !strings.Contains(err.Error(), text) || !strings.Contains(err.Error(), "not an ELF program (it starts with #!: a script)") ||
		strings.Contains(err.Error(), "magic") {
		t.Errorf("script: %v", err) // Go's "bad magic number '[35 33 47 98]'" is no sentence for a person
	}
	if _, err := GuestArch(filepath.Join(t.TempDir(), "missing")); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("missing: %v", err)
	}
}

func TestRunMissingQEMU(t *testing.T) {
	prog := elfHeader(t, emARM, false, false)
	t.Setenv("PATH", t.TempDir())
	err := Run(context.Background(), RunOptions{Program: prog, CacheDir: t.TempDir()}, bbprofile.NewCollector(), nil)
	var mt *proc.MissingToolError
	if !errors.As(err, &mt) || mt.Tool != "qemu-arm" || mt.Package != "qemu-user" {
		t.Fatalf("got %v", err)
	}
	if msg := err.Error(); !strings.Contains(msg, "qemu-arm is not installed") || !strings.Contains(msg, "apt-get install qemu-user") {
		t.Errorf("message %q", msg)
	}
	if err := Run(context.Background(), RunOptions{Program: prog, Arch: "sparc"}, bbprofile.NewCollector(), nil); err == nil || !strings.Contains(err.Error(), "sparc") {
		t.Errorf("unknown --arch: %v", err)
	}
}

func TestRunMissingGCC(t *testing.T) {
	qemutest.Require(t, "qemu-arm")
	qemu, _ := exec.LookPath("qemu-arm")
	dir := t.TempDir()
	if err := os.Symlink(qemu, filepath.Join(dir, "qemu-arm")); err != nil {
		t.Fatal(err)
	}
	prog := elfHeader(t, emARM, false, false)
	t.Setenv("PATH", dir)
	err := Run(context.Background(), RunOptions{Program: prog, CacheDir: t.TempDir()}, bbprofile.NewCollector(), nil)
	var mt *proc.MissingToolError
	if !errors.As(err, &mt) || mt.Tool != "gcc" || !strings.Contains(err.Error(), "to build the QEMU plugin") {
		t.Fatalf("got %v", err)
	}
}

// Cancelling kills QEMU at once and imports nothing.
func TestRunCancel(t *testing.T) {
	qemutest.Require(t, "gcc")
	bin := qemutest.Build(t, qemutest.Targets[0], filepath.Join(qemutest.SamplesDir(), "cpu.c"))
	ctx, cancel := context.WithCancel(context.Background())
	started := make(chan struct{})
	go func() {
		<-started
		time.Sleep(300 * time.Millisecond)
		cancel()
	}()
	c := bbprofile.NewCollector()
	t0 := time.Now()
	err := Run(ctx, RunOptions{Program: bin, Args: []string{"100000"}, CacheDir: testCacheDir}, c, func(s string) {
		if strings.HasPrefix(s, "running") {
			close(started)
		}
	})
	if !errors.Is(err, context.Canceled) || len(c.Processes) != 0 {
		t.Errorf("got %v with %d processes", err, len(c.Processes))
	}
	if d := time.Since(t0); d > 10*time.Second {
		t.Errorf("cancel took %v", d)
	}
}

func TestELFModes(t *testing.T) {
	bin := qemutest.Build(t, qemutest.Targets[0], filepath.Join(qemutest.SamplesDir(), "sieve.c"))
	m, err := LoadELFModes(bin)
	if err != nil {
		t.Fatal(err)
	}
	isas := map[cost.ISA]int{}
	for _, mk := range m.marks {
		isas[mk.isa]++
	}
	if isas[cost.ARM] == 0 || isas[cost.Thumb] == 0 || isas[""] == 0 {
		t.Errorf("mapping symbols by kind = %v", isas)
	}
	// The same answers for a copy loaded 0x100000 higher (a PIE program).
	for _, mk := range m.marks[:50] {
		a, okA := m.ModeAt(m.textStart, mk.start)
		b, okB := m.ModeAt(m.textStart+0x100000, mk.start+0x100000)
		if a != b || okA != okB || (mk.isa != "" && a != mk.isa) {
			t.Errorf("0x%x: %s %v, relocated %s %v", mk.start, a, okA, b, okB)
		}
	}
	if _, ok := m.ModeAt(0, 0); ok {
		t.Error("address 0 has a mode")
	}
}

// Pids wrap around: a forked child's pid may be lower than its parent's, and the parent still
// comes first (the sink hears a process before the processes it forked).
func TestProfileFilesParentsFirst(t *testing.T) {
	dir := t.TempDir()
	for _, p := range [][2]int{{301, 300}, {32760, 0}, {300, 32760}, {32761, 32760}} {
		text := "androprof-bbprofile 2\nprocess " + strconv.Itoa(p[0]) + " " + strconv.Itoa(p[1]) + " arm 0x10000 /bin/x\nend\n"
		if err := os.WriteFile(filepath.Join(dir, "bbprofile-"+strconv.Itoa(p[0])+".txt"), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	files, err := profileFiles(dir)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, f := range files {
		got = append(got, strings.TrimSuffix(strings.TrimPrefix(filepath.Base(f), "bbprofile-"), ".txt"))
	}
	if want := "32760 300 32761 301"; strings.Join(got, " ") != want {
		t.Errorf("order %v, want %s", got, want)
	}
}
