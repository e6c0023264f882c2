package pipeline_test

import (
	"context"
	"encoding/binary"
	"encoding/hex"
	"errors"
	"fmt"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"androprof/emulator/qemutest"
	"androprof/formats/bbprofile"
	"androprof/formats/qemulog"
	"androprof/internal/fastlane"
	"androprof/internal/proc"
	"androprof/model/cost"
	"androprof/pipeline"
)

var (
	a55 = cost.PipelineModel{Tool: "llvm-mca-16", CPU: "cortex-a55"}
	a57 = cost.PipelineModel{Tool: "llvm-mca-16", CPU: "cortex-a57"}
	a9  = cost.PipelineModel{Tool: "llvm-mca-16", CPU: "cortex-a9"}
)

// TestDependentMulsCostMore: four MULs that each wait for the one before cost more than four
// independent ones on the in-order Cortex-A55 (MUL latency 3, one multiplier).
func TestDependentMulsCostMore(t *testing.T) {
	fastlane.Needs(t, "llvm-mca-16")
	dependent := pipeline.Block{ISA: cost.AArch64, Encodings: []string{"9b017c00", "9b017c00", "9b017c00", "9b017c00"}} // mul x0, x0, x1
	independent := pipeline.Block{ISA: cost.AArch64, Encodings: []string{"9b027c23", "9b027c24", "9b027c25", "9b027c26"}}
	r := price(t, a55, dependent, independent)
	if !r[0].OK || !r[1].OK {
		t.Fatalf("not priced: %+v", r)
	}
	if r[0].Cycles <= r[1].Cycles {
		t.Errorf("dependent MULs cost %v cycles, independent ones %v; want more for the dependent", r[0].Cycles, r[1].Cycles)
	}
	t.Logf("cortex-a55: 4 dependent MULs %.2f cycles, 4 independent %.2f", r[0].Cycles, r[1].Cycles)
}

// guest is a real program's target with the model its blocks are priced under.
type guest struct {
	target qemutest.Target
	isa    cost.ISA
	model  cost.PipelineModel
}

var guests = []guest{
	{qemutest.Targets[0], cost.ARM, a57},
	{qemutest.Targets[1], cost.Thumb, a57},
	{qemutest.Targets[2], cost.MIPS, cost.PipelineModel{Tool: "llvm-mca-16", CPU: "mips32r2"}},
	{qemutest.AArch64, cost.AArch64, a55},
	{qemutest.X86_64, cost.X86_64, cost.PipelineModel{Tool: "llvm-mca-16", CPU: "skylake"}},
}

// TestRealBlocksAsByHand prices the blocks of sieve's main, as QEMU translated them, for each
// instruction set, and checks each against llvm-mca run by hand on llvm-mc's text for the same
// bytes (laid out in memory order here, independently) with the same iterations: batching and
// code regions change nothing.
func TestRealBlocksAsByHand(t *testing.T) {
	for _, g := range guests {
		t.Run(g.target.Name, func(t *testing.T) {
			qemutest.Require(t, "llvm-mca-16", "llvm-mc-16")
			mine := mainBlocks(t, g)
			if len(mine) < 3 {
				t.Fatalf("%d blocks of main in %s", len(mine), g.isa)
			}
			got := price(t, g.model, mine...)
			for i, b := range mine {
				want := byHand(t, g.model, b)
				if !got[i].OK || got[i].Cycles != want {
					t.Errorf("block %v: Price says %+v, by hand %v cycles", b.Encodings, got[i], want)
				}
			}
			t.Logf("%d blocks of main priced under %s, e.g. %v cycles for %d instructions",
				len(mine), pipeline.Describe(g.model), got[0].Cycles, len(mine[0].Encodings))
		})
	}
}

// TestFailingBlocksLeaveTheOthersPriced: in one batch, a block llvm-mc cannot decode and a
// block whose instruction the Cortex-A9 model cannot schedule (a PUSH: "unable to resolve
// scheduling class for write variant") are noted by their instruction, and every other block
// gets the cycles it has when priced alone.
func TestFailingBlocksLeaveTheOthersPriced(t *testing.T) {
	fastlane.Needs(t, "llvm-mca-16")
	add := pipeline.Block{ISA: cost.ARM, Encodings: []string{"e0800001", "e0811002"}} // add r0, r0, r1; add r1, r1, r2
	mul := pipeline.Block{ISA: cost.ARM, Encodings: []string{"e0000190", "e0000190"}} // mul r0, r0, r1 twice
	undecodable := pipeline.Block{ISA: cost.ARM, Encodings: []string{"e0800001", "ffffffff"}}
	push := pipeline.Block{ISA: cost.ARM, Encodings: []string{"e92d4010", "e0800001"}} // push {r4, lr}; add
	r := price(t, a9, add, undecodable, mul, push, add)
	alone := price(t, a9, add, mul)
	if !r[0].OK || r[0] != alone[0] || r[2] != alone[1] || r[4] != r[0] {
		t.Errorf("the good blocks: %+v, %+v, %+v; alone %+v", r[0], r[2], r[4], alone)
	}
	if r[1].OK || !strings.Contains(r[1].Note, "cannot disassemble ffffffff, instruction 2 of 2") {
		t.Errorf("undecodable block: %+v", r[1])
	}
	if r[3].OK || !strings.Contains(r[3].Note, "scheduling class") || !strings.Contains(r[3].Note, "push") {
		t.Errorf("PUSH block under cortex-a9: %+v", r[3])
	}
}

// TestModels is the table of docs/pipeline.md: which -mcpu of the built-in profiles' cores
// llvm-mca 16 and 19 can price, and which borrow another core's model. When LLVM gains or
// loses a model this fails, and the table (and the profiles) should follow.
func TestModels(t *testing.T) {
	fastlane.Needs(t, "llvm-mca-16 and llvm-mca-19")
	// add, mul, ldr, vmul.f64, vdiv.f64, sdiv; add, mul, sdiv, ldr, fdiv; addu, mul; add, imul
	arm := oneEach(cost.ARM, "e0800001", "e0000190", "e5932004", "ee210b02", "ee810b02", "e710f211")
	a64 := oneEach(cost.AArch64, "8b020020", "9b027c20", "9ac20c20", "f9400020", "1e621820")
	mips := oneEach(cost.MIPS, "00851021", "70a43002")
	x86 := oneEach(cost.X86_64, "4801d8", "480fafc3")
	for _, c := range []struct {
		tool, cpu string
		blocks    []pipeline.Block
		model     bool
		like      string // another -mcpu of the same tool that prices every block the same; "" none
	}{
		{"llvm-mca-16", "cortex-a8", arm, false, ""}, {"llvm-mca-19", "cortex-a8", arm, false, ""},
		{"llvm-mca-16", "cortex-a9", arm, true, ""}, {"llvm-mca-16", "cortex-a15", arm, true, "cortex-a9"},
		{"llvm-mca-19", "cortex-a15", arm, true, "cortex-a9"}, {"llvm-mca-16", "cortex-a57", arm, true, ""},
		{"llvm-mca-16", "cortex-a55", a64, true, ""}, {"llvm-mca-19", "cortex-a55", a64, true, ""},
		{"llvm-mca-16", "cortex-a76", a64, true, "cortex-a57"}, {"llvm-mca-19", "cortex-a76", a64, true, "cortex-a57"},
		{"llvm-mca-16", "neoverse-n1", a64, true, "cortex-a57"}, {"llvm-mca-19", "neoverse-n1", a64, true, ""},
		{"llvm-mca-16", "mips32r2", mips, true, ""}, {"llvm-mca-19", "mips32r2", mips, true, ""},
		{"llvm-mca-16", "p5600", mips, false, ""}, {"llvm-mca-19", "p5600", mips, false, ""},
		{"llvm-mca-16", "24kc", mips, false, ""}, {"llvm-mca-16", "74kc", mips, false, ""},
		{"llvm-mca-16", "silvermont", x86, true, ""}, {"llvm-mca-16", "skylake", x86, true, ""},
	} {
		m := cost.PipelineModel{Tool: c.tool, CPU: c.cpu}
		r := price(t, m, c.blocks...)
		if priced := r[0].OK && r[len(r)-1].OK; priced != c.model {
			t.Errorf("%s: %+v; the table says model=%v", pipeline.Describe(m), r, c.model)
		}
		if c.like != "" && !slices.Equal(r, price(t, cost.PipelineModel{Tool: c.tool, CPU: c.like}, c.blocks...)) {
			t.Errorf("%s no longer prices like -mcpu=%s: LLVM may have a model of its own now", pipeline.Describe(m), c.like)
		}
		if c.model && c.like == "" {
			checkOwnModel(t, m, c.blocks, r)
		}
		t.Logf("%s: %+v", pipeline.Describe(m), r)
	}
}

// checkOwnModel fails when the model prices the blocks like any other core the table names
// for the same instruction set: a model of its own must differ somewhere.
func checkOwnModel(t *testing.T, m cost.PipelineModel, blocks []pipeline.Block, r []pipeline.Result) {
	t.Helper()
	others := map[cost.ISA][]string{cost.ARM: {"cortex-a9", "cortex-a57"}, cost.AArch64: {"cortex-a55", "cortex-a57"},
		cost.MIPS: nil, cost.X86_64: {"silvermont", "skylake"}}[blocks[0].ISA]
	for _, cpu := range others {
		if cpu != m.CPU && slices.Equal(r, price(t, cost.PipelineModel{Tool: m.Tool, CPU: cpu}, blocks...)) {
			t.Errorf("%s prices every block like -mcpu=%s", pipeline.Describe(m), cpu)
		}
	}
}

// oneEach is a block of one instruction per encoding.
func oneEach(isa cost.ISA, encodings ...string) []pipeline.Block {
	var out []pipeline.Block
	for _, e := range encodings {
		out = append(out, pipeline.Block{ISA: isa, Encodings: []string{e}})
	}
	return out
}

// TestMissingTool names the Debian package that has the llvm-mca asked for.
func TestMissingTool(t *testing.T) {
	_, err := pipeline.Price(context.Background(), cost.PipelineModel{Tool: "llvm-mca-404", CPU: "cortex-a55"},
		[]pipeline.Block{{ISA: cost.AArch64, Encodings: []string{"9b017c00"}}}, nil)
	var missing *proc.MissingToolError
	if !errors.As(err, &missing) || missing.Tool != "llvm-mca-404" || missing.Package != "llvm-404" {
		t.Fatalf("Price with llvm-mca-404: %v", err)
	}
}

// TestKeyAndDescribe: the key tells the tool, the CPU, the call latency, the target and the
// code apart, and the default tool is llvm-mca-19.
func TestKeyAndDescribe(t *testing.T) {
	b := pipeline.Block{ISA: cost.Thumb, Encodings: []string{"f44f 5bfa", "4770"}}
	if got, want := pipeline.Key(cost.PipelineModel{CPU: "cortex-a57"}, b), "llvm-mca-19|cortex-a57|--call-latency=1|thumbv7a-linux-gnueabihf|f44f 5bfa,4770"; got != want {
		t.Errorf("Key = %q, want %q", got, want)
	}
	if got, want := pipeline.Key(a57, b), "llvm-mca-16|cortex-a57|thumbv7a-linux-gnueabihf|f44f 5bfa,4770"; got != want {
		t.Errorf("Key = %q, want %q", got, want)
	}
	split := pipeline.Block{ISA: cost.Thumb, Encodings: []string{"f44f", "5bfa", "4770"}}
	if pipeline.Key(a57, b) == pipeline.Key(a57, split) {
		t.Error("one 32-bit instruction and two 16-bit ones have the same key")
	}
	if got := pipeline.Describe(cost.PipelineModel{CPU: "cortex-a55"}); got != "llvm-mca-19 -mcpu=cortex-a55" {
		t.Errorf("Describe = %q", got)
	}
}

// TestCancelStops: cancelling after the first batch stops the rest; Price returns the
// cancellation soon, not after every block.
func TestCancelStops(t *testing.T) {
	fastlane.Needs(t, "llvm-mca-16")
	blocks := make([]pipeline.Block, 4000) // distinct blocks: twenty batches
	for i := range blocks {
		blocks[i] = pipeline.Block{ISA: cost.AArch64, Encodings: []string{fmt.Sprintf("%08x", 0x91000000|uint32(i)<<10), "9b017c00"}}
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	last := 0
	_, err := pipeline.Price(ctx, a55, blocks, func(done, total int) {
		last = done
		if done > 0 {
			cancel()
		}
	})
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("Price after cancel: %v", err)
	}
	if last >= len(blocks) {
		t.Errorf("progress reached %d of %d: the cancel stopped nothing", last, len(blocks))
	}
}

// mainBlocks are the blocks of sieve's main as QEMU translated them, or for MIPS, whose
// QEMU 7.2 log prints no bytes, main's code from objdump in blocks of six instructions.
func mainBlocks(t *testing.T, g guest) []pipeline.Block {
	var out []pipeline.Block
	if g.isa == cost.MIPS {
		bin := qemutest.Build(t, g.target, filepath.Join(qemutest.SamplesDir(), "sieve.c"))
		text, err := exec.Command("mipsel-linux-gnu-objdump", "-d", "--disassemble=main", bin).Output()
		if err != nil {
			t.Fatal(err)
		}
		words := regexp.MustCompile(`(?m)^\s+[0-9a-f]+:\t([0-9a-f]{8}) `).FindAllStringSubmatch(string(text), -1)
		for i := 0; i+6 <= len(words); i += 6 {
			b := pipeline.Block{ISA: cost.MIPS}
			for _, w := range words[i : i+6] {
				b.Encodings = append(b.Encodings, w[1])
			}
			out = append(out, b)
		}
		return out
	}
	for _, b := range realBlocks(t, g.target, "sieve.c", "3000") {
		if b.Symbol == "main" && b.ISA == g.isa {
			out = append(out, asBlock(b))
		}
	}
	return out
}

// price runs Price and fails the test on an error.
func price(t testing.TB, m cost.PipelineModel, blocks ...pipeline.Block) []pipeline.Result {
	t.Helper()
	r, err := pipeline.Price(context.Background(), m, blocks, nil)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// realBlocks are the blocks QEMU translated running a sample built for the target, by address.
func realBlocks(t testing.TB, tg qemutest.Target, src string, args ...string) []*cost.Block {
	t.Helper()
	bin := qemutest.Build(t, tg, filepath.Join(qemutest.SamplesDir(), src))
	log := qemutest.Log(t, tg, bin, []string{"-d", "in_asm"}, args...)
	isas := map[string][]cost.ISA{"arm": {cost.ARM, cost.Thumb}, "thumb": {cost.ARM, cost.Thumb},
		"mips": {cost.MIPS}, "aarch64": {cost.AArch64}, "x86_64": {cost.X86_64}}[tg.Name]
	c := bbprofile.NewCollector()
	if err := qemulog.ImportLogs(context.Background(), []string{log}, isas, c, nil); err != nil {
		t.Fatal(err)
	}
	var out []*cost.Block
	for _, b := range c.Blocks {
		out = append(out, b)
	}
	slices.SortFunc(out, func(a, b *cost.Block) int { return int(a.PC>>1) - int(b.PC>>1) })
	return out
}

// asBlock is the code of a traced block.
func asBlock(b *cost.Block) pipeline.Block {
	p := pipeline.Block{ISA: b.ISA}
	for _, in := range b.Insns {
		p.Encodings = append(p.Encodings, in.Encoding)
	}
	return p
}

var mcaTriple = map[cost.ISA]string{cost.ARM: "armv7a-linux-gnueabihf", cost.Thumb: "thumbv7a-linux-gnueabihf",
	cost.AArch64: "aarch64-linux-gnu", cost.MIPS: "mipsel-linux-gnu", cost.X86_64: "x86_64-linux-gnu"}

// byHand runs llvm-mc on the block's bytes and llvm-mca on its text, as a user would, and
// returns Total Cycles ÷ Iterations.
func byHand(t *testing.T, m cost.PipelineModel, b pipeline.Block) float64 {
	t.Helper()
	target := []string{"-mcpu=" + m.CPU}
	if b.ISA == cost.ARM || b.ISA == cost.Thumb {
		target = append(target, "-mattr=+neon,+vfp4,+hwdiv,+hwdiv-arm")
	}
	mc := exec.Command(strings.Replace(m.Tool, "llvm-mca", "llvm-mc", 1),
		append([]string{"--disassemble", "-triple=" + mcaTriple[b.ISA]}, target...)...)
	mc.Stdin = strings.NewReader(memoryHex(t, b))
	text, err := mc.Output()
	if err != nil {
		t.Fatalf("llvm-mc: %v", err)
	}
	mca := exec.Command(m.Tool, append([]string{"-mtriple=" + mcaTriple[b.ISA], "-iterations=100"}, target...)...)
	mca.Stdin = strings.NewReader(string(text))
	out, err := mca.Output()
	if err != nil {
		t.Fatalf("llvm-mca on\n%s: %v", text, err)
	}
	iters := regexp.MustCompile(`Iterations:\s+(\d+)`).FindSubmatch(out)
	total := regexp.MustCompile(`Total Cycles:\s+(\d+)`).FindSubmatch(out)
	if iters == nil || total == nil {
		t.Fatalf("llvm-mca printed no summary:\n%s", out)
	}
	i, _ := strconv.ParseFloat(string(iters[1]), 64)
	c, _ := strconv.ParseFloat(string(total[1]), 64)
	return c / i
}

// memoryHex is llvm-mc's input for the block: its bytes as they lie in memory, "0x.." each.
func memoryHex(t *testing.T, b pipeline.Block) string {
	t.Helper()
	var mem []byte
	for _, enc := range b.Encodings {
		for _, u := range strings.Fields(enc) {
			raw, err := hex.DecodeString(u)
			if err != nil {
				t.Fatal(err)
			}
			switch {
			case b.ISA == cost.X86_64:
				mem = append(mem, raw...)
			case len(raw) == 2:
				mem = binary.LittleEndian.AppendUint16(mem, binary.BigEndian.Uint16(raw))
			default:
				mem = binary.LittleEndian.AppendUint32(mem, binary.BigEndian.Uint32(raw))
			}
		}
	}
	var sb strings.Builder
	for _, c := range mem {
		fmt.Fprintf(&sb, "0x%02x ", c)
	}
	return sb.String()
}

// BenchmarkPrice1000Blocks prices 1000 distinct real blocks (AArch64 sieve and its static glibc
// under cortex-a55), as the controller's first report of a run does; ms/block is its cost.
func BenchmarkPrice1000Blocks(b *testing.B) {
	qemutest.Require(b, "llvm-mca-16", "llvm-mc-16")
	var blocks []pipeline.Block
	for _, run := range [][]string{{"sieve.c", "3000"}, {"cpu.c", "1"}, {"threads.c", "3000"}} {
		for _, cb := range realBlocks(b, qemutest.AArch64, run[0], run[1:]...) {
			if len(blocks) < 1000 {
				blocks = append(blocks, asBlock(cb))
			}
		}
	}
	if len(blocks) < 1000 {
		b.Fatalf("only %d blocks", len(blocks))
	}
	b.ResetTimer()
	start := time.Now()
	for b.Loop() {
		if _, err := pipeline.Price(context.Background(), a55, blocks, nil); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(time.Since(start).Milliseconds())/float64(b.N)/float64(len(blocks)), "ms/block")
}

// TestCallPricedAsBranch: under llvm-mca-19 a block that ends in a call costs what the same
// block ending in a branch costs; llvm-mca-16 charges the call its assumed 100 cycles.
func TestCallPricedAsBranch(t *testing.T) {
	fastlane.Needs(t, "llvm-mca-16 and llvm-mca-19")
	// add x0, x0, x1; ldr x2, [x0]; then bl or b to the next instruction.
	call := pipeline.Block{ISA: cost.AArch64, Encodings: []string{"8b010000", "f9400002", "94000001"}}
	branch := pipeline.Block{ISA: cost.AArch64, Encodings: []string{"8b010000", "f9400002", "14000001"}}
	a55v19 := cost.PipelineModel{Tool: "llvm-mca-19", CPU: "cortex-a55"}
	r19, err := pipeline.Price(context.Background(), a55v19, []pipeline.Block{call, branch}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if !r19[0].OK || r19[0].Cycles != r19[1].Cycles {
		t.Errorf("llvm-mca-19: call block %+v, branch block %+v; want the same cycles", r19[0], r19[1])
	}
	r16, err := pipeline.Price(context.Background(), a55, []pipeline.Block{call, branch}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if r16[0].Cycles < r16[1].Cycles+90 {
		t.Errorf("llvm-mca-16: call block %.2f, branch block %.2f; the 100-cycle call is gone, so the docs are out of date", r16[0].Cycles, r16[1].Cycles)
	}
}
