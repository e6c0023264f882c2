package emulator

import (
	"context"
	"fmt"
	"io"
	"os"
	"sort"

	"androprof/isaprofiles"
	"androprof/model"
)

// InsnCount is how often one normalised instruction appears in the logs.
type InsnCount struct {
	Instruction model.Instruction
	Static      int64 // occurrences in distinct translated blocks
	Executions  int64 // dynamic count; meaningful only when HasExec
	HasExec     bool  // the logs had Trace lines
}

type blockKey struct {
	pc  uint64
	isa model.ISA
}

// CountingReader counts bytes read so long work can report progress.
type CountingReader struct {
	R io.Reader
	N int64
}

func (c *CountingReader) Read(p []byte) (int, error) {
	n, err := c.R.Read(p)
	c.N += int64(n)
	return n, err
}

// CountLogInstructions reads `-d in_asm` logs, optionally with `exec,nochain` Trace lines in the
// same or separate files, and counts every instruction: statically per translated block and,
// when Trace lines exist, dynamically as block executions × occurrences. Files are one program.
func CountLogInstructions(ctx context.Context, paths []string, isas []model.ISA, progress func(done, total int64)) ([]InsnCount, error) {
	var total int64
	for _, p := range paths {
		st, err := os.Stat(p)
		if err != nil {
			return nil, err
		}
		total += st.Size()
	}
	blocks := map[blockKey][]string{}
	atPC := map[uint64]blockKey{}
	execs := map[blockKey]int64{}
	var done int64
	for _, path := range paths {
		f, err := os.Open(path)
		if err != nil {
			return nil, err
		}
		cr := &CountingReader{R: f}
		lr := NewLogReader(cr, path, isas)
		for n := 0; ; n++ {
			rec, err := lr.Next()
			if err == io.EOF {
				break
			}
			if err != nil {
				f.Close()
				return nil, err
			}
			if n%4096 == 0 {
				if err := ctx.Err(); err != nil {
					f.Close()
					return nil, err
				}
				if progress != nil {
					progress(done+cr.N, total)
				}
			}
			switch {
			case rec.Block != nil:
				k := blockKey{rec.Block.PC, rec.Block.ISA}
				if _, seen := blocks[k]; seen {
					continue // a re-translation of the same code
				}
				cat := isaprofiles.CatalogFor(rec.Block.ISA)
				ms := make([]string, len(rec.Block.Insns))
				for i, in := range rec.Block.Insns {
					ms[i] = cat.Normalize(in.Mnemonic)
				}
				blocks[k] = ms
				atPC[k.pc] = k
			case rec.Exec != nil:
				execs[blockKey{rec.Exec.PC, rec.Exec.ISA}]++
			}
		}
		f.Close()
		done += cr.N
	}
	if progress != nil {
		progress(total, total)
	}

	counts := map[model.Instruction]*InsnCount{}
	get := func(isa model.ISA, m string) *InsnCount {
		in := model.Instruction{ISA: isa, Mnemonic: m}
		c, ok := counts[in]
		if !ok {
			c = &InsnCount{Instruction: in, HasExec: len(execs) > 0}
			counts[in] = c
		}
		return c
	}
	for k, ms := range blocks {
		for _, m := range ms {
			get(k.isa, m).Static++
		}
	}
	var unmatched int64
	for k, n := range execs {
		ms, ok := blocks[k]
		bk := k
		if !ok { // the Trace layout did not tell the mode, or told one the log text did not
			if bk, ok = atPC[k.pc]; ok {
				ms = blocks[bk]
			}
		}
		if !ok {
			unmatched += n
			continue
		}
		for _, m := range ms {
			get(bk.isa, m).Executions += n
		}
	}
	if unmatched > 0 {
		return nil, fmt.Errorf("%d executed blocks have no translation in the logs: give the -d in_asm output together with the exec log", unmatched)
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
