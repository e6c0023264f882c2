package methods

import (
	"context"

	"androprof/controller"
	"androprof/model"
	"androprof/model/calls"
	"androprof/view/ui"
)

// TabDiff is the Diff tab's title.
const TabDiff = "Diff"

// diffTab is the run shown (A) against a second method trace (B), issue 28: the differential
// flame graph of every thread (threads matched by name) and the table sorted by change, the
// numbers `androprof diff A B` prints. Methods are named as the bar says (Raw names), in full
// (with their package) as the command line names them.
type diffTab struct {
	*ui.DiffPanel
	m *View
}

func newDiffTab(m *View) *diffTab {
	t := &diffTab{m: m, DiffPanel: ui.NewDiffPanel(m.host, model.RunKindMethods, nil)}
	t.Clocks = func(ctx context.Context, run string) (cpu, wall bool, err error) {
		tr, err := m.a.Load(ctx, run)
		if err != nil {
			return false, false, err
		}
		cpu, wall = controller.ChartClocks(tr.Profile.Clock)
		return cpu, wall, nil
	}
	return t
}

// SetDiff hands the tabs the workspace's diff (controller.Workspace.Diff), which the method
// service alone cannot answer: it spans two runs.
func (m *View) SetDiff(diff ui.DiffFunc) {
	m.Diff.DiffPanel.SetDiff(diff)
	if m.trace != nil {
		m.Diff.recompute()
	}
}

// recompute compares the run shown with the B chosen.
func (t *diffTab) recompute() {
	name := func(mi calls.MethodInfo) string { return calls.ReadableName(mi).Full() }
	if t.m.raw {
		name = calls.MethodName
	}
	t.Show(t.m.sel.run, name)
}
