package controller

import (
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"androprof/isaprofiles"
	"androprof/model/cost"
)

// a8Memory is a Cortex-A8-like hierarchy with a machine model, every part cited.
func a8Memory() Memory {
	lvl := func(name string, size int64, ways, line int, miss float64) MemoryLevel {
		return MemoryLevel{cost.CacheLevel{Name: name, SizeBytes: size, Ways: ways, LineBytes: line,
			Replacement: cost.Random, WriteAllocate: name != cost.L1D, MissCycles: miss, AccessEnergyNJ: 0.1},
			Cite{Source: "Cortex-A8 TRM r3p2, " + name, Estimate: false}}
	}
	return Memory{
		Levels:       []MemoryLevel{lvl(cost.L1I, 32<<10, 4, 64, 13), lvl(cost.L1D, 32<<10, 4, 64, 13), lvl(cost.L2, 256<<10, 8, 64, 25)},
		Pipeline:     cost.PipelineModel{Tool: "llvm-mca-16", CPU: "cortex-a8"},
		PipelineCite: Cite{Source: "LLVM's Cortex-A8 scheduling model", Estimate: true},
	}
}

func memoryEditor(t *testing.T) *Editor {
	t.Helper()
	ed := NewEditor()
	must(t, ed.NewProfile("A8 memory", cost.ARM, cost.Thumb))
	return ed
}

// A profile without a hierarchy says it prices without memory stalls; with one it no longer does.
func TestProfileWithoutHierarchySaysSo(t *testing.T) {
	ed := memoryEditor(t)
	if notes := ed.Memory().HierarchyNotes(); !slices.Equal(notes, []string{NoMemoryHierarchy}) || ed.Memory().ModelNote() != NoMachineModel {
		t.Fatalf("a new profile's notes: %q, %q", notes, ed.Memory().ModelNote())
	}
	must(t, ed.SetMemory(a8Memory()))
	if notes := ed.Memory().HierarchyNotes(); len(notes) != 0 || ed.Memory().ModelNote() != "" {
		t.Errorf("a profile with every number says %q, %q", notes, ed.Memory().ModelNote())
	}
	m := a8Memory()
	m.Levels[2].MissCycles = 0
	must(t, ed.SetMemory(m))
	if notes := ed.Memory().HierarchyNotes(); len(notes) != 1 || !strings.Contains(notes[0], "unknown at l2") {
		t.Errorf("L2's miss cycles unknown: notes %q", notes)
	}
}

// SetMemory stores every number of every level, and the model, with their sources.
func TestSetMemoryKeepsWhatTheUserWrote(t *testing.T) {
	ed := memoryEditor(t)
	must(t, ed.SaveAs(filepath.Join(t.TempDir(), "a8.xml")))
	must(t, ed.SetMemory(a8Memory()))
	if got := ed.Memory(); !reflect.DeepEqual(got, a8Memory()) {
		t.Fatalf("after SetMemory:\n got %+v\nwant %+v", got, a8Memory())
	}
	if !ed.Dirty() {
		t.Error("a new hierarchy left the profile unmodified")
	}
	must(t, ed.Save())
	must(t, ed.SetMemory(ed.Memory()))
	if ed.Dirty() {
		t.Error("setting the same hierarchy marked the profile modified")
	}
}

// A malformed geometry is refused with CacheGeometry.Validate's message, and nothing changes.
func TestSetMemoryRefusesInvalidGeometry(t *testing.T) {
	ed := memoryEditor(t)
	must(t, ed.SetMemory(a8Memory()))
	before := ed.Profile().Clone()
	for _, c := range []struct {
		change func(*Memory)
		want   string
	}{
		{func(m *Memory) { m.Levels[1].LineBytes = 48 }, "cache level l1d: line size 48 bytes is not a power of two"},
		{func(m *Memory) { m.Levels[2].SizeBytes = 32 }, "cache level l2: size 32 bytes is smaller than a line"},
		{func(m *Memory) { m.Levels[0].Ways = 1024 }, "cache level l1i: associativity 1024"},
		{func(m *Memory) { m.Levels = m.Levels[:2] }, "no l2"},
		{func(m *Memory) { m.Levels[2].MissCycles = -1 }, "cache level l2"},
		{func(m *Memory) { m.Pipeline.CPU = "cortex a8" }, `CPU "cortex a8"`},
		{func(m *Memory) { m.Pipeline.Tool = "gcc" }, `tool "gcc"`},
	} {
		m := a8Memory()
		c.change(&m)
		err := ed.SetMemory(m)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("got %v, want an error saying %q", err, c.want)
		}
	}
	if !reflect.DeepEqual(ed.Profile().Clone(), before) {
		t.Error("a refused hierarchy changed the profile")
	}
}

// A level changed under its unchanged source cites "edited by hand" (the source described the
// old numbers); the other levels keep theirs; a new source typed with the change is kept.
func TestChangedLevelLosesItsSource(t *testing.T) {
	ed := memoryEditor(t)
	must(t, ed.SetMemory(a8Memory()))
	m := ed.Memory()
	m.Levels[2].MissCycles = 30
	m.Levels[1].SizeBytes = 16 << 10
	m.Levels[1].Cite = Cite{Source: "measured with lmbench"}
	must(t, ed.SetMemory(m))
	got := ed.Memory()
	if got.Levels[2].Cite != (Cite{cost.HandEdited, true}) || got.Levels[2].MissCycles != 30 {
		t.Errorf("l2 after changing its miss cycles: %+v", got.Levels[2])
	}
	if got.Levels[1].Cite != (Cite{Source: "measured with lmbench"}) {
		t.Errorf("l1d with its own new source: %+v", got.Levels[1].Cite)
	}
	if got.Levels[0].Cite != a8Memory().Levels[0].Cite || got.PipelineCite != a8Memory().PipelineCite {
		t.Errorf("unchanged parts lost their sources: %+v, %+v", got.Levels[0].Cite, got.PipelineCite)
	}
	m = got
	m.Pipeline.CPU = "cortex-a9"
	must(t, ed.SetMemory(m))
	if c := ed.Memory().PipelineCite; c != (Cite{cost.HandEdited, true}) {
		t.Errorf("another -mcpu under the same source cites %+v", c)
	}
}

// L3 comes and goes with its citation; a level added without a source says it was typed by
// hand; clearing the CPU clears the machine model and its citation.
func TestAddRemoveL3AndClearModel(t *testing.T) {
	ed := memoryEditor(t)
	must(t, ed.SetMemory(a8Memory()))
	m := ed.AddL3(ed.Memory())
	if len(m.Levels) != 4 || m.Levels[3].Name != cost.L3 {
		t.Fatalf("AddL3 gave %+v", m.Levels)
	}
	m.Levels[3].CacheLevel = cost.CacheLevel{Name: cost.L3, SizeBytes: 2 << 20, Ways: 16, LineBytes: 64, Replacement: cost.LRU, WriteAllocate: true}
	m.Levels[3].Cite = Cite{}
	must(t, ed.SetMemory(m))
	if c := ed.Memory().Levels[3].Cite; c != (Cite{cost.HandEdited, true}) {
		t.Errorf("an L3 typed with no source cites %+v", c)
	}
	m = ed.Memory().WithoutL3()
	m.Pipeline = cost.PipelineModel{Tool: "llvm-mca-16"}
	must(t, ed.SetMemory(m))
	p := ed.Profile()
	if len(p.Memory.Levels) != 3 || len(cost.CitationsOf(p.Citations, cost.L3)) != 0 {
		t.Errorf("after removing L3: levels %+v, citations %+v", p.Memory.Levels, p.Citations)
	}
	if !p.Pipeline.IsZero() || p.Pipeline.Tool != "" || len(cost.CitationsOf(p.Citations, cost.PipelineCost)) != 0 {
		t.Errorf("after clearing the CPU: model %+v, citations %+v", p.Pipeline, p.Citations)
	}
	must(t, ed.SetMemory(ed.Memory().WithoutHierarchy()))
	if !p.Memory.IsZero() || len(p.Citations) != 0 {
		t.Errorf("after removing the hierarchy: %+v, citations %+v", p.Memory, p.Citations)
	}
}

// A new hierarchy is taken from a built-in core of the same instruction set (the profile's own
// core where there is one), cited as taken from it; changed before it is applied, it cites
// "edited by hand". With no built-in to take it from it is blank, and cannot be applied blank.
func TestAddHierarchyStartsFromABuiltinOrNothing(t *testing.T) {
	ed := memoryEditor(t)
	d := ed.Details()
	d.Organization = "Cortex-A8"
	must(t, ed.SetDetails(d))
	m := ed.AddHierarchy(ed.Memory())
	if len(m.Levels) != 3 || m.Levels[0].Name != cost.L1I || m.Levels[1].Name != cost.L1D || m.Levels[2].Name != cost.L2 {
		t.Fatalf("AddHierarchy gave %+v", m.Levels)
	}
	a8, err := isaprofiles.Builtin("cortex-a8")
	must(t, err)
	for i, l := range m.Levels {
		if l.CacheLevel != a8.Memory.Levels[i] || !l.Estimate || !strings.HasPrefix(l.Source, "From profile “"+a8.Name+"”: ") {
			t.Errorf("level %s is not the A8's, cited as taken from it: %+v", l.Name, l)
		}
	}
	m.Levels[2].MissCycles++
	must(t, ed.SetMemory(m))
	got := ed.Memory()
	if got.Levels[2].Cite != (Cite{cost.HandEdited, true}) || got.Levels[0].Cite != m.Levels[0].Cite {
		t.Errorf("after changing the taken L2: L2 cites %+v, L1I %+v", got.Levels[2].Cite, got.Levels[0].Cite)
	}

	must(t, ed.NewProfile("MIPS", cost.MIPS))
	m = ed.AddHierarchy(ed.Memory())
	for _, l := range m.Levels {
		if l.SizeBytes != 0 || l.Ways != 0 || l.LineBytes != 0 || l.Source != "" {
			t.Errorf("with no built-in MIPS hierarchy, %s starts as %+v", l.Name, l)
		}
	}
	if err := ed.SetMemory(m); err == nil || !strings.Contains(err.Error(), "cache level l1i") {
		t.Errorf("a blank hierarchy: %v", err)
	}
}

// A profile derived from another keeps its hierarchy and model cited as taken from it.
func TestDerivedHierarchyIsCitedAsBorrowed(t *testing.T) {
	ed := memoryEditor(t)
	must(t, ed.SetMemory(a8Memory()))
	from := ed.Profile()
	d := from.Derive("A9 (from A8)")
	for _, key := range []string{cost.L1I, cost.L1D, cost.L2, cost.PipelineCost} {
		cites := cost.CitationsOf(d.Citations, key)
		if len(cites) != 1 || !cites[0].Estimate || !strings.HasPrefix(cites[0].Text, "From profile “A8 memory”: ") {
			t.Errorf("%s cites %+v", key, cites)
		}
	}
}

// The hierarchy, the model and their sources survive save → reopen through the profile file.
func TestMemoryRoundTrip(t *testing.T) {
	ed := memoryEditor(t)
	m := ed.AddL3(a8Memory())
	m.Levels[3] = MemoryLevel{cost.CacheLevel{Name: cost.L3, SizeBytes: 4 << 20, Ways: 16, LineBytes: 64,
		Replacement: cost.PLRU, WriteAllocate: false, MissCycles: 120.5}, Cite{Source: "a guess & more", Estimate: true}}
	must(t, ed.SetMemory(m))
	if got := reopen(t, ed).Memory(); !reflect.DeepEqual(got, m) {
		t.Fatalf("after save and reopen:\n got %+v\nwant %+v", got, m)
	}
}

// The A8 has no machine model and cites why (LLVM has none); the editor keeps that citation,
// and a source written for "no model" is kept too.
func TestNoModelKeepsItsReason(t *testing.T) {
	ed := NewEditor()
	must(t, ed.OpenBuiltin(a8))
	why := ed.Memory().PipelineCite
	if !ed.Profile().Pipeline.IsZero() || !strings.Contains(why.Source, "No machine model") {
		t.Fatalf("the A8's model %+v cites %+v", ed.Profile().Pipeline, why)
	}
	must(t, ed.SetMemory(ed.Memory()))
	if got := ed.Memory().PipelineCite; got != why || ed.Dirty() {
		t.Errorf("unchanged, the reason became %+v (dirty %v)", got, ed.Dirty())
	}
	m := ed.Memory()
	m.PipelineCite = Cite{Source: "none fits"}
	must(t, ed.SetMemory(m))
	if got := ed.Memory().PipelineCite; got != m.PipelineCite {
		t.Errorf("a new reason became %+v", got)
	}
}

// reopen saves ed's profile to a new file and opens it in another editor.
func reopen(t *testing.T, ed *Editor) *Editor {
	t.Helper()
	path := filepath.Join(t.TempDir(), "reopened.xml")
	must(t, ed.SaveAs(path))
	again := NewEditor()
	must(t, again.Open(path))
	return again
}
