package cost

import (
	modelmodel "androprof/model"
)

// ProcessSummary is a process of a run with its size.
type ProcessSummary struct {
	modelmodel.Process
	Threads        int
	BlocksExecuted int64 // block executions
	Instructions   int64 // dynamic instructions
}

// ProcessInstructions is a process's dynamic count of one instruction.
type ProcessInstructions struct {
	PID int
	InstructionCount
}

// FunctionInstructions is a function's (symbol's) dynamic count of one instruction.
type FunctionInstructions struct {
	PID    int
	Image  string // the image's name; "" when the trace named none
	Symbol string
	InstructionCount
}

// BlockSummary is one translated block with how often it ran and what it is made of.
type BlockSummary struct {
	ID         int64
	PID        int
	PC         uint64
	ISA        ISA
	Symbol     string
	Image      string    // the image's name; "" when the trace named none
	ImageKind  ImageKind // with Image
	Insns      int
	Executions int64
	Mix        []InstructionCount // static occurrences per instruction in the block
}

// BlockInstruction is one instruction of a block as the trace showed it.
type BlockInstruction struct {
	Addr        uint64
	Encoding    string
	Printed     string // mnemonic as printed
	Operands    string
	Instruction Instruction // normalised
}
