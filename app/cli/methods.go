package cli

import (
	"context"
	"fmt"
	"io"
	"os"
	"text/tabwriter"

	"androprof/chart"
	"androprof/controller"
	"androprof/model"
	"androprof/store"
)

// runKind tells whether a run is an emulator run or a method trace.
func runKind(ctx context.Context, db *store.DB, run string) (string, error) {
	runs, err := db.Runs(ctx)
	if err != nil {
		return "", err
	}
	for _, r := range runs {
		if r.Name == run {
			return r.Kind, nil
		}
	}
	return "", fmt.Errorf("run %q is not in %s", run, db.Path())
}

// methodReport answers `report` for a method run; by defaults to method.
func methodReport(ctx context.Context, db *store.DB, rf reportFlags, find string) (*model.MethodReport, error) {
	by := rf.by
	if by == "" || by == "pid" {
		by = "method"
	}
	g, err := model.ParseMethodGrouping(by)
	if err != nil {
		return nil, fmt.Errorf("%w: %v", errUsage, err)
	}
	ma := controller.NewWorkspace(db).Methods
	return ma.Report(ctx, model.MethodReportOptions{Run: rf.run, By: g, TID: rf.pid, Find: find, Top: rf.top})
}

type methodRowJSON struct {
	Key            string  `json:"key"`
	Method         uint64  `json:"method_id,omitempty"`
	TID            int     `json:"tid,omitempty"`
	InclCPUus      uint64  `json:"incl_cpu_us"`
	ExclCPUus      uint64  `json:"excl_cpu_us"`
	InclWallus     uint64  `json:"incl_real_us"`
	ExclWallus     uint64  `json:"excl_real_us"`
	InclCPUPct     float64 `json:"incl_cpu_pct"`
	ExclCPUPct     float64 `json:"excl_cpu_pct"`
	InclWallPct    float64 `json:"incl_real_pct"`
	ExclWallPct    float64 `json:"excl_real_pct"`
	Calls          int64   `json:"calls"`
	RecursiveCalls int64   `json:"recursive_calls"`
	CPUPerCall     float64 `json:"cpu_us_per_call"`
	WallPerCall    float64 `json:"real_us_per_call"`
}

func writeMethodReport(w io.Writer, rep *model.MethodReport, asJSON bool) error {
	if asJSON {
		rows := make([]methodRowJSON, len(rep.Rows))
		for i, r := range rep.Rows {
			t := r.Times
			rows[i] = methodRowJSON{r.Key, r.Method, r.TID, t.InclusiveCPU, t.ExclusiveCPU, t.InclusiveWall, t.ExclusiveWall,
				r.InclCPU, r.ExclCPU, r.InclWall, r.ExclWall, t.Calls, t.RecursiveCalls, t.CPUPerCall(), t.WallPerCall()}
		}
		return writeJSON(w, map[string]any{"run": rep.Run, "by": rep.By, "tid": rep.TID, "clock": rep.Clock, "rows": rows,
			"totals": map[string]uint64{"cpu_us": rep.TotalCPU, "real_us": rep.TotalWall,
				"process_cpu_us": rep.ProcessCPU, "process_real_us": rep.ProcessWall}})
	}
	fmt.Fprintf(w, "run %q by %s, clock %s: %d µs thread-CPU, %d µs real; process time (Σ level-1) %d µs CPU, %d µs real\n\n",
		rep.Run, rep.By, rep.Clock, rep.TotalCPU, rep.TotalWall, rep.ProcessCPU, rep.ProcessWall)
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "INCL CPU µs\t%\tEXCL CPU µs\t%\tINCL REAL µs\tEXCL REAL µs\tCALLS+REC\tCPU/CALL\tNAME")
	for _, r := range rep.Rows {
		t := r.Times
		fmt.Fprintf(tw, "%d\t%.1f\t%d\t%.1f\t%d\t%d\t%d+%d\t%.1f\t%s\n", t.InclusiveCPU, r.InclCPU, t.ExclusiveCPU, r.ExclCPU,
			t.InclusiveWall, t.ExclusiveWall, t.Calls, t.RecursiveCalls, t.CPUPerCall(), r.Key)
	}
	return tw.Flush()
}

// methodChart draws a method report: the hotspots (exclusive time, DPA figure 6) as bars, or
// a pie of packages or classes (RMP figure 8). Exclusive times add up to the whole, inclusive
// times do not, so a pie always shows exclusive time.
func methodChart(rep *model.MethodReport, metric string, kind chart.Kind) chart.Chart {
	cpu := rep.Clock.HasCPU() && metric != "time-real"
	label := "exclusive thread-CPU time"
	if !cpu {
		label = "exclusive real time"
	}
	c := chart.Chart{Kind: kind, YLabel: label, Unit: "µs", Title: fmt.Sprintf("Exclusive time by %s — %s", rep.By, rep.Run)}
	for _, r := range rep.Rows {
		v := r.Times.ExclusiveCPU
		if !cpu {
			v = r.Times.ExclusiveWall
		}
		c.Bars = append(c.Bars, chart.Bar{Label: r.Key, Value: float64(v)})
	}
	return c
}

func runExport(ctx context.Context, args []string, env Env) error {
	fs, dbPath := newFlags("export", env)
	run := fs.String("run", "", "method run `NAME`")
	format := fs.String("format", "pprof", "`pprof` (go tool pprof opens it)")
	out := fs.String("out", "", "output `FILE`")
	asJSON := fs.Bool("json", false, "write JSON for scripts")
	if _, err := parse(fs, args); err != nil {
		return err
	}
	if *run == "" || *out == "" || *format != "pprof" {
		return fmt.Errorf("%w: export takes --run NAME --format pprof --out FILE", errUsage)
	}
	db, _, err := openDB(*dbPath, false)
	if err != nil {
		return err
	}
	defer db.Close()
	p, err := controller.NewWorkspace(db).Methods.Pprof(ctx, *run)
	if err != nil {
		return err
	}
	f, err := os.Create(*out)
	if err != nil {
		return err
	}
	if err := p.Write(f); err != nil {
		f.Close()
		os.Remove(*out)
		return err
	}
	if err := f.Close(); err != nil {
		return err
	}
	if *asJSON {
		return writeJSON(env.Stdout, map[string]any{"out": *out, "samples": len(p.Sample), "functions": len(p.Function)})
	}
	fmt.Fprintf(env.Stdout, "%s: %s, %s (go tool pprof %s)\n", *out, chart.Count(len(p.Sample), "call path", "call paths"), chart.Count(len(p.Function), "method", "methods"), *out)
	return nil
}
