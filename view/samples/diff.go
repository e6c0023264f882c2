package samples

import (
	"androprof/model"
	"androprof/view/ui"
)

// TabDiff is the Diff tab's title.
const TabDiff = "Diff"

// newDiffPanel is the Diff tab (issue 28): the run shown (A) against a second sampled run (B),
// every sample of each (the bar's thread, focus and times do not apply: a diff compares whole
// runs, as `androprof diff` does), as the differential flame graph and the table by change.
func newDiffPanel(v *View) *ui.DiffPanel {
	return ui.NewDiffPanel(v.host, model.RunKindSamples, nil)
}

// SetDiff hands the tabs the workspace's diff (controller.Workspace.Diff), which the sample
// service alone cannot answer: it spans two runs.
func (v *View) SetDiff(diff ui.DiffFunc) {
	v.Diff.SetDiff(diff)
	if v.profile != nil {
		v.Diff.Show(v.run, nil)
	}
}
