package cli

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"androprof/emulator/qemutest"
	"androprof/jvm"
)

// outputCase is a command that writes files the user names: args builds its command line in
// dir, and links are the files it writes there (relative to dir), where a link is planted
// before it runs.
type outputCase struct {
	name  string
	slow  bool // runs a program (qemu, java, perf) and imports it into a workspace of its own; not under -short
	args  func(t *testing.T, dir string) []string
	links []string
	said  []string // the links the command says it replaced ("replaced FILE")
	// pidLinks, when not "", is a file the command keeps named after a process's pid (a %d in
	// it), which cannot be known beforehand: a link is planted at the name of every pid the next
	// processes may get (nextPids), and the one kept must be a regular file (checkPidLinks).
	pidLinks string
}

// Issue 24 finding 1, and its "done means": as root, no output path of any command writes
// through a link. A link to a victim file is planted at every path a command writes; the victim
// must be byte-identical afterwards and the output a regular file of its own.
func TestOutputsNeverFollowLinks(t *testing.T) {
	demo := demoRunsDB(t, func(run string) bool { return run == "demo-methods" || run == "demo-sieve-arm" })
	for _, c := range outputCases() {
		t.Run(c.name, func(t *testing.T) {
			if c.slow && testing.Short() {
				t.Skip("runs a program; not under -short")
			}
			dir := t.TempDir()
			victim := filepath.Join(dir, "victim.txt")
			const precious = "precious\n"
			if err := os.WriteFile(victim, []byte(precious), 0o644); err != nil {
				t.Fatal(err)
			}
			args, db := c.args(t, dir), demo
			if c.slow {
				db = filepath.Join(dir, "w.db")
			}
			for _, l := range c.links {
				plantLink(t, victim, filepath.Join(dir, l))
			}
			var pids map[int]bool
			if c.pidLinks != "" {
				pids = nextPids(t, pidWindow)
				for pid := range pids {
					plantLink(t, victim, filepath.Join(dir, fmt.Sprintf(c.pidLinks, pid)))
				}
			}
			code, out, errOut := runCLI(t, db, args...)
			if code != 0 {
				t.Fatalf("exit %d\n%s%s", code, out, errOut)
			}
			if got, _ := os.ReadFile(victim); string(got) != precious {
				t.Errorf("the file the link pointed at was overwritten: now %d bytes %.40q", len(got), got)
			}
			for _, l := range c.links {
				if st, err := os.Lstat(filepath.Join(dir, l)); err != nil {
					t.Error(err)
				} else if !st.Mode().IsRegular() || st.Size() == 0 {
					t.Errorf("%s is not a regular file of its own: %v, %d bytes", l, st.Mode(), st.Size())
				}
			}
			if c.pidLinks != "" {
				checkPidLinks(t, filepath.Join(dir, c.pidLinks), pids)
			}
			for _, l := range c.said {
				if !strings.Contains(errOut, "replaced "+filepath.Join(dir, l)) {
					t.Errorf("replacing %s was not said:\n%s", l, errOut)
				}
			}
		})
	}
}

// outputCases are every command that writes a file: the exports and charts on the demo runs
// (every kind of chart is written by writeDrawing; an emulator run and a method trace stand for all),
// and the wrappers' summaries and kept files on real programs.
func outputCases() []outputCase {
	at := func(dir, name string) string { return filepath.Join(dir, name) }
	return []outputCase{
		{name: "export pprof", links: []string{"link.pprof"}, said: []string{"link.pprof"}, args: func(t *testing.T, dir string) []string {
			return []string{"export", "--run", "demo-methods", "--format", "pprof", "--out", at(dir, "link.pprof")}
		}},
		{name: "chart png of an emulator run", links: []string{"c.png"}, said: []string{"c.png"}, args: func(t *testing.T, dir string) []string {
			return []string{"chart", "--run", "demo-sieve-arm", "--by", "pid", "--out", at(dir, "c.png")}
		}},
		{name: "chart svg of a method trace", links: []string{"m.svg"}, said: []string{"m.svg"}, args: func(t *testing.T, dir string) []string {
			return []string{"chart", "--run", "demo-methods", "--out", at(dir, "m.svg")}
		}},
		{name: "chart csv", links: []string{"c.csv"}, said: []string{"c.csv"}, args: func(t *testing.T, dir string) []string {
			return []string{"chart", "--run", "demo-sieve-arm", "--out", at(dir, "c.csv")}
		}},
		{name: "chart json", links: []string{"j.svg"}, said: []string{"j.svg"}, args: func(t *testing.T, dir string) []string {
			return []string{"chart", "--run", "demo-sieve-arm", "--json", "--out", at(dir, "j.svg")}
		}},
		{name: "profile export", links: []string{"p.xml"}, said: []string{"p.xml"}, args: func(t *testing.T, dir string) []string {
			return []string{"profile", "export", "ARMv7-A Cortex-A8", "--out", at(dir, "p.xml")}
		}},
		{name: "run --summary", slow: true, links: []string{"sum.txt"}, said: []string{"sum.txt"}, args: func(t *testing.T, dir string) []string {
			tg := qemutest.Targets[0]
			bin := qemutest.Build(t, tg, filepath.Join(qemutest.SamplesDir(), "sieve.c"))
			return []string{"run", "--run", "r", "--summary", at(dir, "sum.txt"), "--", bin, "100"}
		}},
		{name: "run --keep", slow: true, pidLinks: "keep/bbprofile-%d.txt", args: func(t *testing.T, dir string) []string {
			tg := qemutest.Targets[0]
			bin := qemutest.Build(t, tg, filepath.Join(qemutest.SamplesDir(), "sieve.c"))
			return []string{"run", "--run", "r", "--keep", at(dir, "keep"), "--", bin, "100"}
		}},
		{name: "heap --keep", slow: true, links: []string{"keep/heap.heaplog"}, args: func(t *testing.T, dir string) []string {
			requireJava(t)
			return []string{"heap", "--run", "g", "--keep", at(dir, "keep"), "--",
				"java", "-cp", javaSamples(t, dir), "demo.Garbage", "1000"}
		}},
		{name: "vertical --keep --summary", slow: true, links: []string{"keep/perf.data", "keep/perf.script", "sum.txt"}, said: []string{"sum.txt"},
			pidLinks: "keep/perf-%d.map", // java's pid
			args: func(t *testing.T, dir string) []string {
				requirePerf(t)
				return []string{"vertical", "--run", "v", "--keep", at(dir, "keep"), "--summary", at(dir, "sum.txt"),
					"--", "java", "-cp", javaSamples(t, dir), "demo.Garbage", "1000"}
			}},
	}
}

// javaSamples compiles the Java samples into dir/classes.
func javaSamples(t *testing.T, dir string) string {
	t.Helper()
	classes := filepath.Join(dir, "classes")
	if err := jvm.CompileSamples(context.Background(), "", classes); err != nil {
		t.Fatal(err)
	}
	return classes
}

// plantLink makes path, and the folders above it, a link to victim.
func plantLink(t *testing.T, victim, path string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(victim, path); err != nil {
		t.Fatal(err)
	}
}

// pidWindow is how many pids are planted: the test machine starts hundreds of processes and
// threads a second, and the program a command runs starts within seconds.
const pidWindow = 10_000

// nextPids are the n pids the machine gives next, but for those in use: the ones after the last
// it gave, wrapping at pid_max to 300 (RESERVED_PIDS) as Linux does.
func nextPids(t *testing.T, n int) map[int]bool {
	t.Helper()
	last, pidMax := procInt(t, "/proc/sys/kernel/ns_last_pid"), procInt(t, "/proc/sys/kernel/pid_max")
	const reserved = 300
	n = min(n, pidMax-reserved)
	pids := make(map[int]bool, n)
	for pid := last; len(pids) < n; {
		if pid++; pid >= pidMax {
			pid = reserved
		}
		pids[pid] = true
	}
	return pids
}

// procInt reads a number from a file of /proc.
func procInt(t *testing.T, path string) int {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	n, err := strconv.Atoi(strings.TrimSpace(string(b)))
	if err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	return n
}

// checkPidLinks checks the files a command kept at pattern (a %d for the pid): at least one is a
// regular file, and each is at a pid a link was planted for, else the command had no link to
// write through and the case checked nothing.
func checkPidLinks(t *testing.T, pattern string, planted map[int]bool) {
	t.Helper()
	files, err := filepath.Glob(strings.Replace(pattern, "%d", "*", 1))
	if err != nil {
		t.Fatal(err)
	}
	kept := 0
	for _, f := range files {
		if st, err := os.Lstat(f); err != nil || !st.Mode().IsRegular() {
			continue // a link at a pid no process of the command got
		}
		var pid int
		if _, err := fmt.Sscanf(filepath.Base(f), filepath.Base(pattern), &pid); err != nil || !planted[pid] {
			t.Fatalf("%s was kept where no link was planted: the machine gave more than %d pids meanwhile; run again", f, len(planted))
		}
		kept++
	}
	if kept == 0 {
		t.Errorf("no %s was kept as a regular file of its own", filepath.Base(pattern))
	}
}
