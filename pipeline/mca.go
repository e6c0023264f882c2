package pipeline

import (
	"bytes"
	"context"
	"fmt"
	"regexp"
	"strconv"
	"strings"
)

// simulate prices the items with one llvm-mca run, one code region each. When llvm-mca refuses
// the run it names the place or the instruction: the items holding it get a note and the rest
// run again. An error that names neither is the model's (a CPU without a scheduling model), so
// every item gets it; only when the named instruction is in no item is the batch split.
func (t *tools) simulate(ctx context.Context, items []*item) error {
	if len(items) == 0 {
		return nil
	}
	isa := items[0].block.ISA
	src, first := mcaSource(items)
	args := append([]string{"-mtriple=" + triple(isa), "-mcpu=" + t.cpu}, mattr(isa)...)
	args = append(args, "-iterations="+strconv.Itoa(Iterations), "-all-views=false", "-summary-view")
	args = append(args, callArgs(t.mca)...)
	out, stderr, err := run(ctx, t.mca, args, src)
	if err != nil {
		return err
	}
	if strings.Contains(stderr, unknownCPU) {
		noteAll(items, fmt.Sprintf("LLVM does not know -mcpu=%s", t.cpu))
		return nil
	}
	if cycles, ok := regionCycles(out, len(items)); ok {
		for i, it := range items {
			it.result = Result{Cycles: cycles[i], OK: true}
		}
		return nil
	}
	blamed, found := t.blame(items, first, stderr)
	switch {
	case !found:
		noteAll(items, fmt.Sprintf("%s: %s", t.describe(), firstError(stderr)))
		return nil
	case len(blamed) > 0:
		return t.simulate(ctx, unblamed(items, blamed))
	case len(items) == 1:
		items[0].result = Result{Note: fmt.Sprintf("%s: %s", t.describe(), firstError(stderr))}
		return nil
	}
	if err := t.simulate(ctx, items[:len(items)/2]); err != nil {
		return err
	}
	return t.simulate(ctx, items[len(items)/2:])
}

// mcaSource is llvm-mca's input: each item's text in a code region named b<index>, and the
// line (from 1) of each item's first instruction.
func mcaSource(items []*item) ([]byte, []int) {
	var src bytes.Buffer
	first := make([]int, len(items))
	line := 1
	for i, it := range items {
		fmt.Fprintf(&src, "# LLVM-MCA-BEGIN b%d\n", i)
		first[i] = line + 1
		for _, l := range it.asm {
			src.WriteString(l + "\n")
		}
		src.WriteString("# LLVM-MCA-END\n")
		line += len(it.asm) + 2
	}
	return src.Bytes(), first
}

var (
	regionHead  = regexp.MustCompile(`^\[\d+\] Code Region - b(\d+)$`)
	iterations  = regexp.MustCompile(`^Iterations:\s+(\d+)$`)
	totalCycles = regexp.MustCompile(`^Total Cycles:\s+(\d+)$`)
)

// regionCycles reads each region's Total Cycles ÷ Iterations from llvm-mca's summary; ok is
// false unless every one of the n regions has them.
func regionCycles(out string, n int) (cycles []float64, ok bool) {
	cycles = make([]float64, n)
	seen := 0
	region, iters := -1, 0.0
	for _, l := range strings.Split(out, "\n") {
		l = strings.TrimSpace(l)
		if m := regionHead.FindStringSubmatch(l); m != nil {
			region, _ = strconv.Atoi(m[1])
		} else if m := iterations.FindStringSubmatch(l); m != nil {
			iters, _ = strconv.ParseFloat(m[1], 64)
		} else if m := totalCycles.FindStringSubmatch(l); m != nil && region >= 0 && region < n && iters > 0 {
			c, _ := strconv.ParseFloat(m[1], 64)
			cycles[region] = c / iters
			seen++
			region = -1
		}
	}
	return cycles, seen == n
}

// instructionNote is llvm-mca's naming of the instruction an error is about.
var instructionNote = regexp.MustCompile(`(?m)^note: instruction:\s*(.*)$`)

// blame gives a note to the items llvm-mca's errors point at: an assembler error's line, or
// the instruction a modelling error names (every item holding that same instruction, which the
// model refuses wherever it is). found is false when the errors point at nothing.
func (t *tools) blame(items []*item, first []int, stderr string) (blamed map[*item]bool, found bool) {
	blamed = map[*item]bool{}
	for _, m := range located.FindAllStringSubmatch(stderr, -1) {
		found = true
		line, _ := strconv.Atoi(m[1])
		for i, it := range items {
			if k := line - first[i]; k >= 0 && k < len(it.asm) {
				it.result = Result{Note: fmt.Sprintf("%s cannot assemble %q (%s)", t.mca, strings.TrimSpace(it.asm[k]), m[3])}
				blamed[it] = true
			}
		}
	}
	for _, m := range instructionNote.FindAllStringSubmatch(stderr, -1) {
		found = true
		insn := strings.Join(strings.Fields(m[1]), " ")
		for _, it := range items {
			if holds(it.asm, insn) {
				it.result = Result{Note: fmt.Sprintf("%s: %s (%s)", t.describe(), firstError(stderr), insn)}
				blamed[it] = true
			}
		}
	}
	return blamed, found
}

// holds tells whether one of the lines is insn, blanks aside.
func holds(lines []string, insn string) bool {
	for _, l := range lines {
		if strings.Join(strings.Fields(l), " ") == insn {
			return true
		}
	}
	return false
}

// unblamed are the items not blamed.
func unblamed(items []*item, blamed map[*item]bool) []*item {
	var rest []*item
	for _, it := range items {
		if !blamed[it] {
			rest = append(rest, it)
		}
	}
	return rest
}

// firstError is the message of the tool's first error, for a note.
func firstError(stderr string) string {
	for _, l := range strings.Split(stderr, "\n") {
		if _, msg, ok := strings.Cut(l, "error: "); ok {
			return strings.TrimSuffix(msg, ".")
		}
	}
	return strings.TrimSpace(stderr)
}
