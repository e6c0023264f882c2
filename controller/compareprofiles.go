package controller

import (
	"context"
	"slices"

	"androprof/model/cost"
)

// ByISA prices each instruction set with the profile named for it in chosen (Compare's
// choosers: the Cortex-A8 for ARM beside the MIPS 74K for MIPS), and every other set as
// fallback does. A name no longer listed gives way to fallback too. Each profile is read once;
// the result is for one goroutine.
func (ps Profiles) ByISA(infos []cost.ProfileInfo, chosen map[cost.ISA]string, fallback ProfileFor) ProfileFor {
	open := ps.opener()
	return func(ctx context.Context, isa cost.ISA) (*cost.Profile, error) {
		i := slices.IndexFunc(infos, func(in cost.ProfileInfo) bool { return in.Name == chosen[isa] })
		if i < 0 {
			return fallback(ctx, isa)
		}
		return open(ctx, infos[i])
	}
}

// PricedBy lists the profiles that price isa, by name, in the order of infos: what a chooser
// of a profile for that instruction set offers.
func PricedBy(infos []cost.ProfileInfo, isa cost.ISA) []string {
	var out []string
	for _, in := range infos {
		if isa != "" && infoPrices(in, isa) {
			out = append(out, in.Name)
		}
	}
	return out
}
