package builtingen

import (
	"bytes"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"testing"

	"androprof/internal/fastlane"
	"androprof/model/cost"
)

// TestEveryHierarchyIsSourced checks that each built-in hierarchy validates, that every number
// it has (geometry, miss cycles, access energy) carries a citation saying which number it is
// for, that a core without one says why, and that a machine model is cited.
func TestEveryHierarchyIsSourced(t *testing.T) {
	withMemory := map[string]bool{}
	for _, core := range Cores() {
		p, err := Generate(core)
		if err != nil {
			t.Fatal(err)
		}
		if p.Memory.IsZero() {
			if !strings.Contains(p.Source, "No memory hierarchy") {
				t.Errorf("%s has no hierarchy and its source does not say why", core.Slug)
			}
		} else {
			withMemory[core.Slug] = true
			if err := p.Memory.Validate(); err != nil {
				t.Errorf("%s: %v", core.Slug, err)
			}
		}
		for _, l := range p.Memory.Levels {
			cites := cost.CitationsOf(p.Citations, l.Name)
			for _, part := range []struct {
				prefix string
				known  bool
			}{{"Geometry: ", true}, {"Miss cycles: ", l.MissCycles != 0}, {"Access energy: ", l.AccessEnergyNJ != 0}} {
				if part.known && !hasPrefix(cites, part.prefix) {
					t.Errorf("%s %s: no %q citation among %d", core.Slug, l.Name, part.prefix, len(cites))
				}
			}
		}
		if pipe := cost.CitationsOf(p.Citations, cost.PipelineCost); len(pipe) == 0 {
			t.Errorf("%s: the machine model (%+v) or its absence is not cited", core.Slug, p.Pipeline)
		}
	}
	for _, slug := range []string{"cortex-a8", "cortex-a9", "cortex-a15", "cortex-a55", "cortex-a76", "atom-silvermont", "core-skylake"} {
		if !withMemory[slug] {
			t.Errorf("%s has no memory hierarchy", slug)
		}
	}
}

func hasPrefix(cites []cost.Citation, prefix string) bool {
	for _, c := range cites {
		if strings.HasPrefix(c.Text, prefix) && len(c.Text) > len(prefix)+20 {
			return true
		}
	}
	return false
}

// addMemory refuses a known number without a citation and a hierarchy that does not validate.
func TestAddMemoryRefuses(t *testing.T) {
	ok := level(cost.L1I, 16<<10, 4, 64, cost.LRU, true, src("a source"))
	for _, tc := range []struct {
		name string
		core Core
		want string
	}{
		{"uncited miss", Core{Memory: []Level{ok.withMiss(3)}}, "cache level l1i miss cycles: no citation"},
		{"uncited geometry", Core{Memory: []Level{level(cost.L1I, 16<<10, 4, 64, cost.LRU, true)}}, "cache level l1i geometry: no citation"},
		{"no l2", Core{Memory: []Level{ok}}, "has no l1d"},
		{"uncited model", Core{Pipeline: Machine{Model: cost.PipelineModel{CPU: "x"}}}, "machine model: no citation"},
	} {
		err := addMemory(tc.core, cost.NewProfile("p", cost.ARM))
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: %v, want %q", tc.name, err, tc.want)
		}
	}
}

// TestMemoryDocMatchesTables keeps the tables of docs/memory.md in step with the generator: each
// profile's rows give the same size, ways, line, replacement, write policy and costs.
func TestMemoryDocMatchesTables(t *testing.T) {
	doc, err := os.ReadFile("../../../docs/memory.md")
	if err != nil {
		t.Fatal(err)
	}
	rows := docRows(string(doc))
	for _, core := range Cores() {
		p, err := Generate(core)
		if err != nil {
			t.Fatal(err)
		}
		got := rows[core.Slug]
		if len(got) != len(p.Memory.Levels) {
			t.Errorf("docs/memory.md lists %d levels for %s, the generator %d", len(got), core.Slug, len(p.Memory.Levels))
			continue
		}
		for i, l := range p.Memory.Levels {
			if want := docRow(l); got[i] != want {
				t.Errorf("docs/memory.md, %s: row %q, want %q", core.Slug, got[i], want)
			}
		}
	}
}

// docRows reads the first seven cells of each level row under each "### slug" heading.
func docRows(doc string) map[string][]string {
	out := map[string][]string{}
	slug := ""
	for _, line := range strings.Split(doc, "\n") {
		if h, ok := strings.CutPrefix(line, "### "); ok {
			slug = strings.Fields(h)[0]
			continue
		}
		cells := strings.Split(strings.Trim(line, "| "), "|")
		if slug == "" || len(cells) < 8 || !isLevel(strings.TrimSpace(cells[0])) {
			continue
		}
		for i := range cells {
			cells[i] = strings.TrimSpace(cells[i])
		}
		out[slug] = append(out[slug], strings.Join(cells[:8], " | "))
	}
	return out
}

func isLevel(s string) bool {
	for _, n := range cost.CacheLevelNames {
		if s == n {
			return true
		}
	}
	return false
}

// docRow is how docs/memory.md writes a level: sizes in KB or MB, unknown costs as "unknown".
func docRow(l cost.CacheLevel) string {
	size := strconv.FormatInt(l.SizeBytes>>10, 10) + " KB"
	if l.SizeBytes >= 1<<20 {
		size = strconv.FormatInt(l.SizeBytes>>20, 10) + " MB"
	}
	write := "allocate"
	if !l.WriteAllocate {
		write = "no allocate"
	}
	known := func(v float64) string {
		if v == 0 {
			return "unknown"
		}
		return num(v)
	}
	return strings.Join([]string{l.Name, size, strconv.Itoa(l.Ways), strconv.Itoa(l.LineBytes), string(l.Replacement),
		write, known(l.MissCycles), known(l.AccessEnergyNJ)}, " | ")
}

// The blocks llvm-mca prices in TestMachineModelsRun: a load, an add, a multiply and a store.
var mcaBlocks = map[cost.ISA]struct{ triple, asm string }{
	cost.ARM:     {"armv7a-linux-gnueabihf", "add r0, r1, r2\nldr r3, [r0]\nmul r4, r3, r1\nstr r4, [r0, #4]\n"},
	cost.AArch64: {"aarch64-linux-gnu", "add x0, x1, x2\nldr x3, [x0]\nmul x4, x3, x1\nstr x4, [x0, #8]\n"},
	cost.X86_64:  {"x86_64-linux-gnu", "addq %rsi, %rax\nmovq (%rax), %rbx\nimulq %rbx, %rcx\nmovq %rcx, 8(%rax)\n"},
}

// runMCA runs llvm-mca on asm with the given target options and returns what it printed.
func runMCA(t *testing.T, tool, asm string, options ...string) (string, error) {
	t.Helper()
	cmd := exec.Command(tool, append([]string{"-iterations=100"}, options...)...)
	cmd.Stdin = strings.NewReader(asm)
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	err := cmd.Run()
	return out.String(), err
}

// TestMachineModelsRun runs each profile's llvm-mca with its cpu on a small block, and checks
// what the citations say about the cores without a model and about the A15 and A9.
func TestMachineModelsRun(t *testing.T) {
	fastlane.Needs(t, "llvm-mca-16 and llvm-mca-19")
	for _, core := range Cores() {
		m := core.Pipeline.Model
		if m.IsZero() {
			continue
		}
		b := mcaBlocks[core.ISAs[0]]
		out, err := runMCA(t, m.Tool, b.asm, "-mtriple="+b.triple, "-mcpu="+m.CPU)
		if err != nil || !strings.Contains(out, "Total Cycles:") || strings.Contains(out, "not a recognized processor") {
			t.Errorf("%s: %s -mcpu=%s: %v\n%s", core.Slug, m.Tool, m.CPU, err, out)
		}
	}
	arm := mcaBlocks[cost.ARM]
	for _, tool := range []string{"llvm-mca-16", "llvm-mca-19"} {
		if out, err := runMCA(t, tool, arm.asm, "-mtriple="+arm.triple, "-mcpu=cortex-a8"); err == nil || !strings.Contains(out, "itineraries are currently unsupported") {
			t.Errorf("%s now accepts -mcpu=cortex-a8 (%v); give the Cortex-A8 profile its model:\n%s", tool, err, out)
		}
		a9, _ := runMCA(t, tool, arm.asm, "-mtriple="+arm.triple, "-mcpu=cortex-a9", "-mattr=+hwdiv-arm,+vfp4")
		a15, _ := runMCA(t, tool, arm.asm, "-mtriple="+arm.triple, "-mcpu=cortex-a15")
		if cycles(a9) == "" || cycles(a9) != cycles(a15) {
			t.Errorf("%s: cortex-a9 %q and cortex-a15 %q differ; the A15 profile says LLVM prices it with the A9 model", tool, cycles(a9), cycles(a15))
		}
		if _, err := runMCA(t, tool, "str r4, [r0, #4]\nvadd.f64 d0, d1, d2\n", "-mtriple="+arm.triple, "-mcpu=cortex-a9"); err == nil {
			t.Errorf("%s no longer crashes on store + vadd.f64 under cortex-a9; drop the known defect from the A9 and A15 citations", tool)
		}
	}
}

func cycles(out string) string {
	for _, line := range strings.Split(out, "\n") {
		if strings.HasPrefix(line, "Total Cycles:") {
			return strings.TrimSpace(strings.TrimPrefix(line, "Total Cycles:"))
		}
	}
	return ""
}
