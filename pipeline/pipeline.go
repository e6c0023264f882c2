// Package pipeline prices a basic block's pipeline cycles as the compiler's machine model sees
// them: the block's own bytes are disassembled by llvm-mc and the text simulated by llvm-mca
// for the profile's CPU (docs/pipeline.md). The model packages do not import it; the controller
// prices a run's hot blocks with it and keeps the results in the workspace (store).
package pipeline

import (
	"context"
	"errors"
	"fmt"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"

	"androprof/internal/proc"
	"androprof/model/cost"
)

// DefaultTool is the llvm-mca a model without a Tool runs: Debian's llvm-19 (scripts/deps.sh
// installs it with llvm-16), the first that can price a call as a branch (callArgs).
const DefaultTool = "llvm-mca-19"

// Iterations is how often llvm-mca runs each block; a block's cycles are Total Cycles ÷
// Iterations. 100 is llvm-mca's own default: the pipeline's fill and drain (a few cycles, or a
// call's assumed 100-cycle latency on an out-of-order model) then add at most about one cycle
// to a block, while the simulation's time grows with the count (docs/pipeline.md).
const Iterations = 100

// batchSize is how many blocks one llvm-mc and one llvm-mca process take: large enough that
// starting the processes costs little beside the work, small enough that a cancel or a
// failing block costs little.
const batchSize = 200

// Block is a block's code as the trace recorded it: Encodings are the hex units of
// cost.BlockInstruction.Encoding, one entry per instruction, in order.
type Block struct {
	ISA       cost.ISA
	Encodings []string
}

// Result is one block's price: Cycles for one execution when OK, otherwise Note says why the
// model could not price it (the instruction llvm-mc or llvm-mca refused, a CPU without a model).
type Result struct {
	Cycles float64
	OK     bool
	Note   string
}

// Key identifies a block's price in the workspace (block_pipeline): the same code under the
// same tool and CPU has the same cycles in every run.
func Key(m cost.PipelineModel, b Block) string {
	parts := []string{tool(m), m.CPU, triple(b.ISA), strings.Join(b.Encodings, ",")}
	if args := callArgs(tool(m)); len(args) > 0 {
		parts = slices.Insert(parts, 2, args...)
	}
	return strings.Join(parts, "|")
}

// callArgs tells llvm-mca a call takes one cycle. By default it assumes 100 (the callee is
// unknown), which an in-order model pays on every block that ends in a call (Cortex-A55: 102
// cycles against 7 for the others); the callee's own blocks are priced where they run, so the
// call itself is only a branch. llvm-mca has the option from LLVM 19; older ones keep the 100
// cycles, which docs/pipeline.md says.
func callArgs(mca string) []string {
	v, ok := strings.CutPrefix(filepath.Base(mca), "llvm-mca-")
	if n, err := strconv.Atoi(v); ok && err == nil && n >= 19 {
		return []string{"--call-latency=1"}
	}
	return nil
}

// Describe names the model as a report shows it: "llvm-mca-16 -mcpu=cortex-a55".
func Describe(m cost.PipelineModel) string {
	if m.IsZero() {
		return "no machine model"
	}
	return tool(m) + " -mcpu=" + m.CPU
}

// tool is the model's llvm-mca binary.
func tool(m cost.PipelineModel) string {
	if m.Tool == "" {
		return DefaultTool
	}
	return m.Tool
}

// Price gives each block's steady-state cycles per execution under m. Blocks llvm-mc cannot
// disassemble or llvm-mca cannot price get OK=false and a Note; the others are priced all the
// same. Branches, calls and system calls are priced as llvm-mca sees them (docs/pipeline.md).
// progress, when not nil, hears how many blocks are done. A missing tool is a
// *proc.MissingToolError; a cancelled ctx stops the processes and returns its error.
func Price(ctx context.Context, m cost.PipelineModel, blocks []Block, progress func(done, total int)) ([]Result, error) {
	if m.IsZero() {
		return nil, errors.New("pipeline: the machine model names no CPU")
	}
	t, err := lookTools(m)
	if err != nil {
		return nil, err
	}
	results := make([]Result, len(blocks))
	batches := plan(blocks, results)
	counter := &progressCounter{report: progress, total: len(blocks), done: len(blocks) - pending(batches)}
	counter.add(0)
	err = runBatches(ctx, batches, func(ctx context.Context, b []*item) error {
		if err := t.price(ctx, b); err != nil {
			return err
		}
		for _, it := range b {
			for _, i := range it.indices {
				results[i] = it.result
			}
		}
		counter.add(blocksOf(b))
		return nil
	})
	if err != nil {
		return nil, err
	}
	return results, nil
}

// tools are the llvm-mc and llvm-mca of one LLVM version (their outputs must agree) and the CPU.
type tools struct {
	mc, mca, cpu string
}

// lookTools finds llvm-mca and the llvm-mc beside it, or says which Debian package has them.
func lookTools(m cost.PipelineModel) (*tools, error) {
	mca := tool(m)
	dir, base := filepath.Split(mca)
	mc := dir + strings.Replace(base, "llvm-mca", "llvm-mc", 1)
	for _, name := range []string{mca, mc} {
		if _, err := exec.LookPath(name); err != nil {
			return nil, &proc.MissingToolError{Tool: name, Package: debianPackage(base),
				Purpose: "to price blocks with LLVM's machine model"}
		}
	}
	return &tools{mc: mc, mca: mca, cpu: m.CPU}, nil
}

// debianPackage is the package that installs an llvm-mca: llvm-mca-16 is in llvm-16.
func debianPackage(mca string) string {
	if v, ok := strings.CutPrefix(mca, "llvm-mca-"); ok && v != "" {
		return "llvm-" + v
	}
	return "llvm"
}

// item is one distinct block to price, with the indices of Price's blocks that share its code.
type item struct {
	block   Block
	indices []int
	bytes   [][]byte // each instruction's bytes in memory order
	asm     []string // llvm-mc's text of the instructions, once disassembled
	result  Result
}

// plan groups the distinct blocks by instruction set into batches; a block that cannot be
// priced at all (no bytes in the trace, an instruction set LLVM is not asked about) gets its
// Result here and goes in no batch.
func plan(blocks []Block, results []Result) [][]*item {
	byKey := map[string]*item{}
	byISA := map[cost.ISA][]*item{}
	var order []cost.ISA
	for i, b := range blocks {
		k := Key(cost.PipelineModel{}, b)
		if it := byKey[k]; it != nil {
			it.indices = append(it.indices, i)
			continue
		}
		bytes, note := memoryBytes(b)
		if note != "" {
			results[i] = Result{Note: note}
			continue
		}
		it := &item{block: b, indices: []int{i}, bytes: bytes}
		byKey[k] = it
		if byISA[b.ISA] == nil {
			order = append(order, b.ISA)
		}
		byISA[b.ISA] = append(byISA[b.ISA], it)
	}
	var batches [][]*item
	for _, isa := range order {
		all := byISA[isa]
		for len(all) > 0 {
			n := min(batchSize, len(all))
			batches = append(batches, all[:n:n])
			all = all[n:]
		}
	}
	return batches
}

// blocksOf counts Price's blocks a batch stands for.
func blocksOf(b []*item) int {
	n := 0
	for _, it := range b {
		n += len(it.indices)
	}
	return n
}

// pending counts the blocks the batches stand for.
func pending(batches [][]*item) int {
	n := 0
	for _, b := range batches {
		n += blocksOf(b)
	}
	return n
}

// progressCounter reports progress from the batches' goroutines one at a time.
type progressCounter struct {
	mu          sync.Mutex
	report      func(done, total int)
	done, total int
}

func (c *progressCounter) add(n int) {
	if c.report == nil {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	c.done += n
	c.report(c.done, c.total)
}

// runBatches prices the batches on as many processes at once as there are CPUs (at most
// four); the first error cancels the rest.
func runBatches(ctx context.Context, batches [][]*item, price func(context.Context, []*item) error) error {
	ctx, cancel := context.WithCancelCause(ctx)
	defer cancel(nil)
	work := make(chan []*item)
	var wg sync.WaitGroup
	for range min(runtime.NumCPU(), 4, len(batches)) {
		wg.Go(func() {
			for b := range work {
				if err := price(ctx, b); err != nil {
					cancel(err)
				}
			}
		})
	}
feed:
	for _, b := range batches {
		select {
		case work <- b:
		case <-ctx.Done():
			break feed
		}
	}
	close(work)
	wg.Wait()
	return context.Cause(ctx)
}

// price disassembles and simulates a batch of one instruction set, filling each item's result.
func (t *tools) price(ctx context.Context, b []*item) error {
	ok, err := t.disassemble(ctx, b)
	if err != nil {
		return err
	}
	return t.simulate(ctx, ok)
}

// noteAll gives every item the same note: the model cannot price any of them.
func noteAll(items []*item, note string) {
	for _, it := range items {
		it.result = Result{Note: note}
	}
}

// describe is how notes name the model.
func (t *tools) describe() string { return fmt.Sprintf("%s -mcpu=%s", t.mca, t.cpu) }
