package controller

import (
	"context"
	"testing"

	"androprof/model/cost"
)

// The one default rule the window and the command line share: an ARM or Thumb run gets the
// Cortex-A8 (the seed's reference data), a MIPS run the 74K (the MIPS profile with a power);
// a choice that prices the run stands.
func TestDefaultProfile(t *testing.T) {
	ctx := context.Background()
	var ps Profiles
	infos, err := ps.List(ctx)
	if err != nil {
		t.Fatal(err)
	}
	name := func(i int, err error) string {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
		if i < 0 {
			return "(none)"
		}
		return infos[i].Name
	}
	for _, c := range []struct {
		isa  cost.ISA
		want string
	}{
		{cost.ARM, "ARMv7-A Cortex-A8"}, {cost.Thumb, "ARMv7-A Cortex-A8"},
		{cost.MIPS, "MIPS32 Release 2 74K"}, {"", "ARMv7-A Cortex-A8"},
	} {
		if got := name(ps.DefaultProfile(ctx, infos, c.isa)); got != c.want {
			t.Errorf("default for %q: %s, want %s", c.isa, got, c.want)
		}
	}
	for _, c := range []struct {
		chosen string
		isa    cost.ISA
		want   string
	}{
		{"ARMv7-A Cortex-A9", cost.ARM, "ARMv7-A Cortex-A9"},        // the choice prices the run: it stands
		{"ARMv7-A Cortex-A9", cost.MIPS, "MIPS32 Release 2 74K"},    // it does not: the default for MIPS
		{"MIPS32 Release 2 24K", cost.MIPS, "MIPS32 Release 2 24K"}, // a choice without power stands too
		{"", cost.ARM, "ARMv7-A Cortex-A8"},
		{"no such profile", cost.Thumb, "ARMv7-A Cortex-A8"},
	} {
		if got := name(ps.Choose(ctx, infos, c.chosen, c.isa)); got != c.want {
			t.Errorf("Choose(%q, %s) = %s, want %s", c.chosen, c.isa, got, c.want)
		}
	}
	// Compare prices an item of another instruction set with that set's default.
	a9, err := ps.Resolve(ctx, "cortex-a9")
	if err != nil {
		t.Fatal(err)
	}
	forISA := ps.ForISA(infos, a9)
	for isa, want := range map[cost.ISA]string{cost.ARM: "ARMv7-A Cortex-A9", cost.MIPS: "MIPS32 Release 2 74K"} {
		if p, err := forISA(ctx, isa); err != nil || p.Name != want {
			t.Errorf("ForISA(A9)(%s) = %v, %v; want %s", isa, p, err, want)
		}
	}
}

// The rule in general: reference data first, then a known power, then the profile pricing the
// fewest sets, then the first; -1 when nothing prices the set.
func TestDefaultAmong(t *testing.T) {
	plain := cost.NewProfile("plain", cost.ARM)
	plain.Categories = []cost.Category{{Name: "ALU", Cycles: 1}}
	powered := cost.NewProfile("powered", cost.ARM)
	powered.Categories = []cost.Category{{Name: "ALU", Cycles: 1, PowerMW: 300}}
	reference := cost.NewProfile("reference", cost.ARM, cost.Thumb)
	reference.Reference = cost.Reference{CPI: 2, ProcessorPowerW: 1}
	mips := cost.NewProfile("mips", cost.MIPS)
	mips.Reference = cost.Reference{CPI: 2, ProcessorPowerW: 1}
	wide := cost.NewProfile("wide", cost.ARM, cost.Thumb, cost.AArch64) // an ARMv8 core pricing AArch32 too
	wide.Reference = cost.Reference{CPI: 1.5, ProcessorPowerW: 0.5}
	little := cost.NewProfile("little", cost.AArch64)
	little.Reference = cost.Reference{CPI: 1.2, ProcessorPowerW: 0.3}
	big := cost.NewProfile("big", cost.AArch64)
	big.Reference = cost.Reference{CPI: 0.8, ProcessorPowerW: 2}
	for _, c := range []struct {
		list []*cost.Profile
		isa  cost.ISA
		want int
	}{
		{[]*cost.Profile{plain, powered, reference}, cost.ARM, 2},
		{[]*cost.Profile{mips, plain, powered}, cost.ARM, 2},
		{[]*cost.Profile{plain, mips}, cost.ARM, 0},
		{[]*cost.Profile{plain, powered}, cost.MIPS, -1},
		{[]*cost.Profile{plain, reference}, cost.Thumb, 1},
		{nil, cost.ARM, -1},
		{[]*cost.Profile{wide, reference}, cost.ARM, 1}, // of equals, the one made for the set
		{[]*cost.Profile{wide, reference}, cost.AArch64, 0},
		{[]*cost.Profile{wide, little, big}, cost.AArch64, 1}, // of equals still, the first
		{[]*cost.Profile{plain, wide}, cost.ARM, 1},           // a better rank beats a narrower profile
	} {
		if got := defaultAmong(c.list, c.isa); got != c.want {
			t.Errorf("defaultAmong(%d profiles, %s) = %d, want %d", len(c.list), c.isa, got, c.want)
		}
	}
}

// The rule reads what profiles carry, not their names: with AArch64 and x86-64 cores listed
// (as the built-ins are, by slug), each set gets a profile of its own with reference data
// where one has it, an ARMv8 core that prices AArch32 too does not take ARM from the
// Cortex-A8, and a run that executed nothing still gets ARM's default, not the first listed.
func TestDefaultProfileByISAs(t *testing.T) {
	ctx := context.Background()
	mk := func(name string, ref bool, isas ...cost.ISA) *cost.Profile {
		p := cost.NewProfile(name, isas...)
		p.Categories = []cost.Category{{Name: "ALU", Cycles: 1}}
		if ref {
			p.Reference = cost.Reference{FrequencyGHz: 2, CPI: 1.1, ProcessorPowerW: 0.4}
		}
		return p
	}
	list := []*cost.Profile{ // in the order List gives the built-ins: by slug
		mk("atom", false, cost.X86_64), mk("a55", true, cost.ARM, cost.Thumb, cost.AArch64), mk("a76", true, cost.AArch64),
		mk("a8", true, cost.ARM, cost.Thumb), mk("mips", false, cost.MIPS), mk("zen", true, cost.X86_64),
	}
	infos := make([]cost.ProfileInfo, len(list))
	byName := map[string]*cost.Profile{}
	for i, p := range list {
		infos[i] = cost.ProfileInfo{Name: p.Name, ISAs: p.ISAs, Origin: "built-in"}
		byName[p.Name] = p
	}
	open := func(_ context.Context, in cost.ProfileInfo) (*cost.Profile, error) { return byName[in.Name], nil }
	for isa, want := range map[cost.ISA]string{cost.ARM: "a8", cost.Thumb: "a8", cost.AArch64: "a76",
		cost.X86_64: "zen", cost.MIPS: "mips", "": "a8"} {
		i, err := defaultIndex(ctx, infos, isa, open)
		if err != nil || i < 0 || infos[i].Name != want {
			t.Errorf("default for %q: %d (%v), want %s", isa, i, err, want)
		}
	}
}
