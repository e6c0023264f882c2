package cli

import (
	"context"
	"fmt"

	"androprof/chart"
	"androprof/controller"
	"androprof/model"
	"androprof/model/cost"
)

// runKind is what the commands do with one kind of run. Each function asks the kind's
// controller service (ws.Costs, ws.Methods, …) and draws with the function its window tabs
// draw with; a nil compare or chartCompare means that --compare refuses the kind.
type runKind struct {
	report       func(ctx context.Context, ws *controller.Workspace, a reportArgs, env Env) error
	chart        func(ctx context.Context, ws *controller.Workspace, a chartArgs) (chart.Drawing, error)
	stored       func(ctx context.Context, ws *controller.Workspace, r model.RunInfo, asJSON bool, env Env) error // what import, run and demo say of it
	compare      func(ctx context.Context, ws *controller.Workspace, items []cost.CompareItem, a reportArgs, env Env) error
	chartCompare func(ctx context.Context, ws *controller.Workspace, items []cost.CompareItem, a chartArgs) (chart.Drawing, error)
}

// runKinds is the one place the command line tells kinds of run apart: report, chart and the
// summary after an import look the run's kind up here.
var runKinds = map[model.RunKind]runKind{
	model.RunKindEmulator: {
		report:       costReport,
		chart:        costChart,
		stored:       printEmulatorRun,
		compare:      compareReport,
		chartCompare: costComparisonChart,
	},
	model.RunKindMethods: {
		report: func(ctx context.Context, ws *controller.Workspace, a reportArgs, env Env) error {
			if a.sf.callers != "" || a.sf.callees != "" {
				return methodRelatives(ctx, ws, a.rf, a.sf, a.asJSON, env)
			}
			rep, err := methodReport(ctx, ws, a.rf, a.find)
			if err != nil {
				return err
			}
			return writeMethodReport(env.Stdout, rep, a.asJSON)
		},
		chart: func(ctx context.Context, ws *controller.Workspace, a chartArgs) (chart.Drawing, error) {
			return methodDrawing(ctx, ws, a.rf, a.kind, a.mf)
		},
		stored: printMethodRun,
		chartCompare: func(ctx context.Context, ws *controller.Workspace, items []cost.CompareItem, a chartArgs) (chart.Drawing, error) {
			return methodComparisonDrawing(ctx, ws, items, a.rf.by, a.mf)
		},
	},
	model.RunKindHeap: {
		report: func(ctx context.Context, ws *controller.Workspace, a reportArgs, env Env) error {
			return heapLogReport(ctx, ws, a.rf, a.find, a.hf, a.asJSON, env)
		},
		chart: func(ctx context.Context, ws *controller.Workspace, a chartArgs) (chart.Drawing, error) {
			return heapLogDrawing(ctx, ws, a.rf.run, a.figure, a.hf)
		},
		stored: storedAs(heapLogRunJSON, printHeapLogRun),
	},
	model.RunKindHeapDump: {
		report: func(ctx context.Context, ws *controller.Workspace, a reportArgs, env Env) error {
			return dumpReport(ctx, ws, a.rf, a.find, a.hf, a.asJSON, env)
		},
		chart: func(ctx context.Context, ws *controller.Workspace, a chartArgs) (chart.Drawing, error) {
			return dumpDrawing(ctx, ws, a.rf.run, a.figure, a.hf)
		},
		stored: storedAs(dumpRunJSON, printDumpRun),
		compare: func(ctx context.Context, ws *controller.Workspace, items []cost.CompareItem, a reportArgs, env Env) error {
			if len(items) != 2 {
				return fmt.Errorf("%w: --compare on heap dumps takes two: BEFORE,AFTER", errUsage)
			}
			if reportBy(a.rf) == "leaks" {
				return grownLeaksReport(ctx, ws, items[0].Run, items[1].Run, a.rf.top, a.asJSON, env)
			}
			return dumpDiff(ctx, ws, items[0].Run, items[1].Run, a.find, a.rf.top, a.asJSON, env)
		},
	},
	model.RunKindSamples: {
		report: func(ctx context.Context, ws *controller.Workspace, a reportArgs, env Env) error {
			return sampleReport(ctx, ws, a.rf, a.sf, a.find, a.asJSON, env)
		},
		chart: func(ctx context.Context, ws *controller.Workspace, a chartArgs) (chart.Drawing, error) {
			return sampleDrawing(ctx, ws, a.rf.run, a.rf.by, a.sf.target, a.buckets, !a.counts)
		},
		stored: printSampleRun,
	},
}

// storedAs is a runKind's stored from its JSON and its text.
func storedAs(toJSON func(context.Context, *controller.Workspace, model.RunInfo) any,
	text func(context.Context, *controller.Workspace, model.RunInfo, Env) error) func(context.Context, *controller.Workspace, model.RunInfo, bool, Env) error {
	return func(ctx context.Context, ws *controller.Workspace, r model.RunInfo, asJSON bool, env Env) error {
		if asJSON {
			return writeJSON(env.Stdout, toJSON(ctx, ws, r))
		}
		return text(ctx, ws, r, env)
	}
}

// kindOf is the entry of runKinds for run, of kind; a kind this build does not know (a newer
// androprof wrote the workspace) is said by name.
func kindOf(run string, kind model.RunKind) (runKind, error) {
	k, ok := runKinds[kind]
	if !ok {
		return runKind{}, fmt.Errorf("run %s is %s: this androprof cannot read it", runText(run), model.RunKindText(kind))
	}
	return k, nil
}
