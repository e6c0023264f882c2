//go:build linux

package cli

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"androprof/emulator/qemutest"
	"androprof/internal/corpus"
	"androprof/internal/runset"
)

// Issue 24, findings 5 and 6: a signal to `androprof run`, `heap` or `vertical` must end every
// program it started (they run in a process group of their own, which the terminal's Ctrl-C
// does not reach), remove its temporary folders and say in a sentence what happened and what
// was kept, with the status a shell gives a command a signal stopped; a SIGKILL, which
// androprof cannot catch, must take its children with it.

// sleepyJava is a Java program that allocates a little, slowly, until it is stopped: it says
// "ready" once the JVM runs it.
const sleepyJava = `public class Sleepy {
	public static void main(String[] args) throws Exception {
		System.out.println("ready");
		System.out.flush();
		Object keep = null;
		for (int i = 0; i < 20_000; i++) {
			for (int j = 0; j < 100; j++)
				keep = new int[16];
			Thread.sleep(2);
		}
		System.out.println(keep != null);
	}
}
`

// spinC is a guest program that forks (a second qemu-user process) and spins in both
// processes until it is stopped: it says "ready" once both run.
const spinC = `#include <stdio.h>
#include <unistd.h>
int main(int argc, char **argv) {
	if (argc > 1)
		fork();
	volatile unsigned long x = 0;
	printf("ready\n");
	fflush(stdout);
	for (;;)
		x++;
}
`

// osProc is a process as /proc shows it: enough to tell it from a later one with its pid.
type osProc struct {
	pid, ppid, pgid int
	comm, start     string
	state           byte
}

// readProc reads /proc/PID/stat; false when the process is gone.
func readProc(pid int) (osProc, bool) {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return osProc{}, false
	}
	s := string(b)
	open, end := strings.IndexByte(s, '('), strings.LastIndexByte(s, ')')
	if open < 0 || end < open {
		return osProc{}, false
	}
	f := strings.Fields(s[end+1:]) // state ppid pgrp ... starttime is the 20th
	if len(f) < 20 {
		return osProc{}, false
	}
	p := osProc{pid: pid, comm: s[open+1 : end], state: f[0][0], start: f[19]}
	p.ppid, _ = strconv.Atoi(f[1])
	p.pgid, _ = strconv.Atoi(f[2])
	return p, true
}

// allProcs is every process of the machine.
func allProcs() []osProc {
	ents, _ := os.ReadDir("/proc")
	var ps []osProc
	for _, e := range ents {
		if pid, err := strconv.Atoi(e.Name()); err == nil {
			if p, ok := readProc(pid); ok {
				ps = append(ps, p)
			}
		}
	}
	return ps
}

// descendants are the processes below root, children before grandchildren.
func descendants(root int) []osProc {
	ps := allProcs()
	var out []osProc
	parents := []int{root}
	for len(parents) > 0 {
		var next []int
		for _, p := range ps {
			if slices.Contains(parents, p.ppid) {
				out = append(out, p)
				next = append(next, p.pid)
			}
		}
		parents = next
	}
	return out
}

// running says whether p still runs: the same process (pid and start time), not a zombie,
// which runs nothing and writes nothing while it waits to be reaped.
func (p osProc) running() bool {
	now, ok := readProc(p.pid)
	return ok && now.start == p.start && now.state != 'Z'
}

// survivors are the processes of procs, or of their process groups, that still run.
func survivors(procs []osProc) []osProc {
	groups := map[int]bool{}
	for _, p := range procs {
		groups[p.pgid] = true
	}
	var left []osProc
	for _, p := range allProcs() {
		if p.state != 'Z' && groups[p.pgid] {
			left = append(left, p)
		}
	}
	for _, p := range procs {
		if p.running() && !slices.ContainsFunc(left, func(q osProc) bool { return q.pid == p.pid }) {
			left = append(left, p)
		}
	}
	return left
}

// untilGone waits up to a few seconds for every one of procs (and their groups) to end, and
// returns those that did not.
func untilGone(procs []osProc) []osProc {
	deadline := time.Now().Add(10 * time.Second)
	for {
		left := survivors(procs)
		if len(left) == 0 || time.Now().After(deadline) {
			return left
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// stopCase is one command stopped by a signal once the program it runs said "ready".
type stopCase struct {
	name  string
	args  []string // the command line, up to --db
	comms []string // the programs that must be running before the signal, e.g. perf and java
	sig   syscall.Signal
	ended string // the programs the message says were ended
	keep  string // --keep's folder, "" for none
	// written, when not "", is a file pattern: the signal waits until such a file has data.
	written string
}

// stopAndCheck runs c, signals it once its program runs, and checks that nothing it started
// runs on and, unless it was killed, that its temporary folders are gone and the message says
// what happened.
func stopAndCheck(t *testing.T, c stopCase) {
	tmp := filepath.Join(t.TempDir(), "tmp")
	if err := os.Mkdir(tmp, 0o755); err != nil {
		t.Fatal(err)
	}
	t.Setenv("TMPDIR", tmp) // the child's temporary folders go here, where the test can look
	db := filepath.Join(t.TempDir(), "w.db")
	args := append([]string{c.args[0], "--db", db}, c.args[1:]...)
	ch, output := startChildToFile(t, args...)
	var procs []osProc
	ready := ch.until(func() bool {
		if !strings.Contains(output(), "ready") {
			return false
		}
		if c.written != "" {
			files, _ := filepath.Glob(c.written)
			if len(files) == 0 {
				return false
			}
			if st, err := os.Stat(files[0]); err != nil || st.Size() == 0 {
				return false
			}
		}
		procs = descendants(ch.cmd.Process.Pid)
		for _, comm := range c.comms {
			if !slices.ContainsFunc(procs, func(p osProc) bool { return p.comm == comm }) {
				return false
			}
		}
		return true
	})
	if !ready {
		ch.signal(syscall.SIGKILL)
		t.Fatalf("%v never ran (%v): %v", c.comms, procs, ch.wait(t))
	}
	ch.signal(c.sig)
	r := ch.wait(t)
	r.stderr = output()
	if left := untilGone(procs); len(left) > 0 {
		for _, p := range survivors(procs) {
			syscall.Kill(p.pid, syscall.SIGKILL) // not to leave them to the next test
		}
		t.Errorf("after %v, still running: %+v (all started: %+v)", c.sig, left, procs)
	}
	for _, p := range procs {
		// The perf map agent's map: a killed androprof cannot remove it.
		if m := fmt.Sprintf("/tmp/perf-%d.map", p.pid); p.comm == "java" && os.Remove(m) == nil && c.sig != syscall.SIGKILL {
			t.Errorf("%s was left behind", m)
		}
	}
	if c.sig == syscall.SIGKILL {
		if r.signal != syscall.SIGKILL {
			t.Errorf("want the child killed: %v", r)
		}
		return
	}
	if left, _ := os.ReadDir(tmp); len(left) > 0 {
		t.Errorf("temporary files left in TMPDIR: %v", left)
	}
	want := []string{"stopped by " + signalNames[c.sig], c.ended + " ended", "nothing was imported"}
	if c.keep == "" {
		want = append(want, "kept nothing")
	}
	for _, w := range want {
		if !strings.Contains(r.stderr, w) {
			t.Errorf("the message does not say %q: %v", w, r)
		}
	}
	if strings.Contains(r.stderr, "context canceled") {
		t.Errorf("the message says %q: %v", "context canceled", r)
	}
	if r.code != 128+int(c.sig) {
		t.Errorf("exit status %d, want %d: %v", r.code, 128+int(c.sig), r)
	}
}

// startChildToFile starts `androprof ARGS...` with its standard output and error in one file,
// not a pipe: a pipe stays open while an orphan holds it, and the child's Wait would wait for
// the orphan. output reads what the child and its programs have written so far.
func startChildToFile(t *testing.T, args ...string) (c *child, output func() string) {
	t.Helper()
	return startChildVia(t, nil, args...)
}

// startChildVia is startChildToFile with the child started by the command line via, which
// ends by running its arguments, e.g. a shell that sets up how signals are handled.
func startChildVia(t *testing.T, via []string, args ...string) (c *child, output func() string) {
	t.Helper()
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	out, err := os.Create(filepath.Join(t.TempDir(), "output"))
	if err != nil {
		t.Fatal(err)
	}
	defer out.Close() // the child has its own copy
	argv := append(append(via, exe), args...)
	c = &child{cmd: exec.Command(argv[0], argv[1:]...), peakFile: filepath.Join(t.TempDir(), "peak"), exited: make(chan struct{})}
	c.cmd.Env = append(os.Environ(), childEnv+"=1")
	c.cmd.Stdout, c.cmd.Stderr = out, out
	if err := c.cmd.Start(); err != nil {
		t.Fatal(err)
	}
	go func() {
		c.waitErr = c.cmd.Wait()
		close(c.exited)
	}()
	return c, func() string {
		b, _ := os.ReadFile(out.Name())
		return string(b)
	}
}

// signalNames are the names the messages use.
var signalNames = map[syscall.Signal]string{syscall.SIGINT: "SIGINT", syscall.SIGTERM: "SIGTERM", syscall.SIGHUP: "SIGHUP"}

// compileJava compiles one Java class of source into a fresh folder.
func compileJava(t *testing.T, name, source string) string {
	t.Helper()
	dir := t.TempDir()
	src := filepath.Join(dir, name+".java")
	if err := os.WriteFile(src, []byte(source), 0o644); err != nil {
		t.Fatal(err)
	}
	if msg, err := exec.Command("javac", "-d", dir, src).CombinedOutput(); err != nil {
		t.Fatalf("javac: %v\n%s", err, msg)
	}
	return dir
}

func TestSignalStopsHeap(t *testing.T) {
	if testing.Short() {
		t.Skip("runs Java programs")
	}
	requireJava(t)
	classes := compileJava(t, "Sleepy", sleepyJava)
	java := []string{"--", "java", "-cp", classes, "Sleepy"}
	keep := filepath.Join(t.TempDir(), "keep")
	for _, c := range []stopCase{
		{name: "SIGTERM", sig: syscall.SIGTERM},
		{name: "Ctrl-C", sig: syscall.SIGINT},
		{name: "SIGHUP", sig: syscall.SIGHUP},
		{name: "SIGTERM with --keep", sig: syscall.SIGTERM, keep: keep, written: filepath.Join(keep, "*", "heap.heaplog")},
		{name: "SIGKILL", sig: syscall.SIGKILL},
	} {
		t.Run(c.name, func(t *testing.T) {
			c.args = []string{"heap"}
			if c.keep != "" {
				c.args = append(c.args, "--keep", c.keep)
			}
			c.args, c.comms, c.ended = append(c.args, java...), []string{"java"}, "java"
			stopAndCheck(t, c)
			if c.keep != "" {
				if st, err := os.Stat(filepath.Join(keep, "heap.heaplog")); err != nil || st.Size() == 0 {
					t.Errorf("the heap log so far was not kept: %v", err)
				}
			}
		})
	}
}

func TestSignalStopsRun(t *testing.T) {
	if testing.Short() {
		t.Skip("runs qemu-user")
	}
	src := filepath.Join(t.TempDir(), "spin.c")
	if err := os.WriteFile(src, []byte(spinC), 0o644); err != nil {
		t.Fatal(err)
	}
	bin := qemutest.Build(t, qemutest.Targets[0], src)
	for _, c := range []stopCase{
		{name: "SIGTERM of a forked guest", sig: syscall.SIGTERM, args: []string{"run", "--", bin, "fork"}},
		{name: "Ctrl-C", sig: syscall.SIGINT, args: []string{"run", "--", bin}},
		{name: "SIGHUP", sig: syscall.SIGHUP, args: []string{"run", "--", bin}},
		{name: "SIGKILL", sig: syscall.SIGKILL, args: []string{"run", "--", bin}},
		{name: "SIGKILL of a forked guest", sig: syscall.SIGKILL, args: []string{"run", "--", bin, "fork"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			c.comms, c.ended = []string{"qemu-arm"}, filepath.Base(bin)+" under qemu-arm"
			stopAndCheck(t, c)
		})
	}
}

func TestSignalStopsVertical(t *testing.T) {
	if testing.Short() {
		t.Skip("records Java programs under perf")
	}
	requirePerf(t)
	classes := compileJava(t, "Sleepy", sleepyJava)
	for _, c := range []stopCase{
		{name: "SIGTERM", sig: syscall.SIGTERM},
		{name: "Ctrl-C", sig: syscall.SIGINT},
		{name: "SIGHUP", sig: syscall.SIGHUP},
		{name: "SIGKILL", sig: syscall.SIGKILL},
	} {
		t.Run(c.name, func(t *testing.T) {
			c.args = []string{"vertical", "--", "java", "-cp", classes, "Sleepy"}
			c.comms, c.ended = []string{"perf", "java"}, "perf and java"
			stopAndCheck(t, c)
		})
	}
}

// A signal androprof was started ignoring stays ignored (`nohup androprof run ...` survives its
// terminal's hangup); one it was not stops the command.
func TestIgnoredSignalStaysIgnored(t *testing.T) {
	dir := t.TempDir()
	fifo := filepath.Join(dir, "nobody-writes")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Fatal(err)
	}
	nohup := []string{"sh", "-c", `trap "" HUP; exec "$0" "$@"`}
	c, output := startChildVia(t, nohup, "import", "--db", filepath.Join(dir, "w.db"), fifo)
	if !c.until(func() bool { return strings.Contains(output(), fifo) }) {
		t.Fatalf("the import never waited for its FIFO: %q", output())
	}
	c.signal(syscall.SIGHUP)
	select {
	case <-c.exited:
		t.Fatalf("an ignored SIGHUP stopped the command: %q", output())
	case <-time.After(300 * time.Millisecond):
	}
	c.signal(syscall.SIGTERM)
	if r := c.wait(t); r.code == 0 || !strings.Contains(output(), "cancel") {
		t.Errorf("SIGTERM did not stop the command: %v, %q", r, output())
	}
}

// A batch import and a Parquet export stopped by Ctrl-C end with 130, as every command a
// signal stops, and say what they kept: the runs written, the runs exported.
func TestSignalStopsBatchAndExport(t *testing.T) {
	if testing.Short() {
		t.Skip("imports and exports 100 runs")
	}
	dir := t.TempDir()
	lab, db, out := filepath.Join(dir, "lab"), filepath.Join(dir, "w.db"), filepath.Join(dir, "parquet")
	if _, err := runset.Generate(lab, runset.Options{N: 100, Demo: filepath.Join("..", "..", "assets", "demo"), Corpus: corpus.Dir()}); err != nil {
		t.Fatal(err)
	}
	stopAfter := func(progress string, args ...string) childResult {
		c, output := startChildToFile(t, args...)
		if !c.until(func() bool { return strings.Contains(output(), progress) }) {
			t.Fatalf("no %q before the end: %s", progress, output())
		}
		c.signal(syscall.SIGINT)
		r := c.wait(t)
		r.stderr = output()
		return r
	}
	r := stopAfter("importing: ", "import", "--db", db, "--jobs", "2", lab)
	if r.code != 130 || !strings.Contains(r.stderr, "stopped by SIGINT: the") || !strings.Contains(r.stderr, "stored before it are complete") {
		t.Errorf("import --jobs stopped: want exit 130 and what was kept: %d %s", r.code, r.stderr)
	}
	if r := runChild(t, nil, "import", "--db", db, "--jobs", "2", lab); r.code != 0 {
		t.Fatalf("the rest of the batch: %v", r)
	}
	r = stopAfter("exporting: ", "export", "--db", db, "--format", "parquet", "--out", out)
	if r.code != 130 || !strings.Contains(r.stderr, "stopped by SIGINT: the runs exported before it are in place") {
		t.Errorf("export --format parquet stopped: want exit 130 and what was kept: %d %s", r.code, r.stderr)
	}
}
