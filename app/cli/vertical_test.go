package cli

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"androprof/controller"
	"androprof/jvm"
	"androprof/model/layers"
	"androprof/model/samples"
	"androprof/store/workspacedb"
)

// requirePerf skips where perf cannot sample the kernel: no perf, or a user whose
// kernel.perf_event_paranoid allows user space only (CI runs as root with perf installed).
func requirePerf(t *testing.T) {
	t.Helper()
	requireJava(t)
	if _, err := exec.LookPath("perf"); err != nil {
		t.Skip("perf is not installed (scripts/deps.sh installs linux-perf)")
	}
	if os.Geteuid() != 0 {
		b, _ := os.ReadFile("/proc/sys/kernel/perf_event_paranoid")
		if n, err := strconv.Atoi(strings.TrimSpace(string(b))); err != nil || n > 1 {
			t.Skip("perf may not sample the kernel for this user (kernel.perf_event_paranoid > 1)")
		}
	}
}

// jitMap is the image perf gives frames named from the perf map agent's map.
var jitMap = regexp.MustCompile(`^/tmp/perf-[0-9]+\.map$`)

// The definition of done: `androprof vertical` on the four-phase Java sample shows each
// phase's thread with its layer on top (application, Java library, native, kernel), and every
// sample in JIT-compiled code is named as a Java method or as the VM's generated code.
func TestVerticalPhases(t *testing.T) {
	requirePerf(t)
	dir := t.TempDir()
	classes := javaSampleClasses(t)
	lib, err := jvm.BuildPhasesNative("")
	if err != nil {
		t.Fatal(err)
	}
	db := filepath.Join(dir, "w.db")
	code, out, errOut := runCLI(t, db, "vertical", "--run", "phases", "--", "java", "-Dphases.native="+lib, "-cp", classes, "demo.Phases")
	if code != 0 {
		t.Fatalf("vertical: exit %d\n%s\n%s", code, out, errOut)
	}
	for _, p := range []string{"app", "library", "native", "kernel"} {
		if !strings.Contains(out, "phase-"+p+" ") {
			t.Errorf("the program's output has no phase-%s line:\n%s", p, out)
		}
	}
	if !strings.Contains(errOut, `run "phases": a sampled profile`) || !strings.Contains(errOut, "perf map agent named") {
		t.Errorf("summary:\n%s", errOut)
	}
	ws, err := controller.OpenWorkspace(workspacedb.Databases(), db, false)
	if err != nil {
		t.Fatal(err)
	}
	defer ws.Close()
	set, err := ws.Samples.Select(context.Background(), "phases", samples.SampleSelection{}, nil)
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]layers.Layer{"phase-app": layers.LayerApp, "phase-library": layers.LayerJavaLib,
		"phase-native": layers.LayerNative, "phase-kernel": layers.LayerKernel}
	for _, th := range set.ByThread() {
		layer, ok := want[th.Comm]
		if !ok {
			continue
		}
		delete(want, th.Comm)
		t.Logf("%-14s %5d samples, by layer %v", th.Comm, th.Samples, th.Layers)
		if th.Top != layer || th.Samples < 300 {
			t.Errorf("%s: %d samples, %v on top (by layer %v), want %v; its leaves:", th.Comm, th.Samples, th.Top, th.Layers, layer)
			rows := set.Profile.Select(set.LayerClassifier, samples.SampleSelection{TIDs: []int{th.TID}}).BySymbol()
			for _, r := range rows[:min(len(rows), 15)] {
				t.Logf("%5d %-12v %s (%s)", r.Self, r.Layer, r.Symbol, r.Image)
			}
		}
	}
	if len(want) > 0 {
		t.Errorf("no samples of %v", want)
	}
	named := 0
	for _, r := range set.BySymbol() {
		if !jitMap.MatchString(r.Image) {
			continue
		}
		if r.Symbol == "" && r.Self > 0 {
			t.Errorf("%d samples in an unnamed JIT region", r.Self)
		}
		named += r.Self
	}
	if named < set.Kept/5 {
		t.Errorf("only %d of %d samples in named JIT code", named, set.Kept)
	}
}

// A program that fails is a wrapper's business: its samples are imported, its status is the
// command's. The recording's target (its main thread, "java") and the application's packages
// reach the stored run.
func TestVerticalExitStatus(t *testing.T) {
	requirePerf(t)
	dir := t.TempDir()
	src := filepath.Join(dir, "Fail.java")
	if err := os.WriteFile(src, []byte(`public class Fail {
	public static void main(String[] args) {
		long h = 1;
		for (long i = 0; i < 300_000_000L; i++) h = h * 31 + i;
		System.out.println(h);
		System.exit(3);
	}
}`), 0o644); err != nil {
		t.Fatal(err)
	}
	if msg, err := exec.Command("javac", "-d", dir, src).CombinedOutput(); err != nil {
		t.Fatalf("javac: %v\n%s", err, msg)
	}
	db := filepath.Join(dir, "w.db")
	code, out, errOut := runCLI(t, db, "vertical", "--threads", "java", "--app", "com.example", "--", "java", "-cp", dir, "Fail")
	if code != 3 || !strings.Contains(errOut, "exited with status 3") || !strings.Contains(errOut, `run "Fail": a sampled profile`) {
		t.Fatalf("exit %d\n%s\n%s", code, out, errOut)
	}
	ws, err := controller.OpenWorkspace(workspacedb.Databases(), db, false)
	if err != nil {
		t.Fatal(err)
	}
	defer ws.Close()
	p, err := ws.Samples.Profile(context.Background(), "Fail")
	if err != nil {
		t.Fatal(err)
	}
	if len(p.Samples) < 100 || p.LeftOut == 0 || strings.Join(p.AppPackages, ",") != "com.example" {
		t.Errorf("%d samples, %d left out (%s), app packages %q", len(p.Samples), p.LeftOut, p.LeftOutWhy, p.AppPackages)
	}
	for _, th := range p.Threads {
		if th.Comm != "java" {
			t.Errorf("thread %q kept", th.Comm)
		}
	}
}

func TestVerticalUsage(t *testing.T) {
	db := filepath.Join(t.TempDir(), "w.db")
	for _, args := range [][]string{
		{"vertical"},
		{"vertical", "--call-graph", "lbr", "--", "java", "Main"},
		{"vertical", "--rate", "0", "--", "java", "Main"},
		{"vertical", "--from", "2", "--to", "1", "--", "java", "Main"},
	} {
		if code, _, errOut := runCLI(t, db, args...); code != 2 || !strings.Contains(errOut, "usage:") {
			t.Errorf("%q: exit %d\n%s", args, code, errOut)
		}
	}
}
