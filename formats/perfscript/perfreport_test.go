package perfscript

import (
	"bufio"
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"androprof/internal/testio"
	"androprof/model/samples"
)

// leaf is a row of perf report --sort dso,sym: a sample's leaf image and symbol, "" for a
// symbol perf could not name.
type leaf struct{ image, symbol string }

// reportFlags make perf report count leaf samples (--no-children) per image and symbol in
// '|'-separated columns. perf report names images by their file names, and JIT code by
// "[JIT] tid PID"; with -v it prints full paths, but then names C++ functions with their
// parameters ("os::free(void*)"), as perf script does only with -v too.
var reportFlags = []string{"--stdio", "--no-children", "-g", "none", "--sort", "dso,sym", "-F", "sample,dso,sym", "-t", "|"}

// reportCounts reads perf report's rows ("  56  |/tmp/perf-1.map  |0x7efd…  j [.] Interpreter").
// perf report names an address it has no symbol for by the address, one row each, where perf
// script prints "[unknown]": those rows add up per image, as the reader's do.
func reportCounts(t *testing.T, report []byte) map[leaf]int {
	t.Helper()
	counts := map[leaf]int{}
	sc := bufio.NewScanner(bytes.NewReader(report))
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		ln := sc.Text()
		if strings.HasPrefix(ln, "#") || strings.TrimSpace(ln) == "" {
			continue
		}
		f := strings.SplitN(ln, "|", 3)
		if len(f) != 3 {
			t.Fatalf("perf report row %q: want 3 columns", ln)
		}
		n, err := strconv.Atoi(strings.TrimSpace(f[0]))
		_, sym, ok := strings.Cut(f[2], "] ") // "[.] ", "[k] "
		if err != nil || !ok {
			t.Fatalf("perf report row %q", ln)
		}
		sym = strings.TrimRight(sym, " ")
		if h, ok := strings.CutPrefix(sym, "0x"); ok && allHex([]byte(h)) {
			sym = ""
		}
		counts[leaf{strings.TrimSpace(f[1]), sym}] += n
	}
	return counts
}

// leafCounts reads perf script text with the reader and counts samples by their leaf frame,
// its image named as perf report names it: in full when verbose, else by reportImage.
// frameless counts the samples perf script printed no frame for: on a loaded machine perf
// sometimes records a call chain it cannot resolve, and then prints the sample's header alone,
// where perf report still counts it by its ip (the importer keeps it as [unknown]).
func leafCounts(t *testing.T, script []byte, name string, verbose bool) (counts map[leaf]int, h samples.SampleHeader, frameless int) {
	t.Helper()
	counts = map[leaf]int{}
	r := NewReader(bytes.NewReader(script), name)
	err := r.Feed(sinkFunc(func(s *samples.Sample) error {
		if len(s.Stack) == 0 {
			frameless++
			return nil
		}
		image := s.Stack[0].Image
		if !verbose {
			image = reportImage(image)
		}
		counts[leaf{image, s.Stack[0].Symbol}]++
		return nil
	}))
	if err != nil {
		t.Fatal(err)
	}
	return counts, r.Header(), frameless
}

var perfMapName = regexp.MustCompile(`^/tmp/perf-([0-9]+)\.map$`)

// reportImage is an image as perf report names it without -v: its file name, and JIT code
// (perf-PID.map) "[JIT] tid PID".
func reportImage(image string) string {
	if m := perfMapName.FindStringSubmatch(image); m != nil {
		return "[JIT] tid " + m[1]
	}
	if strings.HasPrefix(image, "/") {
		return filepath.Base(image)
	}
	return image
}

type sinkFunc func(*samples.Sample) error

func (f sinkFunc) Sample(s *samples.Sample) error { return f(s) }

// compareCounts fails t for every (image, symbol) whose counts differ, but for frameless
// samples: perf report counts them in rows of their own, which may have that many more.
func compareCounts(t *testing.T, what string, got, want map[leaf]int, frameless int) {
	t.Helper()
	keys := map[leaf]bool{}
	for k := range got {
		keys[k] = true
	}
	for k := range want {
		keys[k] = true
	}
	total, bad, missing := 0, 0, 0
	for _, k := range slices.SortedFunc(func(yield func(leaf) bool) {
		for k := range keys {
			if !yield(k) {
				return
			}
		}
	}, func(a, b leaf) int { return strings.Compare(a.image+"\x00"+a.symbol, b.image+"\x00"+b.symbol) }) {
		total += want[k]
		if got[k] < want[k] && missing+want[k]-got[k] <= frameless {
			missing += want[k] - got[k] // a frameless sample's row
			continue
		}
		if got[k] != want[k] {
			bad++
			t.Errorf("%s: %s %q: %d samples read, perf report %d", what, k.image, k.symbol, got[k], want[k])
		}
	}
	if missing != frameless {
		t.Errorf("%s: %d samples without frames, but perf report counts %d more than were read", what, frameless, missing)
	}
	if total == 0 {
		t.Errorf("%s: perf report counted no samples", what)
	}
	t.Logf("%s: %d rows, %d samples, %d rows differ, %d samples without frames", what, len(keys), total, bad, frameless)
}

// The committed recording (testdata/java.perfscript.gz, perf script --header of a perf.data
// recorded here from a Java program, see docs/perfscript-format.md) reads to the per-symbol
// leaf counts perf report printed for the same perf.data (testdata/java.perfreport).
func TestCommittedRecordingMatchesPerfReport(t *testing.T) {
	script := testio.ReadPlain(t, "testdata/java.perfscript.gz")
	report, err := os.ReadFile("testdata/java.perfreport")
	if err != nil {
		t.Fatal(err)
	}
	got, h, frameless := leafCounts(t, script, "java.perfscript", false)
	compareCounts(t, "java.perfscript", got, reportCounts(t, report), frameless)
	if h.Format != FormatPerf || h.Event != "cpu-clock" || h.RateHz != 499 || !strings.Contains(h.Command, "perf record") {
		t.Errorf("header %+v", h)
	}
}

// A perf.data recorded now, of a C program and of a Java program whose JIT code perf names
// through the JVM's perf map, reads from perf script's text (as printed by default, with the
// process ids, and without call chains) to the leaf counts perf report prints for the same file.
// It needs perf and the right to record (root in CI), and gcc and a JDK for the programs.
func TestRecordingMatchesPerfReport(t *testing.T) {
	if testing.Short() {
		t.Skip("records with perf")
	}
	if _, err := exec.LookPath("perf"); err != nil {
		t.Skip("perf is not installed (Debian: linux-perf)")
	}
	dir := t.TempDir()
	t.Run("c", func(t *testing.T) {
		if _, err := exec.LookPath("gcc"); err != nil {
			t.Skip("gcc is not installed")
		}
		src := filepath.Join(dir, "spin.c")
		if err := os.WriteFile(src, []byte(spinC), 0o644); err != nil {
			t.Fatal(err)
		}
		run(t, "gcc", "-O2", "-fno-omit-frame-pointer", "-o", filepath.Join(dir, "spin"), src, "-lm")
		compareRecording(t, dir, "c", filepath.Join(dir, "spin"), "10000")
	})
	t.Run("java", func(t *testing.T) {
		if _, err := exec.LookPath("javac"); err != nil {
			t.Skip("javac is not installed (Debian: openjdk-17-jdk-headless)")
		}
		if err := os.WriteFile(filepath.Join(dir, "Spin.java"), []byte(spinJava), 0o644); err != nil {
			t.Fatal(err)
		}
		run(t, "javac", "-d", dir, filepath.Join(dir, "Spin.java"))
		compareRecording(t, dir, "java", "java", "-XX:+UnlockDiagnosticVMOptions", "-XX:+DumpPerfMapAtExit",
			"-XX:+PreserveFramePointer", "-cp", dir, "Spin")
	})
}

// compareRecording records cmd with perf and compares what the reader makes of perf script's
// text, in four of its variants, with perf report.
func compareRecording(t *testing.T, dir, name string, cmd ...string) {
	data := filepath.Join(dir, name+".data")
	rec := exec.Command("perf", append([]string{"record", "-N", "-F", "999", "-g", "-e", "cpu-clock", "-o", data, "--"}, cmd...)...)
	if out, err := rec.CombinedOutput(); err != nil {
		paranoid, _ := os.ReadFile("/proc/sys/kernel/perf_event_paranoid")
		t.Skipf("perf record cannot record here (perf_event_paranoid %s; run as root): %v\n%s",
			bytes.TrimSpace(paranoid), err, out)
	}
	report := map[bool]map[leaf]int{}
	for _, verbose := range []bool{false, true} {
		args := append([]string{"report", "-i", data}, reportFlags...)
		if verbose {
			args = append(args, "-v")
		}
		report[verbose] = reportCounts(t, run(t, "perf", args...))
	}
	for _, v := range []struct {
		name    string
		flags   []string
		verbose bool
	}{
		{"default", nil, false},
		{"pid-tid", []string{"-F", "comm,pid,tid,time,period,event,ip,sym,dso,symoff"}, false},
		{"no-call-chain", []string{"-G"}, false},
		{"verbose", []string{"-v"}, true}, // full paths, C++ names with parameters
	} {
		script := run(t, "perf", append([]string{"script", "-i", data}, v.flags...)...)
		defer removePerfMaps(script)
		if err := Sniff(script[:min(len(script), 64<<10)]); err != nil {
			t.Errorf("%s: Sniff: %v", v.name, err)
		}
		got, h, frameless := leafCounts(t, script, name+"-"+v.name, v.verbose)
		compareCounts(t, name+" "+v.name, got, report[v.verbose], frameless)
		if h.Event != "cpu-clock" {
			t.Errorf("%s: event %q", v.name, h.Event)
		}
	}
}

// removePerfMaps removes the JIT maps a recorded JVM left in /tmp, as perf script names them.
func removePerfMaps(script []byte) {
	for _, m := range regexp.MustCompile(`/tmp/perf-[0-9]+\.map`).FindAll(script, -1) {
		os.Remove(string(m))
	}
}

// run runs a command and returns its standard output, failing t with its error output.
func run(t *testing.T, name string, args ...string) []byte {
	t.Helper()
	var stderr bytes.Buffer
	cmd := exec.Command(name, args...)
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("%s %s: %v\n%s", name, strings.Join(args, " "), err, stderr.Bytes())
	}
	return out
}

const spinC = `#include <math.h>
#include <stdio.h>
#include <stdlib.h>

__attribute__((noinline)) double inner(double x) {
	double s = 0;
	for (int i = 0; i < 1000; i++) s += sin(x + i);
	return s;
}

__attribute__((noinline)) double outer(int n) {
	double s = 0;
	for (int i = 0; i < n; i++) s += inner(i);
	return s;
}

int main(int argc, char **argv) {
	double s = outer(argc > 1 ? atoi(argv[1]) : 20000);
	FILE *f = fopen("/dev/null", "w");
	char *p = calloc(1, 1 << 20);
	for (int i = 0; i < 100; i++) fwrite(p, 1, 1 << 20, f);
	fclose(f);
	printf("%f\n", s);
	return 0;
}
`

// spinJava is the program of testdata/java.perfscript.gz: a loop, a sort and file writes.
const spinJava = `import java.io.*;
import java.util.*;

public class Spin {
  static long loop(int n) { long s = 0; for (int i = 0; i < n; i++) s += (i * 31L) ^ (s >>> 3); return s; }

  public static void main(String[] a) throws IOException {
    long s = 0;
    for (int k = 0; k < 150; k++) s += loop(1_000_000);
    int[] x = new int[1_000_000];
    Random r = new Random(1);
    for (int k = 0; k < 4; k++) { for (int i = 0; i < x.length; i++) x[i] = r.nextInt(); Arrays.sort(x); }
    File f = File.createTempFile("spin", ".bin");
    byte[] b = new byte[512];
    for (int k = 0; k < 20_000; k++) try (RandomAccessFile w = new RandomAccessFile(f, "rw")) { w.write(b); }
    f.delete();
    System.out.println(s + x[0]);
  }
}
`
