package cost

import (
	modelmodel "androprof/model"
)

// Insn is one guest instruction of a translated block, as the emulator's trace shows it.
type Insn struct {
	Addr     uint64
	Encoding string // hex units as printed ("e92d4ff0", "f44f 5bfa"); "" when the trace has none
	Mnemonic string // as printed, not normalised; "?" when the trace had only bytes
	Operands string
	// Class is the mnemonic as the ISA's catalogue names it (conditions and widths folded),
	// the key profiles price by; "" means Mnemonic is already in that form.
	Class string
}

// ClassOrMnemonic is the name a profile prices the instruction by.
func (in Insn) ClassOrMnemonic() string {
	if in.Class != "" {
		return in.Class
	}
	return in.Mnemonic
}

// Block is one translated block: the unit QEMU counts executions of.
type Block struct {
	PC     uint64
	ISA    ISA
	Symbol string
	Image  string // Path of the image (ImageSink) its code is in; "" when the trace names none
	Insns  []Insn
	Line   int64 // line of its first instruction in the file it came from
}

// BlockKey identifies a block within a run.
type BlockKey struct {
	PID int
	PC  uint64
	ISA ISA
}

// BlockSink receives what an emulator reader finds, as it streams: processes and threads, the
// block catalogue, and execution counts. The store's import transaction implements it, so a
// trace of any size is written without holding it in memory.
//
// Blocks are keyed by (pid, pc, instruction set): each process has its own address space, and
// one run may hold several programs. A reader calls Block before Count for the same key, and
// may call Count several times for one key (the sink adds them up).
type BlockSink interface {
	Process(p modelmodel.Process) error
	Thread(t modelmodel.Thread) error
	Block(pid int, b *Block) error
	Count(pid, tid int, pc uint64, isa ISA, executions int64) error
}
