package builtingen

import (
	"os/exec"
	"strings"
	"testing"

	"androprof/internal/fastlane"
)

// TestX86LatenciesMatchLLVMMCA re-runs llvm-mca-16 on every representative instruction of the
// x86-64 tables: a priced one must have the latency the table says, and one a core leaves out
// (latency 0) must be one llvm-mca rejects or prices only with the placeholder 100.
func TestX86LatenciesMatchLLVMMCA(t *testing.T) {
	fastlane.Needs(t, "llvm-mca-16")
	if _, err := exec.LookPath("llvm-mca-16"); err != nil {
		t.Fatalf("llvm-mca-16 not found (scripts/deps.sh installs llvm-16): %v", err)
	}
	for _, core := range x86Cores() {
		var priced []x86Insn
		for _, xc := range x86Categories {
			for _, in := range xc.insns {
				if core.latency(in) > 0 {
					priced = append(priced, in)
				} else if lat, ok := mcaLatencies(t, core.model.cpu, []string{in.asm}); ok && lat[0] != 100 {
					t.Errorf("%s: %q is left out as unpriced, but llvm-mca-16 gives it latency %v",
						core.model.cpu, in.asm, lat[0])
				}
			}
		}
		asm := make([]string, len(priced))
		for i, in := range priced {
			asm[i] = in.asm
		}
		lats, ok := mcaLatencies(t, core.model.cpu, asm)
		if !ok {
			t.Fatalf("%s: llvm-mca-16 rejects a priced instruction", core.model.cpu)
		}
		for i, in := range priced {
			if want := core.latency(in); lats[i] != want {
				t.Errorf("%s: %q has latency %v in the table, llvm-mca-16 says %v", core.model.cpu, in.asm, want, lats[i])
			}
		}
	}
}

// mcaLatencies runs llvm-mca-16 -instruction-info for the x86-64 CPU on the instructions and
// returns their latencies in order; ok is false when llvm-mca rejects one as unsupported.
func mcaLatencies(t *testing.T, cpu string, asm []string) (lats []float64, ok bool) {
	t.Helper()
	return llvmMCALatencies(t, "llvm-mca-16", []string{"-mtriple=x86_64-linux-gnu", "-mcpu=" + cpu,
		"-instruction-info", "-iterations=1"}, asm)
}

// TestX86LeftOutInstructionsSayWhy checks that wherever a core leaves a representative
// instruction out of a category's mean, the core says why (a remark, or the cost it uses instead).
func TestX86LeftOutInstructionsSayWhy(t *testing.T) {
	for _, core := range x86Cores() {
		for _, xc := range x86Categories {
			left := 0
			for _, in := range xc.insns {
				if core.latency(in) == 0 {
					left++
				}
			}
			_, remark := core.remarks[xc.name]
			_, unpriced := core.unpriced[xc.name]
			if left > 0 && !remark && !unpriced {
				t.Errorf("%s leaves %d instruction(s) of %q unpriced without saying why", core.model.cpu, left, xc.name)
			}
			if left == len(xc.insns) && len(xc.insns) > 0 && !unpriced {
				t.Errorf("%s prices none of %q and gives no cost instead", core.model.cpu, xc.name)
			}
		}
	}
}

// TestX86Mean checks the mean and its citation on a made-up table row.
func TestX86Mean(t *testing.T) {
	core := x86Core{model: llvmModel{"f.td", "cpu"}, latency: func(in x86Insn) float64 { return in.slm }}
	got := core.cycles(x86Category{name: "c", insns: []x86Insn{{"a", 1, 0}, {"b", 2, 0}, {"c", 0, 0}, {"d", 2, 0}}})
	if got.Value != 1.67 || !strings.Contains(got.Notes[0].Text, "a latency 1; b latency 2; d latency 2; mean of the 3 = 1.67") {
		t.Errorf("cycles = %v %q", got.Value, got.Notes[0].Text)
	}
}
