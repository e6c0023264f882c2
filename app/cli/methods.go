package cli

import (
	"context"
	"flag"
	"fmt"
	"io"
	"slices"

	"androprof/chart"
	"androprof/controller"
	"androprof/internal/termtext"
	"androprof/model/calls"
	"androprof/model/cost"
	"androprof/model/javaname"
)

// methodGrouping reads --by for a method trace; the emulator's default (pid) means method.
func methodGrouping(by string) (calls.MethodGrouping, error) {
	if by == "" || by == "pid" {
		by = string(calls.ByMethod)
	}
	g, err := calls.ParseMethodGrouping(by)
	if err != nil {
		return "", fmt.Errorf("%w: %v", errUsage, err)
	}
	return g, nil
}

// methodReport answers `report` for a method run; by defaults to method.
func methodReport(ctx context.Context, ws *controller.Workspace, rf reportFlags, find string) (*calls.MethodReport, error) {
	g, err := methodGrouping(rf.by)
	if err != nil {
		return nil, err
	}
	rep, err := ws.Methods.Report(ctx, calls.MethodReportOptions{Run: rf.run, By: g, TID: rf.pid, Find: find, Top: rf.top})
	if err != nil || !rf.rawNames {
		return rep, err
	}
	raw := *rep // the service may keep rep: a copy shows the raw names
	raw.Rows = slices.Clone(rep.Rows)
	for i := range raw.Rows {
		raw.Rows[i].Readable = javaname.Raw(raw.Rows[i].Key)
	}
	return &raw, nil
}

// readableText is a name as a line of text shows it: the short name, then its package after
// two spaces ("GameScreen.paint(float)  com.jag.positron"), made safe for a terminal.
func readableText(n javaname.Name) string {
	if n.Package == "" {
		return printable(n.Short, "")
	}
	return printable(n.Short, "") + "  " + printable(n.Package, "")
}

// packageTitle heads the packages readableText writes after the names, when there are any.
func packageTitle(shown bool) string {
	if shown {
		return "  PACKAGE"
	}
	return ""
}

// readable is n, or the raw name when --raw-names asks for it.
func readable(n javaname.Name, raw string, rawNames bool) javaname.Name {
	if rawNames {
		return javaname.Raw(raw)
	}
	return n
}

// methodRowJSON is a row of `report --json`: key is the row's identity as Traceview names it,
// name and package how the tables show it (docs/cli.md).
type methodRowJSON struct {
	Key            string  `json:"key"`
	Name           string  `json:"name"`
	Package        string  `json:"package,omitempty"`
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

func writeMethodReport(w io.Writer, rep *calls.MethodReport, asJSON bool) error {
	if asJSON {
		rows := make([]methodRowJSON, len(rep.Rows))
		for i, r := range rep.Rows {
			t := r.Times
			rows[i] = methodRowJSON{r.Key, r.Readable.Short, r.Readable.Package, r.Method, r.TID, t.InclusiveCPU, t.ExclusiveCPU, t.InclusiveWall, t.ExclusiveWall,
				r.InclCPU, r.ExclCPU, r.InclWall, r.ExclWall, t.Calls, t.RecursiveCalls, t.CPUPerCall(), t.WallPerCall()}
		}
		return writeJSON(w, map[string]any{"run": rep.Run, "by": rep.By, "tid": rep.TID, "clock": rep.Clock, "rows": rows,
			"totals": map[string]uint64{"cpu_us": rep.TotalCPU, "real_us": rep.TotalWall,
				"process_cpu_us": rep.ProcessCPU, "process_real_us": rep.ProcessWall}})
	}
	fmt.Fprintf(w, "run %q by %s, clock %s: %d µs thread-CPU, %d µs real; process time (Σ level-1) %d µs CPU, %d µs real\n\n",
		rep.Run, rep.By, rep.Clock, rep.TotalCPU, rep.TotalWall, rep.ProcessCPU, rep.ProcessWall)
	tw := termtext.NewTable(w)
	fmt.Fprintln(tw, "INCL CPU µs\t%\tEXCL CPU µs\t%\tINCL REAL µs\tEXCL REAL µs\tCALLS+REC\tCPU/CALL\tNAME"+
		packageTitle(slices.ContainsFunc(rep.Rows, func(r calls.MethodRow) bool { return r.Readable.Package != "" })))
	for _, r := range rep.Rows {
		t := r.Times
		fmt.Fprintf(tw, "%d\t%.1f\t%d\t%.1f\t%d\t%d\t%d+%d\t%.1f\t%s\n", t.InclusiveCPU, r.InclCPU, t.ExclusiveCPU, r.ExclCPU,
			t.InclusiveWall, t.ExclusiveWall, t.Calls, t.RecursiveCalls, t.CPUPerCall(), readableText(r.Readable))
	}
	return tw.Flush()
}

// methodChartFlags are `androprof chart`'s flags that only method traces read; --by, --pid
// and --kind are the window's other choices.
type methodChartFlags struct {
	clock string
	raw   bool   // --raw-names: bars named as the trace names methods
	find  string // --by flame: the frames to light up
}

func (f *methodChartFlags) add(fs *flag.FlagSet) {
	fs.StringVar(&f.clock, "clock", "", "method traces: `cpu|real` time (default: thread-CPU when the trace has it, as the window opens)")
	fs.BoolVar(&f.raw, "raw-names", false, "method traces: name methods as the trace does (class.name descriptor), not as Java reads them")
	fs.StringVar(&f.find, "find", "", "method traces, --by flame: light up the frames whose name or package matches `REGEX` and say their share")
}

// choose reads --by and --clock for run's trace: the grouping, and whether to chart
// thread-CPU time (else real time).
func (f methodChartFlags) choose(ctx context.Context, ws *controller.Workspace, run, by string) (calls.MethodGrouping, bool, error) {
	g, err := methodGrouping(by)
	if err != nil {
		return "", false, err
	}
	t, err := ws.Methods.Load(ctx, run)
	if err != nil {
		return "", false, err
	}
	cpu, err := f.cpu(t.Profile.Clock)
	return g, cpu, err
}

// cpu says which clock to chart for a trace with clock c, as the window's Clock chooser
// offers them: a clock the trace does not have is refused, not drawn as zeros.
func (f methodChartFlags) cpu(c calls.Clock) (bool, error) {
	cpu, real := controller.ChartClocks(c)
	switch f.clock {
	case "":
		return cpu, nil
	case "cpu", "real":
		if f.clock == "cpu" && !cpu || f.clock == "real" && !real {
			return false, fmt.Errorf("%w: the trace has no %s clock (it has %s)", errUsage, f.clock, c)
		}
		return f.clock == "cpu", nil
	}
	return false, fmt.Errorf("%w: --clock is cpu or real, not %q", errUsage, f.clock)
}

// methodDrawing is the chart the window's Hotspots or Packages tab draws for a method trace
// with these choices (--by, --pid, --kind, --clock): the same controller call draws both.
func methodDrawing(ctx context.Context, ws *controller.Workspace, rf reportFlags, kind chart.Kind, mf methodChartFlags) (chart.Drawing, error) {
	if rf.by == methodFlameBy {
		return methodFlame(ctx, ws, rf, mf)
	}
	by, cpu, err := mf.choose(ctx, ws, rf.run, rf.by)
	if err != nil {
		return nil, err
	}
	c, err := ws.Methods.Chart(ctx, controller.MethodChartOptions{Run: rf.run, By: by, TID: rf.pid, CPU: cpu, Kind: kind})
	return mf.names(c, by), err
}

// names relabels a method chart as the window's Raw names box does: readable unless --raw-names.
func (f methodChartFlags) names(c chart.Chart, by calls.MethodGrouping) chart.Chart {
	if f.raw {
		return c
	}
	return chart.ReadableMethodLabels(c, by)
}

// methodComparisonDrawing is the window's Compare tab's chart for `chart --compare A,B` of two
// method traces: B beside A by --by, on A's clock as --clock chooses it.
func methodComparisonDrawing(ctx context.Context, ws *controller.Workspace, items []cost.CompareItem, by string, mf methodChartFlags) (chart.Drawing, error) {
	if len(items) != 2 || items[0].PID != 0 || items[1].PID != 0 {
		return nil, fmt.Errorf("%w: --compare puts two method traces side by side: --compare RUN,RUN (no :PID)", errUsage)
	}
	a, b := items[0].Run, items[1].Run
	g, cpu, err := mf.choose(ctx, ws, a, by)
	if err != nil {
		return nil, err
	}
	rows, err := ws.Methods.CompareMethods(ctx, a, b, g)
	if err != nil {
		return nil, err
	}
	return mf.names(chart.FromMethodComparison(rows, a, b, g, cpu), g), nil
}

// methodRelatives answers `report --run TRACE --callers|--callees METHOD` for a method trace:
// the method's parents or children as dmtracedump lists them, "count/total" calls and
// inclusive time, with the recursive rows (its "+++++" part) apart. --pid chooses a thread,
// --top keeps the first rows of each list.
func methodRelatives(ctx context.Context, ws *controller.Workspace, rf reportFlags, sf sampleFlags, asJSON bool, env Env) error {
	name := sf.callers
	if name == "" {
		name = sf.callees
	} else if sf.callees != "" && sf.callees != name {
		return fmt.Errorf("%w: --callers and --callees name one method", errUsage)
	}
	ma := ws.Methods
	t, err := ma.Load(ctx, rf.run)
	if err != nil {
		return err
	}
	p := t.Profile
	id, err := p.FindMethod(name)
	if err != nil {
		return fmt.Errorf("%w: %v", errUsage, err)
	}
	parents, children, err := ma.Relatives(ctx, rf.run, id, rf.pid)
	if err != nil {
		return err
	}
	if rf.top > 0 {
		parents, children = parents[:min(rf.top, len(parents))], children[:min(rf.top, len(children))]
	}
	self := p.MethodOn(id, rf.pid)
	lists := []relativeList{{"callers", "CALLER", parents, sf.callers != ""}, {"callees", "CALLEE", children, sf.callees != ""}}
	us := clockMicros(p.Clock)
	if asJSON {
		shown := readable(calls.ReadableName(p.Methods[id]), calls.MethodName(p.Methods[id]), rf.rawNames)
		h := map[string]any{"run": rf.run, "tid": rf.pid, "clock": p.Clock, "method": map[string]any{
			"method": calls.MethodName(p.Methods[id]), "name": shown.Short, "package": shown.Package, "method_id": id, "calls": self.Calls, "recursive_calls": self.RecursiveCalls,
			"incl_cpu_us": us.cpu(self.InclusiveCPU), "incl_real_us": us.wall(self.InclusiveWall)}}
		for _, l := range lists {
			if l.asked {
				h[l.key] = relativesJSON(l.rows, us, rf.rawNames)
			}
		}
		return writeJSON(env.Stdout, h)
	}
	thread := "all threads"
	if rf.pid != 0 {
		thread = fmt.Sprintf("thread %d", rf.pid)
	}
	fmt.Fprintf(env.Stdout, "run %q, %s, clock %s: %s\n%d calls + %d recursive; inclusive CPU µs %s, real µs %s\n",
		rf.run, thread, p.Clock, readableText(readable(calls.ReadableName(p.Methods[id]), calls.MethodName(p.Methods[id]), rf.rawNames)), self.Calls, self.RecursiveCalls,
		us.cpuText(self.InclusiveCPU), us.wallText(self.InclusiveWall))
	for _, l := range lists {
		if !l.asked {
			continue
		}
		fmt.Fprintln(env.Stdout)
		tw := termtext.NewTable(env.Stdout)
		fmt.Fprintf(tw, "CALLS/TOTAL\tINCL CPU µs\tINCL REAL µs\tRECURSIVE\t%s%s\n", l.title,
			packageTitle(!rf.rawNames && slices.ContainsFunc(l.rows, func(r calls.Relative) bool { return r.Readable.Package != "" })))
		for _, r := range l.rows {
			rec := ""
			if r.Recursive {
				rec = "recursive"
			}
			fmt.Fprintf(tw, "%d/%d\t%s\t%s\t%s\t%s\n", r.Calls, r.TotalCalls, us.cpuText(r.InclusiveCPU), us.wallText(r.InclusiveWall),
				rec, readableText(readable(r.Readable, r.Name, rf.rawNames)))
		}
		if err := tw.Flush(); err != nil {
			return err
		}
	}
	fmt.Fprintln(env.Stdout, "\nRecursive rows (dmtracedump's after its +++++ line) are calls nested in another call of the same method; they are not added to the plain rows.")
	return nil
}

// relativeList is one of the two lists methodRelatives prints.
type relativeList struct {
	key, title string
	rows       []calls.Relative
	asked      bool
}

// clockMicros writes the times of a trace's clocks; a clock the trace does not have is
// unknown (JSON null), never 0.
type clockMicros calls.Clock

func (c clockMicros) cpu(us uint64) *uint64 {
	if !calls.Clock(c).HasCPU() {
		return nil
	}
	return &us
}

func (c clockMicros) wall(us uint64) *uint64 {
	if !calls.Clock(c).HasWall() {
		return nil
	}
	return &us
}

func (c clockMicros) cpuText(us uint64) string  { return microsText(c.cpu(us)) }
func (c clockMicros) wallText(us uint64) string { return microsText(c.wall(us)) }

func microsText(us *uint64) string {
	if us == nil {
		return "unknown"
	}
	return fmt.Sprint(*us)
}

// relativeJSON is a caller or callee: method is its identity as Traceview names it, name and
// package how the tables show it.
type relativeJSON struct {
	Method     string  `json:"method"`
	Name       string  `json:"name"`
	Package    string  `json:"package,omitempty"`
	MethodID   uint64  `json:"method_id"`
	Calls      int64   `json:"calls"`
	TotalCalls int64   `json:"total_calls"`
	Recursive  bool    `json:"recursive"`
	InclCPUus  *uint64 `json:"incl_cpu_us"`
	InclWallus *uint64 `json:"incl_real_us"`
}

func relativesJSON(rows []calls.Relative, us clockMicros, rawNames bool) []relativeJSON {
	out := make([]relativeJSON, len(rows))
	for i, r := range rows {
		n := readable(r.Readable, r.Name, rawNames)
		out[i] = relativeJSON{r.Name, n.Short, n.Package, r.Method, r.Calls, r.TotalCalls, r.Recursive, us.cpu(r.InclusiveCPU), us.wall(r.InclusiveWall)}
	}
	return out
}
