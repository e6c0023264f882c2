package cli

import (
	"context"
	"fmt"
	"strings"

	"androprof/controller"
	"androprof/model/cost"
)

// cacheFlag is run's --cache: bare, the profile's hierarchy (--profile's, else the default
// profile of the program's instruction set); --cache=SPEC, a geometry given by hand. It is a
// boolean flag to the flag package, so both forms parse and a bare --cache never swallows the
// program's name.
type cacheFlag struct {
	set  bool
	spec string             // "" with a bare --cache
	g    cost.CacheGeometry // SPEC, parsed as it is set
	err  error              // what is wrong with SPEC: the command stops before anything runs
}

func (c *cacheFlag) String() string { return c.spec }

// IsBoolFlag lets --cache stand alone.
func (c *cacheFlag) IsBoolFlag() bool { return true }

func (c *cacheFlag) Set(s string) error {
	switch strings.ToLower(s) {
	case "true":
		c.set, c.spec = true, ""
	case "false":
		c.set, c.spec = false, ""
	default: // the flag package would call a refusal here an "invalid boolean value"
		c.set, c.spec = true, s
		c.g, c.err = cost.ParseCacheGeometry(s)
	}
	return nil
}

// takeSpec reads a geometry written after a bare --cache with a space (`--cache l1i=32k:4:64,…`):
// a program is not named LEVEL=…. It refuses a malformed geometry, naming the level and the part.
func (c *cacheFlag) takeSpec(prog []string) ([]string, error) {
	if c.set && c.spec == "" && len(prog) > 1 && looksLikeGeometry(prog[0]) {
		c.Set(prog[0])
		prog = prog[1:]
	}
	if c.err != nil {
		return nil, fmt.Errorf("%w: --cache: %v", errUsage, c.err)
	}
	return prog, nil
}

func looksLikeGeometry(s string) bool {
	name, _, ok := strings.Cut(strings.ToLower(s), "=")
	return ok && (name == cost.L1I || name == cost.L1D || name == cost.L2 || name == cost.L3)
}

// geometry is the hierarchy to simulate and where it came from, or nil when --cache was not
// given. A profile without a hierarchy is refused by name, with how to give one by hand.
func (c *cacheFlag) geometry(ctx context.Context, profiles controller.Profiles, profile, program, arch string) (*cost.CacheGeometry, string, error) {
	if !c.set {
		return nil, "", nil
	}
	if c.spec != "" {
		g := c.g
		return &g, "--cache", nil
	}
	p, err := programProfile(ctx, profiles, profile, program, arch)
	if err != nil {
		return nil, "", err
	}
	if p.Memory.IsZero() {
		return nil, "", fmt.Errorf("%w: --cache: profile %s has no memory hierarchy; give one with --cache=l1i=32k:4:64,l1d=32k:4:64,l2=512k:8:64", errUsage, p.Name)
	}
	g := p.Memory.Geometry()
	if err := g.Validate(); err != nil {
		return nil, "", fmt.Errorf("profile %s: %w", p.Name, err)
	}
	return &g, "profile " + p.Name, nil
}

// programProfile is the profile a program about to run is priced with: --profile's, else the
// default for the instruction set its ELF header (or --arch) names.
func programProfile(ctx context.Context, profiles controller.Profiles, name, program, arch string) (*cost.Profile, error) {
	if name != "" {
		return profiles.Resolve(ctx, name)
	}
	isa, err := controller.ProgramISA(program, arch)
	if err != nil {
		return nil, err
	}
	return defaultFor(ctx, profiles, isa)
}
