package controller

import (
	"context"
	"slices"

	"androprof/isaprofiles"
	"androprof/model/cost"
)

// ChooseProfile keeps the chosen profile when it prices isa, else takes the first that does
// (an ARM run gets an ARM profile, a MIPS run a MIPS one), else keeps the choice or the first;
// -1 when infos is empty. An empty isa is priced by any profile.
func ChooseProfile(infos []cost.ProfileInfo, chosen string, isa cost.ISA) int {
	idx := slices.IndexFunc(infos, func(in cost.ProfileInfo) bool { return in.Name == chosen })
	prices := func(in cost.ProfileInfo) bool { return isa == "" || slices.Contains(in.ISAs, isa) }
	if idx >= 0 && prices(infos[idx]) {
		return idx
	}
	if i := slices.IndexFunc(infos, prices); i >= 0 {
		return i
	}
	if idx >= 0 {
		return idx
	}
	if len(infos) > 0 {
		return 0
	}
	return -1
}

// ProfileFor gives the profile to price an instruction set with; Compare asks it per item.
type ProfileFor func(ctx context.Context, isa cost.ISA) (*cost.Profile, error)

// Only prices everything with p, whatever the instruction set; the rows' coverage says where
// that is a guess.
func Only(p *cost.Profile) ProfileFor {
	return func(context.Context, cost.ISA) (*cost.Profile, error) { return p, nil }
}

// ForISA keeps chosen for the instruction sets it prices and takes, for any other, that set's
// DefaultProfile, as the window's selection does; a set no profile prices stays with chosen,
// whose coverage then says so. Each profile is read once; the result is for one goroutine.
func (ps Profiles) ForISA(infos []cost.ProfileInfo, chosen *cost.Profile) ProfileFor {
	open := ps.opener(chosen)
	return func(ctx context.Context, isa cost.ISA) (*cost.Profile, error) {
		if isa == "" || chosen.HasISA(isa) {
			return chosen, nil
		}
		i, err := defaultIndex(ctx, infos, isa, open)
		if err != nil || i < 0 {
			return chosen, err
		}
		return open(ctx, infos[i])
	}
}

// Defaults prices each instruction set with its DefaultProfile (the command line's compare
// without --profile). A set no profile prices gets the default of any set, as the window's
// Compare keeps the profile shown: the comparison stands, and that row's warnings say its
// profile does not price it. Each profile is read once; the result is for one goroutine.
func (ps Profiles) Defaults(infos []cost.ProfileInfo) ProfileFor {
	open := ps.opener()
	return func(ctx context.Context, isa cost.ISA) (*cost.Profile, error) {
		i, err := defaultIndex(ctx, infos, isa, open)
		if err == nil && i < 0 {
			return defaultOf(ctx, infos, "", open)
		}
		if err != nil {
			return nil, err
		}
		return open(ctx, infos[i])
	}
}

// openFunc reads a listed profile.
type openFunc func(ctx context.Context, in cost.ProfileInfo) (*cost.Profile, error)

// opener is Open reading each profile once (known ones are taken as read): pricing asks for
// the same few profiles for every item, and the default rule reads every candidate.
func (ps Profiles) opener(known ...*cost.Profile) openFunc {
	read := map[string]*cost.Profile{}
	for _, p := range known {
		read[p.Name] = p
	}
	return func(ctx context.Context, in cost.ProfileInfo) (*cost.Profile, error) {
		if p, ok := read[in.Name]; ok {
			return p, nil
		}
		p, err := ps.Open(ctx, in)
		if err == nil {
			read[in.Name] = p
		}
		return p, err
	}
}

// Open reads a listed profile from where List found it: a built-in by its name, never a file
// or a stored profile that happens to share it.
func (ps Profiles) Open(ctx context.Context, in cost.ProfileInfo) (*cost.Profile, error) {
	if in.Origin == "built-in" {
		return isaprofiles.Builtin(in.Name)
	}
	return ps.Resolve(ctx, in.Name)
}
