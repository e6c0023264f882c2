package store

import (
	"context"
	"strings"
	"testing"

	"androprof/store/storetest"
)

// Imports keep their inserts prepared for the next import, and with their foreign-key checks
// off between them the other writes still have theirs: deleting a run after imports removes
// its rows (ON DELETE CASCADE), and an import after the delete works with the statements
// SQLite prepares again.
func TestImportKeepsStatements(t *testing.T) {
	ctx := context.Background()
	db := openTemp(t)
	if err := db.ImportRun(ctx, "a", "test", storetest.SmallRun); err != nil {
		t.Fatal(err)
	}
	db.stmts.keeping.Wait()
	kept := false
	for q := range db.stmts.stmts {
		kept = kept || strings.HasPrefix(q, "INSERT INTO block(")
	}
	if !kept {
		t.Fatalf("the block insert is not kept after an import: %d statements kept", len(db.stmts.stmts))
	}
	if err := db.ImportRun(ctx, "b", "test", storetest.SmallRun); err != nil {
		t.Fatal(err)
	}
	if db.stmts.reused == 0 {
		t.Error("the second import prepared its statements again")
	}
	if c := tableCounts(t, db); c["block"] != 4 || c["process"] != 4 {
		t.Fatalf("two runs: %v", c)
	}
	if err := db.DeleteRun(ctx, "a"); err != nil {
		t.Fatal(err)
	}
	if c := tableCounts(t, db); c["block"] != 2 || c["process"] != 2 || c["block_exec"] != 3 {
		t.Fatalf("after deleting a run: %v, want its processes, blocks and executions gone", c)
	}
	if err := db.ImportRun(ctx, "c", "test", storetest.SmallRun); err != nil {
		t.Fatal(err)
	}
	if c := tableCounts(t, db); c["block"] != 4 || c["process"] != 4 {
		t.Fatalf("an import after the delete: %v", c)
	}
}
