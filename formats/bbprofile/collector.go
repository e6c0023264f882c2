package bbprofile

import (
	"androprof/model"
	"androprof/model/cost"
)

// Collector is a model.BlockSink (and model.ImageSink and cost.CacheSink) that keeps everything
// in memory, for tests and small inputs; Write writes one as a profile.
type Collector struct {
	Processes []model.Process
	Threads   []model.Thread
	Images    []cost.Image
	Blocks    map[cost.BlockKey]*cost.Block
	Counts    map[ThreadBlock]int64
	Syscalls  []cost.Syscall

	// Geometries is each simulated process's cache geometry, GeometrySource the last source given;
	// Cache sums the misses lines per thread and block (Fetches 0: they are in Counts).
	Geometries     map[int]cost.CacheGeometry
	GeometrySource string
	Cache          map[ThreadBlock]cost.CacheCounts
}

// ThreadBlock identifies a block's executions by one thread.
type ThreadBlock struct {
	cost.BlockKey
	TID int
}

// NewCollector returns an empty Collector.
func NewCollector() *Collector {
	return &Collector{Blocks: map[cost.BlockKey]*cost.Block{}, Counts: map[ThreadBlock]int64{},
		Geometries: map[int]cost.CacheGeometry{}, Cache: map[ThreadBlock]cost.CacheCounts{}}
}

func (c *Collector) Process(p model.Process) error { c.Processes = append(c.Processes, p); return nil }
func (c *Collector) Thread(t model.Thread) error   { c.Threads = append(c.Threads, t); return nil }

func (c *Collector) Image(im cost.Image) error    { c.Images = append(c.Images, im); return nil }
func (c *Collector) Syscall(s cost.Syscall) error { c.Syscalls = append(c.Syscalls, s); return nil }

func (c *Collector) Block(pid int, b *cost.Block) error {
	c.Blocks[cost.BlockKey{PID: pid, PC: b.PC, ISA: b.ISA}] = b
	return nil
}

func (c *Collector) Count(pid, tid int, pc uint64, isa cost.ISA, n int64) error {
	c.Counts[ThreadBlock{cost.BlockKey{PID: pid, PC: pc, ISA: isa}, tid}] += n
	return nil
}

// Geometry keeps a process's geometry. Unlike the store, it keeps one per process, so a file
// written from it says what was read.
func (c *Collector) Geometry(pid int, g cost.CacheGeometry, source string) error {
	c.Geometries[pid], c.GeometrySource = g, source
	return nil
}

func (c *Collector) Misses(pid, tid int, pc uint64, isa cost.ISA, m cost.CacheCounts) error {
	k := ThreadBlock{cost.BlockKey{PID: pid, PC: pc, ISA: isa}, tid}
	sum := c.Cache[k]
	sum.Add(m)
	c.Cache[k] = sum
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
