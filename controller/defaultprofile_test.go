package controller

import (
	"context"
	"testing"

	"androprof/model"
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
		isa  model.ISA
		want string
	}{
		{model.ARM, "ARMv7-A Cortex-A8"}, {model.Thumb, "ARMv7-A Cortex-A8"},
		{model.MIPS, "MIPS32 Release 2 74K"}, {"", "ARMv7-A Cortex-A8"},
	} {
		if got := name(ps.DefaultProfile(ctx, infos, c.isa)); got != c.want {
			t.Errorf("default for %q: %s, want %s", c.isa, got, c.want)
		}
	}
	for _, c := range []struct {
		chosen string
		isa    model.ISA
		want   string
	}{
		{"ARMv7-A Cortex-A9", model.ARM, "ARMv7-A Cortex-A9"},        // the choice prices the run: it stands
		{"ARMv7-A Cortex-A9", model.MIPS, "MIPS32 Release 2 74K"},    // it does not: the default for MIPS
		{"MIPS32 Release 2 24K", model.MIPS, "MIPS32 Release 2 24K"}, // a choice without power stands too
		{"", model.ARM, "ARMv7-A Cortex-A8"},
		{"no such profile", model.Thumb, "ARMv7-A Cortex-A8"},
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
	for isa, want := range map[model.ISA]string{model.ARM: "ARMv7-A Cortex-A9", model.MIPS: "MIPS32 Release 2 74K"} {
		if p, err := forISA(ctx, isa); err != nil || p.Name != want {
			t.Errorf("ForISA(A9)(%s) = %v, %v; want %s", isa, p, err, want)
		}
	}
}

// The rule in general: reference data first, then a known power, then the first; the order of
// the list decides among equals; -1 when nothing prices the set.
func TestDefaultAmong(t *testing.T) {
	plain := model.NewProfile("plain", model.ARM)
	plain.Categories = []model.Category{{Name: "ALU", Cycles: 1}}
	powered := model.NewProfile("powered", model.ARM)
	powered.Categories = []model.Category{{Name: "ALU", Cycles: 1, PowerMW: 300}}
	reference := model.NewProfile("reference", model.ARM, model.Thumb)
	reference.Reference = model.Reference{CPI: 2, ProcessorPowerW: 1}
	mips := model.NewProfile("mips", model.MIPS)
	mips.Reference = model.Reference{CPI: 2, ProcessorPowerW: 1}
	for _, c := range []struct {
		list []*model.Profile
		isa  model.ISA
		want int
	}{
		{[]*model.Profile{plain, powered, reference}, model.ARM, 2},
		{[]*model.Profile{mips, plain, powered}, model.ARM, 2},
		{[]*model.Profile{plain, mips}, model.ARM, 0},
		{[]*model.Profile{plain, powered}, model.MIPS, -1},
		{[]*model.Profile{plain, reference}, model.Thumb, 1},
		{nil, model.ARM, -1},
	} {
		if got := defaultAmong(c.list, c.isa); got != c.want {
			t.Errorf("defaultAmong(%d profiles, %s) = %d, want %d", len(c.list), c.isa, got, c.want)
		}
	}
}
