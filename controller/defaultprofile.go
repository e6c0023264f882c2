package controller

import (
	"context"
	"fmt"
	"slices"

	"androprof/model/cost"
)

// DefaultProfile is the one rule for the profile a run of isa is priced with until the user
// chooses one, in the window, in Compare and on the command line alike. It reads what the
// profiles carry, never their names: of the profiles in infos that price isa,
//  1. the one with the reference data figure 5.2 needs (a measured CPI and processor power:
//     the Cortex-A8 for ARM and Thumb), else one with any known power (energy rather than
//     "unknown"), else any;
//  2. of equals, the one pricing the fewest instruction sets: a profile made for isa rather
//     than one that prices other sets too;
//  3. of equals still, the first in infos: built-ins by slug (cortex-a55 before cortex-a76),
//     then the workspace's.
//
// An empty isa (a run that executed nothing) takes the default of the first of cost.KnownISAs
// any profile prices. It gives an index into infos, -1 when no profile prices isa.
func (ps Profiles) DefaultProfile(ctx context.Context, infos []cost.ProfileInfo, isa cost.ISA) (int, error) {
	return defaultIndex(ctx, infos, isa, ps.Open)
}

// defaultIndex is DefaultProfile reading the candidates with open.
func defaultIndex(ctx context.Context, infos []cost.ProfileInfo, isa cost.ISA, open openFunc) (int, error) {
	if isa == "" {
		for _, known := range cost.KnownISAs {
			if i, err := defaultIndex(ctx, infos, known, open); err != nil || i >= 0 {
				return i, err
			}
		}
		return -1, nil
	}
	var at []int
	var read []*cost.Profile
	for i, in := range infos {
		if !infoPrices(in, isa) {
			continue
		}
		p, err := open(ctx, in)
		if err != nil {
			return -1, err
		}
		at, read = append(at, i), append(read, p)
	}
	if j := defaultAmong(read, isa); j >= 0 {
		return at[j], nil
	}
	return -1, nil
}

// Default reads the DefaultProfile of isa; without one (no profile prices isa) it says so.
func (ps Profiles) Default(ctx context.Context, infos []cost.ProfileInfo, isa cost.ISA) (*cost.Profile, error) {
	return defaultOf(ctx, infos, isa, ps.opener())
}

// defaultOf is Default reading the profiles with open (each candidate once).
func defaultOf(ctx context.Context, infos []cost.ProfileInfo, isa cost.ISA, open openFunc) (*cost.Profile, error) {
	i, err := defaultIndex(ctx, infos, isa, open)
	if err != nil {
		return nil, err
	}
	if i < 0 {
		return nil, fmt.Errorf("no profile prices %s: import or make one that does", isa)
	}
	return open(ctx, infos[i])
}

// Choose gives the profile to price a run of isa with: chosen (the user's) when it prices isa,
// else DefaultProfile's, else as ChooseProfile (a run no profile prices keeps the choice,
// whose coverage then says so). An empty isa keeps any choice.
func (ps Profiles) Choose(ctx context.Context, infos []cost.ProfileInfo, chosen string, isa cost.ISA) (int, error) {
	if i := slices.IndexFunc(infos, func(in cost.ProfileInfo) bool { return in.Name == chosen }); i >= 0 && infoPrices(infos[i], isa) {
		return i, nil
	}
	if i, err := ps.DefaultProfile(ctx, infos, isa); err != nil || i >= 0 {
		return i, err
	}
	return ChooseProfile(infos, chosen, isa), nil
}

// defaultAmong is DefaultProfile's rule on profiles already read: the index of the one pricing
// isa with the highest defaultRank, of equals the one pricing the fewest sets, of equals still
// the first; -1 when none prices isa.
func defaultAmong(profiles []*cost.Profile, isa cost.ISA) int {
	best := -1
	for i, p := range profiles {
		if !p.HasISA(isa) {
			continue
		}
		if best < 0 || betterDefault(p, profiles[best]) {
			best = i
		}
	}
	return best
}

// betterDefault tells whether p comes before q in DefaultProfile's order (ties keep q, the earlier).
func betterDefault(p, q *cost.Profile) bool {
	if rp, rq := defaultRank(p), defaultRank(q); rp != rq {
		return rp > rq
	}
	return len(p.ISAs) < len(q.ISAs)
}

// defaultRank orders profiles for DefaultProfile: 2 with the reference data the figure 5.2
// calculator needs, 1 with any known power, 0 otherwise.
func defaultRank(p *cost.Profile) int {
	switch {
	case p.Reference.Estimable():
		return 2
	case slices.ContainsFunc(p.Categories, func(c cost.Category) bool { return c.PowerMW > 0 }):
		return 1
	}
	return 0
}

// infoPrices tells whether a listed profile prices isa; any prices "".
func infoPrices(in cost.ProfileInfo, isa cost.ISA) bool {
	return isa == "" || slices.Contains(in.ISAs, isa)
}
