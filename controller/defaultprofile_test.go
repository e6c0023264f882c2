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

// The rule in general: reference data first, then a known power, then the first; the order of
// the list decides among equals; -1 when nothing prices the set.
func TestDefaultAmong(t *testing.T) {
	plain := cost.NewProfile("plain", cost.ARM)
	plain.Categories = []cost.Category{{Name: "ALU", Cycles: 1}}
	powered := cost.NewProfile("powered", cost.ARM)
	powered.Categories = []cost.Category{{Name: "ALU", Cycles: 1, PowerMW: 300}}
	reference := cost.NewProfile("reference", cost.ARM, cost.Thumb)
	reference.Reference = cost.Reference{CPI: 2, ProcessorPowerW: 1}
	mips := cost.NewProfile("mips", cost.MIPS)
	mips.Reference = cost.Reference{CPI: 2, ProcessorPowerW: 1}
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
	} {
		if got := defaultAmong(c.list, c.isa); got != c.want {
			t.Errorf("defaultAmong(%d profiles, %s) = %d, want %d", len(c.list), c.isa, got, c.want)
		}
	}
}
