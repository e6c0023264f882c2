package qemulog

import (
	"encoding/hex"
	"strings"

	"golang.org/x/arch/x86/x86asm"

	"androprof/model/cost"
)

// skipped is what QEMU's capstone prints for bytes it did not decode. QEMU hands capstone a
// block's code 1 KiB at a time with CS_OPT_SKIPDATA on (disas/capstone.c, cap_disas_target),
// so an x86 instruction across the end of such a piece comes out as ".byte 0x45" lines, one
// per byte, and capstone goes on decoding at the next byte, out of step with the instructions
// QEMU translated until it happens to fall back in: in Debian's amd64 libbz2 under QEMU 7.2,
// "45 03 9d bc c9 00 00" (addl 0xc9bc(%r13), %r11d) 1021 bytes into a block came out as
// .byte, .byte, popfq, movl and a movzwl one byte late, three instructions too many.
const skipped = ".byte"

// resplitX86 puts right the instructions of an x86 block where capstone skipped bytes: from
// the first skipped byte until an instruction capstone printed starts where one ends,
// golang.org/x/arch/x86/x86asm splits the block's bytes, which QEMU printed whole. The
// instructions capstone decoded where they start are kept as printed: x86asm is the fallback,
// not the judge, since it knows less than capstone (it reads endbr64 as a lone rep prefix).
func (lr *Reader) resplitX86(b *cost.Block) error {
	if !hasSkipped(b) {
		return nil
	}
	var code []byte
	printed := map[uint64]cost.Insn{} // capstone's instructions by address
	for _, in := range b.Insns {
		raw, err := hex.DecodeString(in.Encoding)
		if err != nil || in.Addr != b.PC+uint64(len(code)) {
			return lr.errorAt(b.Line, "the x86 block at 0x%x: bad bytes at 0x%x", b.PC, in.Addr)
		}
		code = append(code, raw...)
		if in.Mnemonic != skipped {
			printed[in.Addr] = in
		}
	}
	insns := b.Insns[:0:0]
	for off := 0; off < len(code); {
		addr := b.PC + uint64(off)
		if in, ok := printed[addr]; ok {
			insns = append(insns, in)
			off += len(in.Encoding) / 2
			continue
		}
		inst, err := x86asm.Decode(code[off:], 64)
		if err != nil {
			return lr.errorAt(b.Line, "the x86 block at 0x%x: neither QEMU's disassembler nor x86asm decodes the bytes at 0x%x, so its instructions are unknown", b.PC, addr)
		}
		mn, ops, _ := strings.Cut(x86asm.GNUSyntax(inst, addr, nil), " ")
		insns = append(insns, cost.Insn{Addr: addr, Encoding: hex.EncodeToString(code[off : off+inst.Len]), Mnemonic: lr.str([]byte(mn)), Operands: ops})
		off += inst.Len
	}
	b.Insns = insns
	return nil
}

func hasSkipped(b *cost.Block) bool {
	for _, in := range b.Insns {
		if in.Mnemonic == skipped {
			return true
		}
	}
	return false
}
