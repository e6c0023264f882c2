package analysis

import (
	"androprof/model"
	"androprof/view/ui"
)

// TabDiff is the emulator runs' Diff tab's title.
const TabDiff = "Diff"

// newDiffTab is the emulator runs' Diff tab (issue 28): the run shown (A) against a second
// emulator run (B) by function or image, instructions executed (counted, no profile's guess),
// each row's share of its run and how it moved, as `androprof diff A B` prints them. Emulator
// runs have no stacks, so it is a table only; Compare puts runs side by side under a profile.
func newDiffTab(v *View) *ui.DiffPanel {
	return ui.NewDiffPanel(tabHost{v}, model.RunKindEmulator, v.ws.Diff)
}
