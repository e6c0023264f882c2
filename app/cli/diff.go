package cli

import (
	"context"
	"fmt"
	"io"
	"math"
	"strings"

	"androprof/controller"
	"androprof/internal/human"
	"androprof/internal/termtext"
	"androprof/model/calls"
	"androprof/model/flame"
)

// diffArgs are `androprof diff`'s flags.
type diffArgs struct {
	by, clock string
	threshold float64 // percentage points
	top       int
	asJSON    bool
	rawNames  bool
	focus     focusFlags
}

// runDiff is `androprof diff RUN_A RUN_B`: what changed from A to B, the largest change first,
// each row's share of its own run so runs of different lengths compare (controller.Workspace.Diff).
func runDiff(ctx context.Context, args []string, env Env) error {
	fs, dbPath := newFlags("diff", env)
	var a diffArgs
	fs.StringVar(&a.by, "by", string(flame.DiffByFunction), "rows by `function|path|image` (method traces: image is the package; emulator runs: function or image)")
	fs.StringVar(&a.clock, "clock", "", "method traces: `cpu|wall` time (default: thread-CPU when both traces have it, else real time)")
	fs.Float64Var(&a.threshold, "threshold", 1, "rows whose own time moved less than `PCT` points of their run's total are unchanged: counted, not listed")
	fs.IntVar(&a.top, "top", 0, "only the `N` largest changes")
	fs.BoolVar(&a.asJSON, "json", false, "write JSON for scripts (every row, the unchanged marked)")
	fs.BoolVar(&a.rawNames, "raw-names", false, "method traces: name methods as the trace does (class.name descriptor), not as Java reads them")
	a.focus.add(fs)
	pos, err := parse(fs, args)
	if err != nil {
		return err
	}
	if len(pos) != 2 {
		return fmt.Errorf("%w: diff takes two runs: diff RUN_A RUN_B", errUsage)
	}
	by, err := flame.ParseDiffBy(a.by)
	if err != nil {
		return fmt.Errorf("%w: --by: %v", errUsage, err)
	}
	if !(a.threshold >= 0 && a.threshold <= 100) || a.top < 0 {
		return fmt.Errorf("%w: --threshold is 0 to 100 points and --top a count", errUsage)
	}
	ws, err := openDB(env, *dbPath, false)
	if err != nil {
		return err
	}
	defer ws.Close()
	name := func(m calls.MethodInfo) string { return calls.ReadableName(m).Full() }
	if a.rawNames {
		name = calls.MethodName
	}
	res, err := ws.Diff(ctx, pos[0], pos[1], controller.DiffOptions{By: by, Clock: a.clock, Threshold: a.threshold / 100, Name: name, Focus: a.focus.opts})
	if err := a.focus.checkDiff(res, err); err != nil {
		return err
	}
	if a.asJSON {
		j := diffJSON(res, a.top)
		if a.focus.asked() {
			j["focus"] = map[string]any{"a": controller.FocusJSONOf(res.FocusA), "b": controller.FocusJSONOf(res.FocusB)}
		}
		return writeJSON(env.Stdout, j)
	}
	return writeDiff(env.Stdout, res, a.top)
}

// diffRowJSON is one row of `diff --json`: changes in percentage points of each run's total,
// null where a run has no time (unknown, never 0).
type diffRowJSON struct {
	Key            string   `json:"key"`
	Path           []string `json:"path,omitempty"`
	SelfA          int64    `json:"self_a"`
	SelfB          int64    `json:"self_b"`
	TotalA         int64    `json:"total_a"`
	TotalB         int64    `json:"total_b"`
	SelfChangePts  *float64 `json:"self_change_pts"`
	TotalChangePts *float64 `json:"total_change_pts"`
	Unchanged      bool     `json:"unchanged"`
}

// points is a change as percentage points, nil when unknown.
func points(f float64) *float64 {
	if math.IsNaN(f) {
		return nil
	}
	p := 100 * f
	return &p
}

// diffJSON is `diff --json`: the header's facts and the rows, the first top of them (0: all).
func diffJSON(res *controller.DiffResult, top int) map[string]any {
	rows := make([]diffRowJSON, 0, len(res.Rows))
	for _, r := range res.Rows {
		if top > 0 && len(rows) == top {
			break
		}
		rows = append(rows, diffRowJSON{r.Key, r.Path, r.SelfA, r.SelfB, r.TotalA, r.TotalB, points(r.SelfChange), points(r.Change), r.Unchanged})
	}
	return map[string]any{"run_a": res.RunA, "run_b": res.RunB, "kind": res.Kind, "by": res.By, "unit": res.Unit,
		"measure": res.Measure, "why": res.Why, "threshold_pts": 100 * res.Threshold, "total_a": res.TotalA,
		"total_b": res.TotalB, "rows": rows}
}

// writeDiff writes the diff as a table of what changed, the largest change first, and says how
// many rows moved less than the threshold.
func writeDiff(w io.Writer, res *controller.DiffResult, top int) error {
	measure := res.Measure
	if !strings.Contains(measure, res.Unit) {
		measure += " in " + res.Unit
	}
	fmt.Fprintf(w, "diff %s → %s by %s: %s (%s)\n", printable(controller.RunText(res.RunA), ""),
		printable(controller.RunText(res.RunB), ""), res.By, measure, res.Why)
	threshold := human.TrimZeros(fmt.Sprintf("%.2f", 100*res.Threshold)) + " points"
	if threshold == "1 points" {
		threshold = "1 point"
	}
	fmt.Fprintf(w, "A %s %s, B %s %s; changes in points of each run's own total, under %s unchanged\n",
		human.Grouped(res.TotalA), res.Unit, human.Grouped(res.TotalB), res.Unit, threshold)
	writeDiffFocus(w, res)
	fmt.Fprintln(w)
	tw := termtext.NewTable(w)
	fmt.Fprintln(tw, "SELF A\tSELF B\tSELF Δ\tSELF Δ PTS\tTOTAL A\tTOTAL B\tTOTAL Δ PTS\tNAME")
	shown, unchanged := 0, 0
	for _, r := range res.Rows {
		if r.Unchanged {
			unchanged++
			continue
		}
		if top > 0 && shown == top {
			continue
		}
		shown++
		fmt.Fprintf(tw, "%d\t%d\t%+d\t%s\t%d\t%d\t%s\t%s\n", r.SelfA, r.SelfB, r.SelfB-r.SelfA, controller.DiffPointsText(r.SelfChange),
			r.TotalA, r.TotalB, controller.DiffPointsText(r.Change), termtext.Cell(controller.DiffRowName(r)))
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	if shown == 0 {
		fmt.Fprintln(w, "(no row changed by the threshold or more)")
	}
	if more := len(res.Rows) - unchanged - shown; more > 0 {
		fmt.Fprintf(w, "%s more changed (--top %d)\n", human.Count(more, "row", "rows"), top)
	}
	if unchanged > 0 {
		_, err := fmt.Fprintf(w, "%s unchanged (--threshold 0 lists every row)\n", human.Count(unchanged, "row", "rows"))
		return err
	}
	return nil
}
