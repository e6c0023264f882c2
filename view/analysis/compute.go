package analysis

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"androprof/controller"
	"androprof/internal/human"
	"androprof/model/cost"
	"androprof/view/ui"
)

// blocksTop is how many blocks the Basic blocks tab lists: the costly ones matter, and a
// table of 100,000 rows helps nobody.
const blocksTop = 200

// results is everything the tabs show for one selection, computed off the UI goroutine.
type results struct {
	sel     selection     // as computed: a pid that exists; profile is still the user's choice
	profile *cost.Profile // the profile every report here is priced with
	data    *cost.RunData
	isa     cost.ISA // the instruction set the run executed most

	pids   *cost.Report // every process, whatever the selection
	blocks *cost.Report // the selection's blocksTop most costly blocks
	insns  *cost.Report
	cats   *cost.Report
	funcs  *cost.Report

	images   []cost.Image      // the run's, every process's; none for traces that name none
	layers   controller.Layers // every process's images priced (Rows, Calls) when images
	calls    []cost.SyscallRow // per process and name, every process; nil when the trace has none
	thrCalls []cost.SyscallRow // per thread too

	costing      cost.Costing      // per-category estimate of the selection
	instructions int64             // of the selection
	names        map[string]string // pid → "pid name", for chart labels
	unpriced     bool              // the user cancelled the machine model's pricing
}

// compute loads the run, takes the user's profile when it prices the run's instruction set
// (or was chosen for this run), else the default for it (controller.Profiles.Choose, the
// command line's rule too), and makes every report. sel.profile stays the user's choice:
// the profile used is res.profile.
//
// Before the reports, the profile's machine model prices the run's hottest blocks, with pricing's
// bar; cancelled holds the pricings (unpricedKey) the user cancelled, which are not tried again.
func compute(ctx context.Context, a *controller.Analysis, profiles controller.Profiles, infos []cost.ProfileInfo, sel selection,
	pricing *pricingProgress, cancelled map[string]bool) (*results, error) {
	d, err := a.Load(ctx, sel.run)
	if err != nil {
		return nil, err
	}
	res := &results{data: d, isa: d.MainISA(0), names: controller.ProcessLabels(d)}
	isa := res.isa
	if sel.explicit {
		isa = "" // the user's choice for this run stands
	}
	i, err := profiles.Choose(ctx, infos, sel.profile, isa)
	if err != nil {
		return nil, err
	}
	if i < 0 {
		return nil, fmt.Errorf("no profile to price run %q with", sel.run)
	}
	if res.profile, err = resolveInfo(ctx, profiles, infos[i]); err != nil {
		return nil, err
	}
	if !slices.ContainsFunc(d.Processes, func(p cost.ProcessSummary) bool { return p.PID == sel.pid }) {
		sel.pid = 0
	}
	res.sel = sel
	opts := cost.ReportOptions{Run: sel.run, Profile: res.profile, FrequencyGHz: sel.freq}
	skip := cancelled[unpricedKey(sel.run, res.profile.Pipeline)]
	if res.unpriced, err = preparePipeline(ctx, a, d, pricing, skip, &opts); err != nil {
		return nil, err
	}
	for _, r := range []struct {
		out *(*cost.Report)
		by  cost.Grouping
		pid int
		top int
	}{
		{&res.pids, cost.ByPID, 0, 0},
		{&res.blocks, cost.ByBlock, sel.pid, blocksTop},
		{&res.insns, cost.ByInstruction, sel.pid, 0},
		{&res.cats, cost.ByCategory, sel.pid, 0},
		{&res.funcs, cost.ByFunction, sel.pid, 0},
	} {
		o := opts
		o.By, o.PID, o.Top = r.by, r.pid, r.top
		o.MissesFirst = sel.missesFirst && (r.by == cost.ByBlock || r.by == cost.ByFunction)
		if *r.out, err = a.Report(ctx, o); err != nil {
			return nil, err
		}
		if err := ctx.Err(); err != nil {
			return nil, err
		}
	}
	if err := res.imagesAndCalls(ctx, a, opts); err != nil {
		return nil, err
	}
	counts, err := a.InstructionCounts(ctx, sel.run, sel.pid)
	if err != nil {
		return nil, err
	}
	res.costing = cost.Cost(cost.NewClassifier(res.profile), counts, res.pids.FrequencyGHz)
	res.instructions = res.cats.Total.Instructions
	return res, nil
}

// imagesAndCalls takes the run's images and system calls (loaded with the run) and, when it
// has images, prices every process's images: the layer chart shows every process, and a
// drill-down needs the pid of the image chosen.
func (res *results) imagesAndCalls(ctx context.Context, a *controller.Analysis, opts cost.ReportOptions) error {
	var err error
	if res.images, err = a.Images(ctx, opts.Run); err != nil {
		return err
	}
	for _, byThread := range []bool{false, true} {
		calls, err := a.Syscalls(ctx, opts.Run, 0, byThread)
		if err != nil {
			return err
		}
		if len(calls) == 0 {
			break
		}
		if byThread {
			res.thrCalls = calls
		} else {
			res.calls = calls
		}
	}
	if len(res.images) == 0 {
		return nil
	}
	o := opts
	o.PID = 0
	res.layers, err = a.Layers(ctx, o)
	return err
}

// fitWarning says, for the window's problem area, what of the selection's numbers is a guess
// because the profile does not fit the run ("" when it does, or when nothing is shown).
func (res *results) fitWarning() string {
	if res == nil {
		return ""
	}
	return res.cats.Coverage.Warning()
}

// energyText is an energy with its unit, or says it is unknown when the profile gives no power.
func energyText(j float64, cov cost.Coverage) string {
	if cov.PowerUnknown() {
		return "energy unknown (no power in the profile)"
	}
	return human.Quantity(j, "J")
}

// fitNote is the coverage warnings made short for a line of totals: " · 100 % of instructions
// not in profile, which lacks MIPS" ("" when the profile fits); the sentences are in the
// window's problem area.
func fitNote(cov cost.Coverage) string {
	if cov.Undefined == 0 {
		return ""
	}
	note := " · " + cost.Percent(cov.UndefinedShare()) + " of instructions not in profile"
	if len(cov.ForeignISAs) > 0 {
		isas := make([]string, len(cov.ForeignISAs))
		for i, isa := range cov.ForeignISAs {
			isas[i] = string(isa)
		}
		note += ", which lacks " + strings.Join(isas, " and ")
	}
	return note
}

// shareCol shows a share (0 to 1) as a percentage that never rounds a little to nothing.
func shareCol[T any](title string, width float32, v func(T) float64) ui.Column[T] {
	c := ui.FloatCol(title, width, 0, v)
	c.Text = func(r T) string { return cost.Percent(v(r)) }
	return c
}

// unknownIf shows "unknown" in a column wherever its value is not known (energy under a
// profile without power) instead of a confident 0, on screen and in the CSV alike.
func unknownIf[T any](c ui.Column[T], unknown func(T) bool) ui.Column[T] {
	or := func(f func(T) string) func(T) string {
		if f == nil {
			return nil
		}
		return func(r T) string {
			if unknown(r) {
				return "unknown"
			}
			return f(r)
		}
	}
	c.Text, c.Raw = or(c.Text), or(c.Raw)
	return c
}

// energyCol is the Energy column of a table of report rows: "unknown" for a row whose every
// instruction the profile prices without a power (model.ReportRow.EnergyKnown).
func energyCol[T any](width float32, row func(T) cost.ReportRow) ui.Column[T] {
	return unknownIf(ui.QuantityCol("Energy", "J", width, func(r T) float64 { return row(r).EnergyJ }),
		func(r T) bool { return !row(r).EnergyKnown() })
}

// reportRow is a table of model.ReportRow's row getter, for energyCol.
func reportRow(r cost.ReportRow) cost.ReportRow { return r }
