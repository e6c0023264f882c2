package controller

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"androprof/isaprofiles"
	"androprof/model/cost"
)

var (
	armLDR   = cost.Instruction{ISA: cost.ARM, Mnemonic: "LDR"}
	thumbLDR = cost.Instruction{ISA: cost.Thumb, Mnemonic: "LDR"}
	armBEQ   = cost.Instruction{ISA: cost.ARM, Mnemonic: "BEQ"}
)

func contains(rows []Row, in cost.Instruction) bool {
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
	want := len(isaprofiles.CatalogFor(cost.ARM).Entries) + len(isaprofiles.CatalogFor(cost.Thumb).Entries)
	if got := len(e.Uncategorized(Filter{})); got != want {
		t.Errorf("uncategorised = %d, want the %d catalogue entries", got, want)
	}
	if got := e.Uncategorized(Filter{ISA: cost.Thumb, Query: "cbz"}); len(got) != 1 || got[0].Instruction.Mnemonic != "CBZ" {
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
	if err := e.Move([]cost.Instruction{armLDR, thumbLDR}, "Load"); err != nil {
		t.Fatal(err)
	}
	if !contains(e.CategoryRows("Load", Filter{}), thumbLDR) || contains(e.Uncategorized(Filter{}), armLDR) {
		t.Error("Move did not move")
	}
	if err := e.Move([]cost.Instruction{{ISA: cost.MIPS, Mnemonic: "LW"}}, "Load"); err == nil {
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
	if err := e.Move([]cost.Instruction{armLDR}, cost.UndefinedCategory); err != nil || e.CategoryOf(armLDR) != cost.UndefinedCategory {
		t.Errorf("move back: %v", err)
	}
	if err := e.DeleteCategory("Loads"); err != nil || e.CategoryOf(thumbLDR) != cost.UndefinedCategory {
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
	if err := e.Move([]cost.Instruction{armBEQ}, "Branch"); err != nil {
		t.Fatal(err)
	}
	if err := e.AddInstruction(cost.Instruction{ISA: cost.ARM, Mnemonic: "newop"}); err != nil {
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
	if f.CategoryOf(armBEQ) != "Branch" || !contains(f.Uncategorized(Filter{Query: "NEWOP"}), cost.Instruction{ISA: cost.ARM, Mnemonic: "NEWOP"}) {
		t.Error("reopened profile lost a placement or a hand-added instruction")
	}
}

// Importing a real QEMU log puts the most executed uncategorised instructions on top.
func TestImportLogOrdersByExecutions(t *testing.T) {
	e := NewEditor()
	var calls int
	err := e.ImportLogs(context.Background(), []string{"../formats/qemulog/testdata/arm-7.2.log"}, func(done, total int64) { calls++ })
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
		if r.Instruction.ISA != cost.Thumb || !strings.Contains("LDR CMP BNE", r.Instruction.Mnemonic) {
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

// A profile is named through the editor: refused names change nothing, a new name marks it modified.
func TestSetName(t *testing.T) {
	e := NewEditor()
	for _, bad := range []string{"", "   ", "My\tA8", "line\nbreak", "bell\a"} {
		if err := e.SetName(bad); err == nil {
			t.Errorf("SetName(%q) accepted", bad)
		}
		if err := e.NewProfile(bad, cost.ARM); err == nil {
			t.Errorf("NewProfile(%q) accepted", bad)
		}
	}
	if e.Dirty() || e.Profile().Name != UnnamedProfile {
		t.Fatalf("refused names changed the profile: %q, dirty %v", e.Profile().Name, e.Dirty())
	}
	must(t, e.SetName("  My A8 "))
	if e.Profile().Name != "My A8" || !e.Dirty() {
		t.Errorf("after SetName: %q, dirty %v", e.Profile().Name, e.Dirty())
	}
}

// The category dialogs ask CheckCategoryName while the user types; it must agree with what
// AddCategory and RenameCategory refuse.
func TestCheckCategoryName(t *testing.T) {
	e := NewEditor()
	must(t, e.AddCategory("Load", 1, 1))
	for _, c := range []struct {
		old, name string
		ok        bool
	}{{"", "Store", true}, {"", " load ", false}, {"", "undefined", false}, {"", "a\tb", false}, {"", " ", false},
		{"Load", "LOAD", true}, {"Load", "Loads", true}, {"Load", "", false}} {
		if err := e.CheckCategoryName(c.old, c.name); (err == nil) != c.ok {
			t.Errorf("CheckCategoryName(%q, %q) = %v", c.old, c.name, err)
		}
	}
}

// Moving ticked instructions from one category to another takes one call and leaves the first.
func TestMoveBetweenCategories(t *testing.T) {
	e := NewEditor()
	must(t, e.AddCategory("Load", 1, 1))
	must(t, e.AddCategory("Memory", 2, 2))
	must(t, e.Move([]cost.Instruction{armLDR, thumbLDR, armBEQ}, "Load"))
	must(t, e.Move([]cost.Instruction{armLDR, thumbLDR}, "Memory"))
	if got := e.CategoryRows("Load", Filter{}); len(got) != 1 || got[0].Instruction != armBEQ {
		t.Errorf("Load holds %v, want only BEQ", got)
	}
	if e.CategoryOf(armLDR) != "Memory" || e.CategoryOf(thumbLDR) != "Memory" {
		t.Errorf("LDR in %q and %q", e.CategoryOf(armLDR), e.CategoryOf(thumbLDR))
	}
	if probs := e.Problems(); len(probs) > 0 {
		t.Errorf("after the move: %v", probs)
	}
}

func must(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}
