package cli

import (
	"context"
	"fmt"

	"androprof/chart"
	"androprof/controller"
)

// methodFlameBy is `chart --by flame` of a method trace: its call tree as a flame graph.
const methodFlameBy = "flame"

// methodFlame is `chart --run TRACE --by flame [--pid TID] [--clock cpu|real] [--find REGEX]`:
// the window's Flame tab with the same choices (every thread unless --pid names one, the
// clock as the Clock chooser opens), drawn by the same controller call.
func methodFlame(ctx context.Context, ws *controller.Workspace, rf reportFlags, mf methodChartFlags) (chart.Drawing, error) {
	t, err := ws.Methods.Load(ctx, rf.run)
	if err != nil {
		return nil, err
	}
	cpu, err := mf.cpu(t.Profile.Clock)
	if err != nil {
		return nil, err
	}
	f, err := ws.Methods.FlameChart(ctx, rf.run, controller.FlameOptions{TID: rf.pid, Wall: !cpu})
	if err != nil {
		return nil, err
	}
	found, err := controller.FindFrames(f, mf.find)
	if err != nil {
		return nil, fmt.Errorf("%w: --find: %v", errUsage, err)
	}
	return found, nil
}
