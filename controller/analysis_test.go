package controller

import (
	"context"
	"fmt"
	"math"
	"path/filepath"
	"testing"

	"androprof/isaprofiles"
	"androprof/model"
	"androprof/model/cost"
	"androprof/store"
)

func openStore(t testing.TB) *store.DB {
	t.Helper()
	return openAt(t, filepath.Join(t.TempDir(), "w.db"))
}

// twoProcesses: pid 1 runs an ARM add/cmp/bne loop 1000 times; pid 2 a Thumb ldr/bx block 10 times.
func twoProcesses(s cost.BlockSink) error {
	loop := &cost.Block{PC: 0x8000, ISA: cost.ARM, Symbol: "work", Insns: []cost.Insn{
		{Addr: 0x8000, Mnemonic: "add", Class: "ADD"}, {Addr: 0x8004, Mnemonic: "cmp", Class: "CMP"}, {Addr: 0x8008, Mnemonic: "bne", Class: "BNE"}}}
	leaf := &cost.Block{PC: 0x9000, ISA: cost.Thumb, Symbol: "leaf", Insns: []cost.Insn{
		{Addr: 0x9000, Mnemonic: "ldr", Class: "LDR"}, {Addr: 0x9002, Mnemonic: "bx", Class: "BX"}}}
	for _, err := range []error{
		s.Process(model.Process{PID: 1, Name: "a"}), s.Process(model.Process{PID: 2, Name: "b"}),
		s.Block(1, loop), s.Block(2, leaf),
		s.Count(1, 0, 0x8000, cost.ARM, 1000), s.Count(2, 0, 0x9000, cost.Thumb, 10),
	} {
		if err != nil {
			return err
		}
	}
	return nil
}

func TestReportGroupings(t *testing.T) {
	ctx := context.Background()
	db := openStore(t)
	if err := db.ImportRun(ctx, "r", "test", twoProcesses); err != nil {
		t.Fatal(err)
	}
	a8, err := isaprofiles.Builtin("cortex-a8")
	if err != nil {
		t.Fatal(err)
	}
	cl := cost.NewClassifier(a8)
	cyc := func(isa cost.ISA, m string) float64 {
		return cl.Classify(cost.Instruction{ISA: isa, Mnemonic: m}).Cycles
	}
	wantPID1 := 1000 * (cyc(cost.ARM, "ADD") + cyc(cost.ARM, "CMP") + cyc(cost.ARM, "BNE"))

	a := &Analysis{store: db}
	for _, by := range cost.Groupings {
		rep, err := a.Report(ctx, cost.ReportOptions{Run: "r", Profile: a8, By: by})
		if err != nil {
			t.Fatal(by, err)
		}
		if rep.Total.Instructions != 3020 || rep.Total.Blocks != 1010 || rep.FrequencyGHz != 1 || rep.FrequencyAssumed {
			t.Errorf("%s: total %+v at %g GHz", by, rep.Total, rep.FrequencyGHz)
		}
		var sum float64
		for _, r := range rep.Rows {
			sum += r.Cycles
		}
		if math.Abs(sum-rep.Total.Cycles) > 1e-6 {
			t.Errorf("%s: rows sum to %g cycles, total says %g", by, sum, rep.Total.Cycles)
		}
	}
	rep, _ := a.Report(ctx, cost.ReportOptions{Run: "r", Profile: a8, By: cost.ByPID})
	if rep.Rows[0].Key != "1" || rep.Rows[0].Cycles != wantPID1 || rep.Rows[0].Blocks != 1000 || rep.Rows[0].TimeS != wantPID1/1e9 {
		t.Errorf("pid rows = %+v", rep.Rows)
	}
	rep, _ = a.Report(ctx, cost.ReportOptions{Run: "r", Profile: a8, By: cost.ByInstruction, PID: 2})
	if len(rep.Rows) != 2 || rep.Total.Instructions != 20 || rep.Rows[0].Category == "" {
		t.Errorf("insn rows for pid 2 = %+v", rep.Rows)
	}
	rep, _ = a.Report(ctx, cost.ReportOptions{Run: "r", Profile: a8, By: cost.ByFunction})
	if rep.Rows[0].Key != "1:work" {
		t.Errorf("function rows = %+v", rep.Rows)
	}
	cmp, err := a.Compare(ctx, []cost.CompareItem{{Run: "r", PID: 1}, {Run: "r", PID: 2}}, Only(a8), 2)
	if err != nil || len(cmp) != 2 || cmp[0].InsnsPerBlock != 3 || cmp[1].InstructionRatio != 20.0/3000 || cmp[0].TimeS != wantPID1/2e9 {
		t.Errorf("compare = %+v, %v", cmp, err)
	}
}

// syntheticRun writes n blocks of 2–9 instructions drawn from the ARM catalogue, each executed,
// for the report benchmark; it is test input, never shown as measured data.
func syntheticRun(n int) func(cost.BlockSink) error {
	return func(s cost.BlockSink) error {
		cat := isaprofiles.CatalogFor(cost.ARM).Entries
		for i := 0; i < n; i++ {
			b := &cost.Block{PC: uint64(0x10000 + 64*i), ISA: cost.ARM, Symbol: fmt.Sprintf("f%d", i/20)}
			for j := 0; j < 2+i%8; j++ {
				b.Insns = append(b.Insns, cost.Insn{Addr: b.PC + uint64(4*j), Mnemonic: cat[(i*7+j*13)%len(cat)].Mnemonic})
			}
			if err := s.Block(1, b); err != nil {
				return err
			}
			if err := s.Count(1, 0, b.PC, cost.ARM, int64(1+i%1000)); err != nil {
				return err
			}
		}
		return nil
	}
}

// The issue asks for a report or a profile switch on a run with 100,000 blocks in < 50 ms.
// The run is loaded once, as the window does; each iteration switches to another profile and
// makes one report. "bb" names all 100,000 blocks; the window asks for the top 200.
func BenchmarkReport100kBlocks(b *testing.B) {
	ctx := context.Background()
	db := openStore(b)
	if err := db.ImportRun(ctx, "big", "synthetic", syntheticRun(100_000)); err != nil {
		b.Fatal(err)
	}
	a := &Analysis{store: db}
	if _, err := a.Load(ctx, "big"); err != nil {
		b.Fatal(err)
	}
	var profiles []*cost.Profile
	for _, name := range []string{"cortex-a8", "cortex-a9", "cortex-a15"} {
		p, err := isaprofiles.Builtin(name)
		if err != nil {
			b.Fatal(err)
		}
		profiles = append(profiles, p)
	}
	// The first report under a profile with a machine model (the A9's and A15's) also reads
	// the run's instruction bytes and prices its hottest blocks, once per run and model, with a
	// progress bar in the window (pipeline.BenchmarkPrice1000Blocks); what is timed here is
	// every report after it, as a profile switch between those priced.
	for _, p := range profiles {
		if _, err := a.Report(ctx, cost.ReportOptions{Run: "big", Profile: p, By: cost.ByPID}); err != nil {
			b.Fatal(err)
		}
	}
	for _, c := range []struct {
		name string
		by   cost.Grouping
		top  int
	}{{"pid", cost.ByPID, 0}, {"category", cost.ByCategory, 0}, {"function", cost.ByFunction, 0}, {"bb-top200", cost.ByBlock, 200}, {"bb", cost.ByBlock, 0}} {
		b.Run(c.name, func(b *testing.B) {
			for i := 0; i < b.N; i++ {
				if _, err := a.Report(ctx, cost.ReportOptions{Run: "big", Profile: profiles[i%3], By: c.by, Top: c.top}); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(b.Elapsed().Microseconds())/1000/float64(b.N), "ms/report")
		})
	}
}
