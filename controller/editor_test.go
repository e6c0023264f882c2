package controller

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"androprof/isaprofiles"
	"androprof/model"
)

var (
	armLDR   = model.Instruction{ISA: model.ARM, Mnemonic: "LDR"}
	thumbLDR = model.Instruction{ISA: model.Thumb, Mnemonic: "LDR"}
	armBEQ   = model.Instruction{ISA: model.ARM, Mnemonic: "BEQ"}
)

func contains(rows []Row, in model.Instruction) bool {
	for _, r := range rows {
		if r.Instruction == in {
			return true
		}
	}
	return false
}

// A new profile starts with its whole catalogue uncategorised.
func TestNewProfileListsCatalogue(t *testing.T) {
	e := NewEditor()
	want := len(isaprofiles.CatalogFor(model.ARM).Entries) + len(isaprofiles.CatalogFor(model.Thumb).Entries)
	if got := len(e.Uncategorized(Filter{})); got != want {
		t.Errorf("uncategorised = %d, want the %d catalogue entries", got, want)
	}
	if got := e.Uncategorized(Filter{ISA: model.Thumb, Query: "cbz"}); len(got) != 1 || got[0].Instruction.Mnemonic != "CBZ" {
		t.Errorf("filter Thumb/cbz = %+v", got)
	}
}

func TestCategoryEditing(t *testing.T) {
	e := NewEditor()
	if err := e.AddCategory("Load", 1, 500); err != nil {
		t.Fatal(err)
	}
	for _, bad := range []string{"", "load", "Undefined"} {
		if err := e.AddCategory(bad, 1, 1); err == nil {
			t.Errorf("AddCategory(%q) accepted", bad)
		}
	}
	if err := e.Move([]model.Instruction{armLDR, thumbLDR}, "Load"); err != nil {
		t.Fatal(err)
	}
	if !contains(e.CategoryRows("Load", Filter{}), thumbLDR) || contains(e.Uncategorized(Filter{}), armLDR) {
		t.Error("Move did not move")
	}
	if err := e.Move([]model.Instruction{{ISA: model.MIPS, Mnemonic: "LW"}}, "Load"); err == nil {
		t.Error("moved an instruction of an undeclared instruction set")
	}
	if err := e.RenameCategory("Load", "Loads"); err != nil || e.CategoryOf(armLDR) != "Loads" {
		t.Errorf("rename: %v, LDR in %q", err, e.CategoryOf(armLDR))
	}
	if err := e.SetCosts("Loads", -1, 5); err == nil || e.Profile().Category("Loads").Cycles != 1 {
		t.Errorf("negative cost accepted: %v", err)
	}
	if err := e.SetCosts("Loads", 2, 600); err != nil || e.Profile().Category("Loads").Cycles != 2 {
		t.Errorf("SetCosts: %v", err)
	}
	if err := e.Move([]model.Instruction{armLDR}, model.UndefinedCategory); err != nil || e.CategoryOf(armLDR) != model.UndefinedCategory {
		t.Errorf("move back: %v", err)
	}
	if err := e.DeleteCategory("Loads"); err != nil || e.CategoryOf(thumbLDR) != model.UndefinedCategory {
		t.Errorf("delete: %v", err)
	}
	if !e.Dirty() {
		t.Error("edits did not mark the profile dirty")
	}
}

func TestSaveValidatesAndRoundTrips(t *testing.T) {
	dir := t.TempDir()
	e := NewEditor()
	if err := e.Save(); err == nil {
		t.Error("Save without a path succeeded")
	}
	e.Profile().Name = ""
	if err := e.SaveAs(filepath.Join(dir, "bad.xml")); err == nil {
		t.Fatal("saved a profile without a name")
	}
	if _, err := os.Stat(filepath.Join(dir, "bad.xml")); !os.IsNotExist(err) {
		t.Error("invalid profile written")
	}
	e.Profile().Name = "Mine"
	if err := e.AddCategory("Branch", 3, 113); err != nil {
		t.Fatal(err)
	}
	if err := e.Move([]model.Instruction{armBEQ}, "Branch"); err != nil {
		t.Fatal(err)
	}
	if err := e.AddInstruction(model.Instruction{ISA: model.ARM, Mnemonic: "newop"}); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, "mine.xml")
	if err := e.SaveAs(path); err != nil {
		t.Fatal(err)
	}
	if e.Dirty() || e.Path() != path {
		t.Errorf("after save: dirty %v path %q", e.Dirty(), e.Path())
	}
	f := NewEditor()
	if err := f.Open(path); err != nil {
		t.Fatal(err)
	}
	if f.CategoryOf(armBEQ) != "Branch" || !contains(f.Uncategorized(Filter{Query: "NEWOP"}), model.Instruction{ISA: model.ARM, Mnemonic: "NEWOP"}) {
		t.Error("reopened profile lost a placement or a hand-added instruction")
	}
}

// Importing a real QEMU log puts the most executed uncategorised instructions on top.
func TestImportLogOrdersByExecutions(t *testing.T) {
	e := NewEditor()
	var calls int
	err := e.ImportLogs(context.Background(), []string{"../emulator/testdata/arm-7.2.log"}, func(done, total int64) { calls++ })
	if err != nil {
		t.Fatal(err)
	}
	rows := e.Uncategorized(Filter{})
	if rows[0].Count == 0 || !rows[0].Seen || rows[0].Count < rows[1].Count {
		t.Errorf("top rows = %+v %+v", rows[0], rows[1])
	}
	if calls == 0 {
		t.Error("no progress reported")
	}
	// In the fixture the Thumb loop at 0x106d0 (ldr, cmp, bne) runs 8 times and more.
	for _, r := range rows[:3] {
		if r.Instruction.ISA != model.Thumb || !strings.Contains("LDR CMP BNE", r.Instruction.Mnemonic) {
			t.Errorf("unexpected top row %+v", r)
		}
	}
}

// The editor's filter runs on every keystroke; the issue asks for < 10 ms on the full
// ARM+Thumb catalogue.
func BenchmarkFilterKeystroke(b *testing.B) {
	e := NewEditor()
	queries := []string{"v", "vm", "vmu", "vmul", "l", "ld", "ldr"}
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		e.Uncategorized(Filter{Query: queries[i%len(queries)]})
	}
}
