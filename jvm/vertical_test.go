package jvm

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"testing"

	"androprof/internal/fastlane"
	"androprof/internal/proc"
	"androprof/internal/testio"
)

// requirePerf skips a test in the fast lane (-short) and where perf cannot record with kernel
// frames; CI has perf (scripts/deps.sh) and runs as root.
func requirePerf(t testing.TB) {
	t.Helper()
	fastlane.Needs(t, "perf")
	if _, err := exec.LookPath("perf"); err != nil {
		t.Skipf("no perf (install %s)", perfPackage)
	}
	if err := checkPerfAccess(); err != nil {
		t.Skip(err)
	}
}

var (
	phasesLibOnce sync.Once
	phasesLib     string
	phasesLibErr  error
)

// phasesNativeLib builds demo.Phases' JNI library once per test binary.
func phasesNativeLib(t testing.TB) string {
	t.Helper()
	phasesLibOnce.Do(func() { phasesLib, phasesLibErr = BuildPhasesNative(testCacheDir) })
	if phasesLibErr != nil {
		t.Fatal(phasesLibErr)
	}
	return phasesLib
}

// record runs RecordVertical with the test's agent cache and the program's output kept.
func record(t *testing.T, opts VerticalOptions) (*VerticalRecording, string) {
	t.Helper()
	var out testio.Buffer // written by the program's stdout and stderr at once
	opts.CacheDir = testCacheDir
	opts.Stdout, opts.Stderr = &out, &out
	rec, err := RecordVertical(context.Background(), opts, func(msg string) { t.Log(msg) })
	if err != nil {
		t.Fatalf("%v\noutput:\n%s", err, out.String())
	}
	t.Cleanup(func() { rec.Close() })
	return rec, out.String()
}

// scriptFrames counts perf script's frames by "symbol (image)", and its samples.
func scriptFrames(t *testing.T, path string) (frames map[string]int, leaves map[string]int, samples int) {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	frames, leaves = map[string]int{}, map[string]int{}
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<20)
	leaf := false
	for sc.Scan() {
		line := sc.Text()
		switch {
		case line == "":
		case !strings.HasPrefix(line, "\t"):
			samples++
			leaf = true
		default: // "\t    ADDR SYMBOL (IMAGE)"
			_, frame, _ := strings.Cut(strings.TrimSpace(line), " ")
			frames[frame]++
			if leaf {
				leaves[frame]++
			}
			leaf = false
		}
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return frames, leaves, samples
}

// mapLine is perf's JIT map format: START SIZE name, hex without 0x.
var mapLine = regexp.MustCompile(`^[0-9a-f]+ [0-9a-f]+ [^\n]+$`)

// The agent names every piece of JIT code perf samples: the map holds compiled Java methods by
// the design's names and HotSpot's generated code, perf script names Java frames from it, and no
// frame in the JIT map's region stays unnamed. What was kept is where it was promised.
func TestRecordVerticalNamesJavaFrames(t *testing.T) {
	jdk := requireJDK(t)
	requirePerf(t)
	keep := filepath.Join(t.TempDir(), "keep")
	rec, out := record(t, VerticalOptions{Java: jdk.Java, Keep: keep,
		Args: []string{"-cp", compiledSamples(t, jdk), "demo.Phases", "0.3", "app,library"}})
	if !strings.Contains(out, "phase-app ") || !strings.Contains(out, "phase-library ") {
		t.Errorf("the program's output %q", out)
	}
	if rec.Exit != nil || len(rec.Warnings) > 0 {
		t.Errorf("exit %v, warnings %q", rec.Exit, rec.Warnings)
	}
	a := rec.Agent
	if a == nil || a.PID != rec.PID || rec.PID == 0 || a.Compiled == 0 || a.Generated == 0 || a.Entries != a.Compiled+a.Generated ||
		a.AgentCPU <= 0 || a.AgentCPU >= a.ProcessCPU {
		t.Fatalf("pid %d, agent %+v", rec.PID, a)
	}
	t.Logf("agent: %d entries, %v of %v CPU (%.3f%%)", a.Entries, a.AgentCPU, a.ProcessCPU, 100*a.Share())
	tmpMap := fmt.Sprintf("/tmp/perf-%d.map", rec.PID)
	if _, err := os.Stat(tmpMap); !os.IsNotExist(err) {
		t.Errorf("%s left behind: %v", tmpMap, err)
	}
	for _, p := range []string{rec.Data, rec.Script, rec.Map} {
		if filepath.Dir(p) != keep || fileSize(p) == 0 {
			t.Errorf("%q not kept in %s", p, keep)
		}
	}
	if rec.Map != filepath.Join(keep, filepath.Base(tmpMap)) {
		t.Errorf("map kept as %s", rec.Map)
	}
	b, err := os.ReadFile(rec.Map)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSuffix(string(b), "\n"), "\n")
	if len(lines) != a.Entries || int64(len(b)) != a.Bytes {
		t.Errorf("map has %d lines of %d bytes, agent counted %d, %d bytes", len(lines), len(b), a.Entries, a.Bytes)
	}
	names := map[string]bool{}
	for _, l := range lines {
		if !mapLine.MatchString(l) {
			t.Fatalf("map line %q", l)
		}
		names[strings.SplitN(l, " ", 3)[2]] = true
	}
	for _, want := range []string{"demo.Phases.appLoop(I)J", "java.util.ComparableTimSort.mergeLo(IIII)V", "Interpreter"} {
		if !names[want] {
			t.Errorf("no %q in the map", want)
		}
	}

	frames, leaves, samples := scriptFrames(t, rec.Script)
	image := "(" + tmpMap + ")"
	if samples < 300 {
		t.Errorf("%d samples", samples)
	}
	if leaves["demo.Phases.appLoop(I)J "+image] < 50 {
		t.Errorf("%d samples in appLoop", leaves["demo.Phases.appLoop(I)J "+image])
	}
	jit := 0
	for f, n := range frames {
		if strings.HasSuffix(f, image) {
			jit += n
		}
	}
	if n := frames["[unknown] "+image]; n > 0 || jit < samples/4 {
		t.Errorf("%d of %d frames in JIT code unnamed", n, jit)
	}
	if !strings.Contains(strings.Join(rec.Record, " "), "-XX:+PreserveFramePointer") {
		t.Errorf("perf record: %q", rec.Record)
	}
}

// With DWARF call stacks the leaves are named alike; stacks through Java frames are cut short.
func TestRecordVerticalDWARF(t *testing.T) {
	jdk := requireJDK(t)
	requirePerf(t)
	rec, _ := record(t, VerticalOptions{Java: jdk.Java, CallGraph: CallGraphDWARF, RateHz: 200,
		Args: []string{"-cp", compiledSamples(t, jdk), "demo.Phases", "0.3", "app"}})
	_, leaves, _ := scriptFrames(t, rec.Script)
	if n := leaves[fmt.Sprintf("demo.Phases.appLoop(I)J (/tmp/perf-%d.map)", rec.PID)]; n < 20 {
		t.Errorf("%d samples in appLoop", n)
	}
	if cmd := strings.Join(rec.Record, " "); !strings.Contains(cmd, "--call-graph dwarf") || strings.Contains(cmd, "PreserveFramePointer") {
		t.Errorf("perf record: %s", cmd)
	}
	if _, err := os.Stat(rec.Dir); err != nil {
		t.Fatal(err)
	}
	rec.Close()
	if _, err := os.Stat(rec.Dir); !os.IsNotExist(err) {
		t.Errorf("temporary %s left after Close: %v", rec.Dir, err)
	}
}

// A program that fails, or dies of a signal, still leaves its samples, named, and how it ended.
func TestRecordVerticalProgramFails(t *testing.T) {
	jdk := requireJDK(t)
	requirePerf(t)
	dir := writeJava(t, jdk, "Fails", `public class Fails {
	static long spin(long ms) {
		long end = System.nanoTime() + ms * 1000000, h = 1;
		while (System.nanoTime() < end)
			for (int i = 0; i < 100000; i++) h = h * 31 + i;
		return h;
	}
	public static void main(String[] args) throws Exception {
		System.out.println(spin(Long.parseLong(args[1])));
		if (args[0].equals("exit")) {
			System.err.println("failing on purpose");
			System.exit(3);
		}
		long pid = ProcessHandle.current().pid();
		// The shell's own kill: a minimal Debian has no /usr/bin/kill (procps).
		new ProcessBuilder("sh", "-c", "kill -KILL " + pid).start().waitFor();
		Thread.sleep(10000);
	}
}`)
	for _, c := range []struct {
		how, ms string
		code    int
		signal  string
	}{
		{"exit", "500", 3, ""},
		// Killed after the agent's flusher wrote the map once (it writes every second).
		{"kill", "2500", -1, "SIGKILL"},
	} {
		t.Run(c.how, func(t *testing.T) {
			rec, _ := record(t, VerticalOptions{Java: jdk.Java, Args: []string{"-cp", dir, "Fails", c.how, c.ms}})
			e := rec.Exit
			if e == nil || e.ExitCode != c.code || !strings.HasPrefix(e.Signal, c.signal) {
				t.Fatalf("exit %v, want status %d, signal %q", e, c.code, c.signal)
			}
			if c.code == 3 && (e.Detail != "failing on purpose" || rec.Agent == nil) {
				t.Errorf("detail %q, agent %+v", e.Detail, rec.Agent)
			}
			if c.signal != "" && (e.Status() != 128+9 || rec.Agent != nil || rec.PID == 0) {
				t.Errorf("status %d, agent %+v (no VMDeath), pid %d", e.Status(), rec.Agent, rec.PID)
			}
			_, leaves, samples := scriptFrames(t, rec.Script)
			spin := leaves[fmt.Sprintf("Fails.spin(J)J (/tmp/perf-%d.map)", rec.PID)]
			if samples < 100 || spin < samples/4 {
				t.Errorf("%d samples, %d in Fails.spin", samples, spin)
			}
		})
	}
}

// A program that is not a JVM, or a JVM the agent never reached, is recorded with a warning
// that Java frames stay unnamed.
func TestRecordVerticalWithoutAgent(t *testing.T) {
	jdk := requireJDK(t)
	requirePerf(t)
	classes := compiledSamples(t, jdk)
	for name, script := range map[string]string{
		// A launcher script that runs java its own way, without the options it was given.
		"launcher":  "#!/bin/sh\nexec " + jdk.Java + " -cp " + classes + " demo.Phases 0.1 app\n",
		"not-a-jvm": "#!/bin/sh\ni=0; while [ $i -lt 200000 ]; do i=$((i+1)); done\n",
	} {
		t.Run(name, func(t *testing.T) {
			bin := filepath.Join(t.TempDir(), "bin")
			if err := os.Mkdir(bin, 0o755); err != nil {
				t.Fatal(err)
			}
			java := filepath.Join(bin, "java")
			if err := os.WriteFile(java, []byte(script), 0o755); err != nil {
				t.Fatal(err)
			}
			rec, _ := record(t, VerticalOptions{Java: java, Args: []string{"Main"}})
			if rec.PID != 0 || rec.Agent != nil || rec.Exit != nil || len(rec.Warnings) != 1 ||
				!strings.Contains(rec.Warnings[0], "did not load") || !strings.Contains(rec.Warnings[0], "stay unnamed") {
				t.Errorf("pid %d, agent %v, exit %v, warnings %q", rec.PID, rec.Agent, rec.Exit, rec.Warnings)
			}
			if _, _, samples := scriptFrames(t, rec.Script); samples < 20 {
				t.Errorf("%d samples", samples)
			}
		})
	}
}

func TestRecordVerticalMissingPerf(t *testing.T) {
	t.Setenv("PATH", t.TempDir())
	_, err := RecordVertical(context.Background(), VerticalOptions{Args: []string{"Main"}}, nil)
	var mt *proc.MissingToolError
	if !errors.As(err, &mt) || mt.Tool != "perf" || !strings.Contains(err.Error(), "apt-get install linux-perf") {
		t.Fatalf("error %v", err)
	}
}

// perf refused by the kernel (here a seccomp filter, as a container's default profile has):
// perf's own words and what to do.
func TestRecordVerticalNoPermission(t *testing.T) {
	jdk := requireJDK(t)
	requirePerf(t)
	dir := t.TempDir()
	src := filepath.Join(dir, "noperf.c")
	if err := os.WriteFile(src, []byte(noPerfC), 0o644); err != nil {
		t.Fatal(err)
	}
	if msg, err := exec.Command("gcc", "-o", filepath.Join(dir, "noperf"), src).CombinedOutput(); err != nil {
		t.Fatalf("gcc: %v\n%s", err, msg)
	}
	perf, _ := exec.LookPath("perf")
	wrapper := filepath.Join(dir, "perf")
	if err := os.WriteFile(wrapper, []byte("#!/bin/sh\nexec "+filepath.Join(dir, "noperf")+" "+perf+" \"$@\"\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	_, err := RecordVertical(context.Background(), VerticalOptions{Java: jdk.Java, Perf: wrapper, CacheDir: testCacheDir,
		Args: []string{"-version"}, Stderr: io.Discard}, nil)
	var pe *PerfPermissionError
	if !errors.As(err, &pe) || pe.Detail != "No permission to enable cpu-clock event." || !strings.Contains(err.Error(), "seccomp") {
		t.Fatalf("error %v", err)
	}
}

// noPerfC runs a program with perf_event_open refused (EPERM), as Docker's default seccomp
// profile does.
const noPerfC = `#include <errno.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <stddef.h>
#include <stdio.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <unistd.h>
int main(int argc, char **argv) {
	struct sock_filter f[] = {
		BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, nr)),
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, __NR_perf_event_open, 0, 1),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ERRNO | EPERM),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
	};
	struct sock_fprog prog = {sizeof f / sizeof f[0], f};
	if (argc < 2 || prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) || prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, &prog)) {
		perror("seccomp");
		return 1;
	}
	execvp(argv[1], argv + 1);
	perror(argv[1]);
	return 127;
}
`

// asUserEnv marks the copy of the test binary that runs as nobody.
const asUserEnv = "ANDROPROF_TEST_PARANOID_CHILD"

// A user's perf with kernel.perf_event_paranoid above 1 would record without the kernel: the
// recording is refused with the value and the sysctl to run. As root the test runs itself as
// nobody (runuser).
func TestRecordVerticalParanoid(t *testing.T) {
	b, err := os.ReadFile(paranoidFile)
	if err != nil {
		t.Skip(err)
	}
	level, _ := strconv.Atoi(strings.TrimSpace(string(b)))
	if level <= 1 {
		t.Skipf("kernel.perf_event_paranoid is %d: users may sample the kernel here", level)
	}
	if _, err := exec.LookPath("perf"); err != nil {
		t.Skipf("no perf (install %s)", perfPackage)
	}
	if os.Geteuid() != 0 || os.Getenv(asUserEnv) != "" {
		_, err := RecordVertical(context.Background(), VerticalOptions{Args: []string{"Main"}}, nil)
		var pe *PerfPermissionError
		if !errors.As(err, &pe) || pe.Paranoid != level ||
			!strings.Contains(err.Error(), fmt.Sprintf("kernel.perf_event_paranoid is %d", level)) ||
			!strings.Contains(err.Error(), "sysctl kernel.perf_event_paranoid=1") {
			t.Fatalf("error %v", err)
		}
		t.Log(err)
		return
	}
	runuser, err := exec.LookPath("runuser")
	if err != nil {
		t.Skip("no runuser to test as a user")
	}
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	dir, err := os.MkdirTemp("", "androprof-paranoid-") // t.TempDir's parent is private to root
	if err != nil {
		t.Fatal(err)
	}
	defer os.RemoveAll(dir)
	if err := os.Chmod(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	bin := filepath.Join(dir, "jvm.test")
	if err := copyExecutable(self, bin); err != nil {
		t.Fatal(err)
	}
	// In a chroot whose root is private to root (fresh-machine.sh's), nobody can run nothing:
	// TestPerfAccess checks the same refusal without another user.
	if out, err := exec.Command(runuser, "-u", "nobody", "--", bin, "-test.list", "^$").CombinedOutput(); err != nil {
		t.Skipf("user nobody cannot run %s here (%v: %s); TestPerfAccess checks the refusal", bin, err, bytes.TrimSpace(out))
	}
	cmd := exec.Command(runuser, "-u", "nobody", "--", bin, "-test.run", "^TestRecordVerticalParanoid$", "-test.v")
	cmd.Env = append(os.Environ(), asUserEnv+"=1", "HOME="+dir)
	cmd.Dir = dir
	out, err := cmd.CombinedOutput()
	if err != nil || !strings.Contains(string(out), "--- PASS: TestRecordVerticalParanoid") {
		t.Fatalf("as nobody: %v\n%s", err, out)
	}
	t.Logf("as nobody:\n%s", out)
}

// The refusal itself, for a user other than root, at every level of the sysctl.
func TestPerfAccess(t *testing.T) {
	dir := t.TempDir()
	for level, refused := range map[int]bool{-1: false, 0: false, 1: false, 2: true, 3: true} {
		file := filepath.Join(dir, "paranoid")
		if err := os.WriteFile(file, []byte(strconv.Itoa(level)+"\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		err := perfAccess(1000, file)
		var pe *PerfPermissionError
		if refused != errors.As(err, &pe) || refused && (pe.Paranoid != level ||
			!strings.Contains(err.Error(), fmt.Sprintf("kernel.perf_event_paranoid is %d", level)) ||
			!strings.Contains(err.Error(), "sysctl kernel.perf_event_paranoid=1")) {
			t.Errorf("level %d: %v", level, err)
		}
		if err := perfAccess(0, file); err != nil {
			t.Errorf("level %d, root: %v", level, err)
		}
	}
	if err := perfAccess(1000, filepath.Join(dir, "missing")); err == nil || !strings.Contains(err.Error(), "CONFIG_PERF_EVENTS") {
		t.Errorf("no sysctl file: %v", err)
	}
}

func copyExecutable(from, to string) error {
	if err := copyFile(from, to); err != nil {
		return err
	}
	return os.Chmod(to, 0o755)
}

// Cancelling stops the program and perf.
func TestRecordVerticalCancel(t *testing.T) {
	jdk := requireJDK(t)
	requirePerf(t)
	keep := t.TempDir()
	testCancel(t, jdk, func(ctx context.Context, sleep []string, stdout io.Writer) error {
		_, err := RecordVertical(ctx, VerticalOptions{Java: jdk.Java, Args: sleep, CacheDir: testCacheDir, Keep: keep, Stdout: stdout}, nil)
		return err
	})
	if ents, _ := os.ReadDir(keep); len(ents) != 0 {
		t.Errorf("a cancelled recording left %d files in %s", len(ents), keep)
	}
}
