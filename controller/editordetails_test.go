package controller

import (
	"math"
	"reflect"
	"strings"
	"testing"

	"androprof/model/cost"
)

const a8 = "ARMv7-A Cortex-A8"

// Deriving "Cortex-A53 (from A8)" from the built-in A8 used to keep organization="Cortex-A8",
// the A8's reference CPI and power as the new profile's own, and every cost's citation as if
// measured for it. Now the organization and reference data are not taken, and every cost says
// it was taken from the A8, as an estimate.
func TestDeriveFromBuiltinKeepsNoFalseProvenance(t *testing.T) {
	ed := NewEditor()
	must(t, ed.DeriveFromBuiltin(a8, "Cortex-A53 (from A8)"))
	p := ed.Profile()
	refCites := 0
	for _, f := range cost.ReferenceFields {
		refCites += len(cost.CitationsOf(p.Citations, f.Key))
	}
	if p.Name != "Cortex-A53 (from A8)" || p.Organization != "" || !p.Reference.IsZero() || refCites != 0 {
		t.Fatalf("derived profile %q keeps organization %q, reference %+v, %d reference citations",
			p.Name, p.Organization, p.Reference, refCites)
	}
	if p.Architecture != "ARMv7-A" || !strings.Contains(p.Source, a8) {
		t.Errorf("architecture %q, source %q: want ARMv7-A and a source naming %s", p.Architecture, p.Source, a8)
	}
	alu := p.Category("Integer ALU")
	if alu == nil || alu.Cycles != 1.75 || len(alu.Instructions) == 0 {
		t.Fatalf("Integer ALU not taken as it was: %+v", alu)
	}
	for _, c := range append(append([]cost.Category(nil), p.Categories...), p.Undefined) {
		for _, ci := range c.Citations {
			if !ci.Estimate || !strings.HasPrefix(ci.Text, "From profile “"+a8+"”: ") {
				t.Errorf("category %q cites %s as %+v", c.Name, ci.Cost, ci)
			}
		}
	}
	if p.Memory.IsZero() {
		t.Error("the A8's memory hierarchy was not taken")
	}
	for _, l := range p.Memory.Levels { // Derive dropped their citations, leaving them uncited
		cites := cost.CitationsOf(p.Citations, l.Name)
		if len(cites) != 1 || !cites[0].Estimate || !strings.HasPrefix(cites[0].Text, "From profile “"+a8+"”: ") {
			t.Errorf("level %s cites %+v", l.Name, cites)
		}
	}
	if !ed.Dirty() || ed.Path() != "" {
		t.Errorf("a derived profile is dirty %v with path %q, want unsaved and no file", ed.Dirty(), ed.Path())
	}
}

// cycles="1" used to keep citing "…mean of the 4 = 1.75" with estimate="false". A changed cost
// now cites "edited by hand" as an estimate, and typing the old number back restores its source.
func TestChangedCostLosesItsSource(t *testing.T) {
	ed := NewEditor()
	must(t, ed.OpenBuiltin(a8))
	orig := ed.Profile().Clone().Category("Integer ALU")
	for _, typed := range []float64{1, 17} { // every keystroke is applied
		must(t, ed.SetCosts("Integer ALU", typed, orig.PowerMW))
	}
	got, _, err := ed.Costs("Integer ALU")
	must(t, err)
	if got.Value != 17 || got.Source != cost.HandEdited || !got.Estimate {
		t.Fatalf("after typing 17 cycles: %+v, want the hand-edited estimate", got)
	}
	if power := cost.CitationsOf(ed.Profile().Category("Integer ALU").Citations, cost.PowerCost); !reflect.DeepEqual(power, cost.CitationsOf(orig.Citations, cost.PowerCost)) {
		t.Errorf("the unchanged power lost its source: %+v", power)
	}
	must(t, ed.SetCosts("Integer ALU", 1.75, orig.PowerMW))
	if c := ed.Profile().Category("Integer ALU"); !reflect.DeepEqual(cost.CitationsOf(c.Citations, cost.CyclesCost), cost.CitationsOf(orig.Citations, cost.CyclesCost)) {
		t.Errorf("typing 1.75 back did not restore its source: %+v", c.Citations)
	}
}

// A new cost can come with its own source and estimate flag, which are kept as written.
func TestSetSourcedCostsKeepsWhatTheUserWrote(t *testing.T) {
	ed := NewEditor()
	must(t, ed.OpenBuiltin(a8))
	_, power, err := ed.Costs("Integer ALU")
	must(t, err)
	cycles := Sourced{Value: 1, Source: "Cortex-A53 TRM r0p4, table 3-2", Estimate: false}
	must(t, ed.SetSourcedCosts("Integer ALU", cycles, power))
	got, gotPower, err := ed.Costs("Integer ALU")
	must(t, err)
	if got != cycles || gotPower != power {
		t.Fatalf("costs %+v and %+v, want %+v and the power unchanged %+v", got, gotPower, cycles, power)
	}
	if err := ed.SetSourcedCosts("Integer ALU", Sourced{Value: -1}, power); err == nil {
		t.Error("a negative cost was accepted")
	}
}

// The details' reference numbers follow the same rule; a number cleared to unknown cites nothing.
func TestSetDetailsChangedNumberLosesSource(t *testing.T) {
	ed := NewEditor()
	must(t, ed.OpenBuiltin(a8))
	d := ed.Details()
	cpi, freq := fieldIndex(t, "cpi"), fieldIndex(t, "frequency-ghz")
	d.Reference[cpi].Value = 1.2
	d.Reference[freq] = Sourced{}
	must(t, ed.SetDetails(d))
	got := ed.Details()
	if got.Reference[cpi] != (Sourced{Value: 1.2, Source: cost.HandEdited, Estimate: true}) {
		t.Errorf("changed CPI: %+v", got.Reference[cpi])
	}
	if got.Reference[freq] != (Sourced{}) {
		t.Errorf("cleared frequency: %+v, want unknown with no source", got.Reference[freq])
	}
	for _, bad := range []Details{
		withRef(ed.Details(), cpi, -1), withRef(ed.Details(), cpi, math.NaN()),
		{Architecture: "ARMv8-A\nAArch32", Reference: ed.Details().Reference},
	} {
		if err := ed.SetDetails(bad); err == nil {
			t.Errorf("SetDetails(%+v) was accepted", bad)
		}
	}
}

// Every metadata field survives save → reopen.
func TestDetailsRoundTrip(t *testing.T) {
	ed := NewEditor()
	must(t, ed.NewProfile("A53", cost.ARM))
	d := ed.Details()
	d.Architecture, d.Organization, d.Source = "ARMv8-A", "Cortex-A53", "Measured on a Raspberry Pi 3 & friends"
	for i := range d.Reference {
		d.Reference[i] = Sourced{Value: float64(i) + 0.5, Source: "source " + cost.ReferenceFields[i].Key, Estimate: i%2 == 0}
	}
	must(t, ed.SetDetails(d))
	if got := reopen(t, ed).Details(); !reflect.DeepEqual(got, d) {
		t.Fatalf("after save and reopen:\n got %+v\nwant %+v", got, d)
	}
}

func fieldIndex(t *testing.T, key string) int {
	for i, f := range cost.ReferenceFields {
		if f.Key == key {
			return i
		}
	}
	t.Fatalf("no reference field %q", key)
	return -1
}

func withRef(d Details, i int, v float64) Details {
	d.Reference[i].Value = v
	return d
}
