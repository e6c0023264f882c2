package cli

import (
	"context"
	"encoding/csv"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"

	"androprof/controller"
	"androprof/internal/termtext"
	"androprof/model"
	"androprof/model/cost"
)

func runRuns(ctx context.Context, args []string, env Env) error {
	fs, dbPath := newFlags("runs", env)
	asJSON := fs.Bool("json", false, "write JSON for scripts")
	del := fs.String("delete", "", "delete the run `NAME`")
	if _, err := parse(fs, args); err != nil {
		return err
	}
	ws, err := openDB(env, *dbPath, false)
	if err != nil {
		return err
	}
	defer ws.Close()
	if *del != "" {
		return ws.DeleteRun(ctx, *del)
	}
	runs, err := ws.Runs(ctx)
	if err != nil {
		return err
	}
	if *asJSON {
		type item struct {
			Name      string        `json:"name"`
			Kind      model.RunKind `json:"kind"`
			CreatedAt string        `json:"created_at"`
			Source    string        `json:"source"`
			// An emulator run's counts; null for other kinds, which have no processes or blocks.
			Processes    *int   `json:"processes"`
			Blocks       *int   `json:"blocks"`
			Instructions *int64 `json:"instructions"`
		}
		items := []item{}
		for _, r := range runs {
			it := item{Name: r.Name, Kind: r.Kind, CreatedAt: r.CreatedAt, Source: r.Source}
			if r.Kind == model.RunKindEmulator {
				it.Processes, it.Blocks, it.Instructions = &r.Processes, &r.Blocks, &r.Instructions
			}
			items = append(items, it)
		}
		return writeJSON(env.Stdout, items)
	}
	tw := termtext.NewTable(env.Stdout)
	fmt.Fprintln(tw, "RUN\tKIND\tPROCESSES\tBLOCKS\tINSTRUCTIONS\tCREATED\tSOURCE")
	for _, r := range runs {
		counts := "-\t-\t-" // other kinds have no processes, blocks or instructions
		if r.Kind == model.RunKindEmulator {
			counts = fmt.Sprintf("%d\t%d\t%d", r.Processes, r.Blocks, r.Instructions)
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\n", printable(r.Name, ""), r.Kind, counts, r.CreatedAt, printable(r.Source, ""))
	}
	return tw.Flush()
}

// reportFlags are shared by report and chart.
type reportFlags struct {
	run, profile string
	by           string
	pid, top     int
	freq         float64
	// rawNames shows methods as the trace names them ("a/B.paint (F)V") instead of as Java
	// reads ("B.paint(float)" in "a"); keys and JSON's "key" and "method" are raw either way.
	rawNames bool
}

func (rf *reportFlags) options(ctx context.Context, profiles controller.Profiles, a *controller.Analysis) (cost.ReportOptions, error) {
	if rf.run == "" {
		return cost.ReportOptions{}, fmt.Errorf("%w: --run NAME is required", errUsage)
	}
	by, err := cost.ParseGrouping(rf.by)
	if err != nil {
		return cost.ReportOptions{}, fmt.Errorf("%w: %v", errUsage, err)
	}
	p, err := pricingProfile(ctx, profiles, a, rf.profile, rf.run, rf.pid)
	if err != nil {
		return cost.ReportOptions{}, err
	}
	return cost.ReportOptions{Run: rf.run, Profile: p, By: by, PID: rf.pid, FrequencyGHz: rf.freq, Top: rf.top}, nil
}

// pricingProfile is the profile a run (or its process pid) is priced with: name when given
// (--profile stands, whatever the run's instruction set; the report's warnings say where it
// does not fit), else the window's default for what the run executed (defaultProfile).
func pricingProfile(ctx context.Context, profiles controller.Profiles, a *controller.Analysis, name, run string, pid int) (*cost.Profile, error) {
	if name != "" {
		return profiles.Resolve(ctx, name)
	}
	return defaultProfile(ctx, profiles, a, run, pid)
}

// compareProfiles prices each compared item: with --profile alone when given (each row's
// warnings say where it does not fit), else each instruction set with its default, as the
// window's Compare does. forEach (chart --compare) keeps --profile for the sets it prices
// and gives the others their default.
func compareProfiles(ctx context.Context, profiles controller.Profiles, rf reportFlags, forEach bool) (controller.ProfileFor, error) {
	infos, err := profiles.List(ctx)
	if err != nil {
		return nil, err
	}
	if rf.profile == "" {
		return profiles.Defaults(infos), nil
	}
	p, err := profiles.Resolve(ctx, rf.profile)
	if err != nil {
		return nil, err
	}
	if forEach {
		return profiles.ForISA(infos, p), nil
	}
	return controller.Only(p), nil
}

// reportArgs are report's flags: those every kind of run reads and each kind's own.
type reportArgs struct {
	rf        reportFlags
	find      string
	perThread bool
	hf        heapFlags
	sf        sampleFlags
	asJSON    bool
	// missesFirst orders an emulator run's rows by their cache misses (the hottest missing
	// blocks or functions first) instead of their cycles.
	missesFirst bool
}

func runReport(ctx context.Context, args []string, env Env) error {
	fs, dbPath := newFlags("report", env)
	var a reportArgs
	fs.StringVar(&a.rf.run, "run", "", "run `NAME`")
	fs.StringVar(&a.rf.profile, "profile", "", "profile `NAME|FILE` (default: the window's for the run's instruction set, by what the profiles carry: e.g. cortex-a8 for ARM and Thumb)")
	fs.StringVar(&a.rf.by, "by", "pid", "group by `pid|bb|insn|category|function|image|layer|syscall` (method traces: method|class|package|thread; sampled runs: layer|image|symbol|component|thread)")
	compare := fs.String("compare", "", "emulator runs: put `RUN[:PID],...` side by side (with --by image: image by image); heap dumps: BEFORE,AFTER class by class")
	fs.BoolVar(&a.perThread, "per-thread", false, "--by syscall: one row per thread")
	fs.IntVar(&a.rf.pid, "pid", 0, "only this process (method traces: this thread)")
	fs.StringVar(&a.find, "find", "", "method traces, heap runs, sampled runs: only rows whose name contains `TEXT`")
	fs.IntVar(&a.rf.top, "top", 0, "only the `N` most costly rows (totals cover all)")
	fs.Float64Var(&a.rf.freq, "frequency-ghz", 0, "clock `GHz` (default: the profile's, else 1)")
	fs.BoolVar(&a.asJSON, "json", false, "write JSON for scripts")
	fs.BoolVar(&a.missesFirst, "misses-first", false, "emulator runs simulated with run --cache: the rows with the most cache misses first")
	fs.BoolVar(&a.rf.rawNames, "raw-names", false, "method traces: name methods as the trace does (class.name descriptor), not as Java reads them")
	a.hf.add(fs)
	a.sf.add(fs, true)
	if _, err := parse(fs, args); err != nil {
		return err
	}
	if a.rf.run == "" && *compare == "" {
		return fmt.Errorf("%w: report takes --run NAME or --compare RUN,...", errUsage)
	}
	ws, err := openDB(env, *dbPath, false)
	if err != nil {
		return err
	}
	defer ws.Close()
	if *compare != "" {
		items, kind, err := compareList(ctx, ws, *compare, reportCompares)
		if err != nil {
			return err
		}
		return runKinds[kind].compare(ctx, ws, items, a, env)
	}
	kind, err := ws.RunKind(ctx, a.rf.run)
	if err != nil {
		return err
	}
	k, err := kindOf(a.rf.run, kind)
	if err != nil {
		return err
	}
	return k.report(ctx, ws, a, env)
}

// costReport is report --run for an emulator run: its cost grouped by --by, or its system calls.
func costReport(ctx context.Context, ws *controller.Workspace, a reportArgs, env Env) error {
	if a.rf.by == "syscall" {
		return syscallReport(ctx, ws.Costs, a.rf, a.perThread, a.asJSON, env)
	}
	if a.sf.csv && a.asJSON {
		return fmt.Errorf("%w: --json or --csv, not both", errUsage)
	}
	opts, err := a.rf.options(ctx, ws.Profiles, ws.Costs)
	if err != nil {
		return err
	}
	opts.MissesFirst = a.missesFirst
	rep, err := ws.Costs.Report(ctx, opts)
	if err != nil {
		return err
	}
	if a.sf.csv {
		return writeReportCSV(env.Stdout, rep)
	}
	return writeSummary(env.Stdout, rep, a.asJSON)
}

type reportRowJSON struct {
	Key          string   `json:"key"`
	PID          int      `json:"pid,omitempty"`
	BlockID      int64    `json:"block_id,omitempty"`
	Category     string   `json:"category,omitempty"`
	Image        string   `json:"image,omitempty"`
	ImageKind    string   `json:"image_kind,omitempty"`
	Instructions int64    `json:"instructions"`
	Blocks       int64    `json:"blocks_executed"`
	Cycles       float64  `json:"cycles"`
	TimeS        float64  `json:"time_s"`
	EnergyJ      *float64 `json:"energy_j"` // null when not known (no power in the profile), never 0
	// columns are the report's own columns (cost.Report.Columns: misses, stalls, pipeline
	// cycles), written after the others under their keys; null where unknown.
	columns []columnValue
}

// columnValue is one of a row's cost.RowColumn values: nil where it cannot be known.
type columnValue struct {
	key string
	v   *float64
}

// MarshalJSON writes the row's fixed keys, then its report's columns in their order.
func (r reportRowJSON) MarshalJSON() ([]byte, error) {
	type fixed reportRowJSON // without this method
	b, err := json.Marshal(fixed(r))
	if err != nil || len(r.columns) == 0 {
		return b, err
	}
	b = b[:len(b)-1]
	for _, c := range r.columns {
		k, _ := json.Marshal(c.key)
		v, err := json.Marshal(c.v)
		if err != nil {
			return nil, err
		}
		b = append(append(append(append(b, ','), k...), ':'), v...)
	}
	return append(b, '}'), nil
}

func rowJSON(r cost.ReportRow, rep *cost.Report, cols []cost.RowColumn) reportRowJSON {
	var energy *float64
	if r.EnergyKnown() {
		energy = &r.EnergyJ
	}
	return reportRowJSON{r.Key, r.PID, r.BlockID, r.Category, r.Image, string(r.ImageKind), r.Instructions, r.Blocks, r.Cycles, r.TimeS, energy,
		columnValues(r, rep, cols)}
}

// columnValues is each column's value of a row, nil where unknown.
func columnValues(r cost.ReportRow, rep *cost.Report, cols []cost.RowColumn) []columnValue {
	out := make([]columnValue, len(cols))
	for i, c := range cols {
		v, ok := c.Value(r, rep)
		out[i] = columnValue{c.Key, known(v, ok)}
	}
	return out
}

// known is v for JSON, or null where it cannot be known: never a confident 0.
func known(v float64, ok bool) *float64 {
	if !ok || math.IsNaN(v) {
		return nil
	}
	return &v
}

// coverageJSON says, in every cost JSON, how much of the numbers the profile really prices:
// the share in Undefined, instruction sets it does not price, whether any power is known;
// warnings say it in words (README "Command line").
type coverageJSON struct {
	UndefinedInstructions    int64    `json:"undefined_instructions"`
	UndefinedShare           float64  `json:"undefined_share"`
	UndefinedCycleShare      float64  `json:"undefined_cycle_share"`
	UndefinedCyclesEach      float64  `json:"undefined_cycles_each"`
	UnpricedISAs             []string `json:"unpriced_isas"`
	EnergyKnown              bool     `json:"energy_known"`
	UnknownPowerInstructions int64    `json:"unknown_power_instructions"`
	Warnings                 []string `json:"warnings"`
}

func coverageOf(c cost.Coverage) coverageJSON {
	return coverageJSON{c.Undefined, c.UndefinedShare(), c.UndefinedCycleShare(), c.UndefinedCPI, isaNames(c.ForeignISAs),
		!c.PowerUnknown(), c.UnknownPower, append([]string{}, c.Warnings()...)}
}

func reportJSON(rep *cost.Report) any {
	cols := rep.Columns()
	rows := make([]reportRowJSON, len(rep.Rows))
	for i, r := range rep.Rows {
		rows[i] = rowJSON(r, rep, cols)
	}
	return struct {
		Run              string          `json:"run"`
		Profile          string          `json:"profile"`
		By               cost.Grouping   `json:"by"`
		FrequencyGHz     float64         `json:"frequency_ghz"`
		FrequencyAssumed bool            `json:"frequency_assumed"`
		Rows             []reportRowJSON `json:"rows"`
		Totals           reportRowJSON   `json:"totals"`
		coverageJSON
		Waterfall waterfallJSON `json:"waterfall"`
	}{rep.Run, rep.Profile, rep.By, rep.FrequencyGHz, rep.FrequencyAssumed, rows, rowJSON(rep.Total, rep, cols), coverageOf(rep.Coverage),
		waterfallOf(rep.Waterfall)}
}

// compareRowJSON is one item of `report --compare --json`: its cost, the ratios to the first
// item (null where unknown), figure 5.2's estimate, and how well its profile fits it.
type compareRowJSON struct {
	Item             string   `json:"item"`
	Profile          string   `json:"profile"`
	FrequencyGHz     float64  `json:"frequency_ghz"`
	Instructions     int64    `json:"instructions"`
	Blocks           int64    `json:"blocks_executed"`
	InsnsPerBlock    float64  `json:"instructions_per_block"`
	Cycles           float64  `json:"cycles"`
	TimeS            float64  `json:"time_s"`
	EnergyJ          *float64 `json:"energy_j"`
	InstructionRatio *float64 `json:"instruction_ratio"`
	CycleRatio       *float64 `json:"cycle_ratio"`
	EnergyRatio      *float64 `json:"energy_ratio"`
	cpiJSON
	coverageJSON
}

func compareJSON(r cost.CompareRow) compareRowJSON {
	return compareRowJSON{r.Item, r.Profile, r.FrequencyGHz, r.Instructions, r.Blocks, r.InsnsPerBlock, r.Cycles, r.TimeS,
		known(r.EnergyJ, !r.Coverage.PowerUnknown()), known(r.InstructionRatio, true), known(r.CycleRatio, true),
		known(r.EnergyRatio, true), cpiOf(r), coverageOf(r.Coverage)}
}

func isaNames(isas []cost.ISA) []string {
	out := make([]string, len(isas))
	for i, isa := range isas {
		out[i] = string(isa)
	}
	return out
}

func writeReportText(w io.Writer, rep *cost.Report) error {
	note := ""
	if rep.FrequencyAssumed {
		note = " (assumed: the profile gives no frequency; use --frequency-ghz)"
	}
	fmt.Fprintf(w, "run %q under %q at %g GHz%s, by %s\n", rep.Run, rep.Profile, rep.FrequencyGHz, note, rep.By)
	if clock := rep.ClockNote(); clock != "" { // why the energy follows the clock
		fmt.Fprintf(w, "note: %s\n", clock)
	}
	writeWarnings(w, "", rep.Coverage)
	fmt.Fprintln(w)
	cols := rep.Columns()
	tw := termtext.NewTable(w)
	fmt.Fprintf(tw, "%s\tINSTRUCTIONS\tBLOCKS\tCYCLES\tTIME (s)\tENERGY (J)\t%s%s\n", groupTitle(rep.By), columnTitles(cols), extraTitle(rep.By))
	for _, r := range append(rep.Rows, rep.Total) {
		energy := fmt.Sprintf("%.6g", r.EnergyJ)
		if !r.EnergyKnown() {
			energy = "unknown"
		}
		fmt.Fprintf(tw, "%s\t%d\t%d\t%.0f\t%.6g\t%s\t%s%s\n", printable(r.Key, ""), r.Instructions, r.Blocks, r.Cycles, r.TimeS, energy,
			columnCells(r, rep, cols), printable(extraCell(rep.By, r), ""))
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	fmt.Fprintln(w)
	writeWaterfall(w, rep.Waterfall, false)
	return nil
}

// columnTitles heads the report's own columns (cost.Report.Columns), each followed by a tab.
func columnTitles(cols []cost.RowColumn) string {
	var b strings.Builder
	for _, c := range cols {
		b.WriteString(strings.ToUpper(c.Label) + "\t")
	}
	return b.String()
}

// columnCells is a row's values of those columns as the window shows them, each followed by
// a tab.
func columnCells(r cost.ReportRow, rep *cost.Report, cols []cost.RowColumn) string {
	var b strings.Builder
	for _, c := range cols {
		b.WriteString(c.Text(r, rep) + "\t")
	}
	return b.String()
}

// idText is a pid or block id for CSV: empty where the row has none (JSON leaves the key out).
func idText(id int64) string {
	if id == 0 {
		return ""
	}
	return strconv.FormatInt(id, 10)
}

// writeReportCSV writes a cost report's rows and total as CSV: the JSON's keys as the header,
// numbers at full precision, "unknown" where a number cannot be known.
func writeReportCSV(w io.Writer, rep *cost.Report) error {
	cols := rep.Columns()
	cw := csv.NewWriter(w)
	head := []string{"key", "pid", "block_id", "category", "image", "image_kind", "instructions", "blocks_executed", "cycles", "time_s", "energy_j"}
	for _, c := range cols {
		head = append(head, c.Key)
	}
	cw.Write(head)
	num := func(v *float64) string {
		if v == nil {
			return "unknown"
		}
		return strconv.FormatFloat(*v, 'g', -1, 64)
	}
	for _, r := range append(rep.Rows, rep.Total) {
		j := rowJSON(r, rep, cols)
		rec := []string{j.Key, idText(int64(j.PID)), idText(j.BlockID), j.Category, j.Image, j.ImageKind,
			strconv.FormatInt(j.Instructions, 10), strconv.FormatInt(j.Blocks, 10), num(&j.Cycles), num(&j.TimeS), num(j.EnergyJ)}
		for _, c := range j.columns {
			rec = append(rec, num(c.v))
		}
		cw.Write(rec)
	}
	cw.Flush()
	return cw.Error()
}

func groupTitle(g cost.Grouping) string {
	return map[cost.Grouping]string{cost.ByPID: "PID", cost.ByBlock: "BLOCK",
		cost.ByInstruction: "INSTRUCTION", cost.ByCategory: "CATEGORY", cost.ByFunction: "FUNCTION",
		cost.ByImage: "IMAGE", cost.ByLayer: "LAYER"}[g]
}

// extraTitle heads the last column: an instruction's category, a block's or function's image,
// an image's kind.
func extraTitle(g cost.Grouping) string {
	switch g {
	case cost.ByInstruction:
		return "CATEGORY"
	case cost.ByBlock, cost.ByFunction:
		return "IMAGE"
	case cost.ByImage:
		return "KIND"
	}
	return ""
}

func extraCell(g cost.Grouping, r cost.ReportRow) string {
	switch g {
	case cost.ByInstruction:
		return r.Category
	case cost.ByBlock, cost.ByFunction:
		return r.Image
	case cost.ByImage:
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
	tw := termtext.NewTable(env.Stdout)
	fmt.Fprintln(tw, "SYSCALL\tNUMBER\tPID\tTID\tCALLS\tINSTRUCTIONS BEFORE\tPER CALL")
	var calls int64
	for _, r := range rows {
		tid := "-"
		if r.TID != 0 {
			tid = fmt.Sprint(r.TID)
		}
		fmt.Fprintf(tw, "%s\t%d\t%d\t%s\t%d\t%d\t%.0f\n", printable(r.Name, ""), r.Number, r.PID, tid, r.Count, r.Insns, r.InsnsPerCall())
		calls += r.Count
	}
	fmt.Fprintf(tw, "total\t\t\t\t%d\t\t\n", calls)
	return tw.Flush()
}

// compareReport puts runs or processes side by side: the seed's tables 5.2/5.4/5.5, or with
// --by image one row per image (ARM and MIPS builds of one program, layer by layer). Each item
// says which profile priced it and, in warning lines, where that profile does not fit it.
func compareReport(ctx context.Context, ws *controller.Workspace, items []cost.CompareItem, ra reportArgs, env Env) error {
	rf, asJSON := ra.rf, ra.asJSON
	if ra.sf.csv && (asJSON || rf.by == "image") {
		return fmt.Errorf("%w: --csv writes report --compare's items; not with --json or --by image", errUsage)
	}
	forISA, err := compareProfiles(ctx, ws.Profiles, rf, false)
	if err != nil {
		return err
	}
	a := ws.Costs
	if rf.by == "image" {
		return compareImagesReport(ctx, a, forISA, rf.freq, items, asJSON, env)
	}
	rows, err := a.Compare(ctx, items, forISA, rf.freq)
	if err != nil {
		return err
	}
	if asJSON {
		out := make([]compareRowJSON, len(rows))
		for i, r := range rows {
			out[i] = compareJSON(r)
		}
		return writeJSON(env.Stdout, map[string]any{"by": "item", "items": compareNames(items), "rows": out})
	}
	if ra.sf.csv {
		return writeCompareCSV(env.Stdout, rows)
	}
	for _, r := range rows {
		writeWarnings(env.Stdout, fmt.Sprintf("%s under %s: ", r.Item, r.Profile), r.Coverage)
	}
	fmt.Fprintln(env.Stdout, "note: FIG. 5.2 is seed 000's estimate from each profile's reference CPI and power (unknown where the profile has none)")
	tw := termtext.NewTable(env.Stdout)
	fmt.Fprintln(tw, "ITEM\tPROFILE\tINSTRUCTIONS\tCYCLES\tTIME (s)\tENERGY (J)\tINSTR. RATIO\tCYCLE RATIO\tENERGY RATIO\tFIG. 5.2 TIME (s)\tFIG. 5.2 ENERGY (J)")
	for _, r := range rows {
		cpi := cpiOf(r)
		fmt.Fprintf(tw, "%s\t%s\t%d\t%.0f\t%.6g\t%s\t%s\t%s\t%s\t%s\t%s\n", printable(r.Item, ""), printable(r.Profile, ""), r.Instructions, r.Cycles, r.TimeS,
			orUnknown("%.6g", r.EnergyJ, !r.Coverage.PowerUnknown()), orUnknown("%.3f", r.InstructionRatio, true),
			orUnknown("%.3f", r.CycleRatio, true), orUnknown("%.3f", r.EnergyRatio, true),
			knownText("%.6g", cpi.CPITimeS), knownText("%.6g", cpi.CPIEnergyJ))
	}
	return tw.Flush()
}

// compareImagesReport is report --compare --by image: one row per image, each item's cost of it.
func compareImagesReport(ctx context.Context, a *controller.Analysis, forISA controller.ProfileFor, freq float64, items []cost.CompareItem, asJSON bool, env Env) error {
	rows, err := a.CompareImages(ctx, items, forISA, freq)
	if err != nil {
		return err
	}
	if asJSON {
		type cell struct {
			Item         string   `json:"item"`
			Name         string   `json:"name"`
			Instructions int64    `json:"instructions"`
			Cycles       float64  `json:"cycles"`
			TimeS        float64  `json:"time_s"`
			EnergyJ      *float64 `json:"energy_j"`
		}
		type row struct {
			Image string `json:"image"`
			Kind  string `json:"kind"`
			Cells []cell `json:"cells"` // one per item, in the order of items
		}
		out := []row{}
		for _, r := range rows {
			x := row{Image: r.Key, Kind: string(r.Kind), Cells: make([]cell, len(r.Cells))}
			for i, c := range r.Cells {
				x.Cells[i] = cell{items[i].String(), r.Names[i], c.Instructions, c.Cycles, c.TimeS, known(c.EnergyJ, c.EnergyKnown())}
			}
			out = append(out, x)
		}
		return writeJSON(env.Stdout, map[string]any{"by": "image", "items": compareNames(items), "rows": out})
	}
	tw := termtext.NewTable(env.Stdout)
	fmt.Fprint(tw, "IMAGE\tKIND")
	for _, it := range items {
		fmt.Fprintf(tw, "\t%s INSTRUCTIONS\t%s CYCLES", printable(it.String(), ""), printable(it.String(), ""))
	}
	fmt.Fprintln(tw)
	for _, r := range rows {
		fmt.Fprintf(tw, "%s\t%s", printable(r.Key, ""), r.Kind)
		for _, c := range r.Cells {
			fmt.Fprintf(tw, "\t%d\t%.0f", c.Instructions, c.Cycles)
		}
		fmt.Fprintln(tw)
	}
	return tw.Flush()
}

// writeWarnings writes a "warning:" line for each thing of the cost that is a guess because
// the profile does not fit (the README promises them wherever a profile prices a run).
func writeWarnings(w io.Writer, prefix string, cov cost.Coverage) {
	for _, warn := range cov.Warnings() {
		fmt.Fprintf(w, "warning: %s%s\n", prefix, warn)
	}
}

// orUnknown formats v, or says "unknown" where it cannot be known.
func orUnknown(format string, v float64, ok bool) string {
	if p := known(v, ok); p != nil {
		return fmt.Sprintf(format, *p)
	}
	return "unknown"
}

// compareKinds are the kinds of run a command's --compare takes (takes), and what it says of
// the others (what).
type compareKinds struct {
	takes func(kind model.RunKind) bool
	what  string
}

// reportCompares is what report --compare takes, and says what it does not.
var reportCompares = compareKinds{
	takes: func(kind model.RunKind) bool { return runKinds[kind].compare != nil },
	what:  "--compare puts emulator runs (their cycles, time and energy) or two heap dumps side by side",
}

// compareList reads --compare's list and the one kind of its runs, a kind the command takes:
// emulator runs (or their processes, RUN:PID), heap dumps or method traces. Any other kind, or
// kinds mixed, is refused by name: priced as an emulator run it would be a table of zeros that
// reads as a measurement.
func compareList(ctx context.Context, ws *controller.Workspace, list string, kinds compareKinds) ([]cost.CompareItem, model.RunKind, error) {
	items, err := compareItems(list)
	if err != nil {
		return nil, "", err
	}
	runs, err := ws.Runs(ctx)
	if err != nil {
		return nil, "", err
	}
	kindOf := map[string]model.RunKind{}
	for _, r := range runs {
		kindOf[r.Name] = r.Kind
	}
	first := items[0].Run
	for _, it := range items {
		kind, ok := kindOf[it.Run]
		switch {
		case !ok:
			return nil, "", fmt.Errorf("run %s is not in %s", runText(it.Run), ws.Path())
		case runKinds[kind].compare == nil && runKinds[kind].chartCompare == nil:
			return nil, "", fmt.Errorf("run %q is %s: --compare puts emulator runs, two heap dumps or two method traces side by side", it.Run, model.RunKindText(kind))
		case kind == model.RunKindHeapDump && it.PID != 0:
			return nil, "", fmt.Errorf("run %q is a heap dump: it has no process to choose with :%d", it.Run, it.PID)
		case kind != kindOf[first]:
			return nil, "", fmt.Errorf("run %q is %s and run %q %s: --compare puts runs of one kind side by side",
				first, model.RunKindText(kindOf[first]), it.Run, model.RunKindText(kind))
		}
	}
	if kind := kindOf[first]; !kinds.takes(kind) {
		return nil, "", fmt.Errorf("run %q is %s: %s", first, model.RunKindText(kind), kinds.what)
	}
	return items, kindOf[first], nil
}

// compareItems reads --compare's RUN[:PID],... list.
func compareItems(list string) ([]cost.CompareItem, error) {
	var items []cost.CompareItem
	for _, s := range strings.Split(list, ",") {
		it, err := cost.ParseCompareItem(strings.TrimSpace(s))
		if err != nil {
			return nil, fmt.Errorf("%w: %v", errUsage, err)
		}
		items = append(items, it)
	}
	return items, nil
}

func compareNames(items []cost.CompareItem) []string {
	out := make([]string, len(items))
	for i, it := range items {
		out[i] = it.String()
	}
	return out
}

// runEstimate is seed figure 5.2's calculator (--instructions …), or with --run a run's
// estimate step by step: category cycles, pipeline cycles, memory stalls, the total, figure
// 5.2 beside it and the gap (cost.Waterfall).
func runEstimate(ctx context.Context, args []string, env Env) error {
	fs, dbPath := newFlags("estimate", env)
	var in cost.EstimateInput
	var rf reportFlags
	fs.StringVar(&rf.run, "run", "", "a run's estimate step by step: run `NAME`")
	fs.StringVar(&rf.profile, "profile", "", "with --run: profile `NAME|FILE` (default: the window's for the run's instruction set)")
	fs.IntVar(&rf.pid, "pid", 0, "with --run: only this process")
	fs.Float64Var(&in.Instructions, "instructions", 0, "dynamic instruction `count`")
	fs.Float64Var(&in.CPI, "cpi", 0, "cycles per instruction")
	fs.Float64Var(&in.FrequencyGHz, "frequency-ghz", 0, "clock `GHz` (default: with --run the profile's, else 1)")
	fs.Float64Var(&in.ProcessorPowerW, "power-w", 0, "processor power `W`")
	fs.Float64Var(&in.MemoryAccessEnergy, "memory-energy-nj", 0, "energy per main-memory access `nJ`")
	fs.Float64Var(&in.BaseInstructions, "base-instructions", 0, "instructions of the reference run")
	fs.Float64Var(&in.BaseCacheMisses, "base-misses", 0, "cache misses of the reference run")
	asJSON := fs.Bool("json", false, "write JSON for scripts")
	if _, err := parse(fs, args); err != nil {
		return err
	}
	if rf.run != "" {
		if in.Instructions != 0 || in.CPI != 0 {
			return fmt.Errorf("%w: estimate takes --run NAME or the calculator's --instructions and --cpi, not both", errUsage)
		}
		rf.by, rf.freq = string(cost.ByPID), in.FrequencyGHz
		return runWaterfall(ctx, *dbPath, rf, *asJSON, env)
	}
	if in.FrequencyGHz == 0 {
		in.FrequencyGHz = cost.DefaultFrequencyGHz
	}
	e, err := cost.EstimateCPI(in)
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

// runWaterfall is estimate --run: the run's waterfall under the profile, with every cache
// level's line.
func runWaterfall(ctx context.Context, dbPath string, rf reportFlags, asJSON bool, env Env) error {
	ws, err := openDB(env, dbPath, false)
	if err != nil {
		return err
	}
	defer ws.Close()
	kind, err := ws.RunKind(ctx, rf.run)
	if err != nil {
		return err
	}
	if kind != model.RunKindEmulator {
		return fmt.Errorf("run %q is %s: estimate --run prices emulator runs", rf.run, model.RunKindText(kind))
	}
	opts, err := rf.options(ctx, ws.Profiles, ws.Costs)
	if err != nil {
		return err
	}
	rep, err := ws.Costs.Report(ctx, opts)
	if err != nil {
		return err
	}
	if asJSON {
		return writeJSON(env.Stdout, map[string]any{"run": rep.Run, "profile": rep.Profile, "pid": rf.pid,
			"waterfall": waterfallOf(rep.Waterfall), "coverage": coverageOf(rep.Coverage)})
	}
	fmt.Fprintf(env.Stdout, "run %q under %q at %g GHz\n", rep.Run, rep.Profile, rep.FrequencyGHz)
	writeWarnings(env.Stdout, "", rep.Coverage)
	writeWaterfall(env.Stdout, rep.Waterfall, true)
	return nil
}
