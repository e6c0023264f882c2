package emulator

import "androprof/model"

// Sink receives what an emulator reader finds, as it streams: processes and threads, the
// block catalogue, and execution counts. The store's import transaction implements it, so a
// trace of any size is written without holding it in memory; tests use a Collector.
//
// Blocks are keyed by (pid, pc, instruction set): each process has its own address space, and
// one run may hold several programs. A reader calls Block before Count for the same key, and
// may call Count several times for one key (the sink adds them up).
type Sink interface {
	Process(p model.Process) error
	Thread(t model.Thread) error
	Block(pid int, b *Block) error
	Count(pid, tid int, pc uint64, isa model.ISA, executions int64) error
}

// Collector is a Sink that keeps everything in memory, for tests and small inputs.
type Collector struct {
	Processes []model.Process
	Threads   []model.Thread
	Blocks    map[BlockKey]*Block
	Counts    map[ThreadBlock]int64
}

// BlockKey identifies a block within a run.
type BlockKey struct {
	PID int
	PC  uint64
	ISA model.ISA
}

// ThreadBlock identifies a block's executions by one thread.
type ThreadBlock struct {
	BlockKey
	TID int
}

// NewCollector returns an empty Collector.
func NewCollector() *Collector {
	return &Collector{Blocks: map[BlockKey]*Block{}, Counts: map[ThreadBlock]int64{}}
}

func (c *Collector) Process(p model.Process) error { c.Processes = append(c.Processes, p); return nil }
func (c *Collector) Thread(t model.Thread) error   { c.Threads = append(c.Threads, t); return nil }

func (c *Collector) Block(pid int, b *Block) error {
	c.Blocks[BlockKey{pid, b.PC, b.ISA}] = b
	return nil
}

func (c *Collector) Count(pid, tid int, pc uint64, isa model.ISA, n int64) error {
	c.Counts[ThreadBlock{BlockKey{pid, pc, isa}, tid}] += n
	return nil
}

// Instructions is the dynamic instruction count: Σ executions × block length.
func (c *Collector) Instructions() int64 {
	var n int64
	for k, execs := range c.Counts {
		if b := c.Blocks[k.BlockKey]; b != nil {
			n += execs * int64(len(b.Insns))
		}
	}
	return n
}
