package cli

import (
	"context"
	"flag"
	"fmt"
	"io"
	"strings"
	"text/tabwriter"

	"androprof/controller"
	"androprof/model"
	"androprof/store"
)

func runRuns(ctx context.Context, args []string, env Env) error {
	fs, dbPath := newFlags("runs", env)
	asJSON := fs.Bool("json", false, "write JSON for scripts")
	del := fs.String("delete", "", "delete the run `NAME`")
	if _, err := parse(fs, args); err != nil {
		return err
	}
	db, _, err := openDB(*dbPath, false)
	if err != nil {
		return err
	}
	defer db.Close()
	if *del != "" {
		return db.DeleteRun(ctx, *del)
	}
	runs, err := db.Runs(ctx)
	if err != nil {
		return err
	}
	if *asJSON {
		type item struct {
			Name         string `json:"name"`
			Kind         string `json:"kind"`
			CreatedAt    string `json:"created_at"`
			Source       string `json:"source"`
			Processes    int    `json:"processes"`
			Blocks       int    `json:"blocks"`
			Instructions int64  `json:"instructions"`
		}
		items := []item{}
		for _, r := range runs {
			items = append(items, item{r.Name, r.Kind, r.CreatedAt, r.Source, r.Processes, r.Blocks, r.Instructions})
		}
		return writeJSON(env.Stdout, items)
	}
	tw := tabwriter.NewWriter(env.Stdout, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "RUN\tKIND\tPROCESSES\tBLOCKS\tINSTRUCTIONS\tCREATED\tSOURCE")
	for _, r := range runs {
		fmt.Fprintf(tw, "%s\t%s\t%d\t%d\t%d\t%s\t%s\n", printable(r.Name, ""), r.Kind, r.Processes, r.Blocks, r.Instructions, r.CreatedAt, printable(r.Source, ""))
	}
	return tw.Flush()
}

// reportFlags are shared by report and chart.
type reportFlags struct {
	run, profile string
	by           string
	pid, top     int
	freq         float64
	profileGiven bool // --profile was on the command line: it stands, whatever the run's ISA
}

// parsed notes which flags the user gave, after fs.Parse.
func (rf *reportFlags) parsed(fs *flag.FlagSet) {
	fs.Visit(func(f *flag.Flag) { rf.profileGiven = rf.profileGiven || f.Name == "profile" })
}

func (rf *reportFlags) options(ctx context.Context, profiles controller.Profiles, a *controller.Analysis) (model.ReportOptions, error) {
	if rf.run == "" {
		return model.ReportOptions{}, fmt.Errorf("%w: --run NAME is required", errUsage)
	}
	by, err := model.ParseGrouping(rf.by)
	if err != nil {
		return model.ReportOptions{}, fmt.Errorf("%w: %v", errUsage, err)
	}
	p, err := profiles.Resolve(ctx, rf.profile)
	if err != nil {
		return model.ReportOptions{}, err
	}
	if !rf.profileGiven { // as the window does: the default gives way to a profile of the run's ISA
		d, err := a.Load(ctx, rf.run)
		if err != nil {
			return model.ReportOptions{}, err
		}
		if p, err = profileFor(ctx, profiles, p)(ctx, d.MainISA(rf.pid)); err != nil {
			return model.ReportOptions{}, err
		}
	}
	return model.ReportOptions{Run: rf.run, Profile: p, By: by, PID: rf.pid, FrequencyGHz: rf.freq, Top: rf.top}, nil
}

// profileFor prices each instruction set with p when p prices it, else with the first listed
// profile that does (Compare, and a report without --profile).
func profileFor(ctx context.Context, profiles controller.Profiles, p *model.Profile) controller.ProfileFor {
	infos, err := profiles.List(ctx)
	if err != nil {
		return func(context.Context, model.ISA) (*model.Profile, error) { return nil, err }
	}
	return profiles.ForISA(infos, p)
}

func runReport(ctx context.Context, args []string, env Env) error {
	fs, dbPath := newFlags("report", env)
	var rf reportFlags
	fs.StringVar(&rf.run, "run", "", "run `NAME`")
	fs.StringVar(&rf.profile, "profile", "cortex-a8", "profile `NAME|FILE`; if not given, a run of an instruction set cortex-a8 does not price gets the first profile that does")
	fs.StringVar(&rf.by, "by", "pid", "group by `pid|bb|insn|category|function|image|layer|syscall` (method traces: method|class|package|thread; sampled runs: layer|image|symbol|component|thread)")
	compare := fs.String("compare", "", "emulator runs: put `RUN[:PID],...` side by side (with --by image: image by image); heap dumps: BEFORE,AFTER class by class")
	perThread := fs.Bool("per-thread", false, "--by syscall: one row per thread")
	fs.IntVar(&rf.pid, "pid", 0, "only this process (method traces: this thread)")
	find := fs.String("find", "", "method traces, heap runs, sampled runs: only rows whose name contains `TEXT`")
	fs.IntVar(&rf.top, "top", 0, "only the `N` most costly rows (totals cover all)")
	fs.Float64Var(&rf.freq, "frequency-ghz", 0, "clock `GHz` (default: the profile's, else 1)")
	asJSON := fs.Bool("json", false, "write JSON for scripts")
	var hf heapFlags
	hf.add(fs)
	var sf sampleFlags
	sf.add(fs, true)
	if _, err := parse(fs, args); err != nil {
		return err
	}
	rf.parsed(fs)
	db, profiles, err := openDB(*dbPath, false)
	if err != nil {
		return err
	}
	defer db.Close()
	if *compare != "" {
		if dumps, runs, err := dumpRuns(ctx, db, *compare); err != nil {
			return err
		} else if dumps {
			if len(runs) != 2 {
				return fmt.Errorf("%w: --compare on heap dumps takes two: BEFORE,AFTER", errUsage)
			}
			return dumpDiff(ctx, db, runs[0], runs[1], *find, rf.top, *asJSON, env)
		}
		return compareReport(ctx, db, profiles, rf, *compare, *asJSON, env)
	}
	if kind, err := runKind(ctx, db, rf.run); err != nil {
		return err
	} else if kind == model.RunKindHeap || kind == model.RunKindHeapDump {
		return heapReport(ctx, db, kind, rf, *find, hf, *asJSON, env)
	} else if kind == model.RunKindSamples {
		return sampleReport(ctx, db, rf, sf, *find, *asJSON, env)
	} else if kind == "methods" {
		rep, err := methodReport(ctx, db, rf, *find)
		if err != nil {
			return err
		}
		return writeMethodReport(env.Stdout, rep, *asJSON)
	}
	analysis := controller.NewWorkspace(db).Costs
	if rf.by == "syscall" {
		return syscallReport(ctx, analysis, rf, *perThread, *asJSON, env)
	}
	opts, err := rf.options(ctx, profiles, analysis)
	if err != nil {
		return err
	}
	rep, err := analysis.Report(ctx, opts)
	if err != nil {
		return err
	}
	return writeSummary(env.Stdout, rep, *asJSON)
}

type reportRowJSON struct {
	Key          string  `json:"key"`
	PID          int     `json:"pid,omitempty"`
	BlockID      int64   `json:"block_id,omitempty"`
	Category     string  `json:"category,omitempty"`
	Image        string  `json:"image,omitempty"`
	ImageKind    string  `json:"image_kind,omitempty"`
	Instructions int64   `json:"instructions"`
	Blocks       int64   `json:"blocks_executed"`
	Cycles       float64 `json:"cycles"`
	TimeS        float64 `json:"time_s"`
	EnergyJ      float64 `json:"energy_j"`
}

func rowJSON(r model.ReportRow) reportRowJSON {
	return reportRowJSON{r.Key, r.PID, r.BlockID, r.Category, r.Image, string(r.ImageKind), r.Instructions, r.Blocks, r.Cycles, r.TimeS, r.EnergyJ}
}

func reportJSON(rep *model.Report) any {
	rows := make([]reportRowJSON, len(rep.Rows))
	for i, r := range rep.Rows {
		rows[i] = rowJSON(r)
	}
	c := rep.Coverage
	warnings := c.Warnings()
	if warnings == nil {
		warnings = []string{}
	}
	return map[string]any{
		"run": rep.Run, "profile": rep.Profile, "by": rep.By,
		"frequency_ghz": rep.FrequencyGHz, "frequency_assumed": rep.FrequencyAssumed,
		"rows": rows, "totals": rowJSON(rep.Total),
		// How much of the totals the profile really prices: the share in Undefined, instruction
		// sets it does not price, whether any power is known; warnings say it in words.
		"undefined_instructions": c.Undefined, "undefined_share": c.UndefinedShare(),
		"undefined_cycle_share": c.UndefinedCycleShare(), "undefined_cycles_each": c.UndefinedCPI,
		"unpriced_isas": isaNames(c.ForeignISAs), "energy_known": !c.PowerUnknown(),
		"unknown_power_instructions": c.UnknownPower, "warnings": warnings,
	}
}

func isaNames(isas []model.ISA) []string {
	out := make([]string, len(isas))
	for i, isa := range isas {
		out[i] = string(isa)
	}
	return out
}

func writeReportText(w io.Writer, rep *model.Report) error {
	note := ""
	if rep.FrequencyAssumed {
		note = " (assumed: the profile gives no frequency; use --frequency-ghz)"
	}
	fmt.Fprintf(w, "run %q under %q at %g GHz%s, by %s\n", rep.Run, rep.Profile, rep.FrequencyGHz, note, rep.By)
	for _, warn := range rep.Coverage.Warnings() {
		fmt.Fprintf(w, "warning: %s\n", warn)
	}
	fmt.Fprintln(w)
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	fmt.Fprintf(tw, "%s\tINSTRUCTIONS\tBLOCKS\tCYCLES\tTIME (s)\tENERGY (J)\t%s\n", groupTitle(rep.By), extraTitle(rep.By))
	for _, r := range append(rep.Rows, rep.Total) {
		energy := fmt.Sprintf("%.6g", r.EnergyJ)
		if rep.Coverage.PowerUnknown() {
			energy = "unknown"
		}
		fmt.Fprintf(tw, "%s\t%d\t%d\t%.0f\t%.6g\t%s\t%s\n", r.Key, r.Instructions, r.Blocks, r.Cycles, r.TimeS, energy, extraCell(rep.By, r))
	}
	return tw.Flush()
}

func groupTitle(g model.Grouping) string {
	return map[model.Grouping]string{model.ByPID: "PID", model.ByBlock: "BLOCK",
		model.ByInstruction: "INSTRUCTION", model.ByCategory: "CATEGORY", model.ByFunction: "FUNCTION",
		model.ByImage: "IMAGE", model.ByLayer: "LAYER"}[g]
}

// extraTitle heads the last column: an instruction's category, a block's or function's image,
// an image's kind.
func extraTitle(g model.Grouping) string {
	switch g {
	case model.ByInstruction:
		return "CATEGORY"
	case model.ByBlock, model.ByFunction:
		return "IMAGE"
	case model.ByImage:
		return "KIND"
	}
	return ""
}

func extraCell(g model.Grouping, r model.ReportRow) string {
	switch g {
	case model.ByInstruction:
		return r.Category
	case model.ByBlock, model.ByFunction:
		return r.Image
	case model.ByImage:
		return string(r.ImageKind)
	}
	return ""
}

// syscallReport lists a run's system calls per process (or thread), the most frequent first.
func syscallReport(ctx context.Context, a *controller.Analysis, rf reportFlags, perThread, asJSON bool, env Env) error {
	if rf.run == "" {
		return fmt.Errorf("%w: --run NAME is required", errUsage)
	}
	rows, err := a.Syscalls(ctx, rf.run, rf.pid, perThread)
	if err != nil {
		return err
	}
	if rf.top > 0 && len(rows) > rf.top {
		rows = rows[:rf.top]
	}
	if asJSON {
		type item struct {
			PID          int     `json:"pid"`
			TID          int     `json:"tid,omitempty"`
			Number       int64   `json:"number"`
			Name         string  `json:"name"`
			Calls        int64   `json:"calls"`
			Instructions int64   `json:"instructions_before"`
			PerCall      float64 `json:"instructions_per_call"`
		}
		items := []item{}
		for _, r := range rows {
			items = append(items, item{r.PID, r.TID, r.Number, r.Name, r.Count, r.Insns, r.InsnsPerCall()})
		}
		return writeJSON(env.Stdout, map[string]any{"run": rf.run, "by": "syscall", "rows": items})
	}
	if len(rows) == 0 {
		fmt.Fprintf(env.Stdout, "run %q has no system calls: they come with the profiles of androprof run (QEMU logs have none)\n", rf.run)
		return nil
	}
	tw := tabwriter.NewWriter(env.Stdout, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "SYSCALL\tNUMBER\tPID\tTID\tCALLS\tINSTRUCTIONS BEFORE\tPER CALL")
	var calls int64
	for _, r := range rows {
		tid := "-"
		if r.TID != 0 {
			tid = fmt.Sprint(r.TID)
		}
		fmt.Fprintf(tw, "%s\t%d\t%d\t%s\t%d\t%d\t%.0f\n", r.Name, r.Number, r.PID, tid, r.Count, r.Insns, r.InsnsPerCall())
		calls += r.Count
	}
	fmt.Fprintf(tw, "total\t\t\t\t%d\t\t\n", calls)
	return tw.Flush()
}

// compareReport puts runs or processes side by side: the seed's tables 5.2/5.4/5.5, or with
// --by image one row per image (ARM and MIPS builds of one program, layer by layer).
func compareReport(ctx context.Context, db *store.DB, profiles controller.Profiles, rf reportFlags, list string, asJSON bool, env Env) error {
	items, err := compareItems(list)
	if err != nil {
		return err
	}
	p, err := profiles.Resolve(ctx, rf.profile)
	if err != nil {
		return err
	}
	forISA := profileFor(ctx, profiles, p)
	if rf.profileGiven {
		forISA = func(context.Context, model.ISA) (*model.Profile, error) { return p, nil }
	}
	a := controller.NewWorkspace(db).Costs
	if rf.by != "image" {
		rows, err := a.Compare(ctx, items, forISA, rf.freq)
		if err != nil {
			return err
		}
		if asJSON {
			return writeJSON(env.Stdout, rows)
		}
		tw := tabwriter.NewWriter(env.Stdout, 0, 4, 2, ' ', 0)
		fmt.Fprintln(tw, "ITEM\tPROFILE\tINSTRUCTIONS\tCYCLES\tTIME (s)\tENERGY (J)\tINSTR. RATIO\tCYCLE RATIO")
		for _, r := range rows {
			fmt.Fprintf(tw, "%s\t%s\t%d\t%.0f\t%.6g\t%.6g\t%.3f\t%.3f\n", r.Item, r.Profile, r.Instructions, r.Cycles, r.TimeS, r.EnergyJ, r.InstructionRatio, r.CycleRatio)
		}
		return tw.Flush()
	}
	rows, err := a.CompareImages(ctx, items, forISA, rf.freq)
	if err != nil {
		return err
	}
	if asJSON {
		type cell struct {
			Name         string  `json:"name"`
			Instructions int64   `json:"instructions"`
			Cycles       float64 `json:"cycles"`
			TimeS        float64 `json:"time_s"`
			EnergyJ      float64 `json:"energy_j"`
		}
		type row struct {
			Image string          `json:"image"`
			Kind  string          `json:"kind"`
			Items map[string]cell `json:"items"`
		}
		out := []row{}
		for _, r := range rows {
			x := row{Image: r.Key, Kind: string(r.Kind), Items: map[string]cell{}}
			for i, c := range r.Cells {
				x.Items[items[i].String()] = cell{r.Names[i], c.Instructions, c.Cycles, c.TimeS, c.EnergyJ}
			}
			out = append(out, x)
		}
		return writeJSON(env.Stdout, map[string]any{"by": "image", "items": compareNames(items), "rows": out})
	}
	tw := tabwriter.NewWriter(env.Stdout, 0, 4, 2, ' ', 0)
	fmt.Fprint(tw, "IMAGE\tKIND")
	for _, it := range items {
		fmt.Fprintf(tw, "\t%s INSTRUCTIONS\t%s CYCLES", it, it)
	}
	fmt.Fprintln(tw)
	for _, r := range rows {
		fmt.Fprintf(tw, "%s\t%s", r.Key, r.Kind)
		for _, c := range r.Cells {
			fmt.Fprintf(tw, "\t%d\t%.0f", c.Instructions, c.Cycles)
		}
		fmt.Fprintln(tw)
	}
	return tw.Flush()
}

// compareItems reads --compare's RUN[:PID],... list.
func compareItems(list string) ([]model.CompareItem, error) {
	var items []model.CompareItem
	for _, s := range strings.Split(list, ",") {
		it, err := model.ParseCompareItem(strings.TrimSpace(s))
		if err != nil {
			return nil, fmt.Errorf("%w: %v", errUsage, err)
		}
		items = append(items, it)
	}
	return items, nil
}

func compareNames(items []model.CompareItem) []string {
	out := make([]string, len(items))
	for i, it := range items {
		out[i] = it.String()
	}
	return out
}

func runEstimate(args []string, env Env) error {
	fs, _ := newFlags("estimate", env)
	var in model.EstimateInput
	fs.Float64Var(&in.Instructions, "instructions", 0, "dynamic instruction `count`")
	fs.Float64Var(&in.CPI, "cpi", 0, "cycles per instruction")
	fs.Float64Var(&in.FrequencyGHz, "frequency-ghz", model.DefaultFrequencyGHz, "clock `GHz`")
	fs.Float64Var(&in.ProcessorPowerW, "power-w", 0, "processor power `W`")
	fs.Float64Var(&in.MemoryAccessEnergy, "memory-energy-nj", 0, "energy per main-memory access `nJ`")
	fs.Float64Var(&in.BaseInstructions, "base-instructions", 0, "instructions of the reference run")
	fs.Float64Var(&in.BaseCacheMisses, "base-misses", 0, "cache misses of the reference run")
	asJSON := fs.Bool("json", false, "write JSON for scripts")
	if _, err := parse(fs, args); err != nil {
		return err
	}
	e, err := model.EstimateCPI(in)
	if err != nil {
		return err
	}
	if *asJSON {
		return writeJSON(env.Stdout, map[string]float64{"cycles": e.Cycles, "time_s": e.TimeS,
			"memory_accesses": e.MemoryAccesses, "memory_power_w": e.MemoryPowerW, "power_w": e.PowerW, "energy_j": e.EnergyJ})
	}
	fmt.Fprintf(env.Stdout, "estimated cycles:           %.0f\ntime estimation (s):        %v\nestimated power (W):        %v\nestimated energy (J):       %v\n",
		e.Cycles, e.TimeS, e.PowerW, e.EnergyJ)
	return nil
}
