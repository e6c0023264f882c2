package controller

import (
	"context"
	"slices"
	"testing"

	"androprof/model"
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
	fallback := func(context.Context, model.ISA) (*model.Profile, error) { return &model.Profile{Name: "fallback"}, nil }
	forISA := ps.ByISA(infos, map[model.ISA]string{model.MIPS: "MIPS32 Release 2 74K", model.Thumb: "gone"}, fallback)
	for isa, want := range map[model.ISA]string{model.MIPS: "MIPS32 Release 2 74K", model.ARM: "fallback", model.Thumb: "fallback"} {
		p, err := forISA(ctx, isa)
		if err != nil || p.Name != want {
			t.Errorf("%s: %v, %v; want %s", isa, p, err, want)
		}
	}
	if got := PricedBy(infos, model.MIPS); !slices.Equal(got, []string{"MIPS32 Release 2 24K", "MIPS32 Release 2 74K"}) {
		t.Errorf("MIPS is priced by %v", got)
	}
}
