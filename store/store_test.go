package store

import (
	"context"
	"database/sql"
	"errors"
	"io/fs"
	"os/exec"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"androprof/internal/refcheck"
	"androprof/model/cost"
)

func testProfile() *cost.Profile {
	p := cost.NewProfile("Test A8", cost.ARM, cost.Thumb)
	p.Architecture, p.Organization, p.Source = "ARMv7-A", "Cortex-A8", "tests"
	p.Reference = cost.Reference{FrequencyGHz: 1, CPI: 13.03, ProcessorPowerW: 0.89, BaseInstructions: 39171751755, BaseCacheMisses: 521966483, MemoryAccessEnergy: 2.61}
	p.Citations = []cost.Citation{{Cost: "cpi", Text: "seed Table 5.3"}}
	p.Categories = []cost.Category{
		{Name: "Conditional branch", Cycles: 3, PowerMW: 113, Citations: []cost.Citation{{Cost: "power", Text: "Bazzaz 2013"}},
			Instructions: []cost.Instruction{{ISA: cost.ARM, Mnemonic: "BEQ"}, {ISA: cost.Thumb, Mnemonic: "BEQ"}}},
		{Name: "Load", Cycles: 1.5, PowerMW: 890, Citations: []cost.Citation{{Cost: "power", Estimate: true, Text: "average"}},
			Instructions: []cost.Instruction{{ISA: cost.ARM, Mnemonic: "LDR"}}},
	}
	p.Undefined = cost.Category{Name: cost.UndefinedCategory, Cycles: 13.03, PowerMW: 890,
		Instructions: []cost.Instruction{{ISA: cost.ARM, Mnemonic: "FOO"}}}
	return p
}

func openTemp(t *testing.T) *DB {
	t.Helper()
	path := filepath.Join(t.TempDir(), "w.db")
	db, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		db.Close()
		if err := refcheck.Check(path); err != nil {
			t.Error(err)
		}
	})
	return db
}

func TestProfileRoundTrip(t *testing.T) {
	ctx := context.Background()
	db := openTemp(t)
	p := testProfile()
	if err := db.SaveProfile(ctx, p); err != nil {
		t.Fatal(err)
	}
	got, err := db.Profile(ctx, p.Name)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(p, got) {
		t.Errorf("stored profile differs:\n%+v\n%+v", p, got)
	}
	// Saving again replaces, it does not duplicate.
	p.Categories[1].Cycles = 2
	if err := db.SaveProfile(ctx, p); err != nil {
		t.Fatal(err)
	}
	list, err := db.Profiles(ctx)
	if err != nil || len(list) != 1 || list[0].Categories != 2 {
		t.Fatalf("list = %+v, %v", list, err)
	}
	if err := db.DeleteProfile(ctx, p.Name); err != nil {
		t.Fatal(err)
	}
	if _, err := db.Profile(ctx, p.Name); !errors.Is(err, cost.ErrNotFound) {
		t.Errorf("after delete: %v", err)
	}
	var n int
	if err := db.read.QueryRow(`SELECT count(*) FROM category_instruction`).Scan(&n); err != nil || n != 0 {
		t.Errorf("cascade left %d instruction rows (%v)", n, err)
	}
}

// A failed save must leave the previous version in place: one transaction per change.
func TestFailedSaveChangesNothing(t *testing.T) {
	ctx := context.Background()
	db := openTemp(t)
	p := testProfile()
	if err := db.SaveProfile(ctx, p); err != nil {
		t.Fatal(err)
	}
	bad := testProfile()
	bad.Categories[0].Cycles = -1
	if err := db.SaveProfile(ctx, bad); err == nil {
		t.Fatal("invalid profile saved")
	}
	cancelled, cancel := context.WithCancel(ctx)
	cancel()
	if err := db.SaveProfile(cancelled, testProfile()); err == nil {
		t.Fatal("save with a cancelled context succeeded")
	}
	got, err := db.Profile(ctx, p.Name)
	if err != nil || !reflect.DeepEqual(got, p) {
		t.Errorf("profile changed by failed saves: %v", err)
	}
}

func TestMigrationsRecordedOnce(t *testing.T) {
	path := filepath.Join(t.TempDir(), "w.db")
	for i := 0; i < 2; i++ {
		db, err := Open(path)
		if err != nil {
			t.Fatal(err)
		}
		db.Close()
	}
	raw, err := sql.Open("sqlite", path)
	if err != nil {
		t.Fatal(err)
	}
	defer raw.Close()
	files, _ := fs.Glob(migrationFS, "migrations/*.sql")
	var n int
	if err := raw.QueryRow(`SELECT count(*) FROM schema_migration`).Scan(&n); err != nil || n != len(files) {
		t.Errorf("schema_migration rows = %d, want %d (%v)", n, len(files), err)
	}
	var mode string
	if err := raw.QueryRow(`PRAGMA journal_mode`).Scan(&mode); err != nil || mode != "wal" {
		t.Errorf("journal_mode = %q (%v)", mode, err)
	}
}

// The workspace is a plain SQLite file: the sqlite3 shell reads it.
func TestReadableBySqlite3(t *testing.T) {
	sqlite3, err := exec.LookPath("sqlite3")
	if err != nil {
		t.Skip("sqlite3 shell not installed")
	}
	db := openTemp(t)
	if err := db.SaveProfile(context.Background(), testProfile()); err != nil {
		t.Fatal(err)
	}
	out, err := exec.Command(sqlite3, db.Path(), "SELECT name, cycles FROM category ORDER BY position").CombinedOutput()
	if err != nil {
		t.Fatalf("%v: %s", err, out)
	}
	if got := strings.TrimSpace(string(out)); got != "Conditional branch|3.0\nLoad|1.5\nUndefined|13.03" {
		t.Errorf("sqlite3 printed %q", got)
	}
}
