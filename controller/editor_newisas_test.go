package controller

import (
	"context"
	"strings"
	"testing"

	"androprof/emulator/qemutest"
	"androprof/model/cost"
)

// The editor builds an AArch64 or an x86-64 profile from a real QEMU log as it does an ARM
// one: a new profile of that set takes the log's instructions, every execution counted
// (qemu -singlestep's total), the filter of its set shows them and another set's nothing,
// search finds them, and moving one into a category places it. Nothing here reads what the
// catalogues list.
func TestEditorBuildsProfilesOfNewISAsFromLogs(t *testing.T) {
	for _, c := range []struct {
		tg  qemutest.Target
		isa cost.ISA
	}{{qemutest.AArch64, cost.AArch64}, {qemutest.X86_64, cost.X86_64}} {
		t.Run(string(c.isa), func(t *testing.T) {
			log, want := sieveLog(t, c.tg)

			e := NewEditor()
			if err := e.NewProfile("My "+string(c.isa), c.isa); err != nil {
				t.Fatal(err)
			}
			if err := e.ImportLogs(context.Background(), []string{log}, nil); err != nil {
				t.Fatal(err)
			}
			rows := e.Uncategorized(Filter{ISA: c.isa})
			var total int64
			for _, r := range rows {
				total += r.Count
			}
			if total != want || len(rows) == 0 || rows[0].Count == 0 {
				t.Fatalf("the %s filter shows %d rows executed %d times; qemu -singlestep counted %d", c.isa, len(rows), total, want)
			}
			if other := e.Uncategorized(Filter{ISA: cost.ARM}); len(other) != 0 {
				t.Errorf("the ARM filter shows %d rows of an %s profile", len(other), c.isa)
			}
			top := rows[0].Instruction // the most executed
			found := e.Uncategorized(Filter{Query: strings.ToLower(top.Mnemonic)})
			if len(found) == 0 || !containsInsn(found, top) {
				t.Errorf("search %q does not find %s", strings.ToLower(top.Mnemonic), top)
			}
			if err := e.AddCategory("Hot", 1, 0); err != nil {
				t.Fatal(err)
			}
			if err := e.Move([]cost.Instruction{top}, "Hot"); err != nil {
				t.Fatal(err)
			}
			if got := e.CategoryRows("Hot", Filter{ISA: c.isa}); len(got) != 1 || got[0].Instruction != top || got[0].Count != rows[0].Count {
				t.Errorf("Hot holds %v, want %s with its %d executions", got, top, rows[0].Count)
			}
		})
	}
}

func containsInsn(rows []Row, in cost.Instruction) bool {
	for _, r := range rows {
		if r.Instruction == in {
			return true
		}
	}
	return false
}
