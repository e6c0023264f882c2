// Package blocks holds what the two readers of emulator blocks, formats/qemulog and
// formats/bbprofile, share: the bound on a block's size, the mnemonic of an instruction known
// only by its bytes, and the naming of each instruction's class before a sink sees it.
package blocks

import (
	"androprof/isaprofiles"
	"androprof/model/cost"
)

// MaxInsns is the most instructions a reader keeps of one block, so a block's memory is
// bounded whatever a file holds. QEMU's TCG stops a block at 512 instructions (TCG_MAX_INSNS);
// versions before that limit stopped at the end of a 4 KiB page of guest code, which no
// instruction (one byte at least) can fill past 4096. A longer block is an error naming its
// size.
const MaxInsns = 4096

// Undecoded stands for an instruction a file gave only as bytes (a QEMU log's OBJD-T lines)
// that the workbench cannot decode: Thumb and MIPS words, and the ARM words armasm does not
// know. The instruction still counts, so dynamic totals stay exact; a profile can price "?" or
// leave it uncategorised.
const Undecoded = "?"

// Classify names each instruction of b as its ISA's catalogue does (model.Insn.Class), once the
// block's ISA is known and before a sink sees it, so what stores and counts instructions needs
// no catalogue of its own.
func Classify(b *cost.Block) {
	cat := isaprofiles.CatalogFor(b.ISA)
	for i := range b.Insns {
		b.Insns[i].Class = cat.Classify(b.Insns[i])
	}
}
