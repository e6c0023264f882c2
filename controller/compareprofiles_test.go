package controller

import (
	"context"
	"slices"
	"testing"

	"androprof/model/cost"
)

// Compare's choosers: the instruction set chosen for goes to the profile named, any other to
// the fallback; a name no longer listed gives way to the fallback too.
func TestByISA(t *testing.T) {
	ctx := context.Background()
	ps := Profiles{}
	infos, err := ps.List(ctx)
	if err != nil {
		t.Fatal(err)
	}
	fallback := func(context.Context, cost.ISA) (*cost.Profile, error) { return &cost.Profile{Name: "fallback"}, nil }
	forISA := ps.ByISA(infos, map[cost.ISA]string{cost.MIPS: "MIPS32 Release 2 74K", cost.Thumb: "gone"}, fallback)
	for isa, want := range map[cost.ISA]string{cost.MIPS: "MIPS32 Release 2 74K", cost.ARM: "fallback", cost.Thumb: "fallback"} {
		p, err := forISA(ctx, isa)
		if err != nil || p.Name != want {
			t.Errorf("%s: %v, %v; want %s", isa, p, err, want)
		}
	}
	if got := PricedBy(infos, cost.MIPS); !slices.Equal(got, []string{"MIPS32 Release 2 24K", "MIPS32 Release 2 74K"}) {
		t.Errorf("MIPS is priced by %v", got)
	}
}
