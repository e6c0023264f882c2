package qemulog

import (
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
	"testing"

	"androprof/formats/bbprofile"
	"androprof/formats/internal/blocks"
	"androprof/internal/inputerr"
	"androprof/model/cost"
)

func readAll(t *testing.T, src, name string, isas ...cost.ISA) ([]Record, error) {
	t.Helper()
	lr := NewReader(strings.NewReader(src), name, isas)
	var recs []Record
	for {
		r, err := lr.Next()
		if err == io.EOF {
			return recs, nil
		}
		if err != nil {
			return recs, err
		}
		recs = append(recs, r)
	}
}

// The fixture is the first 60 lines of a real qemu-arm 7.2 `-d in_asm,exec,nochain` log.
func TestReadRealARMLog(t *testing.T) {
	b, err := os.ReadFile("testdata/arm-7.2.log")
	if err != nil {
		t.Fatal(err)
	}
	recs, err := readAll(t, string(b), "arm-7.2.log", cost.ARM, cost.Thumb)
	if err != nil {
		t.Fatal(err)
	}
	first := recs[0].Block
	if first == nil || first.PC != 0x104f8 || first.ISA != cost.Thumb || len(first.Insns) != 14 || first.Line != 3 {
		t.Fatalf("first block = %+v", first)
	}
	if in := first.Insns[0]; in.Encoding != "f04f 0b00" || in.Mnemonic != "mov.w" || in.Operands != "fp, #0" {
		t.Errorf("first insn = %+v", in)
	}
	if ex := recs[1].Exec; ex == nil || ex.PC != 0x104f8 || ex.ISA != cost.Thumb || ex.CPU != 0 {
		t.Errorf("first exec = %+v", ex)
	}
	if b := recs[2].Block; b == nil || b.Symbol != "__libc_start_main_impl" {
		t.Errorf("second block = %+v", b)
	}
}

// Every exec layout of docs/formats.md#qemu-execution-lines, oldest first.
func TestExecLayouts(t *testing.T) {
	for _, tc := range []struct {
		line string
		isas []cost.ISA
		pc   uint64
		cpu  int
		isa  cost.ISA
	}{
		{"Trace 0x00008000 [00008000] _start", []cost.ISA{cost.ARM}, 0x8000, -1, cost.ARM},
		{"Trace 0x7f0012345678 [0000a0c4] main", nil, 0xa0c4, -1, ""},
		{"Trace 0: 0x7f4f1c000100 [00000000/000103f0/00000010] main", []cost.ISA{cost.MIPS}, 0x103f0, 0, cost.MIPS},
		{"Trace 1: 0x7f5a18031f00 [00000480/0001045c/00000000/00000200] main", []cost.ISA{cost.ARM, cost.Thumb}, 0x1045c, 1, cost.ARM},
		{"Trace 0: 0x7f5a18031f00 [00800480/0001045c/00000000/00000200] main", []cost.ISA{cost.ARM, cost.Thumb}, 0x1045c, 0, cost.Thumb},
		{"Trace 0: 0x7f968c0000c0 [00000000/00400730/000000e2/00000200] ", []cost.ISA{cost.MIPS}, 0x400730, 0, cost.MIPS},
		{"Trace 2: 0x7f5a18031f00 [0/1045c/0/200] main", []cost.ISA{cost.ARM, cost.Thumb}, 0x1045c, 2, cost.ARM},
		{"Trace 3: 0x7f5a18031f00 [800480/1045c/0/200] main", []cost.ISA{cost.ARM, cost.Thumb}, 0x1045c, 3, cost.Thumb},
		{"Trace 0: 0x7f5a18031f00 [00800480/000000000001045c/00000000/00000200] main", []cost.ISA{cost.ARM, cost.Thumb}, 0x1045c, 0, cost.Thumb},
		{"Trace 0: 0x7f4f1c000100 [00000000/000103f0/0x4a1] main", []cost.ISA{cost.ARM, cost.Thumb}, 0x103f0, 0, ""},
		{"Trace 12: 0x7f4f1c000100 [00000000/000103f0/0] main", []cost.ISA{cost.MIPS}, 0x103f0, 12, cost.MIPS},
		{"Trace 0x7f00123456c0 [00009400] a symbol with spaces", nil, 0x9400, -1, ""},
		{"Trace 00007FF612345678 [00009400] windows_host", []cost.ISA{cost.ARM}, 0x9400, -1, cost.ARM},
		{"Trace 0: 0x7f5a18031f00 [00800480/0001045c/00000000/00000200] main\r", []cost.ISA{cost.ARM, cost.Thumb}, 0x1045c, 0, cost.Thumb},
		// 64-bit guests up to 8.0: 16-digit cs_base and pc, and no Thumb bit (0x00800000 is an A64 flag there).
		{"Trace 0: 0x7fe413a00100 [0000000001809331/000000000040013c/00000001/00000200] _start", nil, 0x40013c, 0, ""},
		{"Trace 0: 0x7fe413a00100 [0000000001809331/000000000040013c/00000001/00000200] _start", []cost.ISA{cost.AArch64}, 0x40013c, 0, cost.AArch64},
		{"Trace 1: 0x7f66fc000100 [0000000000000000/00000000004014f0/1040c0b3/00000200] _start", []cost.ISA{cost.X86_64}, 0x4014f0, 1, cost.X86_64},
		{"Trace 0: 0x7f66fc000100 [0000000000000000/00007f1234567890/1040c0b3/00000200] ", nil, 0x7f1234567890, 0, ""},
	} {
		recs, err := readAll(t, tc.line+"\n", "exec.log", tc.isas...)
		if err != nil || len(recs) != 1 || recs[0].Exec == nil {
			t.Errorf("%q: %v %+v", tc.line, err, recs)
			continue
		}
		e := recs[0].Exec
		if e.PC != tc.pc || e.CPU != tc.cpu || e.ISA != tc.isa {
			t.Errorf("%q: got pc %#x cpu %d isa %q", tc.line, e.PC, e.CPU, e.ISA)
		}
	}
}

// Translation-log layouts: capstone ARM, Thumb, A64 and x86, MIPS with a tab, QEMU 2.x, QEMU 0.x.
func TestInsnLayouts(t *testing.T) {
	for _, tc := range []struct {
		text         string
		isas         []cost.ISA
		isa          cost.ISA
		enc, mn, ops string
	}{
		{"0x00010340:  e92d4ff0  push     {r4, r5, lr}", []cost.ISA{cost.ARM, cost.Thumb}, cost.ARM, "e92d4ff0", "push", "{r4, r5, lr}"},
		{"0x00010348:  f44f 5bfa  movle.w  fp, #0x1f40", []cost.ISA{cost.ARM, cost.Thumb}, cost.Thumb, "f44f 5bfa", "movle.w", "fp, #0x1f40"},
		{"0x00400538:  lui\tgp,0xa", []cost.ISA{cost.MIPS}, cost.MIPS, "", "lui", "gp,0xa"},
		{"0x0043d95c:  cfc1\tv1,$31", []cost.ISA{cost.MIPS}, cost.MIPS, "", "cfc1", "v1,$31"},
		{"0x000093e8:  e1560004      cmp  r6, r4", []cost.ISA{cost.ARM, cost.Thumb}, cost.ARM, "e1560004", "cmp", "r6, r4"},
		{"0x00008000:  mov\tr0, #0", []cost.ISA{cost.ARM, cost.Thumb}, cost.ARM, "", "mov", "r0, #0"},
		{"0x00400584:  d280001d  movz     x29, #0", nil, cost.AArch64, "d280001d", "movz", "x29, #0"},
		{"0x004014f2:  49 89 d1                 movq     %rdx, %r9", nil, cost.X86_64, "4989d1", "movq", "%rdx, %r9"},
		{"0x004014f2:  49 89 d1                 movq     %rdx, %r9", []cost.ISA{cost.X86_64}, cost.X86_64, "4989d1", "movq", "%rdx, %r9"},
		{"0x00402810:  48 83 c7 08              addq     $8, %rdi", nil, cost.X86_64, "4883c708", "addq", "$8, %rdi"},
	} {
		recs, err := readAll(t, "----------------\nIN: f\n"+tc.text+"\n\n", "in_asm.log", tc.isas...)
		if err != nil || len(recs) != 1 || recs[0].Block == nil {
			t.Errorf("%q: %v %+v", tc.text, err, recs)
			continue
		}
		b := recs[0].Block
		in := b.Insns[0]
		if b.ISA != tc.isa || in.Encoding != tc.enc || in.Mnemonic != tc.mn || in.Operands != tc.ops {
			t.Errorf("%q: got %s %+v", tc.text, b.ISA, in)
		}
	}
}

func TestLogErrors(t *testing.T) {
	_, err := readAll(t, "hello\nworld\n", "notes.txt")
	if !errors.Is(err, ErrNotQEMULog) || !strings.Contains(err.Error(), "notes.txt") {
		t.Errorf("plain text: %v", err)
	}
	_, err = readAll(t, "IN: f\n0x0001zz00:  e92d4ff0  push {lr}\n", "bad.log")
	var se *inputerr.Error
	if !errors.As(err, &se) || se.Line != 2 || se.File != "bad.log" {
		t.Errorf("bad address: %v", err)
	}
	_, err = readAll(t, "Trace 0: 0x7f [00000480/zz/0/0] main\n", "bad.log")
	if !errors.As(err, &se) || se.Line != 1 {
		t.Errorf("bad trace: %v", err)
	}
	huge := "IN: f\n" + strings.Repeat("0x00010000:  e92d4ff0  push {lr}\n", blocks.MaxInsns+1)
	_, err = readAll(t, huge, "huge.log", cost.ARM)
	if !errors.As(err, &se) || se.Line != blocks.MaxInsns+2 {
		t.Errorf("endless block: %v", err)
	}
	_, err = readAll(t, "Trace 0: 0x7f00 main\n", "bad.log")
	if !errors.As(err, &se) || !strings.Contains(se.Msg, "without [..]") {
		t.Errorf("trace without fields: %v", err)
	}
}

func FuzzLogReader(f *testing.F) {
	b, err := os.ReadFile("testdata/arm-7.2.log")
	if err != nil {
		f.Fatal(err)
	}
	f.Add(b)
	f.Add([]byte("IN: \n0x00400538:  lui\tgp,0xa\n\nTrace 0: 0x7f [00000000/00400538/000000e2/00000200] \n"))
	f.Add([]byte("IN: \n0x00010000:  \nOBJD-T: 0000a0e3\n\nIN: \n0x00020000:  \nOBJD-T: 00207047\n\nTrace 0: 0x7f [00800480/00020000/0/0] \nStopped execution of TB chain before 0x7f [00020000] \n"))
	f.Add(must(os.ReadFile("testdata/x86_64-7.2.log")))
	f.Add([]byte(a64Call + a64OBJDT + trace72))
	f.Fuzz(func(t *testing.T, b []byte) {
		for _, isas := range [][]cost.ISA{{cost.ARM, cost.Thumb}, nil} {
			lr := NewReader(strings.NewReader(string(b)), "fuzz.log", isas)
			ended := false
			for i := 0; i < 1e6 && !ended; i++ {
				_, err := lr.Next()
				ended = err != nil
			}
			if !ended {
				t.Fatal("reader did not end")
			}
		}
	})
}

// A file that starts as a QEMU log does is one, however broken its first record: the reader
// then says what is wrong, and where. A long line of anything else is no format's.
func TestSniffBrokenStart(t *testing.T) {
	trace := "Trace 0: 0x7f0000001000 [00000000/00020000/00000000/00000000] "
	block := "----------------\nIN: g\n" + strings.Repeat("0x00020000:  e1a00000  mov      r0, r0\n", blocks.MaxInsns+1) + "\n"
	for head, qemu := range map[string]bool{
		trace + strings.Repeat("x", 2<<20) + "\n": true,
		block: true,
		"\n\nIN:\n0x0001zz00:  e92d4ff0  push {lr}\n":     true,
		strings.Repeat("x", 2<<20) + "\n" + trace + "f\n": false,
		"Trace of a program\n":                            false,
	} {
		if err := Sniff([]byte(head)); (err == nil) != qemu || err != nil && !errors.Is(err, ErrNotQEMULog) {
			t.Errorf("%.30q: %v, want a QEMU log: %v", head, err, qemu)
		}
		if err := bbprofile.Sniff([]byte(head)); !errors.Is(err, bbprofile.ErrNotBBProfile) {
			t.Errorf("%.30q: a basic-block profile: %v", head, err)
		}
	}
	_, err := readAll(t, block, "block.log", cost.ARM)
	var se *inputerr.Error
	if !errors.As(err, &se) || se.Line != blocks.MaxInsns+3 || !strings.HasPrefix(se.Msg, fmt.Sprintf("a block of %d instructions (at 0x20000)", blocks.MaxInsns+1)) {
		t.Errorf("a block too long: %v", err)
	}
	_, err = readAll(t, trace+strings.Repeat("x", 2<<20)+"\n", "line.log")
	if !errors.As(err, &se) || se.Line != 1 || !strings.HasPrefix(se.Msg, "a line longer than 1 MiB") {
		t.Errorf("a line too long: %v", err)
	}
}
