package controller

import (
	"context"
	"errors"
	"fmt"
	"os"

	"androprof/emulator"
	"androprof/isaprofiles"
	"androprof/model/cost"
)

// ProfileStore is what the controllers need from the database.
type ProfileStore interface {
	SaveProfile(ctx context.Context, p *cost.Profile) error
	Profile(ctx context.Context, name string) (*cost.Profile, error)
	Profiles(ctx context.Context) ([]cost.ProfileInfo, error)
	DeleteProfile(ctx context.Context, name string) error
}

// Profiles finds profiles wherever a user may mean them: a file, the database, or built in.
type Profiles struct {
	store ProfileStore
}

// Resolve reads ref as a file when one exists at that path, else as a name stored in the
// database, else as a built-in profile.
func (ps Profiles) Resolve(ctx context.Context, ref string) (*cost.Profile, error) {
	if st, err := os.Stat(ref); err == nil && !st.IsDir() {
		return isaprofiles.ReadFile(ref)
	}
	if ps.store != nil {
		p, err := ps.store.Profile(ctx, ref)
		if err == nil {
			return p, nil
		}
		if !errors.Is(err, cost.ErrNotFound) {
			return nil, err
		}
	}
	p, err := isaprofiles.Builtin(ref)
	if err != nil {
		return nil, fmt.Errorf("%q is neither a profile file, a profile in the database, nor a built-in profile", ref)
	}
	return p, nil
}

// List gives the built-in profiles followed by the stored ones.
func (ps Profiles) List(ctx context.Context) ([]cost.ProfileInfo, error) {
	var out []cost.ProfileInfo
	for _, name := range isaprofiles.BuiltinNames() {
		p, err := isaprofiles.Builtin(name)
		if err != nil {
			return nil, err
		}
		out = append(out, cost.ProfileInfo{Name: p.Name, Architecture: p.Architecture, Organization: p.Organization,
			ISAs: p.ISAs, Categories: len(p.Categories), Origin: "built-in"})
	}
	if ps.store != nil {
		stored, err := ps.store.Profiles(ctx)
		if err != nil {
			return nil, err
		}
		for _, s := range stored {
			s.Origin = "database"
			out = append(out, s)
		}
	}
	return out, nil
}

// BuiltinNames lists the profiles built into the program, for the editor's Open built-in menu.
func (Profiles) BuiltinNames() []string { return isaprofiles.BuiltinNames() }

// CanKeep says whether profiles can be kept in a workspace database (there is one).
func (ps Profiles) CanKeep() bool { return ps.store != nil }

// Keep saves p in the workspace database under its name, replacing one of that name.
func (ps Profiles) Keep(ctx context.Context, p *cost.Profile) error {
	if ps.store == nil {
		return errors.New("this session has no workspace database to keep profiles in")
	}
	return ps.store.SaveProfile(ctx, p)
}

// Import reads a profile file and keeps it in the database under its own name.
func (ps Profiles) Import(ctx context.Context, path string) (*cost.Profile, error) {
	p, err := isaprofiles.ReadFile(path)
	if err != nil {
		return nil, err
	}
	if err := ps.store.SaveProfile(ctx, p); err != nil {
		return nil, err
	}
	return p, nil
}

// Categorized is one instruction seen in logs, with the category a profile gives it.
type Categorized struct {
	emulator.InsnCount
	Category string
}

// Categorize counts the instructions in QEMU logs and classifies each with the profile.
func Categorize(ctx context.Context, p *cost.Profile, logs []string, progress func(done, total int64)) ([]Categorized, error) {
	counts, err := emulator.CountLogInstructions(ctx, logs, p.ISAs, progress)
	if err != nil {
		return nil, err
	}
	cl := cost.NewClassifier(p)
	out := make([]Categorized, len(counts))
	for i, c := range counts {
		out[i] = Categorized{InsnCount: c, Category: cl.Classify(c.Instruction).Name}
	}
	return out, nil
}
