package qemulog

import (
	"encoding/binary"
	"fmt"
	"strings"

	"golang.org/x/arch/arm/armasm"
	"golang.org/x/arch/arm64/arm64asm"

	"androprof/formats/internal/blocks"
	"androprof/model/cost"
)

// A QEMU built without a disassembler for the guest (7.1+ without capstone for ARM, any
// version for some targets) logs each translated block as its first address and then the
// block's bytes in memory order, 32 to a line (QEMU disas/objdump.c, print_insn_objdump):
//
//	0x00010340:  ␠␠
//	OBJD-T: f04f2de9000050e3…
//	OBJD-T: …
//	<blank line>
//
// decodeBlock splits those bytes into instructions. ARM words are decoded with armasm into
// GNU syntax (what objdump prints, close to capstone's text), A64 words with arm64asm (a QEMU built
// with no A64 disassembler prints them so); words
// they do not know (NEON loads and stores, about 4% of distinct ARM words) and all Thumb and
// MIPS instructions get blocks.Undecoded: x/arch has no Thumb or MIPS decoder
// (docs/formats.md#qemu-blocks-given-as-bytes). Lengths are exact in every case, so dynamic
// instruction counts are too. Guests are little-endian, as every Android target is.
func (lr *Reader) decodeBlock(b *cost.Block, runs []objdRun, mode isaCode) error {
	b.ISA = isaByCode[mode]
	if mode == isaOther {
		b.ISA = lr.hint[0]
	}
	b.Insns = b.Insns[:0]
	for _, r := range runs {
		unit := 4
		if mode == isaThumb {
			unit = 2
		}
		if mode != isaARM && mode != isaThumb && mode != isaMIPS && mode != isaA64 {
			return lr.errorAt(r.line, "OBJD-T bytes of a %s block cannot be split into instructions", b.ISA)
		}
		if len(r.bytes) == 0 || len(r.bytes)%unit != 0 {
			return lr.errorAt(r.line, "%d OBJD-T bytes at 0x%x are not whole %s instructions (truncated?)", len(r.bytes), r.addr, b.ISA)
		}
		for i := 0; i < len(r.bytes); {
			if len(b.Insns) >= blocks.MaxInsns {
				return lr.errorAt(r.line, "block at 0x%x has more than %d instructions; QEMU translates at most 512", b.PC, blocks.MaxInsns)
			}
			in := cost.Insn{Addr: r.addr + uint64(i), Mnemonic: blocks.Undecoded}
			switch mode {
			case isaARM:
				w := binary.LittleEndian.Uint32(r.bytes[i:])
				in.Encoding = fmt.Sprintf("%08x", w)
				if inst, err := armasm.Decode(r.bytes[i:i+4], armasm.ModeARM); err == nil {
					mn, ops, _ := strings.Cut(armasm.GNUSyntax(inst), " ")
					if rel, ok := inst.Args[0].(armasm.PCRel); ok && inst.Args[1] == nil {
						// A branch: the absolute target, as capstone prints it (ARM reads pc as +8).
						ops = fmt.Sprintf("#0x%x", uint32(in.Addr)+8+uint32(rel))
					}
					in.Mnemonic, in.Operands = lr.str([]byte(mn)), ops
				}
				i += 4
			case isaThumb:
				h := binary.LittleEndian.Uint16(r.bytes[i:])
				i += 2
				// 0b11101, 0b11110 and 0b11111 in the top bits open a 32-bit instruction.
				if h>>11 >= 0x1d {
					if i+2 > len(r.bytes) {
						return lr.errorAt(r.line, "OBJD-T bytes at 0x%x end inside a 32-bit Thumb instruction", r.addr)
					}
					in.Encoding = fmt.Sprintf("%04x %04x", h, binary.LittleEndian.Uint16(r.bytes[i:]))
					i += 2
				} else {
					in.Encoding = fmt.Sprintf("%04x", h)
				}
			case isaMIPS:
				in.Encoding = fmt.Sprintf("%08x", binary.LittleEndian.Uint32(r.bytes[i:]))
				i += 4
			case isaA64:
				in.Encoding = fmt.Sprintf("%08x", binary.LittleEndian.Uint32(r.bytes[i:]))
				if inst, err := arm64asm.Decode(r.bytes[i : i+4]); err == nil {
					mn, ops, _ := strings.Cut(arm64asm.GNUSyntax(inst), " ")
					in.Mnemonic, in.Operands = lr.str([]byte(mn)), ops
				}
				i += 4
			}
			b.Insns = append(b.Insns, in)
		}
	}
	return nil
}
