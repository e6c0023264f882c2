package controller

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"math"
	"slices"
	"sync"

	"androprof/internal/human"
	"androprof/internal/proc"
	"androprof/model/cost"
	"androprof/pipeline"
)

// PipelineStore is the workspace's cache of blocks' pipeline cycles (block_pipeline), and the
// blocks' encodings the machine model reads.
type PipelineStore interface {
	PipelineCycles(ctx context.Context, keys []string) (map[string]pipeline.Result, error)
	SavePipelineCycles(ctx context.Context, results map[string]pipeline.Result) error
	BlockEncodings(ctx context.Context, run string) (map[int64][]string, error)
	ReadOnly() error // why nothing can be saved (then blocks are priced and not kept), or nil
}

// PipelineShare is the share of a run's instructions whose blocks the machine model prices:
// the hottest blocks up to it (issue 27: a run has thousands of blocks, a few hundred of them
// make up nearly all of its instructions; the rest keep their category cost).
const PipelineShare = 0.99

// blockPricing is a run's blocks priced by one machine model, for ReportOptions.
type blockPricing struct {
	cycles []float64 // per RunData.Blocks index; NaN where not priced; nil when nothing was
	model  string    // pipeline.Describe
	note   string    // what was priced and what was not, in one line
}

// runPricings is one run's pricings by model, kept in Analysis.pipelines (so forgotten with
// the run, and never kept from a pricing that raced a re-import).
type runPricings struct {
	mu  sync.Mutex
	by  map[cost.PipelineModel]*blockPricing
	enc map[int64][]string // the run's blocks' encodings, read once for every model
}

// encodings is the run's blocks' encodings by block id, read from the store the first time.
func (rp *runPricings) encodings(ctx context.Context, store PipelineStore, run string) (map[int64][]string, error) {
	rp.mu.Lock()
	enc := rp.enc
	rp.mu.Unlock()
	if enc != nil {
		return enc, nil
	}
	enc, err := store.BlockEncodings(ctx, run)
	if err != nil {
		return nil, err
	}
	rp.mu.Lock()
	rp.enc = enc
	rp.mu.Unlock()
	return enc, nil
}

// priceFunc is pipeline.Price; tests count its calls.
type priceFunc func(ctx context.Context, m cost.PipelineModel, blocks []pipeline.Block, progress func(done, total int)) ([]pipeline.Result, error)

// PreparePipeline prices run's hottest blocks (PipelineShare of its instructions) with
// profile's machine model, before a report: the window calls it with a progress bar, since a
// first pricing runs llvm-mca over hundreds of blocks. Blocks priced before come from the
// workspace's block_pipeline table; new ones are saved there (unless the workspace is
// read-only). Without a model it does nothing. A missing llvm-mca is no error: the report then
// says so and keeps its category costs; cancelling ctx is.
func (a *Analysis) PreparePipeline(ctx context.Context, run string, profile *cost.Profile, progress func(done, total int)) error {
	if profile == nil || profile.Pipeline.IsZero() {
		return nil
	}
	_, err := a.pricing(ctx, run, profile, progress)
	return err
}

// withPipeline fills opts's pipeline fields from the profile's model, when it names one and
// the caller gave none.
func (a *Analysis) withPipeline(ctx context.Context, opts cost.ReportOptions) (cost.ReportOptions, error) {
	if opts.BlockCycles != nil || opts.Profile.Pipeline.IsZero() {
		return opts, nil
	}
	bp, err := a.pricing(ctx, opts.Run, opts.Profile, nil)
	if err != nil {
		return opts, err
	}
	opts.BlockCycles, opts.Pipeline, opts.PipelineNote = bp.cycles, bp.model, bp.note
	return opts, nil
}

// pricing is run's blocks priced by profile's model: kept in memory after the first time.
func (a *Analysis) pricing(ctx context.Context, run string, profile *cost.Profile, progress func(done, total int)) (*blockPricing, error) {
	rp, err := a.pipelines.get(run, func() (*runPricings, error) {
		return &runPricings{by: map[cost.PipelineModel]*blockPricing{}}, nil
	})
	if err != nil {
		return nil, err
	}
	m := profile.Pipeline
	rp.mu.Lock()
	bp := rp.by[m]
	rp.mu.Unlock()
	if bp != nil {
		return bp, nil
	}
	d, err := a.Load(ctx, run)
	if err != nil {
		return nil, err
	}
	if bp, err = a.priceRun(ctx, d, rp, profile, progress); err != nil {
		return nil, err
	}
	rp.mu.Lock()
	rp.by[m] = bp
	rp.mu.Unlock()
	return bp, nil
}

// priceRun prices d's hottest blocks of the instruction sets profile prices: from the
// workspace's cache where it has them, with the machine model for the rest.
func (a *Analysis) priceRun(ctx context.Context, d *cost.RunData, rp *runPricings, profile *cost.Profile, progress func(done, total int)) (*blockPricing, error) {
	m := profile.Pipeline
	bp := &blockPricing{cycles: make([]float64, len(d.Blocks)), model: pipeline.Describe(m)}
	for i := range bp.cycles {
		bp.cycles[i] = math.NaN()
	}
	hot, _ := hottestBlocks(d, profile, PipelineShare)
	if len(hot) == 0 { // nothing priced: no block cycles, so the report says the note alone
		return &blockPricing{model: bp.model, note: "no block of an instruction set " + profile.Name + " prices"}, nil
	}
	enc, err := rp.encodings(ctx, a.store, d.Info.Name)
	if err != nil {
		return nil, err
	}
	keys, blocks := map[int]string{}, map[string]pipeline.Block{}
	for _, bi := range hot {
		b := pipeline.Block{ISA: d.Blocks[bi].ISA, Encodings: enc[d.Blocks[bi].ID]}
		if len(b.Encodings) == 0 || slices.Contains(b.Encodings, "") {
			continue // a QEMU log without the instructions' bytes: nothing to assemble
		}
		k := pipeline.Key(m, b)
		keys[bi], blocks[k] = k, b
	}
	results, notKept, err := a.cachedOrPriced(ctx, m, blocks, progress)
	var missing *proc.MissingToolError
	if errors.As(err, &missing) {
		note := fmt.Sprintf("%s is not installed (Debian package %s): the category costs stand", missing.Tool, missing.Package)
		return &blockPricing{model: bp.model, note: note}, nil
	}
	if err != nil {
		return nil, err
	}
	bp.note = pricedNote(d, hot, keys, results, bp.cycles)
	if notKept != "" {
		bp.note += "; " + notKept
	}
	return bp, nil
}

// pricedNote puts the results in cycles (per block index) and says what was priced: the
// blocks chosen and those the model could not price.
func pricedNote(d *cost.RunData, hot []int, keys map[int]string, results map[string]pipeline.Result, cycles []float64) string {
	failed, firstNote := 0, ""
	for _, bi := range hot {
		r, ok := results[keys[bi]]
		switch {
		case ok && r.OK:
			cycles[bi] = r.Cycles
		case firstNote == "":
			failed, firstNote = failed+1, cmp.Or(r.Note, "the trace has no instruction bytes")
		default:
			failed++
		}
	}
	note := fmt.Sprintf("the hottest %d of %s", len(hot), human.Count(len(d.Blocks), "block", "blocks"))
	if failed > 0 {
		note += fmt.Sprintf("; %d of them could not be priced: %s", failed, firstNote)
	}
	return note
}

// cachedOrPriced is each block's result: from the workspace's cache, else priced now and
// saved (not on a read-only workspace: then it lives as long as the run is kept in memory).
// A save that fails fails no report: it is said in the note it returns.
func (a *Analysis) cachedOrPriced(ctx context.Context, m cost.PipelineModel, blocks map[string]pipeline.Block, progress func(done, total int)) (map[string]pipeline.Result, string, error) {
	keys := make([]string, 0, len(blocks))
	for k := range blocks {
		keys = append(keys, k)
	}
	slices.Sort(keys) // the same order each time: llvm-mca's batches, and tests, repeat
	have, err := a.store.PipelineCycles(ctx, keys)
	if err != nil {
		return nil, "", err
	}
	var todo []string
	for _, k := range keys {
		if _, ok := have[k]; !ok {
			todo = append(todo, k)
		}
	}
	if len(todo) == 0 {
		return have, "", nil
	}
	list := make([]pipeline.Block, len(todo))
	for i, k := range todo {
		list[i] = blocks[k]
	}
	price := a.price
	if price == nil {
		price = pipeline.Price
	}
	res, err := price(ctx, m, list, progress)
	if err != nil {
		return nil, "", err
	}
	priced := make(map[string]pipeline.Result, len(todo))
	for i, k := range todo {
		priced[k] = res[i]
		have[k] = res[i]
	}
	if a.store.ReadOnly() != nil {
		return have, "", nil
	}
	if err := a.store.SavePipelineCycles(ctx, priced); err != nil {
		if ctx.Err() != nil {
			return nil, "", ctx.Err()
		}
		// The cycles are right; only the next session prices them again.
		return have, fmt.Sprintf("not kept in the workspace (%v)", err), nil
	}
	return have, "", nil
}

// hottestBlocks is the indexes of d's blocks that make up share of the instructions of the
// instruction sets profile prices, most executed instructions first, and the share they make.
func hottestBlocks(d *cost.RunData, profile *cost.Profile, share float64) ([]int, float64) {
	var order []int
	var total int64
	for i, b := range d.Blocks {
		if n := b.Executions * int64(b.Insns); n > 0 && profile.HasISA(b.ISA) {
			order = append(order, i)
			total += n
		}
	}
	insns := func(i int) int64 { return d.Blocks[i].Executions * int64(d.Blocks[i].Insns) }
	slices.SortStableFunc(order, func(x, y int) int { return cmp.Compare(insns(y), insns(x)) })
	var sum int64
	for k, i := range order {
		sum += insns(i)
		if float64(sum) >= share*float64(total) {
			return order[:k+1], float64(sum) / float64(total)
		}
	}
	if total == 0 {
		return nil, 0
	}
	return order, float64(sum) / float64(total)
}
