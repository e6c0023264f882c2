package pipeline

import (
	"bytes"
	"context"
	"encoding/hex"
	"fmt"
	"os/exec"
	"regexp"
	"strconv"
	"strings"

	"androprof/model/cost"
)

// triple is the LLVM target of an instruction set; "" for one this package does not price.
// MIPS is always read as mipsel: the trace's MIPS units are word values, whichever the guest's
// byte order, and memoryBytes lays them out little-endian.
func triple(isa cost.ISA) string {
	switch isa {
	case cost.ARM:
		return "armv7a-linux-gnueabihf"
	case cost.Thumb:
		return "thumbv7a-linux-gnueabihf"
	case cost.AArch64:
		return "aarch64-linux-gnu"
	case cost.MIPS:
		return "mipsel-linux-gnu"
	case cost.X86_64:
		return "x86_64-linux-gnu"
	}
	return ""
}

// mattr adds the features a 32-bit ARM program may use that LLVM leaves out of some cores'
// defaults (cortex-a9 without NEON): the code ran, so the disassembler must accept it. Features
// decide decoding only; the scheduling model is the CPU's.
func mattr(isa cost.ISA) []string {
	if isa == cost.ARM || isa == cost.Thumb {
		return []string{"-mattr=+neon,+vfp4,+hwdiv,+hwdiv-arm"}
	}
	return nil
}

// memoryBytes turns a block's hex units into each instruction's bytes in memory order:
// 32-bit words little-endian (ARM, AArch64, MIPS), Thumb halfwords little-endian one by one,
// x86 bytes as they are. note says why the block cannot be priced.
func memoryBytes(b Block) (out [][]byte, note string) {
	if triple(b.ISA) == "" {
		return nil, fmt.Sprintf("no LLVM machine model is asked about %s", b.ISA)
	}
	if len(b.Encodings) == 0 {
		return nil, "the block has no instructions"
	}
	for _, enc := range b.Encodings {
		if enc == "" {
			return nil, "the trace has no instruction bytes"
		}
		insn, err := unitBytes(b.ISA, enc)
		if err != nil {
			return nil, fmt.Sprintf("encoding %q: %v", enc, err)
		}
		out = append(out, insn)
	}
	return out, ""
}

// unitBytes is one instruction's bytes from its hex units.
func unitBytes(isa cost.ISA, enc string) ([]byte, error) {
	if isa == cost.X86_64 {
		return hex.DecodeString(strings.ReplaceAll(enc, " ", ""))
	}
	width := 8
	if isa == cost.Thumb {
		width = 4
	}
	var out []byte
	for _, u := range strings.Fields(enc) {
		if len(u) != width {
			return nil, fmt.Errorf("unit %q is not %d hex digits", u, width)
		}
		v, err := strconv.ParseUint(u, 16, 32)
		if err != nil {
			return nil, err
		}
		for i := 0; i < width/2; i++ {
			out = append(out, byte(v>>(8*i)))
		}
	}
	return out, nil
}

// run starts a tool with stdin and returns its stdout and stderr; a cancelled ctx kills it
// and is the error. A tool that fails says so on stderr, which the caller reads.
func run(ctx context.Context, name string, args []string, stdin []byte) (stdout, stderr string, err error) {
	cmd := exec.CommandContext(ctx, name, args...)
	var out, errb bytes.Buffer
	cmd.Stdin, cmd.Stdout, cmd.Stderr = bytes.NewReader(stdin), &out, &errb
	err = cmd.Run()
	if ctx.Err() != nil {
		return "", "", context.Cause(ctx)
	}
	if _, isExit := err.(*exec.ExitError); err != nil && !isExit {
		return "", "", fmt.Errorf("%s: %w", name, err)
	}
	return out.String(), errb.String(), nil
}

// unknownCPU is what both tools print when LLVM does not know the -mcpu; they then carry on
// with a generic CPU, which must not pass for the profile's.
const unknownCPU = "is not a recognized processor"

// located is a tool's complaint about a place in its input: "<stdin>:LINE:COL: warning: MSG"
// (llvm-mc's "invalid instruction encoding", llvm-mca's assembler errors).
var located = regexp.MustCompile(`(?m)^<stdin>:(\d+):(\d+): (?:warning|error): (.*)$`)

// skipped is llvm-mc's warning for bytes it did not decode, and printed nothing for.
const skipped = "invalid instruction encoding"

// disassemble gives each item llvm-mc's text of its bytes, one line per item and each
// instruction in brackets, so an instruction llvm-mc cannot decode is skipped alone and its
// line and column name it. Items with such an instruction get a note; the rest are returned.
func (t *tools) disassemble(ctx context.Context, items []*item) ([]*item, error) {
	isa := items[0].block.ISA
	var in bytes.Buffer
	cols := make([][]int, len(items)) // the column of each instruction's first byte
	for i, it := range items {
		cols[i] = writeBrackets(&in, it.bytes)
	}
	args := append([]string{"--disassemble", "-triple=" + triple(isa), "-mcpu=" + t.cpu}, mattr(isa)...)
	out, stderr, err := run(ctx, t.mc, args, in.Bytes())
	if err != nil {
		return nil, err
	}
	if strings.Contains(stderr, unknownCPU) {
		noteAll(items, fmt.Sprintf("LLVM does not know -mcpu=%s", t.cpu))
		return nil, nil
	}
	bad := map[int]int{} // item → how many of its instructions llvm-mc skipped
	for _, m := range located.FindAllStringSubmatch(stderr, -1) {
		if m[3] != skipped {
			continue // "potentially undefined instruction encoding": printed all the same
		}
		line, _ := strconv.Atoi(m[1])
		col, _ := strconv.Atoi(m[2])
		if line < 1 || line > len(items) {
			return nil, fmt.Errorf("%s: a warning about line %d of %d:\n%s", t.mc, line, len(items), stderr)
		}
		it := items[line-1]
		if k := insnAt(cols[line-1], col); bad[line-1] == 0 {
			it.result = Result{Note: fmt.Sprintf("%s cannot disassemble %s, instruction %d of %d (%s)",
				t.mc, it.block.Encodings[k], k+1, len(it.bytes), m[3])}
		}
		bad[line-1]++
	}
	lines := asmLines(out)
	if len(lines) == 0 && len(bad) == 0 {
		noteAll(items, fmt.Sprintf("%s: %s", t.mc, firstError(stderr))) // it refused the target, not a block
		return nil, nil
	}
	return t.share(ctx, items, bad, lines)
}

// share hands llvm-mc's lines to the items in order, each taking one per instruction it
// decoded, and returns the items decoded whole. When the count does not add up (an
// instruction printed as several lines) a batch is split until each item has a run of its own.
func (t *tools) share(ctx context.Context, items []*item, bad map[int]int, lines []string) ([]*item, error) {
	want := 0
	for i, it := range items {
		want += len(it.bytes) - bad[i]
	}
	switch {
	case want == len(lines):
	case len(items) > 1:
		a, err := t.disassemble(ctx, items[:len(items)/2])
		if err != nil {
			return nil, err
		}
		b, err := t.disassemble(ctx, items[len(items)/2:])
		return append(a, b...), err
	case bad[0] > 0:
		return nil, nil // noted already
	default:
		items[0].asm = lines
		return items, nil
	}
	var ok []*item
	for i, it := range items {
		n := len(it.bytes) - bad[i]
		if bad[i] == 0 {
			it.asm = lines[:n]
			ok = append(ok, it)
		}
		lines = lines[n:]
	}
	return ok, nil
}

// writeBrackets writes one item's line of llvm-mc input, "[0xf0 0x4f 0x2d 0xe9] [0x…]", and
// returns the column (from 1) of each instruction's first byte, as llvm-mc's warnings count.
func writeBrackets(w *bytes.Buffer, insns [][]byte) []int {
	cols := make([]int, len(insns))
	start := w.Len()
	for i, insn := range insns {
		if i > 0 {
			w.WriteByte(' ')
		}
		w.WriteByte('[')
		cols[i] = w.Len() - start + 1
		for j, b := range insn {
			if j > 0 {
				w.WriteByte(' ')
			}
			fmt.Fprintf(w, "0x%02x", b)
		}
		w.WriteByte(']')
	}
	w.WriteByte('\n')
	return cols
}

// insnAt is the instruction whose bytes hold column col.
func insnAt(cols []int, col int) int {
	k := 0
	for k+1 < len(cols) && cols[k+1] <= col {
		k++
	}
	return k
}

// asmLines are the instructions of llvm-mc's output, without its directives (".text").
func asmLines(out string) []string {
	var lines []string
	for _, l := range strings.Split(out, "\n") {
		if f := strings.TrimSpace(l); f != "" && !strings.HasPrefix(f, ".") {
			lines = append(lines, "\t"+f)
		}
	}
	return lines
}
