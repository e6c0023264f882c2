package controller

import (
	"strings"
	"testing"

	"androprof/isaprofiles"
	"androprof/model/cost"
)

// demoISA is the instruction set a demo run was built for, as its name says
// (assets/demo/gen: demo-sieve-arm64, demo-bzip2-x86-64, …).
func demoISA(run string) cost.ISA {
	run = strings.TrimSuffix(run, "-cache") // the cache-simulated twins
	for _, s := range []struct {
		suffix string
		isa    cost.ISA
	}{{"-arm64", cost.AArch64}, {"-x86-64", cost.X86_64}, {"-mips", cost.MIPS}, {"-thumb", cost.Thumb}} {
		if strings.HasSuffix(run, s.suffix) {
			return s.isa
		}
	}
	return cost.ARM
}

// demoProfiles are the built-in profiles these tests price a demo run with: the Cortex-A9 for
// ARM and Thumb and the 74K for MIPS, as before issue 26, and for AArch64 and x86-64 every
// built-in profile of the set, since issue 26 asks that none prices an instruction of the demo
// programs as Undefined. The first is the one to price with when one is enough.
func demoProfiles(t *testing.T, run string) []*cost.Profile {
	t.Helper()
	isa := demoISA(run)
	names := isaprofiles.BuiltinNames()
	switch isa {
	case cost.ARM, cost.Thumb:
		names = []string{"cortex-a9"}
	case cost.MIPS:
		names = []string{"mips-74k"}
	}
	var out []*cost.Profile
	for _, name := range names {
		p, err := isaprofiles.Builtin(name)
		if err != nil {
			t.Fatal(err)
		}
		if p.HasISA(isa) {
			out = append(out, p)
		}
	}
	if len(out) == 0 {
		t.Fatalf("no built-in profile prices %s, the instruction set of %s", isa, run)
	}
	return out
}

func TestDemoISA(t *testing.T) {
	for run, want := range map[string]cost.ISA{
		"demo-sieve-arm": cost.ARM, "demo-sieve-thumb": cost.Thumb, "demo-sieve-mips": cost.MIPS,
		"demo-sieve-arm64": cost.AArch64, "demo-bzip2-x86-64": cost.X86_64, "demo-forker-arm": cost.ARM,
	} {
		if got := demoISA(run); got != want {
			t.Errorf("demoISA(%s) = %s, want %s", run, got, want)
		}
	}
}
