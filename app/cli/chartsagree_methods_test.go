package cli

import (
	"context"
	"path/filepath"
	"strconv"
	"testing"

	"androprof/chart"
	"androprof/controller"
	"androprof/internal/corpus"
	"androprof/model/calls"
)

// One chart per question (issue 25): for a method trace, `androprof chart` writes the chart the
// window's method tabs draw (Hotspots, Packages, Compare), built by the function the window
// calls with the choices the flags name. Compared as files, SVG and CSV, byte for byte (chartsDiffer).
func TestMethodChartsAgree(t *testing.T) {
	t.Parallel()
	db, ws := importedRuns(t, map[string]string{"jag": corpus.File(t, "jag-dmtrace.trace"), "basic": corpus.File(t, "perflib-basic.trace"),
		"rmp": "../../formats/rmp/testdata/browser.rmp"})
	dir := filepath.Dir(db)
	ctx := context.Background()
	jag, err := ws.Methods.Load(ctx, "jag")
	if err != nil {
		t.Fatal(err)
	}
	if jag.Profile.Clock != calls.ClockDual {
		t.Fatalf("jag-dmtrace's clock is %s: the cases below want both clocks", jag.Profile.Clock)
	}
	tid := busiestThread(jag.Profile)
	// The window's Hotspots and Packages tabs with its choosers set as the flags say.
	tab := func(run string, by calls.MethodGrouping, tid int, cpu bool, kind chart.Kind) func() (chart.Chart, error) {
		return func() (chart.Chart, error) {
			c, err := ws.Methods.Chart(ctx, controller.MethodChartOptions{Run: run, By: by, TID: tid, CPU: cpu, Kind: kind})
			return chart.ReadableMethodLabels(c, by), err // the window's names, unless Raw names is ticked
		}
	}
	cases := []struct {
		name   string
		flags  []string
		window func() (chart.Chart, error)
	}{
		{"hotspots by method", []string{"--run", "jag"}, tab("jag", calls.ByMethod, 0, true, chart.Bars)},
		{"hotspots by class as columns", []string{"--run", "jag", "--by", "class", "--kind", "column"}, tab("jag", calls.ByClass, 0, true, chart.Columns)},
		{"hotspots by thread", []string{"--run", "jag", "--by", "thread"}, tab("jag", calls.ByThread, 0, true, chart.Bars)},
		{"one thread", []string{"--run", "jag", "--pid", strconv.Itoa(tid)}, tab("jag", calls.ByMethod, tid, true, chart.Bars)},
		{"real time", []string{"--run", "jag", "--clock", "real"}, tab("jag", calls.ByMethod, 0, false, chart.Bars)},
		{"a trace with real time only", []string{"--run", "rmp"}, tab("rmp", calls.ByMethod, 0, false, chart.Bars)},
		{"packages", []string{"--run", "jag", "--by", "package", "--kind", "pie"}, tab("jag", calls.ByPackage, 0, true, chart.Pie)},
		{"classes", []string{"--run", "jag", "--by", "class", "--kind", "pie"}, tab("jag", calls.ByClass, 0, true, chart.Pie)},
		{"compare", []string{"--compare", "jag,basic", "--by", "method"}, func() (chart.Chart, error) {
			rows, err := ws.Methods.CompareMethods(ctx, "jag", "basic", calls.ByMethod)
			return chart.ReadableMethodLabels(chart.FromMethodComparison(rows, "jag", "basic", calls.ByMethod, true), calls.ByMethod), err
		}},
	}
	for _, c := range cases {
		want, err := c.window()
		if err != nil {
			t.Fatalf("%s: the window's chart: %v", c.name, err)
		}
		if diff := chartsDiffer(t, db, want, c.flags...); diff != "" {
			t.Errorf("%s: androprof chart %v is not the window's %q: %s", c.name, c.flags, want.Title, diff)
		}
	}
	// What the window cannot be asked is refused, not drawn as zeros or as something else.
	for _, args := range [][]string{{"--run", "rmp", "--clock", "cpu"}, {"--run", "jag", "--clock", "wall"}, {"--compare", "jag:12,basic"}} {
		if code, _, errOut := runCLI(t, db, append([]string{"chart", "--out", filepath.Join(dir, "no.svg")}, args...)...); code != 2 {
			t.Errorf("chart %v: exit %d (%s), want 2", args, code, errOut)
		}
	}
}

// busiestThread is the thread of a trace with the most events: one a person would choose.
func busiestThread(p *calls.CallProfile) int {
	var best calls.ThreadTimes
	for _, th := range p.Threads {
		if th.Events > best.Events {
			best = th
		}
	}
	return best.TID
}
