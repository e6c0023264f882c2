package view

import (
	"context"
	"fmt"
	"slices"
	"strconv"

	"androprof/controller"
	"androprof/model"
)

// blocksTop is how many blocks the Basic blocks tab lists: the costly ones matter, and a
// table of 100,000 rows helps nobody.
const blocksTop = 200

// results is everything the tabs show for one selection, computed off the UI goroutine.
type results struct {
	sel     selection // as computed: the profile chosen, a pid that exists
	profile *model.Profile
	data    *controller.RunData
	isa     model.ISA // the instruction set the run executed most

	pids   *controller.Report // every process, whatever the selection
	blocks *controller.Report // the selection's blocksTop most costly blocks
	insns  *controller.Report
	cats   *controller.Report
	funcs  *controller.Report

	costing      model.Costing     // per-category estimate of the selection
	instructions int64             // of the selection
	names        map[string]string // pid → "pid name", for chart labels
}

// compute loads the run, chooses the profile if none is chosen (or the chosen one does not
// price the run's instruction set) and makes every report.
func compute(ctx context.Context, a *controller.Analysis, profiles controller.Profiles, infos []model.ProfileInfo, sel selection) (*results, error) {
	d, err := a.Load(ctx, sel.run)
	if err != nil {
		return nil, err
	}
	res := &results{data: d, isa: mainISA(d), names: map[string]string{}}
	isa := res.isa
	if sel.explicit {
		isa = "" // the user's choice for this run stands
	}
	i := chooseProfile(infos, sel.profile, isa)
	if i < 0 {
		return nil, fmt.Errorf("no profile to price run %q with", sel.run)
	}
	sel.profile = infos[i].Name
	if res.profile, err = resolveInfo(ctx, profiles, infos[i]); err != nil {
		return nil, err
	}
	if !slices.ContainsFunc(d.Processes, func(p model.ProcessSummary) bool { return p.PID == sel.pid }) {
		sel.pid = 0
	}
	res.sel = sel
	for _, p := range d.Processes {
		res.names[strconv.Itoa(p.PID)] = processLabel(p.Process)
	}
	opts := controller.ReportOptions{Run: sel.run, Profile: res.profile, FrequencyGHz: sel.freq}
	for _, r := range []struct {
		out *(*controller.Report)
		by  controller.Grouping
		pid int
		top int
	}{
		{&res.pids, controller.ByPID, 0, 0},
		{&res.blocks, controller.ByBlock, sel.pid, blocksTop},
		{&res.insns, controller.ByInstruction, sel.pid, 0},
		{&res.cats, controller.ByCategory, sel.pid, 0},
		{&res.funcs, controller.ByFunction, sel.pid, 0},
	} {
		o := opts
		o.By, o.PID, o.Top = r.by, r.pid, r.top
		if *r.out, err = a.Report(ctx, o); err != nil {
			return nil, err
		}
		if err := ctx.Err(); err != nil {
			return nil, err
		}
	}
	counts, err := a.InstructionCounts(ctx, sel.run, sel.pid)
	if err != nil {
		return nil, err
	}
	res.costing = model.Cost(model.NewClassifier(res.profile), counts, res.pids.FrequencyGHz)
	res.instructions = res.cats.Total.Instructions
	return res, nil
}

// mainISA is the instruction set of most executed instructions ("" for an empty run).
func mainISA(d *controller.RunData) model.ISA {
	n := map[model.ISA]int64{}
	for _, b := range d.Blocks {
		n[b.ISA] += b.Executions * int64(b.Insns)
	}
	var best model.ISA
	for isa, c := range n {
		if c > n[best] || (c == n[best] && isa < best) {
			best = isa
		}
	}
	return best
}

// chooseProfile keeps the chosen profile when it prices isa, else takes the first that does
// (an ARM run gets an ARM profile, a MIPS run a MIPS one), else keeps the choice or the first.
func chooseProfile(infos []model.ProfileInfo, chosen string, isa model.ISA) int {
	idx := slices.IndexFunc(infos, func(in model.ProfileInfo) bool { return in.Name == chosen })
	prices := func(in model.ProfileInfo) bool { return isa == "" || slices.Contains(in.ISAs, isa) }
	if idx >= 0 && prices(infos[idx]) {
		return idx
	}
	if i := slices.IndexFunc(infos, prices); i >= 0 {
		return i
	}
	if idx >= 0 {
		return idx
	}
	if len(infos) > 0 {
		return 0
	}
	return -1
}
