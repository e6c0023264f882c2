package cli

import (
	"context"
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"androprof/controller"
	"androprof/store/workspacedb"
)

// sievesDB is a workspace file holding the demo's ARM and MIPS sieve runs.
func sievesDB(t *testing.T) string {
	return demoRunsDB(t, func(run string) bool { return run == "demo-sieve-arm" || run == "demo-sieve-mips" })
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
	t.Parallel()
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
	table, _, _ := strings.Cut(out, "\n\nestimate, step by step:") // the table, without the waterfall under it
	lines := strings.Split(strings.TrimSpace(table), "\n")
	if !strings.HasPrefix(lines[1], "warning: Power unknown: energy not estimated") ||
		!strings.HasPrefix(lines[len(lines)-1], "total") || strings.Fields(lines[len(lines)-1])[5] != "unknown" {
		t.Errorf("text report under the MIPS 24K:\n%s", out)
	}

	// chart --compare prices the MIPS run with the MIPS default, the 74K (1.04 M cycles), not
	// with the Cortex-A8 of --profile (6.45 M, all Undefined).
	svg := filepath.Join(t.TempDir(), "c.svg")
	if code, _, errOut := runCLI(t, db, "chart", "--compare", "demo-sieve-arm,demo-sieve-mips", "--profile", "cortex-a8", "--out", svg); code != 0 {
		t.Fatal(errOut)
	}
	if b, err := os.ReadFile(svg); err != nil || !strings.Contains(string(b), "1.04M") || strings.Contains(string(b), "6.45M") {
		t.Errorf("compare chart: %v; MIPS bar labelled 1.04M: %v", err, strings.Contains(string(b), "1.04M"))
	}
}

// Without --profile a run is priced as the window prices it, by controller's one default rule
// (the Cortex-A8 for ARM: 827,734 cycles, 0.511 mJ; the window said A15's 1,033,759 and 1.52 mJ),
// and the report names the profile.
func TestReportDefaultProfileIsTheWindows(t *testing.T) {
	t.Parallel()
	path := sievesDB(t)
	ctx := context.Background()
	ws, err := controller.OpenWorkspace(workspacedb.Databases(), path, false)
	if err != nil {
		t.Fatal(err)
	}
	infos, err := ws.Profiles.List(ctx)
	if err != nil {
		t.Fatal(err)
	}
	d, err := ws.Costs.Load(ctx, "demo-sieve-arm")
	if err != nil {
		t.Fatal(err)
	}
	i, err := ws.Profiles.Choose(ctx, infos, "", d.MainISA(0)) // what the window opens the run under
	ws.Close()
	if err != nil || i < 0 {
		t.Fatal(i, err)
	}
	code, out, errOut := runCLI(t, path, "report", "--run", "demo-sieve-arm", "--json")
	var rep struct {
		Profile string `json:"profile"`
		Totals  struct {
			Cycles  float64 `json:"cycles"`
			EnergyJ float64 `json:"energy_j"`
		} `json:"totals"`
	}
	if code != 0 || json.Unmarshal([]byte(out), &rep) != nil {
		t.Fatal(code, errOut, out)
	}
	if rep.Profile != infos[i].Name || rep.Profile != "ARMv7-A Cortex-A8" || math.Round(rep.Totals.Cycles) != 827734 ||
		math.Abs(rep.Totals.EnergyJ-0.000511375) > 1e-9 {
		t.Errorf("report without --profile: %+v; the window's default is %q", rep, infos[i].Name)
	}
	if _, out, _ := runCLI(t, path, "report", "--run", "demo-sieve-arm"); !strings.HasPrefix(out, `run "demo-sieve-arm" under "ARMv7-A Cortex-A8"`) {
		t.Errorf("the text report does not name its profile first:\n%s", out)
	}
}

// report --compare under a profile that does not fit an item says so in warning lines and in
// its JSON, with the documented snake_case keys; the ratios are the first item's.
func TestCompareSaysWhenProfileDoesNotFit(t *testing.T) {
	t.Parallel()
	db := sievesDB(t)
	args := []string{"report", "--compare", "demo-sieve-arm,demo-sieve-mips", "--profile", "mips-74k"}
	code, out, errOut := runCLI(t, db, args...)
	if code != 0 {
		t.Fatal(errOut)
	}
	if !strings.Contains(out, "warning: demo-sieve-arm under MIPS32 Release 2 74K: MIPS32 Release 2 74K prices MIPS, not ARM or Thumb") ||
		!strings.Contains(out, "warning: demo-sieve-arm under MIPS32 Release 2 74K: 100 % of instructions are not in this profile") ||
		strings.Contains(out, "warning: demo-sieve-mips") {
		t.Errorf("warnings of report --compare --profile mips-74k:\n%s", out)
	}
	code, out, errOut = runCLI(t, db, append(args, "--json")...)
	var res struct {
		Rows []struct {
			Item           string   `json:"item"`
			Profile        string   `json:"profile"`
			UndefinedShare float64  `json:"undefined_share"`
			UnpricedISAs   []string `json:"unpriced_isas"`
			EnergyKnown    bool     `json:"energy_known"`
			Warnings       []string `json:"warnings"`
			CycleRatio     *float64 `json:"cycle_ratio"`
		} `json:"rows"`
	}
	if code != 0 || json.Unmarshal([]byte(out), &res) != nil || len(res.Rows) != 2 {
		t.Fatal(code, errOut, out)
	}
	arm, mips := res.Rows[0], res.Rows[1]
	if arm.Item != "demo-sieve-arm" || arm.UndefinedShare != 1 || strings.Join(arm.UnpricedISAs, ",") != "ARM,Thumb" ||
		len(arm.Warnings) != 2 || mips.UndefinedShare != 0 || len(mips.Warnings) != 0 || mips.CycleRatio == nil {
		t.Errorf("report --compare --json: %s", out)
	}
}

// --compare prices emulator runs; two heap dumps have their own comparison, and chart --compare
// draws two method traces as the window's Compare tab does. Any other kind (report of method
// traces, a heap log, a sampled run), or kinds mixed, is refused by name: the emulator's table
// of zeros (and a ratio 0.000 to a zero base) read as a measurement.
func TestCompareRefusesRunsOfOtherKinds(t *testing.T) {
	t.Parallel()
	db := demoDB(t)
	for _, c := range []struct{ list, want string }{
		{"demo-methods,demo-methods", `run "demo-methods" is a method trace: --compare puts emulator runs`}, // report only
		{"demo-heap-cache,demo-heap-garbage", `run "demo-heap-cache" is a heap log`},
		{"demo-vertical-phases,demo-sieve-arm", `run "demo-vertical-phases" is a sampled profile`},
		{"demo-sieve-arm,demo-vertical-phases", `run "demo-vertical-phases" is a sampled profile`},
		{"demo-sieve-arm,demo-heap-dump", `run "demo-sieve-arm" is an emulator run and run "demo-heap-dump" a heap dump`},
		{"demo-heap-dump:3,demo-heap-dump", `run "demo-heap-dump" is a heap dump: it has no process`},
	} {
		for _, cmd := range [][]string{{"report", "--compare", c.list}, {"chart", "--compare", c.list, "--out", filepath.Join(t.TempDir(), "c.svg")}} {
			if cmd[0] == "chart" && c.list == "demo-methods,demo-methods" {
				continue // chart draws two method traces side by side
			}
			code, out, errOut := runCLI(t, db, cmd...)
			if code != 1 || out != "" || !strings.Contains(errOut, c.want) {
				t.Errorf("%s: exit %d, %q, %q; want %q", strings.Join(cmd, " "), code, out, errOut, c.want)
			}
		}
	}
	if code, out, errOut := runCLI(t, db, "report", "--compare", "demo-heap-dump,demo-heap-dump", "--top", "1"); code != 0 || out == "" {
		t.Errorf("two heap dumps: exit %d %s", code, errOut)
	}
	if code, _, errOut := runCLI(t, db, "chart", "--compare", "demo-heap-dump,demo-heap-dump", "--out", filepath.Join(t.TempDir(), "d.svg")); code != 1 ||
		!strings.Contains(errOut, "chart --compare draws emulator runs") {
		t.Errorf("chart --compare of dumps: exit %d %q", code, errOut)
	}
}
