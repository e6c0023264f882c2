package controller

import (
	"context"
	"path/filepath"
	"testing"

	"androprof/emulator/qemutest"
	"androprof/isaprofiles"
	"androprof/model/cost"
)

// On real programs under real QEMU, every executed instruction lands in a real category of
// every built-in profile for that architecture, and the dynamic count equals QEMU's own
// single-step count.
func TestCategorizeRealPrograms(t *testing.T) {
	src := filepath.Join(qemutest.SamplesDir(), "sieve.c")
	for _, tg := range qemutest.Targets {
		t.Run(tg.Name, func(t *testing.T) {
			bin := qemutest.Build(t, tg, src)
			log := qemutest.Log(t, tg, bin, []string{"-d", "in_asm,exec,nochain"}, "3000")
			want := qemutest.SinglestepCount(t, tg, bin, nil, "3000")

			isa := map[string]cost.ISA{"mips": cost.MIPS, "aarch64": cost.AArch64, "x86_64": cost.X86_64}[tg.Name]
			if isa == "" {
				isa = cost.ARM
			}
			profiles := 0
			for _, name := range isaprofiles.BuiltinNames() {
				p, err := isaprofiles.Builtin(name)
				if err != nil {
					t.Fatal(err)
				}
				if !p.HasISA(isa) {
					continue
				}
				profiles++
				rows, err := Categorize(context.Background(), p, []string{log}, nil)
				if err != nil {
					t.Fatal(err)
				}
				var total int64
				for _, r := range rows {
					total += r.Executions
					if r.Category == cost.UndefinedCategory && r.Executions > 0 {
						t.Errorf("%s: %s executed %d times but is Undefined", p.Name, r.Instruction, r.Executions)
					}
				}
				if total != want {
					t.Errorf("%s: %d executed instructions, qemu -singlestep counted %d", p.Name, total, want)
				}
			}
			if profiles < 2 {
				t.Errorf("only %d built-in profiles price %s", profiles, isa)
			}
		})
	}
}
