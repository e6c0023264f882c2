package store

import (
	"context"
	"path/filepath"
	"reflect"
	"testing"

	"androprof/model/cost"
	"androprof/store/storetest"
)

// Two runs of the same program share their blocks' code: its instructions are kept once, each
// run reads them back, and deleting one run keeps what the other still uses.
func TestBlockCodeShared(t *testing.T) {
	ctx := context.Background()
	db := openTemp(t)
	for _, run := range []string{"first", "second"} {
		if err := db.ImportRun(ctx, run, "test", storetest.SmallRun); err != nil {
			t.Fatal(err)
		}
	}
	counts := tableCounts(t, db)
	if counts["block"] != 4 || counts["block_code"] != 2 || counts["code_insn"] != 5 || counts["block_insn"] != 10 {
		t.Fatalf("two runs of one program: %v, want 4 blocks of 2 codes (5 instructions), 10 in block_insn", counts)
	}
	insns := func(run string) map[uint64][]cost.BlockInstruction {
		blocks, err := db.Blocks(ctx, run)
		if err != nil {
			t.Fatal(err)
		}
		out := map[uint64][]cost.BlockInstruction{}
		for _, b := range blocks {
			if out[b.PC], err = db.BlockInstructions(ctx, b.ID); err != nil {
				t.Fatal(err)
			}
		}
		return out
	}
	first := insns("first")
	if len(first[0x1000]) != 3 || first[0x1000][2].Operands != "#0x1000" || first[0x2000][1].Instruction.Mnemonic != "BX" {
		t.Errorf("first run's instructions: %+v", first)
	}
	if second := insns("second"); !reflect.DeepEqual(first, second) {
		t.Errorf("the runs read different instructions:\n%+v\n%+v", first, second)
	}
	if err := db.DeleteRun(ctx, "first"); err != nil {
		t.Fatal(err)
	}
	if c := tableCounts(t, db); c["block_code"] != 2 || c["code_insn"] != 5 {
		t.Errorf("after deleting one run: %v, want the code the other uses kept", c)
	}
	if second := insns("second"); !reflect.DeepEqual(first, second) {
		t.Errorf("after deleting the first run the second reads %+v", second)
	}
}

// A workspace from before the shared catalogue (schema 11) keeps every block's instructions:
// each old block gets a code of its own, and block_insn reads as it did.
func TestBlockCodeMigration(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "old.db")
	raw := openAtVersion(t, path, 11)
	for _, q := range []string{
		`INSERT INTO run(id, name, source) VALUES (1, 'old', 'test')`,
		`INSERT INTO process(id, run_id, pid, parent_pid, name) VALUES (1, 1, 10, 0, 'p')`,
		`INSERT INTO mnemonic(id, isa, text) VALUES (1, 'ARM', 'ADD'), (2, 'ARM', 'BX')`,
		`INSERT INTO block(id, process_id, pc, isa, n_insns, executions, mix) VALUES (7, 1, 4096, 'ARM', 2, 5, x'01010201')`,
		`INSERT INTO block_insn(block_id, idx, addr, encoding, mnemonic_id, printed, operands) VALUES
			(7, 0, 4096, 'e2800001', 1, 'add', 'r0, r0, #1'), (7, 1, 4100, 'e12fff1e', 2, 'bx', 'lr')`,
	} {
		if _, err := raw.Exec(q); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}
	raw.Close()
	db, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	got, err := db.BlockInstructions(ctx, 7)
	if err != nil {
		t.Fatal(err)
	}
	want := []cost.BlockInstruction{
		{Addr: 4096, Encoding: "e2800001", Printed: "add", Operands: "r0, r0, #1", Instruction: cost.Instruction{ISA: cost.ARM, Mnemonic: "ADD"}},
		{Addr: 4100, Encoding: "e12fff1e", Printed: "bx", Operands: "lr", Instruction: cost.Instruction{ISA: cost.ARM, Mnemonic: "BX"}},
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("migrated block's instructions:\n%+v\nwant\n%+v", got, want)
	}
	// A new import of the same code does not take the old block's: old codes have no digest.
	if err := db.ImportRun(ctx, "new", "test", storetest.SmallRun); err != nil {
		t.Fatal(err)
	}
	if c := tableCounts(t, db); c["block_code"] != 3 || c["block_insn"] != 7 {
		t.Errorf("after a new import: %v", c)
	}
}

// The codes this DB remembers are forgotten when another program changes the workspace: after
// another connection deletes the only run using them, an import writes them again instead of
// naming deleted codes.
func TestBlockCodeCacheSeesOtherWriters(t *testing.T) {
	ctx := context.Background()
	db := openTemp(t)
	if err := db.ImportRun(ctx, "first", "test", storetest.SmallRun); err != nil {
		t.Fatal(err)
	}
	other, err := Open(db.Path())
	if err != nil {
		t.Fatal(err)
	}
	if err := other.DeleteRun(ctx, "first"); err != nil {
		t.Fatal(err)
	}
	other.Close()
	if c := tableCounts(t, db); c["block_code"] != 0 {
		t.Fatalf("another connection's delete left %v", c)
	}
	if err := db.ImportRun(ctx, "second", "test", storetest.SmallRun); err != nil {
		t.Fatalf("import after another connection deleted the codes: %v", err)
	}
	blocks, err := db.Blocks(ctx, "second")
	if err != nil {
		t.Fatal(err)
	}
	for _, b := range blocks {
		if insns, err := db.BlockInstructions(ctx, b.ID); err != nil || len(insns) != b.Insns {
			t.Errorf("block 0x%x: %d instructions of %d (%v)", b.PC, len(insns), b.Insns, err)
		}
	}
	// Ids are never used again: the new codes are not the deleted ones' ids.
	var min int64
	if err := db.read.QueryRow(`SELECT min(id) FROM block_code`).Scan(&min); err != nil || min <= 2 {
		t.Errorf("new codes' first id %d (%v), want past the deleted 1 and 2", min, err)
	}
}
