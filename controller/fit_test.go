package controller

import (
	"context"
	"strings"
	"testing"

	"androprof/assets"
	"androprof/isaprofiles"
	"androprof/model/cost"
)

// openSieves is a workspace with the demo's sieve runs (ARM, Thumb, MIPS): one program, three
// instruction sets.
func openSieves(t *testing.T) (*Analysis, Profiles) {
	t.Helper()
	db := openStore(t)
	demos := map[string]DemoRun{}
	for _, d := range assets.DemoRuns() {
		if strings.HasPrefix(d.Name, "demo-sieve-") {
			demos[d.Name] = d
		}
	}
	if _, err := NewWorkspace(db).Importer().ImportDemo(context.Background(), demos); err != nil {
		t.Fatal(err)
	}
	return &Analysis{store: db}, Profiles{store: db}
}

func builtin(t *testing.T, name string) *cost.Profile {
	t.Helper()
	p, err := isaprofiles.Builtin(name)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// The findings on the demo runs: the MIPS run under the Cortex-A8 priced every
// instruction as Undefined at 13.03 cycles (6.45 M cycles, 5.74 mJ) without a word, and the
// MIPS 24K showed 0 J. Reports now carry how much of their totals is a guess.
func TestReportSaysWhenProfileDoesNotFit(t *testing.T) {
	a, _ := openSieves(t)
	ctx := context.Background()
	report := func(run, profile string) *cost.Report {
		rep, err := a.Report(ctx, cost.ReportOptions{Run: run, Profile: builtin(t, profile), By: cost.ByPID})
		if err != nil {
			t.Fatal(err)
		}
		return rep
	}
	rep := report("demo-sieve-mips", "cortex-a8")
	c := rep.Coverage
	if c.Undefined != rep.Total.Instructions || c.Instructions != rep.Total.Instructions || len(c.ForeignISAs) != 1 || c.ForeignISAs[0] != cost.MIPS {
		t.Fatalf("MIPS under the Cortex-A8: coverage %+v, total %+v", c, rep.Total)
	}
	for _, want := range []string{"ARMv7-A Cortex-A8 prices ARM and Thumb, not MIPS: choose a profile for MIPS.",
		"100 % of instructions are not in this profile (priced as Undefined, 13.03 cycles each)."} {
		if !strings.Contains(c.Warning(), want) {
			t.Errorf("warning %q lacks %q", c.Warning(), want)
		}
	}
	if c := report("demo-sieve-mips", "mips-24k").Coverage; !c.PowerUnknown() || c.Undefined != 0 ||
		c.Warning() != "Power unknown: energy not estimated (the profile gives no power)." {
		t.Errorf("MIPS 24K: %+v, %q", c, c.Warning())
	}
	for _, fit := range [][2]string{{"demo-sieve-mips", "mips-74k"}, {"demo-sieve-arm", "cortex-a8"}, {"demo-sieve-thumb", "cortex-a9"}} {
		if c := report(fit[0], fit[1]).Coverage; !c.Fits() || c.Warning() != "" {
			t.Errorf("%s under %s: %q", fit[0], fit[1], c.Warning())
		}
	}
	// One process only: the coverage is of what the report totals.
	d, _ := a.Load(ctx, "demo-sieve-arm")
	pid := d.Processes[0].PID
	rep, _ = a.Report(ctx, cost.ReportOptions{Run: "demo-sieve-arm", Profile: builtin(t, "mips-74k"), By: cost.ByCategory, PID: pid})
	if rep.Coverage.Instructions != rep.Total.Instructions || rep.Coverage.Undefined != rep.Total.Instructions {
		t.Errorf("pid %d: coverage %+v, total %+v", pid, rep.Coverage, rep.Total)
	}
}

// A workspace profile that categorises three instructions, with Undefined at 0 cycles, priced
// a 490 k-instruction run at a few thousand cycles; the coverage says what was left out.
func TestReportOfAProfileCoveringThreeInstructions(t *testing.T) {
	a, _ := openSieves(t)
	p := cost.NewProfile("three", cost.MIPS)
	p.Categories = []cost.Category{{Name: "Some", Cycles: 1, PowerMW: 100, Instructions: []cost.Instruction{
		{ISA: cost.MIPS, Mnemonic: "BEQ"}, {ISA: cost.MIPS, Mnemonic: "JR"}, {ISA: cost.MIPS, Mnemonic: "SYSCALL"}}}}
	rep, err := a.Report(context.Background(), cost.ReportOptions{Run: "demo-sieve-mips", Profile: p, By: cost.ByCategory})
	if err != nil {
		t.Fatal(err)
	}
	c := rep.Coverage
	if c.Undefined == 0 || c.Undefined == c.Instructions || rep.Total.Cycles != float64(c.Instructions-c.Undefined) {
		t.Fatalf("coverage %+v, cycles %g", c, rep.Total.Cycles)
	}
	want := cost.Percent(c.UndefinedShare()) + " of instructions (0 % of cycles) are not in this profile " +
		"(priced as Undefined at 0 cycles, so the cycles leave them out)."
	if c.UndefinedShare() < 0.5 || c.Warning() != want+" Power unknown for "+cost.Percent(c.UndefinedShare())+
		" of instructions: the energy leaves them out." {
		t.Errorf("warning %q, want it to start %q", c.Warning(), want)
	}
}

// Compare prices each item with a profile of its own instruction set: the chosen one when it
// prices it, else that set's DefaultProfile (the 74K for MIPS), and each row names it.
func TestCompareEachWithAProfileOfItsISA(t *testing.T) {
	a, profiles := openSieves(t)
	ctx := context.Background()
	infos, err := profiles.List(ctx)
	if err != nil {
		t.Fatal(err)
	}
	a8 := builtin(t, "cortex-a8")
	items := []cost.CompareItem{{Run: "demo-sieve-arm"}, {Run: "demo-sieve-mips"}}
	rows, err := a.Compare(ctx, items, profiles.ForISA(infos, a8), 0)
	if err != nil {
		t.Fatal(err)
	}
	if rows[0].Profile != a8.Name || rows[1].Profile != builtin(t, "mips-74k").Name {
		t.Errorf("priced with %q and %q", rows[0].Profile, rows[1].Profile)
	}
	for _, r := range rows {
		if r.Coverage.Undefined != 0 || len(r.Coverage.ForeignISAs) != 0 {
			t.Errorf("%s under %s: %q", r.Item, r.Profile, r.Coverage.Warning())
		}
	}
	if rows[1].Coverage.PowerUnknown() || rows[0].Coverage.PowerUnknown() {
		t.Errorf("power known: ARM %v, MIPS 74K %v", !rows[0].Coverage.PowerUnknown(), !rows[1].Coverage.PowerUnknown())
	}
	// One profile for both, as before: the MIPS row says it is all Undefined.
	rows, _ = a.Compare(ctx, items, Only(a8), 0)
	if rows[1].Profile != a8.Name || rows[1].Coverage.UndefinedShare() != 1 {
		t.Errorf("MIPS under the Cortex-A8 alone: %+v", rows[1])
	}
}

func TestChooseProfile(t *testing.T) {
	infos := []cost.ProfileInfo{{Name: "a8", ISAs: []cost.ISA{cost.ARM, cost.Thumb}},
		{Name: "24k", ISAs: []cost.ISA{cost.MIPS}}, {Name: "74k", ISAs: []cost.ISA{cost.MIPS}}}
	for _, c := range []struct {
		chosen string
		isa    cost.ISA
		want   int
	}{{"a8", cost.ARM, 0}, {"a8", cost.MIPS, 1}, {"74k", cost.MIPS, 2}, {"74k", cost.Thumb, 0},
		{"74k", cost.X86_64, 2}, {"", cost.X86_64, 0}, {"74k", "", 2}} {
		if got := ChooseProfile(infos, c.chosen, c.isa); got != c.want {
			t.Errorf("ChooseProfile(%q, %s) = %d, want %d", c.chosen, c.isa, got, c.want)
		}
	}
	if ChooseProfile(nil, "a8", cost.ARM) != -1 {
		t.Error("a profile chosen from none")
	}
}

func TestMainISA(t *testing.T) {
	a, _ := openSieves(t)
	for run, want := range map[string]cost.ISA{"demo-sieve-arm": cost.ARM, "demo-sieve-thumb": cost.Thumb, "demo-sieve-mips": cost.MIPS} {
		d, err := a.Load(context.Background(), run)
		if err != nil {
			t.Fatal(err)
		}
		if got := d.MainISA(0); got != want {
			t.Errorf("%s: main ISA %s", run, got)
		}
		if got := d.MainISA(d.Processes[0].PID); got != want {
			t.Errorf("%s pid %d: main ISA %s", run, d.Processes[0].PID, got)
		}
	}
}
