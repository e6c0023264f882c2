package cli

import (
	"context"
	"testing"

	"androprof/chart"
	"androprof/controller"
	"androprof/model/cost"
	"androprof/store/workspacedb"
)

// One chart per question (issue 25): for an emulator run, `androprof chart` writes the chart
// the analysis window draws (Processes, Functions, Instructions' categories, Images' layer
// chart), built by the call the window makes with the choices the flags name. Compared as
// files, SVG and CSV, byte for byte; under a profile that fits the run and one that does not
// (the charts then carry a caveat).
func TestEmulatorChartsAgree(t *testing.T) {
	t.Parallel()
	db := demoRunsDB(t, func(run string) bool { return run == "demo-forker-arm" || run == "demo-sieve-arm" })
	ctx := context.Background()
	ws, err := controller.OpenWorkspace(workspacedb.Databases(), db, false)
	if err != nil {
		t.Fatal(err)
	}
	defer ws.Close()
	// report is the window's report of run under profile (its compute), by one grouping.
	report := func(run, profile string, by cost.Grouping) (*cost.Report, *cost.RunData) {
		t.Helper()
		p, err := ws.Profiles.Resolve(ctx, profile)
		if err != nil {
			t.Fatal(err)
		}
		rep, err := ws.Costs.Report(ctx, cost.ReportOptions{Run: run, Profile: p, By: by})
		if err != nil {
			t.Fatal(err)
		}
		d, err := ws.Costs.Load(ctx, run)
		if err != nil {
			t.Fatal(err)
		}
		return rep, d
	}
	// The window's charts, as its tabs draw them (view/analysis processes.go, functions.go,
	// insns.go, images.go).
	processes := func(run, profile string, m chart.Metric) chart.Chart {
		rep, d := report(run, profile, cost.ByPID)
		return chart.FromReport(rep, m, chart.Bars, controller.ProcessLabels(d))
	}
	rows := func(by cost.Grouping) func(run, profile string, m chart.Metric) chart.Chart {
		return func(run, profile string, m chart.Metric) chart.Chart {
			rep, _ := report(run, profile, by)
			return chart.FromReport(rep, m, chart.Bars, nil)
		}
	}
	layers := func(run, profile string, m chart.Metric) chart.Chart {
		p, err := ws.Profiles.Resolve(ctx, profile)
		if err != nil {
			t.Fatal(err)
		}
		l, err := ws.Costs.Layers(ctx, cost.ReportOptions{Run: run, Profile: p})
		if err != nil {
			t.Fatal(err)
		}
		return l.Chart(m)
	}
	cases := []struct {
		by     string
		window func(run, profile string, m chart.Metric) chart.Chart
	}{
		{"pid", processes},
		{"function", rows(cost.ByFunction)},
		{"category", rows(cost.ByCategory)},
		{"image", rows(cost.ByImage)},
		{"layer", layers},
	}
	for _, run := range []string{"demo-forker-arm", "demo-sieve-arm"} {
		for _, profile := range []string{"cortex-a8", "mips-74k"} { // mips-74k prices no ARM: a caveat
			for _, m := range []chart.Metric{chart.Cycles, chart.Energy} {
				for _, c := range cases {
					want := c.window(run, profile, m)
					if diff := chartsDiffer(t, db, want, "--run", run, "--profile", profile, "--by", c.by, "--metric", string(m)); diff != "" {
						t.Errorf("%s under %s, %s by %s: androprof chart wrote a chart other than the window's %q: %s",
							run, profile, m, c.by, want.Title, diff)
					}
				}
			}
		}
	}
}
