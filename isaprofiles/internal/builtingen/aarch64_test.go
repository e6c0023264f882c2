package builtingen

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"androprof/internal/fastlane"
	"androprof/isaprofiles"
	"androprof/model/cost"
)

// TestA64CoresAreBuiltIn checks that a little and a big AArch64 core are built in, price every
// entry of the A64 catalogue and carry the sourced part of figure 5.2's reference data.
func TestA64CoresAreBuiltIn(t *testing.T) {
	found := map[string]bool{}
	for _, core := range Cores() {
		if core.Slug != "cortex-a55" && core.Slug != "cortex-a76" {
			continue
		}
		found[core.Slug] = true
		p, err := Generate(core)
		if err != nil {
			t.Fatal(err)
		}
		if len(p.ISAs) != 1 || p.ISAs[0] != cost.AArch64 {
			t.Errorf("%s prices %v, want AArch64", core.Slug, p.ISAs)
		}
		cl := cost.NewClassifier(p)
		for _, e := range isaprofiles.CatalogFor(cost.AArch64).Entries {
			if got := cl.Classify(cost.Instruction{ISA: cost.AArch64, Mnemonic: e.Mnemonic}); got.Name == cost.UndefinedCategory {
				t.Errorf("%s: %s (class %s) is priced as Undefined", core.Slug, e.Mnemonic, e.Class)
			}
		}
		cited := map[string]bool{}
		for _, c := range p.Citations {
			cited[c.Cost] = true
		}
		if r := p.Reference; r.FrequencyGHz <= 0 || r.ProcessorPowerW <= 0 || !cited["frequency-ghz"] ||
			!cited["processor-power-w"] || !cited["cpi"] {
			t.Errorf("%s: reference %+v with citations for %v; want a cited frequency and power and the CPI's absence explained",
				core.Slug, r, cited)
		}
	}
	if !found["cortex-a55"] || !found["cortex-a76"] {
		t.Errorf("Cores() has %v of cortex-a55 and cortex-a76", found)
	}
}

// TestA64LatenciesMatchLLVMMCA re-runs each model's llvm-mca on every representative
// instruction of the AArch64 tables, so a latency copied wrongly into a64Rows fails.
func TestA64LatenciesMatchLLVMMCA(t *testing.T) {
	fastlane.Needs(t, "llvm-mca-16 and llvm-mca-19")
	asm := a64Asm(func(string) bool { return true })
	for _, m := range []a64Model{llvmA55, llvmN1} {
		t.Run(m.cpu, func(t *testing.T) {
			lats := a64Latencies(t, m, asm)
			i := 0
			for _, r := range a64Rows {
				for _, in := range r.insns {
					if want := in.latency[m.column]; lats[i] != want {
						t.Errorf("%s %q: the table says latency %v, %s says %v", r.class, in.asm, want, m.tool, lats[i])
					}
					i++
				}
			}
		})
	}
}

// TestA76HasNoLLVMModel backs the Cortex-A76 profile's reason for using the Neoverse N1 model:
// llvm-mca-16 prices every instruction of the table for -mcpu=cortex-a76 exactly as for
// cortex-a57. When LLVM gains a Cortex-A76 model this fails, and the table should move to it.
func TestA76HasNoLLVMModel(t *testing.T) {
	fastlane.Needs(t, "llvm-mca-16")
	// The Armv8.0 Cortex-A57 has no dot product.
	asm := a64Asm(func(asm string) bool { return !strings.HasPrefix(asm, "sdot ") })
	a76 := a64Model{tool: "llvm-mca-16", cpu: "cortex-a76"}
	a57 := a64Model{tool: "llvm-mca-16", cpu: "cortex-a57"}
	got, want := a64Latencies(t, a76, asm), a64Latencies(t, a57, asm)
	same := true
	for i := range asm {
		same = same && got[i] == want[i]
	}
	if !same {
		t.Errorf("llvm-mca-16 -mcpu=cortex-a76 no longer prices like cortex-a57 (%v vs %v): LLVM may have a "+
			"Cortex-A76 model now; price cortexA76 from it instead of the Neoverse N1 model", got, want)
	}
	if lats := a64Latencies(t, a64Model{tool: "llvm-mca-16", cpu: "cortex-a55"}, []string{"sdiv x0, x1, x2"}); lats[0] == want[0] {
		t.Errorf("cortex-a55 and cortex-a57 give sdiv the same latency %v: the comparison above proves nothing", lats[0])
	}
}

// TestRK3588Power checks the Energy Model arithmetic against figures worked by hand:
// 228 µW/MHz/V² × 0.95² V² × 1800 MHz and 416 × 1² × 2400.
func TestRK3588Power(t *testing.T) {
	for _, c := range []struct {
		coeff, mhz, mv, mw, w float64
	}{{228, 1800, 950, 370.39, 0.37039}, {416, 2400, 1000, 998.4, 0.9984}} {
		mw, text := rk3588Power("core", c.coeff, c.mhz, c.mv)
		if mw != c.mw || watts(mw) != c.w || !strings.Contains(text, num(c.mw)+" mW") {
			t.Errorf("rk3588Power(%v, %v, %v) = %v mW (%v W), %q; want %v mW (%v W)", c.coeff, c.mhz, c.mv, mw, watts(mw), text, c.mw, c.w)
		}
	}
}

// a64Asm lists the representative instructions of a64Rows that keep accepts, in table order.
func a64Asm(keep func(asm string) bool) []string {
	var out []string
	for _, r := range a64Rows {
		for _, in := range r.insns {
			if keep(in.asm) {
				out = append(out, in.asm)
			}
		}
	}
	return out
}

// a64Latencies runs the model's llvm-mca on the instructions and returns their latencies in order.
func a64Latencies(t *testing.T, m a64Model, asm []string) []float64 {
	t.Helper()
	if _, err := exec.LookPath(m.tool); err != nil {
		t.Fatalf("%s not found (scripts/deps.sh installs llvm-16 and llvm-19): %v", m.tool, err)
	}
	lats, ok := llvmMCALatencies(t, m.tool, m.args(), asm)
	if !ok {
		t.Fatalf("%s -mcpu=%s rejects an instruction of the table as unsupported", m.tool, m.cpu)
	}
	return lats
}

// llvmMCARow is a row of llvm-mca's instruction-info table: micro-ops, latency, reciprocal throughput.
var llvmMCARow = regexp.MustCompile(`^\s*\d+\s+(\d+)\s+\d+\.\d+`)

// llvmMCALatencies runs `tool args… file` (args asking for -instruction-info) on the instructions
// and returns their latencies in order; ok is false when llvm-mca rejects one as unsupported.
// It serves any llvm-mca binary and target.
func llvmMCALatencies(t *testing.T, tool string, args, asm []string) (lats []float64, ok bool) {
	t.Helper()
	file := filepath.Join(t.TempDir(), "in.s")
	if err := os.WriteFile(file, []byte(strings.Join(asm, "\n")+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	cmd := strings.Join(append([]string{tool}, args...), " ")
	out, err := exec.Command(tool, append(args, "-resource-pressure=false", file)...).CombinedOutput()
	if err != nil {
		if strings.Contains(string(out), "unsupported instruction") {
			return nil, false
		}
		t.Fatalf("%s: %v\n%s", cmd, err, out)
	}
	_, table, found := strings.Cut(string(out), "Instructions:\n")
	if !found {
		t.Fatalf("%s printed no instruction-info table:\n%s", cmd, out)
	}
	for _, line := range strings.Split(table, "\n") {
		row := llvmMCARow.FindStringSubmatch(line)
		if row == nil {
			break
		}
		v, _ := strconv.ParseFloat(row[1], 64)
		lats = append(lats, v)
	}
	if len(lats) != len(asm) {
		t.Fatalf("%s: %d rows for %d instructions:\n%s", cmd, len(lats), len(asm), out)
	}
	return lats, true
}
