// Package storetest holds the small run that the store's and the windows' tests import: real
// data through the real store, small enough to check every number by hand.
package storetest

import (
	"errors"

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

// CachedGeometry is the hierarchy CachedRun was simulated with.
const CachedGeometry = "l1i=32k:4:64,l1d=32k:4:64,l2=512k:8:64"

// CachedRun is SmallRun simulated with CachedGeometry (source "--cache"): s must be a
// cost.CacheSink. Per thread, the loop (pid 10) misses L1I 3 and 0 times, L2 once; its reads
// (60 and 40) miss L1D 2 and 1 times, L2 once; thread 0's 30 writes miss L1D and L2 once. The
// child's block misses L1I and L2 once and reads and writes nothing.
func CachedRun(s cost.BlockSink) error {
	cs, ok := s.(cost.CacheSink)
	if !ok {
		return errors.New("storetest.CachedRun: the sink keeps no cache data")
	}
	g, err := cost.ParseCacheGeometry(CachedGeometry)
	if err != nil {
		return err
	}
	sim := &simulated{BlockSink: s, cs: cs, g: g}
	if err := SmallRun(sim); err != nil {
		return err
	}
	for _, err := range []error{
		cs.Misses(10, 0, 0x1000, cost.ARM, cost.CacheCounts{FetchMiss: [3]int64{3, 1}, Reads: 60, ReadMiss: [3]int64{2, 1}, Writes: 30, WriteMiss: [3]int64{1, 1}}),
		cs.Misses(10, 1, 0x1000, cost.ARM, cost.CacheCounts{Reads: 40, ReadMiss: [3]int64{1}}),
		cs.Misses(11, 0, 0x2000, cost.Thumb, cost.CacheCounts{FetchMiss: [3]int64{1, 1}}),
	} {
		if err != nil {
			return err
		}
	}
	return nil
}

// simulated sends each process's geometry right after the process, as a reader does.
type simulated struct {
	cost.BlockSink
	cs cost.CacheSink
	g  cost.CacheGeometry
}

func (s *simulated) Process(p model.Process) error {
	if err := s.BlockSink.Process(p); err != nil {
		return err
	}
	return s.cs.Geometry(p.PID, s.g, "--cache")
}
