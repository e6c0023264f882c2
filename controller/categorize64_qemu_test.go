package controller

import (
	"context"
	"path/filepath"
	"strings"
	"testing"

	"androprof/emulator/qemutest"
	"androprof/isaprofiles"
	"androprof/model/cost"
)

// `profile categorize` (and the editor's log import, which counts the same way) on real
// AArch64 and x86-64 programs under QEMU 7.2, beyond TestCategorizeRealPrograms: the
// instructions land in the profile's own instruction set, a profile of one category finds the
// calls in it with the total still QEMU's single-step count, and a profile of 32-bit sets is
// told the log is not of its guest.
func TestCategorize64BitGuests(t *testing.T) {
	for _, tc := range []struct {
		tg   qemutest.Target
		isa  cost.ISA
		call cost.Insn // how QEMU prints a call
	}{
		{qemutest.AArch64, cost.AArch64, cost.Insn{Encoding: "97ffffee", Mnemonic: "bl", Operands: "#0x40010c"}},
		{qemutest.X86_64, cost.X86_64, cost.Insn{Encoding: "e8b6ffffff", Mnemonic: "callq", Operands: "0x401000"}},
	} {
		t.Run(tc.tg.Name, func(t *testing.T) {
			log, want := sieveLog(t, tc.tg)

			call := cost.Instruction{ISA: tc.isa, Mnemonic: isaprofiles.CatalogFor(tc.isa).Classify(tc.call)}
			p := cost.NewProfile("calls")
			p.ISAs = []cost.ISA{tc.isa}
			p.Categories = []cost.Category{{Name: "Branch", Cycles: 1, Instructions: []cost.Instruction{call}}}
			profiles := []*cost.Profile{p}
			for _, name := range isaprofiles.BuiltinNames() {
				if b, err := isaprofiles.Builtin(name); err == nil && b.HasISA(tc.isa) {
					profiles = append(profiles, b)
				}
			}
			for _, p := range profiles {
				rows, err := Categorize(context.Background(), p, []string{log}, nil)
				if err != nil {
					t.Fatal(err)
				}
				var total, calls int64
				for _, r := range rows {
					total += r.Executions
					if r.Instruction.ISA != tc.isa {
						t.Fatalf("%s: %v counted in a %s log", p.Name, r.Instruction, tc.isa)
					}
					if r.Instruction == call && r.Category != cost.UndefinedCategory {
						calls += r.Executions
					}
					if p.Name != "calls" && r.Category == cost.UndefinedCategory && r.Executions > 0 {
						t.Errorf("%s: %s executed %d times but is Undefined", p.Name, r.Instruction, r.Executions)
					}
				}
				if total != want {
					t.Errorf("%s: %d executed instructions, qemu -singlestep counted %d", p.Name, total, want)
				}
				if calls == 0 {
					t.Errorf("%s: no executed %s categorised", p.Name, call)
				}
				t.Logf("%s: %d instructions of %d kinds, as qemu -singlestep; %d calls", p.Name, total, len(rows), calls)
			}

			armProfile := cost.NewProfile("arm")
			armProfile.ISAs = []cost.ISA{cost.ARM, cost.Thumb}
			if _, err := Categorize(context.Background(), armProfile, []string{log}, nil); err == nil || !strings.Contains(err.Error(), "ARM, Thumb") {
				t.Errorf("an ARM profile on a %s log: %v", tc.isa, err)
			}
		})
	}
}

// sieveLog builds the sample sieve for tg and logs a run of it under QEMU (-d
// in_asm,exec,nochain), with QEMU's single-step count of the same run.
func sieveLog(t *testing.T, tg qemutest.Target) (log string, singlestep int64) {
	t.Helper()
	qemutest.Require(t, tg.CC, tg.QEMU)
	bin := qemutest.Build(t, tg, filepath.Join(qemutest.SamplesDir(), "sieve.c"))
	log = qemutest.Log(t, tg, bin, []string{"-d", "in_asm,exec,nochain"}, "3000")
	return log, qemutest.SinglestepCount(t, tg, bin, nil, "3000")
}
