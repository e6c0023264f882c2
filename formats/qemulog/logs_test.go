package qemulog

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"androprof/formats/bbprofile"
	"androprof/formats/internal/blocks"
	"androprof/internal/inputerr"
	"androprof/model"
	"androprof/model/cost"
)

var armThumb = []cost.ISA{cost.ARM, cost.Thumb}

// writeFiles writes name → content files into a new temp dir and returns their paths in
// name order.
func writeFiles(t testing.TB, files map[string]string) (dir string, paths []string) {
	t.Helper()
	dir = t.TempDir()
	for name, content := range files {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
		paths = append(paths, p)
	}
	slices.Sort(paths)
	return dir, paths
}

func importText(t *testing.T, text string, isas []cost.ISA) (*bbprofile.Collector, error) {
	t.Helper()
	_, paths := writeFiles(t, map[string]string{"qemu.log": text})
	s := newOrderSink()
	err := ImportLogs(context.Background(), paths, isas, s, nil)
	if err == nil && s.err != nil {
		t.Fatal(s.err)
	}
	return s.Collector, err
}

// One whole log per layout of docs/formats.md#qemu-execution-lines (with the in_asm text of that QEMU), oldest
// first. Each must give the same thing: blocks keyed by (pc, mode) and exact counts.
func TestImportLayouts(t *testing.T) {
	for _, tc := range []struct {
		name   string
		log    string
		isas   []cost.ISA
		counts map[cost.BlockKey]int64 // pid 1, summed over threads
		insns  int64
		tids   []int
	}{
		{
			name: "QEMU 0.x / classic Android emulator: no encodings, Trace 0x%08lx [%08x]",
			log: "----------------\nIN: _start\n0x00008000:  mov\tr0, #0\n0x00008004:  bl\t0x8010\n\n" +
				"Trace 0x40001000 [00008000] _start\n" +
				"----------------\nIN: f\n0x00008010:  add\tr0, r0, #1\n0x00008014:  cmp\tr0, #3\n0x00008018:  bne\t0x8010\n\n" +
				"Trace 0x40001040 [00008010] f\nTrace 0x40001040 [00008010] f\nTrace 0x40001040 [00008010] f\n",
			isas:   []cost.ISA{cost.ARM},
			counts: map[cost.BlockKey]int64{{PID: 1, PC: 0x8000, ISA: cost.ARM}: 1, {PID: 1, PC: 0x8010, ISA: cost.ARM}: 3},
			insns:  2 + 3*3,
			tids:   []int{0},
		},
		{
			name: "AOSP 1.x–2.8: built-in disassembler, Trace %p [%08x]; the mode comes from the translation",
			log: "----------------\nIN: main\n0x000093e8:  e1560004      cmp\tr6, r4\n0x000093ec:  1a000002      bne\t0x93fc\n\n" +
				"Trace 0x7f0012345678 [000093e8] main\n" +
				"----------------\nIN: thumb_fn\n0x00009400:  2801      cmp\tr0, #1\n0x00009402:  d0fd      beq.n\t0x9400\n0x00009404:  4770      bx\tlr\n\n" +
				"Trace 0x7f00123456c0 [00009400] thumb_fn\nTrace 0x7f00123456c0 [00009400] thumb_fn\n",
			isas:   armThumb,
			counts: map[cost.BlockKey]int64{{PID: 1, PC: 0x93e8, ISA: cost.ARM}: 1, {PID: 1, PC: 0x9400, ISA: cost.Thumb}: 2},
			insns:  2 + 2*3,
			tids:   []int{0},
		},
		{
			name: "QEMU 2.11–6.0: Trace 0: %p [cs_base/pc/%#x flags]",
			log: "----------------\nIN: main\n0x000103f0:  e92d4010  push     {r4, lr}\n0x000103f4:  eb000010  bl       #0x1043c\n\n" +
				"Trace 0: 0x7f4f1c000100 [00000000/000103f0/0x480] main\n" +
				"----------------\nIN: g\n0x0001043c:  4770       bx       lr\n\n" +
				"Trace 1: 0x7f4f1c000180 [00000000/0001043c/0x4a1] g\nTrace 0: 0x7f4f1c000180 [00000000/0001043c/0] g\n",
			isas:   armThumb,
			counts: map[cost.BlockKey]int64{{PID: 1, PC: 0x103f0, ISA: cost.ARM}: 1, {PID: 1, PC: 0x1043c, ISA: cost.Thumb}: 2},
			insns:  2 + 2,
			tids:   []int{0, 1},
		},
		{
			name: "QEMU 6.1–8.0 (Debian's 7.2): cs_base/pc/flags/cflags; an ARM and a Thumb block at one pc",
			log: "----------------\nIN: f\n0x00010000:  e3a00000  mov      r0, #0\n0x00010004:  e12fff1e  bx       lr\n\n" +
				"Trace 0: 0x7f5a18031f00 [00000480/00010000/00000000/00000200] f\n" +
				"----------------\nIN: f\n0x00010000:  2000       movs     r0, #0\n0x00010002:  f44f 5bfa  mov.w    fp, #0x1f40\n0x00010006:  4770       bx       lr\n\n" +
				"Trace 0: 0x7f5a18032000 [00800480/00010000/00000000/00000200] f\n" +
				"Trace 0: 0x7f5a18032000 [00800480/00010000/00000000/00000200] f\n" +
				"Trace 0: 0x7f5a18031f00 [00000480/00010000/00000000/00000200] f\n",
			isas:   armThumb,
			counts: map[cost.BlockKey]int64{{PID: 1, PC: 0x10000, ISA: cost.ARM}: 2, {PID: 1, PC: 0x10000, ISA: cost.Thumb}: 2},
			insns:  2*2 + 2*3,
			tids:   []int{0},
		},
		{
			name: "QEMU 8.1+: hex no longer zero-padded (and the later %016 pc)",
			log: "----------------\nIN: f\n0x00010000:  2000       movs     r0, #0\n0x00010002:  4770       bx       lr\n\n" +
				"Trace 0: 0x7f5a18032000 [800480/10000/00000000/00000200] f\n" +
				"Trace 2: 0x7f5a18032000 [00800480/0000000000010000/00000000/00000200] f\n",
			isas:   armThumb,
			counts: map[cost.BlockKey]int64{{PID: 1, PC: 0x10000, ISA: cost.Thumb}: 2},
			insns:  4,
			tids:   []int{0, 2},
		},
		{
			name: "MIPS on 7.2: no encodings, a tab before operands, delay slots in the block",
			log: "----------------\nIN: \n0x00400730:  move\tzero,ra\n0x00400734:  bal\t0x40073c\n0x00400738:  nop\n\n" +
				"Trace 0: 0x7f8d30e000c0 [00000000/00400730/000000e2/00000200] \n" +
				"Trace 0: 0x7f8d30e000c0 [00000000/00400730/000000e2/00000200] \n",
			isas:   []cost.ISA{cost.MIPS},
			counts: map[cost.BlockKey]int64{{PID: 1, PC: 0x400730, ISA: cost.MIPS}: 2},
			insns:  6,
			tids:   []int{0},
		},
		{
			name: "the real qemu-arm 7.2 fixture",
			log:  string(must(os.ReadFile("testdata/arm-7.2.log"))),
			isas: armThumb,
			counts: map[cost.BlockKey]int64{
				{PID: 1, PC: 0x104f8, ISA: cost.Thumb}: 1, {PID: 1, PC: 0x106ac, ISA: cost.Thumb}: 1, {PID: 1, PC: 0x106d0, ISA: cost.Thumb}: 13,
			},
			insns: 14 + 19 + 13*3,
			tids:  []int{0},
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c, err := importText(t, tc.log, tc.isas)
			if err != nil {
				t.Fatal(err)
			}
			got := map[cost.BlockKey]int64{}
			for k, n := range c.Counts {
				got[k.BlockKey] += n
			}
			if !mapsEqual(got, tc.counts) {
				t.Errorf("counts = %v, want %v", got, tc.counts)
			}
			if n := c.Instructions(); n != tc.insns {
				t.Errorf("%d instructions, want %d", n, tc.insns)
			}
			var tids []int
			for _, th := range c.Threads {
				tids = append(tids, th.TID)
			}
			slices.Sort(tids)
			if !slices.Equal(tids, tc.tids) {
				t.Errorf("threads %v, want %v", tids, tc.tids)
			}
			if len(c.Processes) != 1 || c.Processes[0] != (model.Process{PID: 1, Name: "qemu"}) {
				t.Errorf("processes %+v", c.Processes)
			}
		})
	}
}

func must[T any](v T, err error) T {
	if err != nil {
		panic(err)
	}
	return v
}

func mapsEqual[K comparable](a, b map[K]int64) bool {
	if len(a) != len(b) {
		return false
	}
	for k, v := range a {
		if w, ok := b[k]; !ok || w != v {
			return false
		}
	}
	return true
}

// QEMU without a disassembler: the block's first address, then its bytes 32 to a line.
// ARM and Thumb look alike as bytes, so the mode waits for the block's first Trace line.
func TestOBJDT(t *testing.T) {
	arm := "----------------\nIN: main\n0x00010340:  \n" +
		// push {r4..fp, lr}; cmp r6, r4; beq +0x14; (NEON vld1, unknown to armasm)
		"OBJD-T: f04f2de9040056e10400000a8f0a20f4\n\n" +
		"Trace 0: 0x7f00 [00000480/00010340/00000000/00000200] main\n"
	thumb := "----------------\nIN: f\n0x00020000:  \n" +
		// movs r0, #0 (2000); mov.w fp, #0x1f40 (f44f 5bfa); bx lr (4770); 12 × movs: 32 bytes
		"OBJD-T: 00204ff4fa5b7047" + strings.Repeat("0020", 12) + "\n" +
		"OBJD-T: 7047\n\n" +
		"Trace 0: 0x7f00 [00800480/00020000/00000000/00000200] f\n"
	mips := "----------------\nIN: \n0x00400730:  \nOBJD-T: 25000003\n\n" +
		"Trace 0: 0x7f [00000000/00400730/000000e2/00000200] \n"

	recs, err := readAll(t, arm+thumb, "objd.log", armThumb...)
	if err != nil {
		t.Fatal(err)
	}
	if len(recs) != 4 || recs[0].Block == nil || recs[1].Exec == nil || recs[2].Block == nil || recs[3].Exec == nil {
		t.Fatalf("records %+v", recs)
	}
	a := recs[0].Block
	want := []cost.Insn{
		{Addr: 0x10340, Encoding: "e92d4ff0", Mnemonic: "push", Operands: "{r4, r5, r6, r7, r8, r9, sl, fp, lr}"},
		{Addr: 0x10344, Encoding: "e1560004", Mnemonic: "cmp", Operands: "r6, r4"},
		{Addr: 0x10348, Encoding: "0a000004", Mnemonic: "beq", Operands: "#0x10360"},
		{Addr: 0x1034c, Encoding: "f4200a8f", Mnemonic: blocks.Undecoded, Operands: ""},
	}
	if a.ISA != cost.ARM || a.PC != 0x10340 || a.Line != 3 || !slices.Equal(a.Insns, want) {
		t.Errorf("ARM block %+v\nwant insns %+v", a, want)
	}
	th := recs[2].Block
	if th.ISA != cost.Thumb || len(th.Insns) != 16 || th.Insns[1].Encoding != "f44f 5bfa" || th.Insns[1].Addr != 0x20002 ||
		th.Insns[15].Encoding != "4770" || th.Insns[15].Addr != 0x20020 || th.Insns[0].Mnemonic != blocks.Undecoded {
		t.Errorf("Thumb block %+v", th)
	}

	recs, err = readAll(t, mips, "objd.log", cost.MIPS)
	if err != nil || recs[0].Block == nil || recs[0].Block.ISA != cost.MIPS || len(recs[0].Block.Insns) != 1 || recs[0].Block.Insns[0].Encoding != "03000025" {
		t.Errorf("MIPS: %v %+v", err, recs)
	}

	// With nothing after it, an OBJD-T block of an ARM+Thumb guest is read as ARM.
	recs, err = readAll(t, "IN: \n0x00010000:  \nOBJD-T: 0000a0e3\n\n", "objd.log", armThumb...)
	if err != nil || len(recs) != 1 || recs[0].Block.ISA != cost.ARM || recs[0].Block.Insns[0].Mnemonic != "mov" {
		t.Errorf("lone block: %v %+v", err, recs)
	}

	// Two held blocks in a row, then their Trace lines: each is decided on its own.
	two := "IN: \n0x00010000:  \nOBJD-T: 0000a0e3\n\nIN: \n0x00020000:  \nOBJD-T: 00207047\n\n" +
		"Trace 0: 0x7f [00800480/00020000/00000000/00000200] \n"
	recs, err = readAll(t, two, "objd.log", armThumb...)
	if err != nil || len(recs) != 3 || recs[0].Block.ISA != cost.ARM || recs[1].Block.ISA != cost.Thumb || len(recs[1].Block.Insns) != 2 || recs[2].Exec == nil {
		t.Errorf("two held blocks: %v %+v", err, recs)
	}

	c, err := importText(t, arm+thumb+strings.Repeat("Trace 0: 0x7f00 [00800480/00020000/00000000/00000200] f\n", 4), armThumb)
	if err != nil || c.Instructions() != 4+5*16 {
		t.Errorf("import: %v, %d instructions", err, c.Instructions())
	}

	for _, bad := range []struct{ log, msg string }{
		{"IN: \n0x00010000:  \nOBJD-T: 0000a0e\n\n", "odd number"},
		{"IN: \n0x00010000:  \nOBJD-T: 0000a0\n\n", "not whole"},
		{"IN: \n0x00010000:  \nOBJD-T: 0000zz00\n\n", "bad hex"},
		{"IN: \nOBJD-T: 0000a0e3\n\n", "without the address"},
		{"IN: \n0x00010000:  unable to read memory\n\n", "could not read"},
	} {
		_, err := readAll(t, bad.log, "objd.log", cost.ARM)
		var se *inputerr.Error
		if !errors.As(err, &se) || !strings.Contains(se.Msg, bad.msg) || se.File != "objd.log" {
			t.Errorf("%q: %v, want an inputerr.Error with %q", bad.log, err, bad.msg)
		}
	}
}

// Truncated, garbled and foreign files: each an inputerr.Error naming the file and line, or
// ErrNotQEMULog naming the file.
func TestImportBadInput(t *testing.T) {
	fixture := string(must(os.ReadFile("testdata/arm-7.2.log")))
	lines := strings.SplitAfter(fixture, "\n")
	upTo := func(n int) string { return strings.Join(lines[:n], "") } // the first n lines
	replace := func(n int, with string) string {
		l := slices.Clone(lines)
		l[n-1] = with
		return strings.Join(l, "")
	}
	for _, tc := range []struct {
		name string
		log  string
		line int64 // 0: ErrNotQEMULog
		msg  string
	}{
		{"cut in the middle of a Trace line", fixture[:len(fixture)-20], 60, "ends inside a line"},
		{"cut in the middle of an instruction line", upTo(24) + lines[24][:12], 25, "ends inside a line"},
		{"cut between the lines of a block", upTo(30), 30, "inside the block at 0x106ac"},
		{"cut before a block's blank line", upTo(46), 46, "inside the block at 0x106d0"},
		{"garbled pc in a Trace line", replace(41, "Trace 0: 0x7fc898000300 [00800480/000106zz/00000000/00000200] x\n"), 41, "bad field"},
		{"garbled Trace line without fields", replace(41, "Trace 0: 0x7fc898000300 00800480\n"), 41, "without [..]"},
		{"binary bytes between records", replace(19, "\x00\x01\x7f\xfe\n"), 19, "binary data"},
		{"binary bytes inside a block", replace(25, "\x00\x01garbage\n"), 25, "binary data inside the block"},
		{"a foreign line inside a block", replace(25, "hello\n"), 25, "unexpected line inside the block at 0x106ac"},
		{"garbled instruction address", replace(23, "0x0001zzb2:  4b67       ldr      r3, [pc, #0x19c]\n"), 23, "bad instruction address"},
		{"a chained log", upTo(18) + "Linking TBs 0x7f00 index 0 -> 0x7f40\n", 19, "nochain"},
		{"a Stopped line for no Trace line", upTo(18) + "Stopped execution of TB chain before 0x7f [00012345] \n", 19, "none of the last"},
		{"an exec log without its translations", strings.Join(lines[40:], ""), 1, "no translation"},
		{"plain text", "hello\nworld\n", 0, ""},
		{"plain text without a final line end", "hello", 0, ""},
		{"binary", "\x7fELF\x01\x01\x01\x00\x00\x00\x00\x00\x00\x00\x00\x00\x02\x00\x28\x00", 0, ""},
		{"empty", "", 0, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, paths := writeFiles(t, map[string]string{"run.log": tc.log})
			err := ImportLogs(context.Background(), paths, armThumb, bbprofile.NewCollector(), nil)
			if tc.line == 0 {
				if !errors.Is(err, ErrNotQEMULog) || !strings.Contains(err.Error(), paths[0]) {
					t.Errorf("%v, want ErrNotQEMULog naming %s", err, paths[0])
				}
				return
			}
			var se *inputerr.Error
			if !errors.As(err, &se) || se.File != paths[0] || se.Line != tc.line || !strings.Contains(se.Msg, tc.msg) {
				t.Errorf("%v, want %s:%d: …%s…", err, paths[0], tc.line, tc.msg)
			}
		})
	}
}

// A "Stopped execution" line takes back the Trace line of its block.
func TestImportStopped(t *testing.T) {
	log := "----------------\nIN: clone\n0x000451fc:  2800       cmp      r0, #0\n0x000451fe:  d003       beq      #0x45208\n\n" +
		"Trace 1: 0x7f8fa0039a40 [00800480/000451fc/00000000/00080200] clone\n" +
		"Trace 0: 0x7f8fa0039a40 [00800480/000451fc/00000000/00080200] clone\n" +
		"Stopped execution of TB chain before 0x7f8fa0039a40 [000451fc] clone\n" +
		"Trace 1: 0x7f8fa00000c0 [00800480/000451fc/00000000/00080200] clone\n"
	c, err := importText(t, log, armThumb)
	if err != nil {
		t.Fatal(err)
	}
	k := cost.BlockKey{PID: 1, PC: 0x451fc, ISA: cost.Thumb}
	if c.Counts[bbprofile.ThreadBlock{BlockKey: k, TID: 1}] != 2 || c.Counts[bbprofile.ThreadBlock{BlockKey: k, TID: 0}] != 0 || c.Instructions() != 4 {
		t.Errorf("counts %v", c.Counts)
	}
	recs, err := readAll(t, log, "s.log", armThumb...)
	if err != nil || len(recs) != 5 || recs[3].Stopped == nil || recs[3].Stopped.CPU != 0 || recs[3].Stopped.PC != 0x451fc {
		t.Errorf("records: %v %+v", err, recs)
	}
}

// Separate translation and execution files, and pids from file names.
func TestImportFiles(t *testing.T) {
	fixture := string(must(os.ReadFile("testdata/arm-7.2.log")))
	lines := strings.SplitAfter(fixture, "\n")
	inAsm, execs := "", ""
	for _, l := range lines {
		if strings.HasPrefix(l, "Trace ") {
			execs += l
		} else {
			inAsm += l
		}
	}
	thread1 := strings.ReplaceAll(execs, "Trace 0:", "Trace 1:")
	imp := func(paths ...string) (*orderSink, error) {
		s := newOrderSink()
		err := ImportLogs(context.Background(), paths, armThumb, s, nil)
		if err == nil && s.err != nil {
			t.Fatal(s.err)
		}
		return s, err
	}
	procs := func(s *orderSink) string {
		var out []string
		for _, p := range s.Processes {
			out = append(out, p.Name+":"+strconv.Itoa(p.PID))
		}
		return strings.Join(out, " ")
	}

	t.Run("the execution file before the translation file", func(t *testing.T) {
		_, paths := writeFiles(t, map[string]string{"a-exec.log": execs, "b-in_asm.log": inAsm})
		s, err := imp(paths...)
		if err != nil || s.Instructions() != 72 || procs(s) != "a-exec:1" {
			t.Errorf("%v: %d instructions, processes %s", err, s.Instructions(), procs(s))
		}
	})
	t.Run("a file that is not a log among logs", func(t *testing.T) {
		dir, paths := writeFiles(t, map[string]string{"a.log": fixture, "notes.txt": "run on Tuesday\n"})
		_, err := imp(paths...)
		if !errors.Is(err, ErrNotQEMULog) || !strings.Contains(err.Error(), filepath.Join(dir, "notes.txt")) {
			t.Errorf("%v", err)
		}
	})
	t.Run("no file", func(t *testing.T) {
		if _, err := imp(); err == nil || !strings.Contains(err.Error(), "no log files") {
			t.Errorf("%v", err)
		}
	})
	t.Run("-D run_%d.log files are processes", func(t *testing.T) {
		_, paths := writeFiles(t, map[string]string{"run_200.log": fixture, "run_100.log": fixture})
		s, err := imp(paths...)
		if err != nil || procs(s) != "run:100 run:200" || len(s.Blocks) != 6 || s.Instructions() != 144 {
			t.Errorf("%v: processes %s, %d blocks, %d instructions", err, procs(s), len(s.Blocks), s.Instructions())
		}
	})
	t.Run("names that differ by more than a number are one process", func(t *testing.T) {
		_, paths := writeFiles(t, map[string]string{"run_1.log": fixture, "walk_2.log": fixture})
		s, err := imp(paths...)
		if err != nil || procs(s) != "run_1:1" || len(s.Blocks) != 3 || s.Instructions() != 144 {
			t.Errorf("%v: processes %s, %d blocks", err, procs(s), len(s.Blocks))
		}
	})
	t.Run("one numbered file is pid 1", func(t *testing.T) {
		_, paths := writeFiles(t, map[string]string{"sieve_5140.log": fixture})
		s, err := imp(paths...)
		if err != nil || procs(s) != "sieve_5140:1" {
			t.Errorf("%v: processes %s", err, procs(s))
		}
	})
	t.Run("-d tid files are threads of the process file below them", func(t *testing.T) {
		// Thread 1's file only executes blocks the main thread translated.
		_, paths := writeFiles(t, map[string]string{"t_100.log": fixture, "t_101.log": thread1, "t_300.log": fixture, "t_302.log": thread1})
		s, err := imp(paths...)
		if err != nil || procs(s) != "t:100 t:300" || len(s.Threads) != 4 || s.Instructions() != 4*72 {
			t.Errorf("%v: processes %s, threads %+v, %d instructions", err, procs(s), s.Threads, s.Instructions())
		}
		if n := s.Counts[bbprofile.ThreadBlock{BlockKey: cost.BlockKey{PID: 300, PC: 0x106d0, ISA: cost.Thumb}, TID: 1}]; n != 13 {
			t.Errorf("thread 1 of pid 300 ran the loop %d times", n)
		}
	})
	t.Run("progress and cancellation", func(t *testing.T) {
		_, paths := writeFiles(t, map[string]string{"a.log": fixture})
		var last [2]int64
		err := ImportLogs(context.Background(), paths, armThumb, bbprofile.NewCollector(), func(done, total int64) { last = [2]int64{done, total} })
		if err != nil || last[0] != int64(len(fixture)) || last[1] != last[0] {
			t.Errorf("%v: last progress %v", err, last)
		}
		ctx, cancel := context.WithCancel(context.Background())
		cancel()
		if err := ImportLogs(ctx, paths, armThumb, bbprofile.NewCollector(), nil); !errors.Is(err, context.Canceled) {
			t.Errorf("cancelled: %v", err)
		}
	})
}

// FuzzImportLogs checks that no input panics or breaks the Sink contract (process, then
// blocks and threads, then counts).
func FuzzImportLogs(f *testing.F) {
	f.Add(must(os.ReadFile("testdata/arm-7.2.log")))
	f.Add([]byte("IN: \n0x00400538:  lui\tgp,0xa\n\nTrace 0: 0x7f [00000000/00400538/000000e2/00000200] \n"))
	f.Add([]byte("IN: \n0x00010000:  \nOBJD-T: 0000a0e300207047\n\nTrace 0: 0x7f [00800480/00010000/0/0] \nStopped execution of TB chain before 0x7f [00010000] \n"))
	f.Add([]byte("IN: f\n0x00008000:  mov\tr0, #0\n\nTrace 0x40001000 [00008000] f\nTrace 0: 0x7f [0/8000/0x480] f\n"))
	dir := f.TempDir()
	f.Fuzz(func(t *testing.T, b []byte) {
		p := filepath.Join(dir, "fuzz.log")
		if err := os.WriteFile(p, b, 0o644); err != nil {
			t.Fatal(err)
		}
		s := newOrderSink()
		err := ImportLogs(context.Background(), []string{p}, armThumb, s, nil)
		if s.err != nil {
			t.Fatal(s.err)
		}
		if err == nil && s.Instructions() < 0 {
			t.Fatal("negative count")
		}
		var se *inputerr.Error
		if err != nil && !errors.Is(err, ErrNotQEMULog) && !(errors.As(err, &se) && se.File == p && se.Line > 0) {
			t.Fatalf("error without file and line: %v", err)
		}
	})
}

// orderSink is a Collector that checks the Sink contract: a process before its blocks and
// threads, a thread before its counts, a block before its counts and never twice.
type orderSink struct {
	*bbprofile.Collector
	procs   map[int]bool
	threads map[[2]int]bool
	err     error
}

func newOrderSink() *orderSink {
	return &orderSink{Collector: bbprofile.NewCollector(), procs: map[int]bool{}, threads: map[[2]int]bool{}}
}

func (s *orderSink) fail(format string, args ...any) {
	if s.err == nil {
		s.err = fmt.Errorf(format, args...)
	}
}

func (s *orderSink) Process(p model.Process) error {
	if s.procs[p.PID] {
		s.fail("process %d sent twice", p.PID)
	}
	s.procs[p.PID] = true
	return s.Collector.Process(p)
}

func (s *orderSink) Thread(th model.Thread) error {
	if !s.procs[th.PID] || s.threads[[2]int{th.PID, th.TID}] {
		s.fail("thread %+v before its process or twice", th)
	}
	s.threads[[2]int{th.PID, th.TID}] = true
	return s.Collector.Thread(th)
}

func (s *orderSink) Block(pid int, b *cost.Block) error {
	if !s.procs[pid] {
		s.fail("block of pid %d before its process", pid)
	}
	if s.Blocks[cost.BlockKey{PID: pid, PC: b.PC, ISA: b.ISA}] != nil {
		s.fail("block %d/%#x/%s sent twice", pid, b.PC, b.ISA)
	}
	if len(b.Insns) == 0 || b.ISA == "" {
		s.fail("empty block %+v", b)
	}
	return s.Collector.Block(pid, b)
}

func (s *orderSink) Count(pid, tid int, pc uint64, isa cost.ISA, n int64) error {
	if s.Blocks[cost.BlockKey{PID: pid, PC: pc, ISA: isa}] == nil || !s.threads[[2]int{pid, tid}] || n <= 0 {
		s.fail("count %d/%d/%#x/%s = %d before its block or thread", pid, tid, pc, isa, n)
	}
	return s.Collector.Count(pid, tid, pc, isa, n)
}
