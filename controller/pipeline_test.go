package controller

import (
	"context"
	"errors"
	"math"
	"strings"
	"sync/atomic"
	"testing"

	"androprof/internal/fastlane"
	"androprof/isaprofiles"
	"androprof/model/cost"
	"androprof/pipeline"
	"androprof/store"
)

// The blocks priced are the hottest ones up to 99 % of the instructions of the sets the
// profile prices: a block of another set is left to its category cost, and so is the cold tail.
func TestHottestBlocks(t *testing.T) {
	blocks := []cost.BlockSummary{
		{ID: 1, ISA: cost.ARM, Insns: 10, Executions: 9_000}, // 90,000
		{ID: 2, ISA: cost.ARM, Insns: 1, Executions: 50},     // 50: the cold tail
		{ID: 3, ISA: cost.ARM, Insns: 3, Executions: 3_300},  // 9,900
		{ID: 4, ISA: cost.MIPS, Insns: 5, Executions: 1e6},   // not the profile's set
		{ID: 5, ISA: cost.ARM, Insns: 2, Executions: 25},     // 50
	}
	d := cost.NewRunData("r", nil, blocks)
	a8, err := isaprofiles.Builtin("cortex-a8")
	if err != nil {
		t.Fatal(err)
	}
	hot, share := hottestBlocks(d, a8, 0.99)
	if len(hot) != 2 || hot[0] != 0 || hot[1] != 2 || math.Abs(share-99_900.0/100_000) > 1e-12 {
		t.Errorf("hottest blocks %v (share %v), want [0 2] (0.999)", hot, share)
	}
	if hot, _ := hottestBlocks(d, a8, 1); len(hot) != 4 {
		t.Errorf("all of the instructions: %v, want every ARM block", hot)
	}
}

// sieveArm64 is the demo's AArch64 sieve in a new workspace, and cortex-a55 with LLVM's
// Cortex-A55 model (tool: the llvm-mca binary).
func sieveArm64(t *testing.T, tool string) (*store.DB, *cost.Profile, context.Context) {
	t.Helper()
	ctx := context.Background()
	db := openStore(t)
	demos := demoRuns()
	if _, err := NewWorkspace(db).Importer().ImportDemo(ctx, map[string]DemoRun{"demo-sieve-arm64": demos["demo-sieve-arm64"]}); err != nil {
		t.Fatal(err)
	}
	a55, err := isaprofiles.Builtin("cortex-a55")
	if err != nil {
		t.Fatal(err)
	}
	p := *a55
	p.Pipeline = cost.PipelineModel{Tool: tool, CPU: "cortex-a55"}
	return db, &p, ctx
}

// A report under a profile with a machine model has pipeline cycles for the blocks that make
// up 99 % of the instructions; the second report, and a new session on the same workspace,
// run llvm-mca no more: the first from memory, the second from the workspace's table.
func TestReportPricesBlocksOnce(t *testing.T) {
	fastlane.Needs(t, "llvm-mca-16")
	db, p, ctx := sieveArm64(t, "llvm-mca-16")
	a := NewWorkspace(db).Costs
	var calls, priced atomic.Int64
	count := func(ctx context.Context, m cost.PipelineModel, blocks []pipeline.Block, progress func(done, total int)) ([]pipeline.Result, error) {
		calls.Add(1)
		priced.Add(int64(len(blocks)))
		return pipeline.Price(ctx, m, blocks, progress)
	}
	a.price = count
	opts := cost.ReportOptions{Run: "demo-sieve-arm64", Profile: p, By: cost.ByFunction}
	rep, err := a.Report(ctx, opts)
	if err != nil {
		t.Fatal(err)
	}
	wf := rep.Waterfall
	if calls.Load() != 1 || priced.Load() == 0 {
		t.Fatalf("first report priced %d blocks in %d calls", priced.Load(), calls.Load())
	}
	if rep.Total.PipelineCycles <= 0 || !wf.PipelineKnown || wf.PipelineCoverage < 0.9 || wf.PipelineModel != "llvm-mca-16 -mcpu=cortex-a55" {
		t.Errorf("pipeline cycles %v, known %v, coverage %v, model %q", rep.Total.PipelineCycles, wf.PipelineKnown, wf.PipelineCoverage, wf.PipelineModel)
	}
	if !strings.Contains(wf.PipelineNote, "of the instructions") {
		t.Errorf("note %q does not say what share was priced", wf.PipelineNote)
	}
	if _, err := a.Report(ctx, opts); err != nil || calls.Load() != 1 {
		t.Errorf("second report: %d calls of llvm-mca, %v", calls.Load(), err)
	}
	// A new session on the same database: the blocks come from block_pipeline.
	again := NewWorkspace(db).Costs
	again.price = count
	rep2, err := again.Report(ctx, opts)
	if err != nil || calls.Load() != 1 {
		t.Fatalf("new session: %d calls of llvm-mca, %v", calls.Load(), err)
	}
	if rep2.Total.PipelineCycles != rep.Total.PipelineCycles {
		t.Errorf("cached pipeline cycles %v, priced %v", rep2.Total.PipelineCycles, rep.Total.PipelineCycles)
	}
}

// Without llvm-mca the report still comes back, its category costs standing and the
// waterfall saying what to install.
func TestReportWithoutLLVMMCA(t *testing.T) {
	db, p, ctx := sieveArm64(t, "llvm-mca-404")
	a := NewWorkspace(db).Costs
	var progressed bool
	if err := a.PreparePipeline(ctx, "demo-sieve-arm64", p, func(done, total int) { progressed = true }); err != nil {
		t.Fatalf("PreparePipeline without the tool: %v", err)
	}
	rep, err := a.Report(ctx, cost.ReportOptions{Run: "demo-sieve-arm64", Profile: p, By: cost.ByPID})
	if err != nil {
		t.Fatal(err)
	}
	wf := rep.Waterfall
	if wf.PipelineKnown || !strings.Contains(wf.PipelineNote, "llvm-mca-404 is not installed") ||
		!strings.Contains(wf.PipelineNote, "the category costs stand") {
		t.Errorf("known %v, note %q", wf.PipelineKnown, wf.PipelineNote)
	}
	if wf.PipelineCycles != wf.CategoryCycles || rep.Total.Cycles <= 0 || progressed {
		t.Errorf("pipeline cycles %v, category %v, progress called %v", wf.PipelineCycles, wf.CategoryCycles, progressed)
	}
}

// readOnlyStore is a workspace that cannot be changed: nothing may be saved to it.
type readOnlyStore struct {
	*store.DB
	t *testing.T
}

func (s readOnlyStore) ReadOnly() error { return errors.New("written by a newer androprof") }

func (s readOnlyStore) SavePipelineCycles(context.Context, map[string]pipeline.Result) error {
	s.t.Error("pipeline cycles saved to a read-only workspace")
	return nil
}

// A read-only workspace still has its blocks priced, in memory only.
func TestReadOnlyWorkspacePricesWithoutSaving(t *testing.T) {
	fastlane.Needs(t, "llvm-mca-16")
	db, p, ctx := sieveArm64(t, "llvm-mca-16")
	a := &Analysis{store: readOnlyStore{db, t}}
	rep, err := a.Report(ctx, cost.ReportOptions{Run: "demo-sieve-arm64", Profile: p, By: cost.ByPID})
	if err != nil || !rep.Waterfall.PipelineKnown {
		t.Fatalf("report: %v, pipeline known %v (%s)", err, rep.Waterfall.PipelineKnown, rep.Waterfall.PipelineNote)
	}
	// Nothing was kept: the next session on the workspace prices the blocks again.
	next := NewWorkspace(db).Costs
	calls := 0
	next.price = func(ctx context.Context, m cost.PipelineModel, blocks []pipeline.Block, progress func(done, total int)) ([]pipeline.Result, error) {
		calls++
		return pipeline.Price(ctx, m, blocks, progress)
	}
	if _, err := next.Report(ctx, cost.ReportOptions{Run: "demo-sieve-arm64", Profile: p, By: cost.ByPID}); err != nil || calls != 1 {
		t.Errorf("the next session ran llvm-mca %d times (%v): want once, nothing having been kept", calls, err)
	}
}
