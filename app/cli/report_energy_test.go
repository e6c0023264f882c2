package cli

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// Under a profile with no power every row's energy is unknown: "unknown" in the text, null in
// the JSON, never 0, whatever the grouping (bb, insn and function wrote 0 in the JSON).
func TestReportEnergyUnknownIsNotZero(t *testing.T) {
	t.Parallel()
	db := sievesDB(t)
	for _, by := range []string{"pid", "bb", "insn", "category", "function"} {
		args := []string{"report", "--run", "demo-sieve-mips", "--profile", "mips-24k", "--by", by, "--top", "5"}
		code, out, errOut := runCLI(t, db, args...)
		if code != 0 {
			t.Fatal(errOut)
		}
		head := -1
		table, _, _ := strings.Cut(out, "\n\nestimate, step by step:") // the waterfall under it has no rows
		for i, line := range strings.Split(strings.TrimSpace(table), "\n") {
			if strings.Contains(line, "ENERGY (J)") {
				head = i
				continue
			}
			if head >= 0 && i > head && !strings.Contains(line, " unknown") {
				t.Errorf("--by %s: row %q has an energy", by, line)
			}
		}
		code, out, errOut = runCLI(t, db, append(args, "--json")...)
		if code != 0 {
			t.Fatal(errOut)
		}
		var rep struct {
			Rows   []map[string]any `json:"rows"`
			Totals map[string]any   `json:"totals"`
		}
		if err := json.Unmarshal([]byte(out), &rep); err != nil {
			t.Fatal(err)
		}
		for _, r := range append(rep.Rows, rep.Totals) {
			if e, ok := r["energy_j"]; !ok || e != nil {
				t.Errorf("--by %s --json: row %v has energy_j %v, want null", by, r["key"], e)
				break
			}
		}
	}
}

// At a clock other than the profile's own, the report says why the energy follows the clock:
// the profile's power is held while the time shrinks.
func TestReportSaysThePowerIsHeld(t *testing.T) {
	t.Parallel()
	db := sievesDB(t)
	for _, tc := range []struct {
		freq string
		note bool
	}{{"2", true}, {"1", false}} {
		code, out, errOut := runCLI(t, db, "report", "--run", "demo-sieve-arm", "--profile", "cortex-a8", "--frequency-ghz", tc.freq)
		if code != 0 {
			t.Fatal(errOut)
		}
		has := strings.Contains(out, "note: energy = power × time") && strings.Contains(out, "measured at 1 GHz") &&
			strings.Contains(out, "real chip draws more power")
		if has != tc.note {
			t.Errorf("at %s GHz the report says the power is held: %v, want %v:\n%s", tc.freq, has, tc.note, out)
		}
	}
}

// `androprof chart` draws what the window draws: under a profile with no power the energy
// chart lists the functions as "unknown" (it drew "No data") and says why under the bars.
func TestChartEnergyUnknown(t *testing.T) {
	t.Parallel()
	db := sievesDB(t)
	svg := filepath.Join(t.TempDir(), "e.svg")
	code, _, errOut := runCLI(t, db, "chart", "--run", "demo-sieve-mips", "--profile", "mips-24k", "--by", "function",
		"--metric", "energy", "--out", svg)
	if code != 0 {
		t.Fatal(errOut)
	}
	b, err := os.ReadFile(svg)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{">unknown<", "Power unknown: energy not estimated", ">main<"} {
		if !strings.Contains(string(b), want) {
			t.Errorf("the chart lacks %q", want)
		}
	}
}
