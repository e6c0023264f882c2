package cli

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"androprof/internal/shapes"
)

// Growth bounds: doubling an input may multiply what its commands cost, above what a tiny
// input of the same shape costs, by at most these. Linear costs double; the margins are what
// a shared 2-core machine adds: Go's heap grows in steps (GOGC doubles the live heap, so a
// peak can land just above or below a step), and the CPU time of a child moves by tens of per
// cent with its neighbours' load. A quadratic cost quadruples, and fails.
const (
	peakGrowth = 2.6 // peak resident memory, bytes written, workspace size
	timeGrowth = 3.0 // CPU time
)

// Below these, a cost is noise, not growth: a difference this small between two sizes passes
// whatever the ratio (sizes are picked so that a quadratic cost is far above them).
const (
	peakSlack = 16 << 20
	timeSlack = 300 * time.Millisecond
	outSlack  = 64 << 10
	diskSlack = 1 << 20
)

// stepLimit bounds one command of the growth check, so a quadratic shape fails in minutes
// rather than hanging; no command of a linear shape comes near it.
const stepLimit = 90 * time.Second

// shape is one of issue 24's inputs (findings 8–13, 16) that are small but cost more than
// linearly unless the program is careful.
type shape struct {
	name     string
	file     string                     // the input's file name, which says its format
	tiny, n  int                        // the baseline's size and the first size; the second is 2n
	write    func(io.Writer, int) error // the shape's one generator, in internal/shapes
	commands [][]string                 // run on the imported run; "OUT" is a fresh output file
	refused  bool                       // the import must fail, naming the file
	either   bool                       // refused (naming the file) or imported: both are right
}

// growthShapes are the shapes at sizes where a linear program takes well under a second (a
// few for the threads) and a quadratic one seconds and hundreds of MB. Equal calls and
// one-call threads cross 40,000 calls at 2n: twice the budget of the timeline's call keeper
// (model.SpanKeeper), where it starts cutting among ties. Long names in text reports are n
// bytes among n/1024 rows (a report that pads every row writes rows × n); in charts, n is
// smaller, as a chart that fits a label by measuring it once per letter costs n² alone.
func growthShapes() []shape {
	methods := [][]string{{"report", "--by", "method"}}
	return []shape{
		{name: "depth/traceview", file: "deep.trace", tiny: 1, n: 2000, write: shapes.DeepTraceview, commands: methods},
		{name: "depth/dpa", file: "deep.dpa", tiny: 1, n: 2000, write: shapes.DeepDPA, commands: methods},
		{name: "depth/rmp", file: "deep.rmp", tiny: 1, n: 2000, write: shapes.DeepRMP, commands: methods},
		{name: "ties/traceview", file: "ties.trace", tiny: 1, n: 30000, write: shapes.TiesTraceview, commands: methods},
		{name: "ties/dpa", file: "ties.dpa", tiny: 1, n: 30000, write: shapes.TiesDPA, commands: methods},
		{name: "threads/traceview", file: "threads.trace", tiny: 1, n: 24000, write: shapes.ManyThreadsTraceview,
			commands: [][]string{{"report", "--by", "thread"}}},
		{name: "bomb/hprof", file: "bomb.hprof.gz", tiny: 1, n: 64, write: shapes.HPROFBomb, refused: true},
		{name: "names/hprof report", file: "names.hprof", tiny: 64, n: 32 << 10, write: shapes.LongClassDump,
			commands: [][]string{{"report", "--by", "class"}, {"report", "--by", "package"}}},
		{name: "names/traceview report", file: "names.trace", tiny: 64, n: 32 << 10, write: shapes.LongMethodTrace,
			commands: [][]string{{"report", "--by", "method"}, {"report", "--by", "class"}}},
		{name: "names/qemu-log report", file: "names.log", tiny: 64, n: 32 << 10, write: shapes.LongSymbolLog,
			commands: [][]string{{"report", "--by", "function"}}},
		{name: "names/hprof chart", file: "names.hprof", tiny: 64, n: 4 << 10, write: shapes.LongClassDump,
			commands: [][]string{{"chart", "--figure", "dump-classes", "--out", "OUT.svg"}}},
		{name: "names/traceview chart", file: "names.trace", tiny: 64, n: 4 << 10, write: shapes.LongMethodTrace,
			commands: [][]string{{"chart", "--out", "OUT.svg"}}},
		{name: "names/qemu-log chart", file: "names.log", tiny: 64, n: 4 << 10, write: shapes.LongSymbolLog,
			commands: [][]string{{"chart", "--by", "function", "--out", "OUT.svg"}}},
		{name: "back-in-time/perf-script", file: "back.perfscript", tiny: 2, n: 5000, write: shapes.PerfBackInTime, either: true,
			commands: [][]string{{"report", "--by", "layer"}, {"chart", "--by", "layer-time", "--out", "OUT.svg"}}},
		{name: "truncated/perf-script", file: "cut.perfscript", tiny: 2, n: 5000, write: shapes.TruncatedPerfScript, refused: true},
		{name: "truncated/heaplog", file: "cut.heaplog", tiny: 10, n: 20000, write: shapes.TruncatedHeapLog, refused: true},
	}
}

// shapeCost is what one size of a shape cost: its import and its commands, each a child process.
type shapeCost struct {
	cpu, wall time.Duration // summed over the commands: user and system time, and elapsed
	peak      int64         // the largest peak resident memory of one command
	out       int64         // bytes written: stdout and output files
	disk      int64         // the workspace after the import
	problems  []string      // what went wrong besides growth: crashes, refusals, kills
}

// fail records a problem of this size.
func (c *shapeCost) fail(format string, args ...any) {
	c.problems = append(c.problems, fmt.Sprintf(format, args...))
}

func (c shapeCost) String() string {
	return fmt.Sprintf("cpu %.2f s, wall %.2f s, peak %d MB, out %d KB, workspace %d KB",
		c.cpu.Seconds(), c.wall.Seconds(), c.peak>>20, c.out>>10, c.disk>>10)
}

// TestBatteryGrowth imports each shape of issue 24 at a tiny size, n and 2n, each into a new
// workspace, in a child process, and runs the reports and charts its finding names: the cost
// above the tiny input's may grow 2.6× (memory, output, workspace) and 3× (CPU time) from n to
// 2n (linear with noise; quadratic is 4×). Bombs and truncated files must be refused with a
// message that names the file, and nothing may crash. A shape past a bound is measured once
// more (measureShape). A line per shape gives the sizes and costs (scripts/test.sh shows them).
func TestBatteryGrowth(t *testing.T) {
	if raceDetector {
		t.Skip("measures peak memory and time, which the race detector inflates; scripts/test.sh runs it without -race")
	}
	if testing.Short() {
		t.Skip("imports each shape of issue 24 three times")
	}
	for _, s := range growthShapes() {
		t.Run(s.name, func(t *testing.T) {
			base, first, second := measureShape(t, s)
			problems := shapeProblems(base, first, second)
			for _, p := range problems {
				t.Error(p)
			}
			fmt.Printf("battery: growth: %s\n", growthLine(s, base, first, second, problems))
		})
	}
}

// measureShape measures s at its tiny size, n and 2n. Noise only ever adds cost, so when the
// growth is past a bound the three are measured once more and each cost kept at its least: a
// peak that landed above a step of the heap, or a busy second, does not fail the check, and a
// cost that does grow too fast grows too fast both times.
func measureShape(t testing.TB, s shape) (base, first, second shapeCost) {
	measure := func() (shapeCost, shapeCost, shapeCost) {
		return measureSize(t, s, s.tiny, false), measureSize(t, s, s.n, true), measureSize(t, s, 2*s.n, true)
	}
	base, first, second = measure()
	if len(growthProblems(base, first, second)) > 0 {
		b, f, g := measure()
		base, first, second = base.least(b), first.least(f), second.least(g)
	}
	return base, first, second
}

// least is each cost of c and o at its smaller; the problems are c's.
func (c shapeCost) least(o shapeCost) shapeCost {
	return shapeCost{cpu: min(c.cpu, o.cpu), wall: min(c.wall, o.wall), peak: min(c.peak, o.peak),
		out: min(c.out, o.out), disk: min(c.disk, o.disk), problems: c.problems}
}

// shapeProblems are what went wrong at each size, then what grew past its bound.
func shapeProblems(base, first, second shapeCost) []string {
	out := slices.Concat(base.problems, first.problems, second.problems)
	return append(out, growthProblems(base, first, second)...)
}

// growthLine is the line the battery prints for a shape.
func growthLine(s shape, base, first, second shapeCost, problems []string) string {
	verdict := "ok"
	if len(problems) > 0 {
		verdict = "FAIL: " + strings.Join(problems, "; ")
	}
	return fmt.Sprintf("%s: n=%d: %v; 2n=%d: %v (tiny %d: %v): %s", s.name, s.n, first, 2*s.n, second, s.tiny, base, verdict)
}

// growthProblems compares two sizes' costs above the baseline's with the bounds.
func growthProblems(base, first, second shapeCost) []string {
	var out []string
	check := func(what string, b, x, y int64, bound float64, slack int64, unit string, scale float64) {
		dx, dy := max(x-b, 0), max(y-b, 0)
		if dy > int64(bound*float64(dx))+slack {
			out = append(out, fmt.Sprintf("%s grew %.1f× from n to 2n (%.1f → %.1f %s above the tiny input's %.1f), more than %.1f×",
				what, float64(dy)/float64(max(dx, 1)), float64(dx)/scale, float64(dy)/scale, unit, float64(b)/scale, bound))
		}
	}
	check("CPU time", int64(base.cpu), int64(first.cpu), int64(second.cpu), timeGrowth, int64(timeSlack), "s", 1e9)
	check("peak memory", base.peak, first.peak, second.peak, peakGrowth, peakSlack, "MB", 1<<20)
	check("output", base.out, first.out, second.out, peakGrowth, outSlack, "KB", 1<<10)
	check("workspace", base.disk, first.disk, second.disk, peakGrowth, diskSlack, "KB", 1<<10)
	return out
}

// measureSize writes s at size n, imports it into a new workspace and runs its commands;
// judge says whether the import must be refused (the tiny input of a bomb is no bomb).
func measureSize(t testing.TB, s shape, n int, judge bool) shapeCost {
	dir := t.TempDir()
	in := filepath.Join(dir, s.file)
	f, err := os.Create(in)
	if err != nil {
		t.Fatal(err)
	}
	if err := s.write(f, n); err != nil {
		t.Fatal(err)
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
	db := filepath.Join(dir, "w.db")
	var c shapeCost
	r := c.step(t, "import", "--db", db, "--run", "shape", in)
	c.disk = fileSize(db) + fileSize(db+"-wal")
	switch {
	case r.crashed(): // step said so
	case r.code == 0 && s.refused && judge:
		c.fail("size %d: imported, want it refused: %v", n, r)
	case r.code != 0 && !s.refused && !s.either:
		c.fail("size %d: refused: %v", n, r)
	case r.code != 0 && !strings.Contains(r.stderr, in):
		c.fail("size %d: refused without naming %s: %v", n, in, r)
	}
	if r.code != 0 {
		return c
	}
	for i, cmd := range s.commands {
		args := append([]string{}, cmd...)
		out := ""
		for j, a := range args {
			if ext, ok := strings.CutPrefix(a, "OUT"); ok {
				out = filepath.Join(dir, fmt.Sprint(i)+ext)
				args[j] = out
			}
		}
		if r := c.step(t, append(args, "--db", db, "--run", "shape")...); r.code != 0 && !r.crashed() {
			c.fail("size %d: %s: %v", n, strings.Join(cmd, " "), r)
		}
		if out != "" {
			c.out += fileSize(out)
		}
	}
	return c
}

// step runs one command in a child, killed after stepLimit, and adds what it cost to c.
func (c *shapeCost) step(t testing.TB, args ...string) childResult {
	t.Helper()
	start := time.Now()
	ch := startChild(t, nil, args...)
	select {
	case <-ch.exited:
	case <-time.After(stepLimit):
		ch.cmd.Process.Kill()
		c.fail("%s: killed after %v", strings.Join(args, " "), stepLimit)
	}
	r := ch.wait(t)
	st := ch.cmd.ProcessState
	c.wall += time.Since(start)
	c.cpu += st.UserTime() + st.SystemTime()
	c.peak = max(c.peak, r.peak)
	c.out += int64(len(r.stdout))
	if r.crashed() {
		c.fail("%s: crashed: %v", strings.Join(args, " "), r)
	}
	return r
}

func fileSize(p string) int64 {
	st, err := os.Stat(p)
	if err != nil {
		return 0
	}
	return st.Size()
}
