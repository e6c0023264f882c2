package cli

import (
	"context"
	"encoding/csv"
	"encoding/json"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"androprof/controller"
	"androprof/isaprofiles"
	"androprof/model/cost"
	"androprof/store/workspacedb"
)

// fourISAsDB is a workspace with one run of each instruction set the plugin writes: the
// demo's ARM and MIPS sieves, and a small AArch64 and x86-64 run in the plugin's format (as
// docs/bbprofile-format.md spells their sets), with a profile of each new set kept in it: one
// with reference data, one without. Built-ins of those sets, when there are some, compete.
func fourISAsDB(t *testing.T) string {
	t.Helper()
	db := sievesDB(t)
	dir := t.TempDir()
	runs := map[string]string{
		"a64": "process 100 0 aarch64 0x400000 /tmp/sieve\nthread 100\nblock 1 0x400000 AArch64 3 -\n" +
			"insn 0x400000 1f2003d5 nop\ninsn 0x400004 20008052 mov w0, #1\ninsn 0x400008 c0035fd6 ret\nexec 100 1000\n",
		"x64": "process 200 0 x86_64 0x400000 /tmp/sieve\nthread 200\nblock 1 0x400000 x86-64 3 -\n" +
			"insn 0x400000 90 nop\ninsn 0x400001 4889e5 mov rbp, rsp\ninsn 0x400004 c3 ret\nexec 200 1000\n",
	}
	for run, body := range runs {
		path := filepath.Join(dir, run+".txt")
		if err := os.WriteFile(path, []byte("androprof-bbprofile 2\n"+body+"end\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		if code, _, errOut := runCLI(t, db, "import", "--run", run, path); code != 0 {
			t.Fatalf("import %s: %s", run, errOut)
		}
	}
	for _, p := range []*cost.Profile{testProfile("test A64", true, cost.AArch64), testProfile("test x86-64", false, cost.X86_64)} {
		path := filepath.Join(dir, p.Name+".xml")
		if err := isaprofiles.WriteFile(path, p); err != nil {
			t.Fatal(err)
		}
		if code, _, errOut := runCLI(t, db, "profile", "import", path); code != 0 {
			t.Fatalf("profile import %s: %s", p.Name, errOut)
		}
	}
	return db
}

// testProfile is a small profile of isa, with reference data (CPI and power) when ref.
func testProfile(name string, ref bool, isa cost.ISA) *cost.Profile {
	p := cost.NewProfile(name, isa)
	p.Source = "test"
	p.Undefined.Cycles, p.Undefined.PowerMW = 1, 100
	p.Undefined.Citations = []cost.Citation{{Cost: cost.CyclesCost, Text: "test"}, {Cost: cost.PowerCost, Text: "test"}}
	if ref {
		p.Reference = cost.Reference{FrequencyGHz: 1.5, CPI: 1.25, ProcessorPowerW: 0.5}
		p.Citations = []cost.Citation{{Cost: "cpi", Text: "test"}, {Cost: "processor-power-w", Text: "test"}, {Cost: "frequency-ghz", Text: "test"}}
	}
	return p
}

type cpiRowJSON struct {
	Item         string   `json:"item"`
	Profile      string   `json:"profile"`
	Instructions int64    `json:"instructions"`
	FrequencyGHz float64  `json:"frequency_ghz"`
	UnpricedISAs []string `json:"unpriced_isas"`
	Warnings     []string `json:"warnings"`
	CPICycles    *float64 `json:"cpi_cycles"`
	CPITimeS     *float64 `json:"cpi_time_s"`
	CPIEnergyJ   *float64 `json:"cpi_energy_j"`
}

// report --compare of one program on ARM, AArch64, MIPS and x86-64 prices each run with a
// profile of its own set (none is left unpriced), names it in the text, the JSON and the CSV,
// and gives figure 5.2's estimate exactly where that profile has reference data.
func TestCompareFourISAsEachUnderItsOwnSet(t *testing.T) {
	t.Parallel()
	db := fourISAsDB(t)
	items := "demo-sieve-arm,a64,demo-sieve-mips,x64"
	code, out, errOut := runCLI(t, db, "report", "--compare", items, "--json")
	var res struct {
		Rows []cpiRowJSON `json:"rows"`
	}
	if code != 0 || json.Unmarshal([]byte(out), &res) != nil || len(res.Rows) != 4 {
		t.Fatal(code, errOut, out)
	}
	ws, err := controller.OpenWorkspace(workspacedb.Databases(), db, false)
	if err != nil {
		t.Fatal(err)
	}
	defer ws.Close()
	for _, r := range res.Rows {
		if len(r.UnpricedISAs) != 0 || strings.Contains(strings.Join(r.Warnings, " "), " prices ") {
			t.Errorf("%s under %s: unpriced %v, warnings %v; want a profile of its own set", r.Item, r.Profile, r.UnpricedISAs, r.Warnings)
		}
		p, err := ws.Profiles.Resolve(context.Background(), r.Profile)
		if err != nil {
			t.Fatal(err)
		}
		want, ok := cost.ReferenceEstimate(p.Reference, r.Instructions, r.FrequencyGHz)
		if ok != (r.CPICycles != nil) || ok != (r.CPIEnergyJ != nil) || ok && (*r.CPICycles != want.Cycles || *r.CPITimeS != want.TimeS) {
			t.Errorf("%s under %s: cpi_cycles %v, cpi_energy_j %v; reference estimable %v, want %+v", r.Item, r.Profile, r.CPICycles, r.CPIEnergyJ, ok, want)
		}
	}
	if res.Rows[0].Profile != "ARMv7-A Cortex-A8" || res.Rows[0].CPICycles == nil {
		t.Errorf("the ARM run: %+v; want the Cortex-A8 with figure 5.2", res.Rows[0])
	}

	code, out, errOut = runCLI(t, db, "report", "--compare", items, "--csv")
	recs, err := csv.NewReader(strings.NewReader(out)).ReadAll()
	if code != 0 || err != nil || len(recs) != 5 {
		t.Fatal(code, errOut, out, err)
	}
	col := func(name string) int {
		for i, h := range recs[0] {
			if h == name {
				return i
			}
		}
		t.Fatalf("CSV has no %s column: %v", name, recs[0])
		return -1
	}
	for i, r := range res.Rows {
		rec := recs[i+1]
		cpi := "unknown"
		if r.CPICycles != nil {
			cpi = strconv.FormatFloat(*r.CPICycles, 'g', -1, 64)
		}
		if rec[col("item")] != r.Item || rec[col("profile")] != r.Profile || rec[col("cpi_cycles")] != cpi {
			t.Errorf("CSV row %v; JSON says %s under %s, cpi_cycles %s", rec, r.Item, r.Profile, cpi)
		}
	}

	_, out, _ = runCLI(t, db, "report", "--compare", items)
	for _, r := range res.Rows {
		if !strings.Contains(out, r.Profile) {
			t.Errorf("the text does not name %s's profile %s:\n%s", r.Item, r.Profile, out)
		}
	}
	if !strings.Contains(out, "FIG. 5.2 TIME (s)") || strings.Contains(out, " prices ") {
		t.Errorf("report --compare text:\n%s", out)
	}
}

// A profile chosen with --profile stands for every row; where it does not price a row's set a
// warning line says so, and that row's figure 5.2 is unknown: the CPI was measured on a
// processor that does not run it.
func TestCompareChosenProfileWarnsOnOtherSets(t *testing.T) {
	t.Parallel()
	db := fourISAsDB(t)
	code, out, errOut := runCLI(t, db, "report", "--compare", "demo-sieve-arm,a64,x64", "--profile", "cortex-a8")
	if code != 0 {
		t.Fatal(errOut)
	}
	for _, want := range []string{
		"warning: a64 under ARMv7-A Cortex-A8: ARMv7-A Cortex-A8 prices ARM and Thumb, not AArch64",
		"warning: x64 under ARMv7-A Cortex-A8: ARMv7-A Cortex-A8 prices ARM and Thumb, not x86-64",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("no %q in:\n%s", want, out)
		}
	}
	_, out, _ = runCLI(t, db, "report", "--compare", "demo-sieve-arm,a64,x64", "--profile", "cortex-a8", "--json")
	var res struct {
		Rows []cpiRowJSON `json:"rows"`
	}
	if json.Unmarshal([]byte(out), &res) != nil || len(res.Rows) != 3 {
		t.Fatal(out)
	}
	if res.Rows[0].CPICycles == nil || res.Rows[1].CPICycles != nil || res.Rows[2].CPICycles != nil ||
		strings.Join(res.Rows[1].UnpricedISAs, ",") != "AArch64" {
		t.Errorf("figure 5.2 under --profile cortex-a8: %+v", res.Rows)
	}
	if code, _, errOut := runCLI(t, db, "report", "--compare", "a64,x64", "--csv", "--json"); code == 0 || !strings.Contains(errOut, "--csv") {
		t.Errorf("--csv with --json: %d %s", code, errOut)
	}
}
