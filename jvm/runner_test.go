package jvm

import (
	"bytes"
	"context"
	"errors"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"androprof/formats/heaplog"
	"androprof/internal/fastlane"
	"androprof/internal/proc"
	"androprof/model/heap"
)

// testCacheDir keeps the built agent between test runs (its name carries the source hash).
var testCacheDir = filepath.Join(os.TempDir(), "androprof-test-heap-agent")

// requireJDK skips a test in the fast lane (-short) and on a machine without a JDK or gcc; CI
// has both (scripts/deps.sh).
func requireJDK(t testing.TB) *JDK {
	t.Helper()
	fastlane.Needs(t, "a JDK and gcc")
	jdk, err := FindJDK()
	if err != nil || jdk.Javac == "" || jdk.Include == "" {
		t.Skipf("no JDK with javac and jvmti.h (install %s): %v", jdkPackage, err)
	}
	if _, err := exec.LookPath("gcc"); err != nil {
		t.Skip("no gcc (install gcc)")
	}
	return jdk
}

var (
	samplesOnce sync.Once
	samplesOut  string
	samplesErr  error
)

// compiledSamples compiles the samples once per test binary.
func compiledSamples(t testing.TB, jdk *JDK) string {
	t.Helper()
	samplesOnce.Do(func() {
		samplesOut, samplesErr = os.MkdirTemp("", "androprof-jvm-test-")
		if samplesErr == nil {
			samplesErr = CompileSamples(context.Background(), jdk.Javac, samplesOut)
		}
	})
	if samplesErr != nil {
		t.Fatal(samplesErr)
	}
	return samplesOut
}

func TestMain(m *testing.M) {
	code := m.Run()
	if samplesOut != "" {
		os.RemoveAll(samplesOut)
	}
	os.Exit(code)
}

// runLog runs a program under the agent and returns its log's path and stdout.
func runLog(t *testing.T, jdk *JDK, opts RunOptions) (string, string) {
	t.Helper()
	var stdout, stderr bytes.Buffer
	opts.Java, opts.CacheDir = jdk.Java, testCacheDir
	opts.Stdout, opts.Stderr = &stdout, &stderr
	if opts.Log == "" {
		opts.Log = filepath.Join(t.TempDir(), "heap.log")
	}
	if err := Run(context.Background(), opts); err != nil {
		t.Fatalf("%v\nstderr:\n%s", err, stderr.String())
	}
	if stderr.Len() > 0 {
		t.Errorf("unexpected stderr:\n%s", stderr.String())
	}
	return opts.Log, stdout.String()
}

// tally is what a log says, counted, with the object-level checks the reader leaves to
// the analysis: every death is of an allocated object not yet dead.
type tally struct {
	header       heap.HeapHeader
	classes      map[uint32]string
	threads      map[uint32]heap.HeapEvent // the t records
	ended        map[uint32]uint64         // thread → end time
	allocs       int
	bytes        uint64
	sizeSum      uint64 // sum of the sizes, to compare with the clock
	frees        int
	live         map[uint64]object // live objects by id
	liveBytes    uint64
	gcs, gcEnds  int
	snapshots    map[uint64]uint64 // snapshot time → references counted
	byThread     map[uint32]int
	byClass      map[uint32]int
	byThreadCls  map[[2]uint32]int
	classSize    map[uint32]uint64 // last size seen per class
	arrayFlagBad int
	lastTime     uint64
}

type object struct {
	size  uint64
	class uint32
}

// liveOf counts the live objects of a class.
func (s *tally) liveOf(class uint32) int {
	n := 0
	for _, o := range s.live {
		if o.class == class {
			n++
		}
	}
	return n
}

func readLog(t *testing.T, path string) *tally {
	t.Helper()
	r, err := heaplog.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	s := &tally{header: r.Header(), classes: map[uint32]string{}, threads: map[uint32]heap.HeapEvent{},
		ended: map[uint32]uint64{}, live: map[uint64]object{}, snapshots: map[uint64]uint64{},
		byThread: map[uint32]int{}, byClass: map[uint32]int{}, byThreadCls: map[[2]uint32]int{},
		classSize: map[uint32]uint64{}}
	dead := map[uint64]bool{}
	for {
		e, err := r.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		s.lastTime = e.Time
		switch e.Kind {
		case heap.HeapClass:
			s.classes[e.Class] = e.Name
		case heap.HeapThreadStart:
			s.threads[e.Thread] = *e
		case heap.HeapThreadEnd:
			if _, ok := s.ended[e.Thread]; ok {
				t.Errorf("line %d: thread %d ends twice", r.Line(), e.Thread)
			}
			s.ended[e.Thread] = e.Time
		case heap.HeapAlloc:
			if e.Object != e.Time+1 {
				t.Fatalf("line %d: object id %d at time %d, want birth+1", r.Line(), e.Object, e.Time)
			}
			if e.Size%8 != 0 {
				t.Errorf("line %d: size %d not 8-byte aligned", r.Line(), e.Size)
			}
			if e.Array != strings.HasPrefix(s.classes[e.Class], "[") {
				s.arrayFlagBad++
			}
			s.allocs++
			s.sizeSum += e.Size
			s.bytes = e.Time + e.Size
			s.live[e.Object] = object{e.Size, e.Class}
			s.liveBytes += e.Size
			s.byThread[e.Thread]++
			s.byClass[e.Class]++
			s.byThreadCls[[2]uint32{e.Thread, e.Class}]++
			s.classSize[e.Class] = e.Size
		case heap.HeapFree:
			o, ok := s.live[e.Object]
			if !ok {
				what := "never allocated"
				if dead[e.Object] {
					what = "already dead"
				}
				t.Fatalf("line %d: death of object %d, %s", r.Line(), e.Object, what)
			}
			if e.Time < e.Object-1 {
				t.Fatalf("line %d: object %d dies at %d before its birth", r.Line(), e.Object, e.Time)
			}
			delete(s.live, e.Object)
			dead[e.Object] = true
			s.liveBytes -= o.size
			s.frees++
		case heap.HeapGCStart:
			s.gcs++
		case heap.HeapGCEnd:
			s.gcEnds++
		case heap.HeapSnapshot:
			s.snapshots[e.Time] += e.Count
		}
	}
	if s.arrayFlagBad != 0 {
		t.Errorf("%d allocations whose array flag disagrees with their class name", s.arrayFlagBad)
	}
	return s
}

// classID finds a class by name.
func (s *tally) classID(t *testing.T, name string) uint32 {
	t.Helper()
	for id, n := range s.classes {
		if n == name {
			return id
		}
	}
	t.Fatalf("no class %s in the log", name)
	return 0
}

// checkSums checks the totals the log must agree with itself on.
func (s *tally) checkSums(t *testing.T) {
	t.Helper()
	if s.sizeSum != s.bytes {
		t.Errorf("sizes sum to %d, clock says %d", s.sizeSum, s.bytes)
	}
	if live := s.allocs - s.frees; live != len(s.live) {
		t.Errorf("allocated %d − freed %d = %d, but %d objects live", s.allocs, s.frees, live, len(s.live))
	}
	for _, th := range s.threads { // the agent's own thread and its objects are not the program's
		if strings.HasPrefix(th.Name, "androprof") {
			t.Errorf("the log declares the agent's thread %q", th.Name)
		}
	}
	perThread, perClass := 0, 0
	for id, n := range s.byThread {
		if _, ok := s.threads[id]; !ok {
			t.Errorf("thread %d allocated without a t record", id)
		}
		perThread += n
	}
	for _, n := range s.byClass {
		perClass += n
	}
	if perThread != s.allocs || perClass != s.allocs {
		t.Errorf("per-thread sum %d, per-class sum %d, allocations %d", perThread, perClass, s.allocs)
	}
	if s.gcs != s.gcEnds {
		t.Errorf("%d GC starts, %d ends", s.gcs, s.gcEnds)
	}
	if len(s.snapshots) == 0 {
		t.Error("no heap snapshot")
	}
}

func TestBuildAgent(t *testing.T) {
	jdk := requireJDK(t)
	dir := t.TempDir()
	so, err := BuildAgentWith(dir, jdk.Include)
	if err != nil {
		t.Fatal(err)
	}
	st, err := os.Stat(so)
	if err != nil {
		t.Fatal(err)
	}
	again, err := BuildAgentWith(dir, jdk.Include)
	if err != nil || again != so {
		t.Fatalf("second build: %s, %v; want the cached %s", again, err, so)
	}
	if st2, _ := os.Stat(so); !st2.ModTime().Equal(st.ModTime()) {
		t.Error("cached agent rebuilt")
	}
	if so2, err := BuildAgent(dir); err != nil || filepath.Dir(so2) != dir {
		t.Errorf("BuildAgent: %s, %v", so2, err)
	}
	var mt *proc.MissingToolError
	if _, err := BuildAgentWith(dir, filepath.Join(dir, "no-jdk")); !errors.As(err, &mt) || mt.Package != jdkPackage {
		t.Errorf("headers missing: %v", err)
	}
}

// The definition of done: on a program whose allocations are known per thread and
// class, the log holds exactly those, and agrees with itself.
func TestThreadsLog(t *testing.T) {
	jdk := requireJDK(t)
	const n, k = 8, 5000
	log, out := runLog(t, jdk, RunOptions{Args: []string{"-cp", compiledSamples(t, jdk), "demo.Threads", "8", "5000"}})
	if !strings.Contains(out, "each allocated 5000 demo.Threads$Node") {
		t.Errorf("stdout %q", out)
	}
	s := readLog(t, log)
	s.checkSums(t)
	if !strings.Contains(s.header.VM, "(androprof heap agent 1)") || s.header.Props["command"] != "demo.Threads 8 5000" {
		t.Errorf("header %+v", s.header)
	}
	node, longs := s.classID(t, "demo/Threads$Node"), s.classID(t, "[J")
	workers := map[string]bool{}
	for id, ts := range s.threads {
		if !strings.HasPrefix(ts.Name, "worker-") {
			continue
		}
		workers[ts.Name] = true
		if ts.Group != "demo_workers" {
			t.Errorf("%s in group %q, want demo_workers", ts.Name, ts.Group)
		}
		if _, ok := s.ended[id]; !ok {
			t.Errorf("%s never ended", ts.Name)
		}
		if got := s.byThreadCls[[2]uint32{id, node}]; got != k {
			t.Errorf("%s allocated %d Nodes, want %d", ts.Name, got, k)
		}
		if got := s.byThreadCls[[2]uint32{id, longs}]; got != k {
			t.Errorf("%s allocated %d long[], want %d", ts.Name, got, k)
		}
	}
	if len(workers) != n {
		t.Errorf("worker threads %v, want %d", workers, n)
	}
	if got := s.byClass[node]; got != n*k {
		t.Errorf("%d Nodes in all, want %d", got, n*k)
	}
	if got := s.byClass[longs]; got < n*k {
		t.Errorf("%d long[] in all, want at least %d", got, n*k)
	}
	// The workers' objects are garbage once they end, and the agent collects at exit.
	if live := s.liveOf(node); live != 0 {
		t.Errorf("%d Nodes live at exit, want 0", live)
	}
	// Loaded classes are declared even without instances (demo.Threads itself has none).
	s.classID(t, "demo/Threads")
	t.Logf("%d allocations, %d bytes, %d deaths, %d GCs, %d classes, %d threads, %d live objects (%d bytes)",
		s.allocs, s.bytes, s.frees, s.gcs, len(s.classes), len(s.threads), len(s.live), s.liveBytes)
}

// Short-lived garbage dies: nearly every object has a death, and GCs are logged.
func TestGarbageLog(t *testing.T) {
	jdk := requireJDK(t)
	log, _ := runLog(t, jdk, RunOptions{Args: []string{"-Xmx32m", "-cp", compiledSamples(t, jdk), "demo.Garbage", "300000"}})
	s := readLog(t, log)
	s.checkSums(t)
	if s.gcs < 2 { // at least one while running, and the agent's at exit
		t.Errorf("%d GCs", s.gcs)
	}
	if s.frees*10 < s.allocs*9 {
		t.Errorf("%d of %d objects freed, want at least 90%%", s.frees, s.allocs)
	}
	item := s.classID(t, "demo/Garbage$Item")
	if s.byClass[item] != 300000 {
		t.Errorf("%d Items, want 300000", s.byClass[item])
	}
	t.Logf("%d allocations, %d bytes, %d deaths, %d GCs, %d live objects", s.allocs, s.bytes, s.frees, s.gcs, len(s.live))
}

// A growing cache keeps what it holds: at exit exactly its capacity of entries lives, and
// periodic snapshots are taken.
func TestCacheLog(t *testing.T) {
	jdk := requireJDK(t)
	const steps, perStep, capacity = 6, 5000, 20000
	log, _ := runLog(t, jdk, RunOptions{SnapshotEvery: 4 << 20,
		Args: []string{"-Xmx64m", "-cp", compiledSamples(t, jdk), "demo.Cache", "6", "5000", "20000"}})
	s := readLog(t, log)
	s.checkSums(t)
	if s.header.Props["snapshot"] != "4194304" {
		t.Errorf("props %v", s.header.Props)
	}
	entry := s.classID(t, "demo/Cache$Blob")
	if s.byClass[entry] != steps*perStep {
		t.Errorf("%d entries made, want %d", s.byClass[entry], steps*perStep)
	}
	// The agent collects at exit, so only reachable objects live on.
	if live := s.liveOf(entry); live != capacity {
		t.Errorf("%d entries live at exit, want the capacity %d", live, capacity)
	}
	if s.frees == 0 || s.gcs == 0 {
		t.Errorf("%d deaths, %d GCs", s.frees, s.gcs)
	}
	if len(s.snapshots) < 3 {
		t.Errorf("%d snapshots, want several", len(s.snapshots))
	}
	t.Logf("%d allocations, %d bytes, %d deaths, %d GCs, %d snapshots, %d live objects", s.allocs, s.bytes, s.frees, s.gcs, len(s.snapshots), len(s.live))
}

// writeJava compiles one class of the default package into a temporary directory.
func writeJava(t *testing.T, jdk *JDK, name, src string) string {
	t.Helper()
	dir := t.TempDir()
	f := filepath.Join(dir, name+".java")
	if err := os.WriteFile(f, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	if msg, err := exec.Command(jdk.Javac, "-d", dir, f).CombinedOutput(); err != nil {
		t.Fatalf("javac: %v\n%s", err, msg)
	}
	return dir
}

// A failing program reports its status and last word, and its log is whole (VMDeath ran).
func TestExitStatus(t *testing.T) {
	jdk := requireJDK(t)
	dir := writeJava(t, jdk, "Fail", `public class Fail {
	public static void main(String[] args) {
		Object[] kept = new Object[100];
		for (int i = 0; i < kept.length; i++) kept[i] = new int[i];
		System.err.println("failing on purpose");
		System.exit(3);
	}
}`)
	log := filepath.Join(t.TempDir(), "sub", "fail.log")
	err := Run(context.Background(), RunOptions{Java: jdk.Java, Args: []string{"-cp", dir, "Fail"}, Log: log, CacheDir: testCacheDir})
	var ee *proc.ExitError
	if !errors.As(err, &ee) || ee.ExitCode != 3 || ee.Detail != "failing on purpose" {
		t.Fatalf("error %v, want exit status 3 with the program's last line", err)
	}
	if !strings.Contains(err.Error(), "status 3") {
		t.Errorf("message %q", err)
	}
	s := readLog(t, log)
	if s.byClass[s.classID(t, "[I")] < 100 {
		t.Errorf("%d int[] allocations, want at least 100", s.byClass[s.classID(t, "[I")])
	}
	if len(s.snapshots) == 0 {
		t.Error("no exit snapshot: VMDeath did not run")
	}
}

// Cancelling kills a program that would run for a minute.
func TestCancel(t *testing.T) {
	jdk := requireJDK(t)
	if _, err := BuildAgentWith(testCacheDir, jdk.Include); err != nil {
		t.Fatal(err)
	}
	testCancel(t, jdk, func(ctx context.Context, sleep []string, stdout io.Writer) error {
		return Run(ctx, RunOptions{Java: jdk.Java, Args: sleep, Log: filepath.Join(t.TempDir(), "sleep.log"), CacheDir: testCacheDir, Stdout: stdout})
	})
}

// testCancel runs a Java program that prints a line and sleeps for a minute through run, and
// cancels once the line is out: run must return the context's error soon.
func testCancel(t *testing.T, jdk *JDK, run func(ctx context.Context, sleep []string, stdout io.Writer) error) {
	t.Helper()
	dir := writeJava(t, jdk, "Sleep", `public class Sleep {
	public static void main(String[] args) throws Exception {
		System.out.println("sleeping");
		Thread.sleep(60000);
	}
}`)
	ctx, cancel := context.WithCancel(context.Background())
	pr, pw := io.Pipe()
	go func() { // cancel once the program runs
		buf := make([]byte, 64)
		pr.Read(buf)
		cancel()
		io.Copy(io.Discard, pr)
	}()
	start := time.Now()
	err := run(ctx, []string{"-cp", dir, "Sleep"}, pw)
	pw.Close()
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("error %v, want context.Canceled", err)
	}
	if d := time.Since(start); d > 20*time.Second {
		t.Errorf("cancel took %v", d)
	}
}

// An agent that cannot start fails the run with its own message.
func TestAgentError(t *testing.T) {
	jdk := requireJDK(t)
	dir := t.TempDir() // a directory is no log file
	err := Run(context.Background(), RunOptions{Java: jdk.Java, Args: []string{"-version"}, Log: dir, CacheDir: testCacheDir})
	var ee *proc.ExitError
	if !errors.As(err, &ee) || !strings.HasPrefix(ee.Detail, agentPrefix+" creating the log") {
		t.Fatalf("error %v, want the agent's message", err)
	}
}

func TestMissingGCC(t *testing.T) {
	jdk := requireJDK(t)
	t.Setenv("PATH", t.TempDir())
	_, err := BuildAgentWith(t.TempDir(), jdk.Include)
	var mt *proc.MissingToolError
	if !errors.As(err, &mt) || mt.Tool != "gcc" || !strings.Contains(err.Error(), "apt-get install gcc") {
		t.Fatalf("error %v", err)
	}
}

func TestMissingJava(t *testing.T) {
	err := Run(context.Background(), RunOptions{Java: filepath.Join(t.TempDir(), "java"), Args: []string{"X"}, Log: "x.log"})
	var mt *proc.MissingToolError
	if !errors.As(err, &mt) || mt.Package != jdkPackage || !strings.Contains(err.Error(), "apt-get install "+jdkPackage) {
		t.Fatalf("error %v", err)
	}
}

func TestCommand(t *testing.T) {
	for _, c := range []struct {
		argv []string
		java string
		args []string
		bad  bool
	}{
		{argv: []string{"java", "-cp", "d", "demo.Threads"}, java: "java", args: []string{"-cp", "d", "demo.Threads"}},
		{argv: []string{"/usr/lib/jvm/x/bin/java", "-jar", "a.jar"}, java: "/usr/lib/jvm/x/bin/java", args: []string{"-jar", "a.jar"}},
		{argv: []string{"-cp", "d", "Main", "java"}, java: "", args: []string{"-cp", "d", "Main", "java"}},
		{argv: []string{"demo.Garbage"}, java: "", args: []string{"demo.Garbage"}},
		{argv: nil, bad: true},
		{argv: []string{"java"}, bad: true},
	} {
		java, args, err := Command(c.argv)
		if (err != nil) != c.bad || java != c.java || strings.Join(args, " ") != strings.Join(c.args, " ") {
			t.Errorf("Command(%q) = %q, %q, %v", c.argv, java, args, err)
		}
	}
}

func TestSamples(t *testing.T) {
	got := strings.Join(Samples(), " ")
	if got != "demo.AppHeap demo.Cache demo.Garbage demo.Leaks demo.Mutate demo.Objects demo.Phases demo.Retain demo.Threads" {
		t.Errorf("Samples() = %s", got)
	}
}

// BenchmarkOverhead runs each sample with plain java and under the agent: the wall time of
// one run is the agent's cost (go test -run=^$ -bench=Overhead -benchtime=3x ./jvm).
func BenchmarkOverhead(b *testing.B) {
	jdk := requireJDK(b)
	dir := compiledSamples(b, jdk)
	so, err := BuildAgentWith(testCacheDir, jdk.Include)
	if err != nil {
		b.Fatal(err)
	}
	log := filepath.Join(b.TempDir(), "heap.log")
	for _, sample := range Samples() {
		for _, agent := range []bool{false, true} {
			name := sample + "/plain"
			args := []string{"-cp", dir, sample}
			if agent {
				name = sample + "/agent"
				args = append([]string{"-agentpath:" + so + "=out=" + log}, args...)
			}
			b.Run(name, func(b *testing.B) {
				for b.Loop() {
					if out, err := exec.Command(jdk.Java, args...).CombinedOutput(); err != nil {
						b.Fatalf("%v\n%s", err, out)
					}
				}
			})
		}
	}
}
