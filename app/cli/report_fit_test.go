package cli

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"androprof/assets"
	"androprof/controller"
	"androprof/store"
)

// sievesDB is a workspace file holding the demo's ARM and MIPS sieve runs.
func sievesDB(t *testing.T) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "w.db")
	db, err := store.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	demos := map[string]controller.DemoRun{}
	for _, d := range assets.DemoRuns() {
		if d.Name == "demo-sieve-arm" || d.Name == "demo-sieve-mips" {
			demos[d.Name] = d
		}
	}
	if _, err := controller.NewWorkspace(db).Importer().ImportDemo(context.Background(), demos); err != nil {
		t.Fatal(err)
	}
	return path
}

type fitJSON struct {
	Profile         string   `json:"profile"`
	UndefinedShare  float64  `json:"undefined_share"`
	UnpricedISAs    []string `json:"unpriced_isas"`
	EnergyKnown     bool     `json:"energy_known"`
	Warnings        []string `json:"warnings"`
	UndefinedCycles float64  `json:"undefined_cycles_each"`
}

// `androprof report` says what the window says: the share a profile prices as Undefined, an
// instruction set it does not price, and unknown power; without --profile a run gets a
// profile of its own instruction set, as in the window.
func TestReportSaysWhenProfileDoesNotFit(t *testing.T) {
	db := sievesDB(t)
	report := func(args ...string) fitJSON {
		t.Helper()
		code, out, errOut := runCLI(t, db, append([]string{"report", "--json"}, args...)...)
		if code != 0 {
			t.Fatal(errOut)
		}
		var f fitJSON
		if err := json.Unmarshal([]byte(out), &f); err != nil {
			t.Fatal(err)
		}
		return f
	}
	f := report("--run", "demo-sieve-mips", "--profile", "cortex-a8")
	if f.UndefinedShare != 1 || len(f.UnpricedISAs) != 1 || f.UnpricedISAs[0] != "MIPS" || f.UndefinedCycles != 13.03 ||
		len(f.Warnings) != 2 || !strings.Contains(f.Warnings[1], "100 % of instructions are not in this profile") {
		t.Errorf("MIPS under --profile cortex-a8: %+v", f)
	}
	if f := report("--run", "demo-sieve-mips", "--profile", "mips-24k"); f.EnergyKnown || len(f.Warnings) != 1 {
		t.Errorf("MIPS 24K: %+v", f)
	}
	if f := report("--run", "demo-sieve-mips"); !strings.Contains(f.Profile, "MIPS") || f.UndefinedShare != 0 {
		t.Errorf("MIPS run without --profile: %+v", f)
	}
	if f := report("--run", "demo-sieve-arm", "--by", "category"); f.Profile != "ARMv7-A Cortex-A8" || f.Warnings == nil || len(f.Warnings) != 0 {
		t.Errorf("ARM run without --profile: %+v", f)
	}

	code, out, errOut := runCLI(t, db, "report", "--run", "demo-sieve-mips", "--profile", "mips-24k")
	if code != 0 {
		t.Fatal(errOut)
	}
	lines := strings.Split(strings.TrimSpace(out), "\n")
	if !strings.HasPrefix(lines[1], "warning: Power unknown: energy not estimated") ||
		!strings.HasPrefix(lines[len(lines)-1], "total") || strings.Fields(lines[len(lines)-1])[5] != "unknown" {
		t.Errorf("text report under the MIPS 24K:\n%s", out)
	}

	// chart --compare prices the MIPS run with a MIPS profile (546 k cycles), not with the
	// Cortex-A8 of --profile (6.45 M, all Undefined).
	svg := filepath.Join(t.TempDir(), "c.svg")
	if code, _, errOut := runCLI(t, db, "chart", "--compare", "demo-sieve-arm,demo-sieve-mips", "--profile", "cortex-a8", "--out", svg); code != 0 {
		t.Fatal(errOut)
	}
	if b, err := os.ReadFile(svg); err != nil || !strings.Contains(string(b), "546k") || strings.Contains(string(b), "6.45M") {
		t.Errorf("compare chart: %v; MIPS bar labelled 546k: %v", err, strings.Contains(string(b), "546k"))
	}
}
