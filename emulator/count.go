package emulator

import (
	"context"
	"sort"

	"androprof/formats"
	"androprof/formats/qemulog"
	"androprof/model"
	"androprof/model/cost"
)

// InsnCount is how often one normalised instruction appears in the logs.
type InsnCount struct {
	Instruction cost.Instruction
	Static      int64 // occurrences in distinct translated blocks
	Executions  int64 // dynamic count; meaningful only when HasExec
	HasExec     bool  // the logs had Trace lines
}

// CountLogInstructions reads `-d in_asm` logs, optionally with `exec,nochain` Trace lines in the
// same or separate files, and counts every instruction: statically per translated block and,
// when Trace lines exist, dynamically as block executions × occurrences. paths may be folders
// of logs (formats.ExpandDirs); the logs are read through qemulog.ImportLogs, so the rules for
// processes are the same as an import's.
func CountLogInstructions(ctx context.Context, paths []string, isas []cost.ISA, progress func(done, total int64)) ([]InsnCount, error) {
	s := &insnSink{blocks: map[cost.BlockKey][]string{}, execs: map[cost.BlockKey]int64{}}
	logs, err := formats.ExpandDirs(paths)
	if err != nil {
		return nil, err
	}
	if err := qemulog.ImportLogs(ctx, logs, isas, s, progress); err != nil {
		return nil, err
	}
	blocks, execs := s.blocks, s.execs

	counts := map[cost.Instruction]*InsnCount{}
	get := func(isa cost.ISA, m string) *InsnCount {
		in := cost.Instruction{ISA: isa, Mnemonic: m}
		c, ok := counts[in]
		if !ok {
			c = &InsnCount{Instruction: in, HasExec: len(execs) > 0}
			counts[in] = c
		}
		return c
	}
	for k, ms := range blocks {
		for _, m := range ms {
			get(k.ISA, m).Static++
		}
	}
	for k, n := range execs {
		for _, m := range blocks[k] {
			get(k.ISA, m).Executions += n
		}
	}
	out := make([]InsnCount, 0, len(counts))
	for _, c := range counts {
		out = append(out, *c)
	}
	sort.Slice(out, func(i, j int) bool {
		if out[i].Executions != out[j].Executions {
			return out[i].Executions > out[j].Executions
		}
		return out[i].Instruction.Less(out[j].Instruction)
	})
	return out, nil
}

// insnSink keeps what CountLogInstructions needs: each block's normalised mnemonics and its
// executions summed over threads.
type insnSink struct {
	blocks map[cost.BlockKey][]string
	execs  map[cost.BlockKey]int64
}

func (s *insnSink) Process(model.Process) error { return nil }
func (s *insnSink) Thread(model.Thread) error   { return nil }

func (s *insnSink) Block(pid int, b *cost.Block) error {
	ms := make([]string, len(b.Insns))
	for i, in := range b.Insns {
		ms[i] = in.ClassOrMnemonic()
	}
	s.blocks[cost.BlockKey{PID: pid, PC: b.PC, ISA: b.ISA}] = ms
	return nil
}

func (s *insnSink) Count(pid, tid int, pc uint64, isa cost.ISA, n int64) error {
	s.execs[cost.BlockKey{PID: pid, PC: pc, ISA: isa}] += n
	return nil
}
