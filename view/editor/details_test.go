package editor

import (
	"path/filepath"
	"strings"
	"testing"

	"fyne.io/fyne/v2/test"

	"androprof/controller"
	"androprof/internal/viewtest"
	"androprof/model/cost"
)

// The editor could not set a profile's metadata. Profile details… edits every field, the
// reference numbers with their sources, and a save and reopen keeps them all.
func TestProfileDetailsDialogSetsEveryField(t *testing.T) {
	ed, v := newTestEditor(t)
	v.commands[cmdDetails].Run()
	d := v.Sourced
	if d == nil || d.Architecture == nil || len(d.Fields) != len(cost.ReferenceFields) {
		t.Fatalf("Profile details shows %+v", d)
	}
	test.Type(d.Architecture, "ARMv8-A")
	test.Type(d.Organization, "Cortex-A53")
	test.Type(d.Source, "Measured on a Raspberry Pi 3")
	for i, f := range d.Fields {
		retype(f.Value, []string{"1.2", "1.5", "0.6", "1000", "20", "2.5"}[i])
		test.Type(f.Source, "table "+cost.ReferenceFields[i].Key)
		if i == 0 {
			test.Tap(f.Estimate)
		}
	}
	retype(d.Fields[1].Value, "-1")
	if !d.Apply.Disabled() {
		t.Fatal("Apply is enabled with a negative CPI")
	}
	retype(d.Fields[1].Value, "1.5")
	if d.Apply.Disabled() {
		t.Fatal("Apply is disabled with every value valid")
	}
	test.Tap(d.Apply)
	if v.Window.Canvas().Overlays().Top() != nil || v.Sourced != nil {
		t.Fatal("Apply left the dialog open")
	}

	path := filepath.Join(t.TempDir(), "a53.xml")
	viewtest.Must(t, ed.SaveAs(path))
	again := controller.NewEditor()
	viewtest.Must(t, again.Open(path))
	p := again.Profile()
	want := cost.Reference{FrequencyGHz: 1.2, CPI: 1.5, ProcessorPowerW: 0.6, BaseInstructions: 1000, BaseCacheMisses: 20, MemoryAccessEnergy: 2.5}
	if p.Architecture != "ARMv8-A" || p.Organization != "Cortex-A53" || p.Source != "Measured on a Raspberry Pi 3" || p.Reference != want {
		t.Fatalf("reopened: %q %q %q %+v", p.Architecture, p.Organization, p.Source, p.Reference)
	}
	got := again.Details().Reference
	for i, f := range cost.ReferenceFields {
		if got[i].Source != "table "+f.Key || got[i].Estimate != (i == 0) {
			t.Errorf("reopened %s cites %+v", f.Key, got[i])
		}
	}
}

// A category's costs and their sources are edited together; a cost changed in the panel
// without a source says so instead of keeping the old number's citation.
func TestCostsDialogEditsSourceAndEstimate(t *testing.T) {
	ed, v := newTestEditor(t)
	test.Tap(v.EditCosts)
	d := v.Sourced
	if d == nil || len(d.Fields) != 2 {
		t.Fatalf("Costs and sources shows %+v", d)
	}
	retype(d.Fields[0].Value, "4")
	test.Type(d.Fields[0].Source, "Measured with perf")
	test.Tap(d.Apply)
	cycles, _, err := ed.Costs("Branch")
	viewtest.Must(t, err)
	if cycles != (controller.Sourced{Value: 4, Source: "Measured with perf"}) {
		t.Fatalf("cycles after the dialog: %+v", cycles)
	}
	if v.Cycles.Text != "4" || !strings.Contains(v.Citations.Text, "Measured with perf") {
		t.Errorf("the panel shows %q and sources %q", v.Cycles.Text, v.Citations.Text)
	}

	retype(v.Cycles, "5")
	if !strings.Contains(v.Citations.Text, cost.HandEdited) || strings.Contains(v.Citations.Text, "perf") {
		t.Errorf("after typing 5 the sources say %q", v.Citations.Text)
	}
}

// Start from built-in… makes a new profile of the chosen one under a new name, with nothing
// of the source's own identity or reference data, and every cost cited as taken from it.
func TestStartFromBuiltinDerivesANamedProfile(t *testing.T) {
	ed, v := newTestEditor(t)
	v.commands[cmdBuiltin].Run()
	viewtest.TypeInto(t, v.Window, "e.g.", "Cortex-A53 (from A8)")
	viewtest.TapDialogButton(t, v.Window, "Create")
	p := ed.Profile()
	if p.Name != "Cortex-A53 (from A8)" || p.Organization != "" || !p.Reference.IsZero() || len(p.Categories) == 0 {
		t.Fatalf("derived %q: organization %q, reference %+v, %d categories", p.Name, p.Organization, p.Reference, len(p.Categories))
	}
	if !strings.Contains(v.Citations.Text, "From profile “") {
		t.Errorf("the chosen category's sources do not say where they come from: %q", v.Citations.Text)
	}
	if !strings.Contains(v.Window.Title(), "Cortex-A53 (from A8) •") {
		t.Errorf("title %q", v.Window.Title())
	}
}
