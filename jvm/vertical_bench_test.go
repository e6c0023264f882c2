package jvm

import (
	"bufio"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"androprof/internal/benchmem"
)

// benchPhases is the CPU-bound workload of the overhead benchmarks: demo.Phases' application,
// library and native phases (no I/O), about 6 s on the project's virtual machine: long enough
// that perf's fixed cost (0.2–0.3 s, mostly reading /proc/kallsyms three times as it starts)
// is not most of its price.
func benchPhases(b *testing.B, jdk *JDK) []string {
	return []string{"-Dphases.native=" + phasesNativeLib(b), "-cp", compiledSamples(b, jdk), "demo.Phases", "3", "app,library,native"}
}

// benchRig runs the command lines the overhead benchmarks compare and times them.
type benchRig struct {
	b          *testing.B
	jdk        *JDK
	perf, dir  string
	agent      string // java's -agentpath option for the perf map agent
	agentCPU   time.Duration
	processCPU time.Duration
}

func newBenchRig(b *testing.B) *benchRig {
	jdk := requireJDK(b)
	requirePerf(b)
	so, err := perfmapAgent.buildFor(jdk, testCacheDir)
	if err != nil {
		b.Fatal(err)
	}
	agent, err := agentPath(so, perfmapAgent.what)
	if err != nil {
		b.Fatal(err)
	}
	perf, _ := exec.LookPath("perf")
	return &benchRig{b: b, jdk: jdk, perf: perf, dir: b.TempDir(), agent: agent}
}

func (r *benchRig) data() string  { return filepath.Join(r.dir, "perf.data") }
func (r *benchRig) stats() string { return filepath.Join(r.dir, "agent.stats") }

// plain is java alone, with extra options.
func (r *benchRig) plain(args []string, extra ...string) []string {
	return append(append([]string{r.jdk.Java}, extra...), args...)
}

// recorded is java under perf record as RecordVertical runs it; withAgent adds the agent.
func (r *benchRig) recorded(args []string, cg CallGraph, withAgent bool) []string {
	agent := ""
	if withAgent {
		agent = r.agent
	}
	return perfRecord(r.perf, 1000, cg, r.data(), javaCommand(r.jdk.Java, agent, r.stats(), cg, args))
}

// run times one command line: its wall time, and the work time the phases of demo.Phases
// print (without the JVM's start and end, and perf's). An agent's counters are added up, its
// map removed at the end.
func (r *benchRig) run(argv []string) (wall, work time.Duration) {
	os.Remove(r.stats())
	t0 := time.Now()
	out, err := exec.Command(argv[0], argv[1:]...).CombinedOutput()
	if err != nil {
		r.b.Fatalf("%s: %v\n%s", strings.Join(argv, " "), err, out)
	}
	wall = time.Since(t0)
	for _, m := range phaseTime.FindAllSubmatch(out, -1) {
		s, _ := strconv.ParseFloat(string(m[1]), 64)
		work += time.Duration(s * 1e9)
	}
	if s, complete, err := ReadAgentStats(r.stats()); err == nil {
		r.b.Cleanup(func() { os.Remove(fmt.Sprintf("/tmp/perf-%d.map", s.PID)) })
		if !complete {
			r.b.Fatalf("the agent's counters are incomplete: %+v", s)
		}
		r.agentCPU += s.AgentCPU
		r.processCPU += s.ProcessCPU
	}
	return wall, work
}

// phaseTime is a phase's line in demo.Phases' output: "phase-app 1.02 s checksum …".
var phaseTime = regexp.MustCompile(`(?m)^phase-\S+ ([0-9.]+) s `)

// pairs runs the command lines b.N times, in turns first (the first of neighbouring runs is
// often the faster), and returns each one's wall and work times by round.
func (r *benchRig) pairs(cmds ...[]string) (wall, work [][]time.Duration) {
	for _, c := range cmds { // warm the page cache and the JIT's files
		r.run(c)
	}
	r.agentCPU, r.processCPU = 0, 0
	r.b.ResetTimer()
	wall, work = make([][]time.Duration, len(cmds)), make([][]time.Duration, len(cmds))
	for i := range r.b.N {
		for k := range cmds {
			j := (i + k) % len(cmds)
			w, p := r.run(cmds[j])
			wall[j], work[j] = append(wall[j], w), append(work[j], p)
		}
	}
	return wall, work
}

// medianRatio is the median over rounds of a's time over b's.
func medianRatio(a, b []time.Duration) float64 {
	ratios := make([]float64, len(a))
	for i := range a {
		ratios[i] = float64(a[i]) / float64(b[i])
	}
	slices.Sort(ratios)
	return ratios[len(ratios)/2]
}

func median(ts []time.Duration) time.Duration {
	s := slices.Clone(ts)
	slices.Sort(s)
	return s[len(s)/2]
}

// BenchmarkVerticalOverhead prices `androprof vertical` on a CPU-bound Java program
// (demo.Phases' application, library and native phases) at 1 kHz with frame-pointer stacks:
// the program under perf record with the perf map agent against (a) the plain program and
// (b) the program under perf alone (with -XX:+PreserveFramePointer as well), each the median
// over b.N rounds of neighbouring runs in turns first (this virtual machine's speed drifts by
// ±15% within a minute), and (c) the agent's own CPU time as a share of the program's, exact,
// from the agent's counters. The goals: the agent ≤ 1 %, the whole ≤ 10 %.
// x-work-whole/plain is the same as (a) for the time the phases themselves report: the
// slowdown the program sees, without perf's start and end.
//
//	go test -run '^$' -bench VerticalOverhead -benchtime 5x ./jvm
func BenchmarkVerticalOverhead(b *testing.B) {
	r := newBenchRig(b)
	args := benchPhases(b, r.jdk)
	t, work := r.pairs(r.plain(args), r.recorded(args, CallGraphFP, false), r.recorded(args, CallGraphFP, true))
	whole, agent := medianRatio(t[2], t[0]), medianRatio(t[2], t[1])
	share := float64(r.agentCPU) / float64(r.processCPU)
	b.ReportMetric(whole, "x-whole/plain")
	b.ReportMetric(agent, "x-whole/perf")
	b.ReportMetric(medianRatio(work[2], work[0]), "x-work-whole/plain")
	b.ReportMetric(100*share, "%-agent-cpu")
	b.ReportMetric(slices.Min(t[0]).Seconds(), "s-plain-min")
	b.Logf("median wall times: plain %v, perf %v, agent and perf %v", median(t[0]), median(t[1]), median(t[2]))
	if share > 0.01 {
		b.Errorf("the agent took %.2f%% of the program's CPU time; the issue allows 1%%", 100*share)
	}
	// The goal is 1.10×. Here it measures 1.05× when quiet, but a fresh-machine CI run
	// on a shared host measured 1.10× (perf alone 1.12×: its start and end cost more there), so
	// CI fails only past 1.15×, and a run over the goal says it missed it.
	benchmem.CheckGoal(b, "agent and perf over the plain program", whole, 1.10, 1.15)
}

// BenchmarkVerticalCosts measures what the choices of docs/vertical.md cost on the same
// workload: -XX:+PreserveFramePointer on the plain program, DWARF call stacks against frame
// pointers (the program's time under perf with the agent, perf.data's bytes per sample, perf
// script's time per sample).
//
//	go test -run '^$' -bench VerticalCosts -benchtime 5x ./jvm
func BenchmarkVerticalCosts(b *testing.B) {
	r := newBenchRig(b)
	args := benchPhases(b, r.jdk)
	b.Run("PreserveFramePointer", func(b *testing.B) {
		r.b = b
		t, work := r.pairs(r.plain(args), r.plain(args, "-XX:+PreserveFramePointer"))
		b.ReportMetric(medianRatio(t[1], t[0]), "x-pfp/plain")
		b.ReportMetric(medianRatio(work[1], work[0]), "x-work-pfp/plain")
	})
	b.Run("CallGraph", func(b *testing.B) {
		r.b = b
		fp, dwarf := r.recorded(args, CallGraphFP, true), r.recorded(args, CallGraphDWARF, true)
		t, work := r.pairs(fp, dwarf)
		b.ReportMetric(medianRatio(t[1], t[0]), "x-dwarf/fp")
		b.ReportMetric(medianRatio(work[1], work[0]), "x-work-dwarf/fp")
		for _, c := range []struct {
			name string
			argv []string
		}{{"fp", fp}, {"dwarf", dwarf}} {
			r.run(c.argv)
			size := fileSize(r.data())
			t0 := time.Now()
			samples := r.script()
			d := time.Since(t0)
			b.ReportMetric(float64(size)/float64(samples), "B/sample-"+c.name)
			b.ReportMetric(float64(d.Microseconds())/float64(samples), "µs-script/sample-"+c.name)
		}
	})
}

// script runs perf script on the rig's perf.data as RecordVertical does and counts the samples.
func (r *benchRig) script() int {
	out := filepath.Join(r.dir, "perf.script")
	if err := runToFile(r.b.Context(), perfScript(r.perf, r.data()), out); err != nil {
		r.b.Fatal(err)
	}
	f, err := os.Open(out)
	if err != nil {
		r.b.Fatal(err)
	}
	defer f.Close()
	n := 0
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		if l := sc.Text(); l != "" && l[0] != '\t' && l[0] != '#' {
			n++
		}
	}
	return n
}
