package cli

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"androprof/chart"
	"androprof/controller"
	"androprof/emulator/qemutest"
	"androprof/model/cost"
	"androprof/store/workspacedb"
)

// A malformed --cache geometry is refused before anything runs, with what is wrong with which
// level, and no workspace is made.
func TestRunRefusesBadCacheGeometry(t *testing.T) {
	for _, c := range []struct{ spec, want string }{
		{"l1i=32k:4:48,l1d=32k:4:64,l2=512k:8:64", "cache level l1i: line size 48 bytes is not a power of two"},
		{"l1i=32k:4:64,l1d=48k:4:64,l2=512k:8:64", "cache level l1d: 192 sets (size ÷ ways ÷ line) is not a power of two"},
		{"l1i=32k:4:64,l1d=32:1:64,l2=512k:8:64", "cache level l1d: size 32 bytes is smaller than a line (64 bytes)"},
		{"l1i=32k:4:64,l1d=32k:4:64,l2=256:8:64", "cache level l2: 8 ways is more than its 4 lines"},
		{"l1i=32k:4:64,l1d=32k:4:64", "the cache geometry has no l2"},
	} {
		for _, args := range [][]string{{"--cache=" + c.spec}, {"--cache", c.spec}} {
			db := filepath.Join(t.TempDir(), "w.db")
			code, _, errOut := runCLI(t, db, append(append([]string{"run"}, args...), "--", "/bin/true")...)
			if code != 2 || !strings.Contains(errOut, c.want) {
				t.Errorf("run %v: exit %d, %q; want 2 and %q", args, code, errOut, c.want)
			}
			if _, err := os.Stat(db); !os.IsNotExist(err) {
				t.Errorf("run %v made the workspace (%v)", args, err)
			}
		}
	}
}

// A bare --cache takes the profile's hierarchy; a profile without one is refused by name,
// with how to give a geometry by hand.
func TestRunCacheNeedsAHierarchy(t *testing.T) {
	db := filepath.Join(t.TempDir(), "w.db")
	code, _, errOut := runCLI(t, db, "run", "--cache", "--profile", "../../isaprofiles/testdata/valid.xml", "--", "/bin/true")
	if code != 2 || !strings.Contains(errOut, "has no memory hierarchy") || !strings.Contains(errOut, "--cache=l1i=") {
		t.Errorf("exit %d, %q", code, errOut)
	}
}

// estimate --run prints the model's waterfall: its JSON carries the numbers Report computes,
// and its text every step and figure 5.2 beside it.
func TestEstimateRunIsTheModelsWaterfall(t *testing.T) {
	t.Parallel()
	db := demoRunsDB(t, func(run string) bool { return run == "demo-sieve-arm" })
	code, out, errOut := runCLI(t, db, "estimate", "--run", "demo-sieve-arm", "--profile", "cortex-a8", "--json")
	if code != 0 {
		t.Fatal(errOut)
	}
	var got struct {
		Waterfall waterfallJSON `json:"waterfall"`
	}
	if err := json.Unmarshal([]byte(out), &got); err != nil {
		t.Fatal(err)
	}
	want := modelWaterfall(t, db, "demo-sieve-arm", "cortex-a8")
	w := got.Waterfall
	if w.Instructions != want.Instructions || w.CategoryCycles != want.CategoryCycles || w.TotalCycles != want.TotalCycles ||
		w.TimeS != want.TimeS || w.Gap != want.Gap || w.MemoryNote != want.MemoryNote {
		t.Errorf("estimate --run --json %+v\nmodel %+v", w, want)
	}
	if want.ReferenceKnown && (w.CPICycles == nil || *w.CPICycles != want.Reference.Cycles) {
		t.Errorf("figure 5.2 cycles %v, model %v", w.CPICycles, want.Reference.Cycles)
	}
	if w.StallCycles != nil { // the demo run was not simulated: unknown, not 0
		t.Errorf("stall cycles %v for a run without simulation", *w.StallCycles)
	}
	code, out, errOut = runCLI(t, db, "estimate", "--run", "demo-sieve-arm", "--profile", "cortex-a8")
	for _, line := range []string{"category cycles", "pipeline cycles", "+ memory stalls", "= total cycles", "figure 5.2"} {
		if code != 0 || !strings.Contains(out, line) {
			t.Errorf("estimate --run: no %q line in\n%s%s", line, out, errOut)
		}
	}
	if code, _, errOut := runCLI(t, db, "estimate", "--run", "demo-sieve-arm", "--instructions", "5"); code != 2 {
		t.Errorf("--run with the calculator's flags: exit %d, %s", code, errOut)
	}
	if code, out, _ := runCLI(t, db, "estimate", "--instructions", "1000", "--cpi", "2"); code != 0 || !strings.Contains(out, "estimated cycles:           2000") {
		t.Errorf("the calculator: exit %d, %s", code, out)
	}
}

// modelWaterfall is run's waterfall under profile as the controller computes it.
func modelWaterfall(t *testing.T, db, run, profile string) cost.Waterfall {
	t.Helper()
	ctx := context.Background()
	ws, err := controller.OpenWorkspace(workspacedb.Databases(), db, false)
	if err != nil {
		t.Fatal(err)
	}
	defer ws.Close()
	p, err := ws.Profiles.Resolve(ctx, profile)
	if err != nil {
		t.Fatal(err)
	}
	rep, err := ws.Costs.Report(ctx, cost.ReportOptions{Run: run, Profile: p, By: cost.ByPID})
	if err != nil {
		t.Fatal(err)
	}
	return rep.Waterfall
}

// sieveGeometry is a small hierarchy under which the sieve misses at every level.
const sieveGeometry = "l1i=4k:2:32,l1d=4k:2:32,l2=16k:4:64"

// run --cache on the sieve (ARM, real QEMU) imports its misses: the summary says the geometry
// and each level's misses, report --json carries every column and the waterfall, CSV the same
// keys, --misses-first puts the most missing function first, and chart --metric sources draws
// the controller's chart.
func TestRunCacheSieve(t *testing.T) {
	tg := qemutest.Targets[0] // ARM
	bin := qemutest.Build(t, tg, filepath.Join(qemutest.SamplesDir(), "sieve.c"))
	db := filepath.Join(t.TempDir(), "w.db")
	code, _, errOut := runCLI(t, db, "run", "--run", "sieve", "--profile", "cortex-a8", "--cache="+sieveGeometry, "--", bin, "20000")
	if code != 0 {
		t.Fatalf("run --cache: %s", errOut)
	}
	for _, want := range []string{"misses simulated for l1i=4k:2:32:lru:wa,l1d=4k:2:32:lru:wa,l2=16k:4:64:lru:wa (--cache)", "misses: l1i "} {
		if !strings.Contains(errOut, want) {
			t.Errorf("the summary does not say %q:\n%s", want, errOut)
		}
	}
	code, out, errOut := runCLI(t, db, "report", "--run", "sieve", "--profile", "cortex-a8", "--by", "function", "--json")
	if code != 0 {
		t.Fatal(errOut)
	}
	var rep struct {
		Rows      []map[string]any `json:"rows"`
		Totals    map[string]any   `json:"totals"`
		Waterfall waterfallJSON    `json:"waterfall"`
	}
	if err := json.Unmarshal([]byte(out), &rep); err != nil {
		t.Fatal(err)
	}
	for _, key := range []string{"l1i_misses", "l1d_misses", "l2_misses", "data_reads", "data_writes"} {
		if v, ok := rep.Totals[key].(float64); !ok || v <= 0 {
			t.Errorf("totals %s = %v", key, rep.Totals[key])
		}
	}
	if _, ok := rep.Totals["stall_cycles"]; !ok { // null where the profile has no miss costs, never left out
		t.Errorf("totals have no stall_cycles: %v", rep.Totals)
	}
	if _, ok := rep.Totals["l3_misses"]; ok {
		t.Errorf("a geometry without l3 has an l3_misses column")
	}
	wf := rep.Waterfall
	if wf.Geometry != "l1i=4k:2:32:lru:wa,l1d=4k:2:32:lru:wa,l2=16k:4:64:lru:wa" || wf.GeometrySource != "--cache" || len(wf.Levels) != 3 {
		t.Errorf("waterfall geometry %q from %q, levels %+v", wf.Geometry, wf.GeometrySource, wf.Levels)
	}
	if l := wf.Levels; len(l) == 3 && (l[0].Misses <= 0 || l[1].Misses <= 0 || l[2].Misses <= 0 || l[2].Misses > l[1].Accesses) {
		t.Errorf("levels %+v", l)
	}
	code, out, errOut = runCLI(t, db, "report", "--run", "sieve", "--profile", "cortex-a8", "--by", "function", "--csv")
	if head, _, _ := strings.Cut(out, "\n"); code != 0 || !strings.Contains(head, ",l1d_misses,") || !strings.HasPrefix(head, "key,") {
		t.Errorf("--csv: exit %d, header %q %s", code, head, errOut)
	}
	code, out, errOut = runCLI(t, db, "report", "--run", "sieve", "--profile", "cortex-a8", "--by", "bb", "--misses-first", "--json")
	if err := json.Unmarshal([]byte(out), &rep); code != 0 || err != nil || len(rep.Rows) < 2 {
		t.Fatalf("--misses-first: %v %s", err, errOut)
	}
	misses := func(r map[string]any) float64 { return r["l1i_misses"].(float64) + r["l1d_misses"].(float64) }
	if misses(rep.Rows[0]) < misses(rep.Rows[1]) {
		t.Errorf("--misses-first: %v misses before %v", misses(rep.Rows[0]), misses(rep.Rows[1]))
	}
	ctx := context.Background()
	ws, err := controller.OpenWorkspace(workspacedb.Databases(), db, false)
	if err != nil {
		t.Fatal(err)
	}
	defer ws.Close()
	p, err := ws.Profiles.Resolve(ctx, "cortex-a8")
	if err != nil {
		t.Fatal(err)
	}
	// A bare --cache simulates the profile's own hierarchy, and the JSON summary says so.
	if !p.Memory.IsZero() {
		summary := filepath.Join(t.TempDir(), "summary.json")
		if code, _, errOut := runCLI(t, db, "run", "--run", "sieve-a8", "--cache", "--profile", "cortex-a8", "--summary", summary, "--json", "--", bin, "2000"); code != 0 {
			t.Fatalf("run --cache: %s", errOut)
		}
		var sum struct {
			Waterfall waterfallJSON `json:"waterfall"`
		}
		b, err := os.ReadFile(summary)
		if err == nil {
			err = json.Unmarshal(b, &sum)
		}
		if w := sum.Waterfall; err != nil || w.Geometry != p.Memory.Geometry().String() || w.GeometrySource != "profile "+p.Name || len(w.Levels) < 3 {
			t.Errorf("bare --cache: summary %+v, %v; want geometry %s", w, err, p.Memory.Geometry())
		}
	}
	want, err := ws.Costs.SourcesChart(ctx, cost.ReportOptions{Run: "sieve", Profile: p, By: cost.ByFunction})
	if err != nil {
		t.Fatal(err)
	}
	if wf.StallCycles != nil && (len(want.Series) < 2 || want.Series[len(want.Series)-1] != chart.SourceMemory) {
		t.Errorf("stalls of %v cycles, sources chart series %v", *wf.StallCycles, want.Series)
	}
	if diff := chartsDiffer(t, db, want, "--run", "sieve", "--profile", "cortex-a8", "--by", "function", "--metric", "sources"); diff != "" {
		t.Errorf("chart --metric sources: %s", diff)
	}
}
