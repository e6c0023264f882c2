package bbprofile

import (
	"bufio"
	"cmp"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"

	"androprof/formats/internal/blocks"
	"androprof/model"
	"androprof/model/cost"
)

// Writer writes a basic-block profile section by section; Write uses it, and it
// is there for converters that stream.
type Writer struct {
	w       *bufio.Writer
	version int
	big     bool
	open    bool
	header  bool
	images  map[string]int     // the open process's images by path → id
	geom    cost.CacheGeometry // the open process's, once Cache wrote it
	blocks  bool               // the open process has a block: too late for cache lines
}

// NewWriter writes to w a profile without cache data, in version 2 so that older readers read
// it; call Flush at the end.
func NewWriter(w io.Writer) *Writer { return &Writer{w: bufio.NewWriter(w), version: plainVersion} }

// NewCacheWriter writes to w a version 3 profile, whose processes may carry a cache simulation
// (Cache, ThreadCount.Cache).
func NewCacheWriter(w io.Writer) *Writer { return &Writer{w: bufio.NewWriter(w), version: Version} }

// Process opens a process section (writing the header first in a new file).
func (bw *Writer) Process(p Process) error {
	if bw.open {
		return errors.New("basic-block profile: Process before End of the previous one")
	}
	if p.PID <= 0 || p.ParentPID < 0 {
		return fmt.Errorf("basic-block profile: bad pid %d or parent pid %d", p.PID, p.ParentPID)
	}
	bw.writeHeader()
	arch, pth := p.Arch, p.Path
	if arch == "" {
		arch = "unknown"
	}
	if pth == "" {
		pth = p.Name
	}
	bw.big = arch == "mips" || arch == "armeb"
	bw.open, bw.blocks, bw.geom = true, false, cost.CacheGeometry{}
	bw.images = map[string]int{}
	_, err := fmt.Fprintf(bw.w, "process %d %d %s 0x%x %s\n", p.PID, p.ParentPID, token(arch), p.StartCode, text(pth))
	return err
}

// writeHeader starts a file once: an empty profile is still a profile.
func (bw *Writer) writeHeader() {
	if !bw.header {
		fmt.Fprintf(bw.w, "%s %d\n", Magic, bw.version)
		bw.header = true
	}
}

// Thread declares a thread of the open process.
func (bw *Writer) Thread(tid int, name string) error {
	if !bw.open || tid <= 0 {
		return fmt.Errorf("basic-block profile: thread %d outside a process or not positive", tid)
	}
	fmt.Fprintf(bw.w, "thread %d", tid)
	if name != "" {
		fmt.Fprintf(bw.w, " %s", text(name))
	}
	return bw.w.WriteByte('\n')
}

// Image declares an image of the open process; blocks name it by its path.
func (bw *Writer) Image(im cost.Image) error {
	if !bw.open || im.Path == "" {
		return fmt.Errorf("basic-block profile: image %q outside a process or without a path", im.Path)
	}
	if _, dup := bw.images[im.Path]; dup {
		return nil
	}
	id := len(bw.images)
	bw.images[im.Path] = id
	_, err := fmt.Fprintf(bw.w, "image %d 0x%x %s\n", id, im.Base, text(im.Path))
	return err
}

// Syscall writes one thread's count of one system call.
func (bw *Writer) Syscall(s cost.Syscall) error {
	if !bw.open || s.TID <= 0 || s.Number < 0 || s.Count <= 0 || s.Insns < 0 {
		return fmt.Errorf("basic-block profile: bad system call %d of thread %d", s.Number, s.TID)
	}
	_, err := fmt.Fprintf(bw.w, "syscall %d %d %d %d\n", s.TID, s.Number, s.Count, s.Insns)
	return err
}

// Cache writes the geometry the open process's cache simulation ran with: its `cache` lines,
// before the process's first block. The writer must be a NewCacheWriter.
func (bw *Writer) Cache(g cost.CacheGeometry) error {
	switch {
	case bw.version < 3:
		return errors.New("basic-block profile: cache lines need version 3 (NewCacheWriter)")
	case !bw.open || bw.blocks || !bw.geom.IsZero():
		return errors.New("basic-block profile: Cache outside a process, after its first block, or twice")
	}
	if err := g.Validate(); err != nil {
		return fmt.Errorf("basic-block profile: %w", err)
	}
	for _, l := range g.Levels {
		wa := "nwa"
		if l.WriteAllocate {
			wa = "wa"
		}
		fmt.Fprintf(bw.w, "cache %s %d %d %d %s %s\n", l.Name, l.SizeBytes, l.Ways, l.LineBytes, l.Replacement, wa)
	}
	bw.geom = g
	return nil
}

// ThreadCount is one thread's executions of a block and, in a simulated process, what the
// cache simulation counted for them (Fetches aside: they are the executions' instructions).
type ThreadCount struct {
	TID        int
	Executions int64
	Cache      *cost.CacheCounts
}

// Block writes a block with its instructions and per-thread executions.
func (bw *Writer) Block(id uint64, b *cost.Block, execs []ThreadCount) error {
	if !bw.open {
		return errors.New("basic-block profile: Block outside a process")
	}
	if len(b.Insns) == 0 || len(b.Insns) > blocks.MaxInsns {
		return fmt.Errorf("basic-block profile: block at 0x%x has %d instructions (want 1…%d)", b.PC, len(b.Insns), blocks.MaxInsns)
	}
	bw.blocks = true
	image := "-"
	if b.Image != "" {
		n, ok := bw.images[b.Image]
		if !ok {
			return fmt.Errorf("basic-block profile: block at 0x%x is in image %q, which was not declared", b.PC, b.Image)
		}
		image = strconv.Itoa(n)
	}
	fmt.Fprintf(bw.w, "block %d 0x%x %s %d %s %s\n", id, b.PC, token(string(b.ISA)), len(b.Insns), image, text(b.Symbol))
	for _, in := range b.Insns {
		raw, err := unitBytes(in.Encoding, b.ISA, bw.big)
		if err != nil {
			return fmt.Errorf("basic-block profile: instruction at 0x%x: %w", in.Addr, err)
		}
		enc := "-"
		if len(raw) > 0 {
			enc = hex.EncodeToString(raw)
		}
		mn := token(in.Mnemonic)
		if mn == "" {
			mn = blocks.Undecoded
		}
		fmt.Fprintf(bw.w, "insn 0x%x %s %s", in.Addr, enc, mn)
		if in.Operands != "" {
			fmt.Fprintf(bw.w, " %s", text(in.Operands))
		}
		bw.w.WriteByte('\n')
	}
	for _, e := range execs {
		if e.TID <= 0 || e.Executions <= 0 {
			continue
		}
		fmt.Fprintf(bw.w, "exec %d %d\n", e.TID, e.Executions)
	}
	for _, e := range execs {
		if e.TID > 0 && e.Executions > 0 && e.Cache != nil {
			if err := bw.misses(e.TID, *e.Cache); err != nil {
				return fmt.Errorf("basic-block profile: block at 0x%x: %w", b.PC, err)
			}
		}
	}
	return nil
}

// misses writes one thread's misses line; `-` for a level the geometry lacks.
func (bw *Writer) misses(tid int, c cost.CacheCounts) error {
	if bw.geom.IsZero() {
		return errors.New("misses in a process without Cache")
	}
	levels := len(bw.geom.Levels) - 1 // below the L1s
	fmt.Fprintf(bw.w, "misses %d", tid)
	for _, group := range []struct {
		accesses int64
		miss     [3]int64
		counted  bool
	}{{0, c.FetchMiss, false}, {c.Reads, c.ReadMiss, true}, {c.Writes, c.WriteMiss, true}} {
		if group.counted {
			fmt.Fprintf(bw.w, " %d", group.accesses)
		}
		for i, m := range group.miss {
			switch {
			case i < levels:
				fmt.Fprintf(bw.w, " %d", m)
			case m != 0:
				return fmt.Errorf("thread %d has %d misses at L%d, which the geometry lacks", tid, m, i+1)
			default:
				bw.w.WriteString(" -")
			}
		}
	}
	return bw.w.WriteByte('\n')
}

// End closes the open process section.
func (bw *Writer) End() error {
	if !bw.open {
		return errors.New("basic-block profile: End without Process")
	}
	bw.open = false
	_, err := bw.w.WriteString("end\n")
	return err
}

// Flush writes what is buffered.
func (bw *Writer) Flush() error { return bw.w.Flush() }

// text makes free text fit one line: control characters become spaces.
func text(s string) string {
	return strings.Map(func(r rune) rune {
		if r < 0x20 || r == 0x7f {
			return ' '
		}
		return r
	}, s)
}

// token makes a field fit between spaces.
func token(s string) string {
	return strings.Map(func(r rune) rune {
		if r <= 0x20 || r == 0x7f {
			return '_'
		}
		return r
	}, s)
}

// Write writes what a Collector holds as a basic-block profile, one section per
// process in the order they were collected: how tests and demo data make files. archs gives
// each pid's QEMU target (byte order of encodings); a missing pid is guessed little-endian
// from its blocks. Blocks are written by (pc, instruction set) with ids counted from 0, and
// threads that only appear in counts are declared too.
func Write(w io.Writer, c *Collector, archs map[int]string) error {
	bw := NewWriter(w)
	if len(c.Geometries) > 0 {
		bw = NewCacheWriter(w)
	}
	bw.writeHeader()
	pids := []int{}
	procs := map[int]model.Process{}
	for _, p := range c.Processes {
		if _, dup := procs[p.PID]; !dup {
			pids = append(pids, p.PID)
		}
		procs[p.PID] = p
	}
	blocksOf := map[int][]cost.BlockKey{}
	for k := range c.Blocks {
		if _, ok := procs[k.PID]; !ok {
			return fmt.Errorf("basic-block profile: block at 0x%x of pid %d, which is not a process", k.PC, k.PID)
		}
		blocksOf[k.PID] = append(blocksOf[k.PID], k)
	}
	execsOf := map[cost.BlockKey][]ThreadCount{}
	for tb, n := range c.Counts {
		if c.Blocks[tb.BlockKey] == nil {
			return fmt.Errorf("basic-block profile: pid %d counts executions of 0x%x, which has no block", tb.PID, tb.PC)
		}
		tc := ThreadCount{TID: tb.TID, Executions: n}
		if m, ok := c.Cache[tb]; ok {
			tc.Cache = &m
		}
		execsOf[tb.BlockKey] = append(execsOf[tb.BlockKey], tc)
	}
	for _, pid := range pids {
		keys := blocksOf[pid]
		slices.SortFunc(keys, func(a, b cost.BlockKey) int {
			return cmp.Or(cmp.Compare(a.PC, b.PC), cmp.Compare(a.ISA, b.ISA))
		})
		arch := archs[pid]
		if arch == "" {
			arch = "arm"
			if len(keys) > 0 && keys[0].ISA == cost.MIPS {
				arch = "mipsel"
			} else if len(keys) > 0 && keys[0].ISA == cost.X86_64 {
				arch = "x86_64"
			}
		}
		if err := bw.Process(Process{Process: procs[pid], Arch: arch}); err != nil {
			return err
		}
		if g, ok := c.Geometries[pid]; ok {
			if err := bw.Cache(g); err != nil {
				return err
			}
		}
		declared := map[int]bool{}
		for _, t := range c.Threads {
			if t.PID == pid && !declared[t.TID] {
				declared[t.TID] = true
				if err := bw.Thread(t.TID, t.Name); err != nil {
					return err
				}
			}
		}
		for _, k := range keys {
			for _, e := range execsOf[k] {
				if !declared[e.TID] {
					declared[e.TID] = true
					if err := bw.Thread(e.TID, ""); err != nil {
						return err
					}
				}
			}
		}
		for _, im := range c.Images {
			if im.PID == pid {
				if err := bw.Image(im); err != nil {
					return err
				}
			}
		}
		for i, k := range keys {
			execs := execsOf[k]
			slices.SortFunc(execs, func(a, b ThreadCount) int { return cmp.Compare(a.TID, b.TID) })
			if err := bw.Block(uint64(i), c.Blocks[k], execs); err != nil {
				return err
			}
		}
		for _, s := range c.Syscalls {
			if s.PID == pid {
				if err := bw.Syscall(s); err != nil {
					return err
				}
			}
		}
		if err := bw.End(); err != nil {
			return err
		}
	}
	return bw.Flush()
}
