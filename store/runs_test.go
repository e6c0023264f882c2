package store

import (
	"context"
	"errors"
	"reflect"
	"testing"

	"androprof/model/cost"
	"androprof/store/storetest"
)

func TestImportRunAndQueries(t *testing.T) {
	ctx := context.Background()
	db := openTemp(t)
	if err := db.ImportRun(ctx, "small", "test", storetest.SmallRun); err != nil {
		t.Fatal(err)
	}
	runs, err := db.Runs(ctx)
	if err != nil || len(runs) != 1 || runs[0].Instructions != 302 || runs[0].Blocks != 2 || runs[0].Processes != 2 {
		t.Fatalf("runs = %+v, %v", runs, err)
	}
	procs, err := db.Processes(ctx, "small")
	if err != nil || len(procs) != 2 || procs[0].Threads != 2 || procs[0].BlocksExecuted != 100 || procs[1].ParentPID != 10 {
		t.Fatalf("processes = %+v, %v", procs, err)
	}
	counts, err := db.ProcessInstructions(ctx, "small")
	if err != nil {
		t.Fatal(err)
	}
	want := []cost.ProcessInstructions{
		{PID: 10, InstructionCount: cost.InstructionCount{Instruction: cost.Instruction{ISA: cost.ARM, Mnemonic: "ADD"}, Count: 100}},
		{PID: 10, InstructionCount: cost.InstructionCount{Instruction: cost.Instruction{ISA: cost.ARM, Mnemonic: "BNE"}, Count: 100}},
		{PID: 10, InstructionCount: cost.InstructionCount{Instruction: cost.Instruction{ISA: cost.ARM, Mnemonic: "CMP"}, Count: 100}},
		{PID: 11, InstructionCount: cost.InstructionCount{Instruction: cost.Instruction{ISA: cost.Thumb, Mnemonic: "BX"}, Count: 1}},
		{PID: 11, InstructionCount: cost.InstructionCount{Instruction: cost.Instruction{ISA: cost.Thumb, Mnemonic: "MOV"}, Count: 1}},
	}
	if !reflect.DeepEqual(counts, want) {
		t.Errorf("process instructions =\n%+v\nwant\n%+v", counts, want)
	}
	funcs, err := db.FunctionInstructions(ctx, "small")
	if err != nil || len(funcs) != 5 || funcs[0].Symbol != "loop" {
		t.Errorf("functions = %+v, %v", funcs, err)
	}
	blocks, err := db.Blocks(ctx, "small")
	if err != nil || len(blocks) != 2 {
		t.Fatalf("blocks = %+v, %v", blocks, err)
	}
	var loop cost.BlockSummary
	for _, b := range blocks {
		if b.PC == 0x1000 {
			loop = b
		}
	}
	if loop.Executions != 100 || loop.Insns != 3 || len(loop.Mix) != 3 || loop.Mix[0].Instruction.Mnemonic != "ADD" {
		t.Errorf("loop block = %+v", loop)
	}
	insns, err := db.BlockInstructions(ctx, loop.ID)
	if err != nil || len(insns) != 3 || insns[2].Printed != "bne" || insns[2].Instruction.Mnemonic != "BNE" || insns[1].Addr != 0x1004 {
		t.Errorf("block instructions = %+v, %v", insns, err)
	}
}

// tableCounts is the database's content in brief: rows per table.
func tableCounts(t *testing.T, db *DB) map[string]int {
	t.Helper()
	out := map[string]int{}
	for _, tbl := range []string{"run", "process", "thread", "mnemonic", "block", "block_code", "code_insn", "block_insn", "block_exec", "process_insn", "function_insn", "run_cache", "block_cache"} {
		var n int
		if err := db.read.QueryRow(`SELECT count(*) FROM ` + tbl).Scan(&n); err != nil {
			t.Fatal(err)
		}
		out[tbl] = n
	}
	return out
}

// A failed or cancelled import leaves the database exactly as it was.
func TestFailedImportChangesNothing(t *testing.T) {
	ctx := context.Background()
	db := openTemp(t)
	if err := db.ImportRun(ctx, "small", "test", storetest.SmallRun); err != nil {
		t.Fatal(err)
	}
	before := tableCounts(t, db)
	boom := errors.New("reader failed at line 7")
	err := db.ImportRun(ctx, "second", "test", func(s cost.BlockSink) error {
		if err := storetest.SmallRun(s); err != nil {
			return err
		}
		return boom
	})
	if !errors.Is(err, boom) {
		t.Errorf("err = %v", err)
	}
	cancelled, cancel := context.WithCancel(ctx)
	err = db.ImportRun(cancelled, "third", "test", func(s cost.BlockSink) error {
		cancel()
		return storetest.SmallRun(s)
	})
	if !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled import: %v", err)
	}
	// A count for a block never described, and a pid the run already has.
	if err := db.ImportRun(ctx, "fourth", "", func(s cost.BlockSink) error { return s.Count(1, 0, 0x99, cost.ARM, 1) }); err == nil {
		t.Error("count without a block accepted")
	}
	if err := db.ImportRun(ctx, "small", "", storetest.SmallRun); err == nil {
		t.Error("a second pid 10 in run small accepted")
	}
	if after := tableCounts(t, db); !reflect.DeepEqual(before, after) {
		t.Errorf("tables changed by failed imports:\n%v\n%v", before, after)
	}
}

func TestDeleteRun(t *testing.T) {
	ctx := context.Background()
	db := openTemp(t)
	if err := db.ImportRun(ctx, "small", "test", storetest.SmallRun); err != nil {
		t.Fatal(err)
	}
	if err := db.DeleteRun(ctx, "small"); err != nil {
		t.Fatal(err)
	}
	counts := tableCounts(t, db)
	delete(counts, "mnemonic") // shared by runs, kept
	for tbl, n := range counts {
		if n != 0 {
			t.Errorf("%s keeps %d rows after delete", tbl, n)
		}
	}
	if err := db.DeleteRun(ctx, "small"); !errors.Is(err, cost.ErrNotFound) {
		t.Errorf("second delete: %v", err)
	}
}
