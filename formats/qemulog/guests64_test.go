package qemulog

import (
	"fmt"
	"os"
	"slices"
	"strings"
	"testing"

	"androprof/model/cost"
)

// The fixtures are whole qemu-aarch64 and qemu-x86_64 7.2 logs of testdata/tiny.c (its header
// says how they were made). Read with no instruction set named, every block is of the guest's,
// and the total is the count of the `-singlestep -d exec,nochain` logs of the same programs.
func TestReal64BitFixtures(t *testing.T) {
	for _, tc := range []struct {
		file  string
		isa   cost.ISA
		insns int64
		first cost.Insn
	}{
		{"aarch64-7.2.log", cost.AArch64, 368, cost.Insn{Addr: 0x40013c, Encoding: "a9be7bfd", Mnemonic: "stp", Operands: "x29, x30, [sp, #-0x20]!"}},
		{"x86_64-7.2.log", cost.X86_64, 408, cost.Insn{Addr: 0x401036, Encoding: "55", Mnemonic: "pushq", Operands: "%rbp"}},
	} {
		c, err := importText(t, string(must(os.ReadFile("testdata/"+tc.file))), nil)
		if err != nil {
			t.Fatalf("%s: %v", tc.file, err)
		}
		if n := c.Instructions(); n != tc.insns {
			t.Errorf("%s: %d instructions, qemu -singlestep %d", tc.file, n, tc.insns)
		}
		for k, b := range c.Blocks {
			if k.ISA != tc.isa {
				t.Errorf("%s: block 0x%x read as %s", tc.file, k.PC, k.ISA)
			}
			checkLaidEndToEnd(t, b)
		}
		first := c.Blocks[cost.BlockKey{PID: 1, PC: tc.first.Addr, ISA: tc.isa}]
		if first == nil {
			t.Fatalf("%s: no block at 0x%x", tc.file, tc.first.Addr)
		}
		in := first.Insns[0]
		in.Class = ""
		if in != tc.first {
			t.Errorf("%s: first instruction %+v, want %+v", tc.file, in, tc.first)
		}
	}
	// movabsq's 10 bytes: 8 on its line, 2 on the next.
	c, _ := importText(t, string(must(os.ReadFile("testdata/x86_64-7.2.log"))), nil)
	b := c.Blocks[cost.BlockKey{PID: 1, PC: 0x401000, ISA: cost.X86_64}]
	if in := b.Insns[1]; in.Encoding != "48ba2549922449922449" || in.Mnemonic != "movabsq" || b.Insns[2].Addr != 0x40100e {
		t.Errorf("movabsq = %+v, then 0x%x", in, b.Insns[2].Addr)
	}
}

const (
	a64Block  = "----------------\nIN: f\n0x0040013c:  a9be7bfd  stp      x29, x30, [sp, #-0x20]!\n0x00400154:  97ffffee  bl       #0x40010c\n\n"
	a64Call   = "----------------\nIN: g\n0x00400150:  97ffffee  bl       #0x40010c\n\n" // names no register
	armBlock  = "----------------\nIN: f\n0x00010340:  e92d4ff0  push     {r4, r5, lr}\n0x00010344:  eb000001  bl       #0x10350\n\n"
	x86Block  = "----------------\nIN: f\n0x00401000:  48 ba 25 49 92 24 49 92  movabsq  $0x4924924924924925, %rdx\n0x00401008:  24 49\n0x0040100a:  c3                       retq     \n\n"
	trace72   = "Trace 0: 0x7fe413a00100 [0000000001009331/0000000000400150/00000001/00000200] g\n"
	trace90   = "Trace 0: 0x7fe413a00100 [00800000/0000000000400150/00000001/00000200] g\n" // A64 flags2 with the bit ARM's Thumb is
	traceX86  = "Trace 0: 0x7f66fc000280 [0000000000000000/0000000000401000/1040c0b3/00000200] f\n"
	traceARM  = "Trace 0: 0x7f5a18031f00 [00000480/00010340/00000000/00000200] f\n"
	a64OBJDT  = "----------------\nIN: g\n0x00400150:  \nOBJD-T: eeffff971f2003d5\n\n"
	armThumbX = "ARM, Thumb"
)

// docs/formats.md#which-instruction-set: what decides a block's instruction set when the
// caller does not, and the errors when what the caller says contradicts the log.
func TestWhichInstructionSet(t *testing.T) {
	for _, tc := range []struct {
		name string
		log  string
		isas []cost.ISA
		want map[uint64]cost.ISA // block pc → instruction set
	}{
		{"A64 registers", a64Block, nil, map[uint64]cost.ISA{0x40013c: cost.AArch64}},
		{"ARM registers", armBlock, nil, map[uint64]cost.ISA{0x10340: cost.ARM}},
		{"x86 bytes", x86Block, nil, map[uint64]cost.ISA{0x401000: cost.X86_64}},
		{"no tell, then QEMU 7.2's 16-digit cs_base", a64Call + trace72, nil, map[uint64]cost.ISA{0x400150: cost.AArch64}},
		{"no tell, then the next block's registers", a64Call + a64Block, nil, map[uint64]cost.ISA{0x400150: cost.AArch64, 0x40013c: cost.AArch64}},
		{"no tell at all: ARM", a64Call, nil, map[uint64]cost.ISA{0x400150: cost.ARM}},
		{"the caller's AArch64", a64Call, []cost.ISA{cost.AArch64}, map[uint64]cost.ISA{0x400150: cost.AArch64}},
		{"a guest of several sets", a64Call + trace72, cost.KnownISAs, map[uint64]cost.ISA{0x400150: cost.AArch64}},
		{"9.0 layout: no Thumb bit once the log is 64-bit", a64Block + a64Call + trace90, nil, map[uint64]cost.ISA{0x40013c: cost.AArch64, 0x400150: cost.AArch64}},
		{"A64 bytes, then a 16-digit cs_base", a64OBJDT + trace72, nil, map[uint64]cost.ISA{0x400150: cost.AArch64}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c, err := importText(t, tc.log, tc.isas)
			if err != nil {
				t.Fatal(err)
			}
			got := map[uint64]cost.ISA{}
			for k := range c.Blocks {
				got[k.PC] = k.ISA
			}
			if len(got) != len(tc.want) {
				t.Fatalf("blocks %v, want %v", got, tc.want)
			}
			for pc, isa := range tc.want {
				if got[pc] != isa {
					t.Errorf("blocks %v, want %v", got, tc.want)
				}
			}
			for k, n := range c.Counts {
				if k.ISA != tc.want[k.PC] {
					t.Errorf("%d executions counted for %v", n, k.BlockKey)
				}
			}
		})
	}
	// The OBJD-T words decode with arm64asm.
	c, _ := importText(t, a64OBJDT+trace72, nil)
	if b := c.Blocks[cost.BlockKey{PID: 1, PC: 0x400150, ISA: cost.AArch64}]; b == nil || len(b.Insns) != 2 || b.Insns[0].Mnemonic != "bl" || b.Insns[1].Encoding != "d503201f" || b.Insns[1].Mnemonic != "nop" {
		t.Errorf("A64 OBJD-T block = %+v", b)
	}

	for _, tc := range []struct {
		name, log string
		isas      []cost.ISA
		msg       string
	}{
		{"A64 text said to be ARM", a64Block, []cost.ISA{cost.ARM, cost.Thumb}, "the block at 0x40013c: the log is of a 64-bit guest (A64 registers, or QEMU's 16-digit addresses), but was read for " + armThumbX + " (a profile's"},
		{"A64 Trace line said to be ARM", a64Call + trace72, []cost.ISA{cost.ARM, cost.Thumb}, "a 64-bit guest (A64 registers, or QEMU's 16-digit addresses), but was read for " + armThumbX},
		{"ARM text said to be AArch64", armBlock, []cost.ISA{cost.AArch64}, "a 32-bit guest, but was read for AArch64"},
		{"ARM Trace line said to be x86-64", traceARM, []cost.ISA{cost.X86_64}, "a 32-bit guest"},
		{"x86 bytes said to be ARM", x86Block, []cost.ISA{cost.ARM, cost.Thumb}, "is x86 code (QEMU printed its bytes one by one), but the log was read for " + armThumbX},
		{"x86 Trace line said to be MIPS", x86Block + traceX86, []cost.ISA{cost.MIPS}, "x86 code"},
		{"x86 bytes that continue nothing", strings.Replace(x86Block, "0x00401008:  24 49", "0x00401009:  24 49", 1), nil, "x86 bytes at 0x401009, but the instruction at 0x401000 ends at 0x401008"},
		{"an x86 instruction of 16 bytes", strings.Replace(x86Block, "24 49\n", "24 49 00 00 00 00 00 00\n0x00401010:  00 00\n", 1), nil, "more than 15 bytes"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := importText(t, tc.log, tc.isas)
			if err == nil || !strings.Contains(err.Error(), tc.msg) {
				t.Errorf("error %v, want %q", err, tc.msg)
			}
		})
	}
}

// Lines of a real qemu-x86_64 7.2 log of Debian's amd64 bzip2: the block's instruction at
// 0x4002854fde lies across the first 1 KiB of its code, so capstone printed two bytes of it as
// .byte and decoded the rest out of step until 0x4002854feb.
const x86Skipped = `----------------
IN: BZ2_compressBlock
0x4002854fcc:  42 03 84 3b b8 c9 00 00  addl     0xc9b8(%rbx, %r15), %eax
0x4002854fd4:  49 01 dd                 addq     %rbx, %r13
0x4002854fd7:  41 03 95 c0 c9 00 00     addl     0xc9c0(%r13), %edx
0x4002854fde:  45                       .byte    0x45
0x4002854fdf:  03                       .byte    0x03
0x4002854fe0:  9d                       popfq    
0x4002854fe1:  bc c9 00 00 44           movl     $0x440000c9, %esp
0x4002854fe6:  0f b7 6c 75 32           movzwl   0x32(%rbp, %rsi, 2), %ebp
0x4002854feb:  4d 89 ef                 movq     %r13, %r15

Trace 0: 0x7f6f44135200 [0000000000000000/0000004002854fcc/1040c0b3/00000200] BZ2_compressBlock
`

func TestX86SkippedBytes(t *testing.T) {
	c, err := importText(t, x86Skipped, nil)
	if err != nil {
		t.Fatal(err)
	}
	b := c.Blocks[cost.BlockKey{PID: 1, PC: 0x4002854fcc, ISA: cost.X86_64}]
	var got []string
	for _, in := range b.Insns {
		got = append(got, fmt.Sprintf("%x %s %s", in.Addr, in.Encoding, in.Mnemonic))
	}
	want := []string{
		"4002854fcc 4203843bb8c90000 addl", "4002854fd4 4901dd addq", "4002854fd7 410395c0c90000 addl",
		"4002854fde 45039dbcc90000 add", "4002854fe5 440fb76c7532 movzwl", "4002854feb 4d89ef movq",
	}
	if !slices.Equal(got, want) || c.Instructions() != 6 {
		t.Errorf("instructions\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}
