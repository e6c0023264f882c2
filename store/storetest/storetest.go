// Package storetest holds the small run that the store's and the windows' tests import: real
// data through the real store, small enough to check every number by hand.
package storetest

import (
	"androprof/model"
	"androprof/model/cost"
)

// SmallRun is a two-process run: pid 10 runs a 3-instruction ARM loop 100 times on two
// threads (60 and 40), pid 11 (its child) a 2-instruction Thumb block once. 302 instructions.
func SmallRun(s cost.BlockSink) error {
	loop := &cost.Block{PC: 0x1000, ISA: cost.ARM, Symbol: "loop", Insns: []cost.Insn{
		{Addr: 0x1000, Encoding: "e2800001", Mnemonic: "add", Class: "ADD", Operands: "r0, r0, #1"},
		{Addr: 0x1004, Encoding: "e3500064", Mnemonic: "cmp", Class: "CMP", Operands: "r0, #100"},
		{Addr: 0x1008, Encoding: "1afffffc", Mnemonic: "bne", Class: "BNE", Operands: "#0x1000"},
	}}
	child := &cost.Block{PC: 0x2000, ISA: cost.Thumb, Symbol: "main", Insns: []cost.Insn{
		{Addr: 0x2000, Encoding: "2001", Mnemonic: "movs", Class: "MOV", Operands: "r0, #1"},
		{Addr: 0x2002, Encoding: "4770", Mnemonic: "bx", Class: "BX", Operands: "lr"},
	}}
	for _, err := range []error{
		s.Process(model.Process{PID: 10, Name: "parent"}),
		s.Process(model.Process{PID: 11, ParentPID: 10, Name: "child"}),
		s.Thread(model.Thread{PID: 10, TID: 0, Name: "main"}),
		s.Block(10, loop), s.Block(11, child),
		s.Block(10, loop), // a re-translation is ignored
		s.Count(10, 0, 0x1000, cost.ARM, 60),
		s.Count(10, 1, 0x1000, cost.ARM, 40),
		s.Count(11, 0, 0x2000, cost.Thumb, 1),
	} {
		if err != nil {
			return err
		}
	}
	return nil
}
