package emulator

import (
	"bufio"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"testing"

	"androprof/emulator/qemutest"
	"androprof/formats/bbprofile"
	"androprof/model/cost"
)

// refereeFunctions are testdata/cacheref.c's own hot functions: everything they touch is code
// and global data, at the same addresses natively and under QEMU.
var refereeFunctions = []string{"drive", "init", "strided", "chase", "bump", "unaligned", "bigcode"}

// missCounts are the misses cachegrind reports, per function or in total: L1 instruction, L1
// data (reads and writes together) and last level (fetches, reads and writes).
type missCounts struct{ I1, D1, LL int64 }

func (m missCounts) plus(o missCounts) missCounts {
	return missCounts{m.I1 + o.I1, m.D1 + o.D1, m.LL + o.LL}
}

// The referee: on a program whose hot functions touch only code and global data, the
// plugin's per-function I1, D1 and LL misses equal cachegrind's with the same geometry (two
// levels, LRU, write-allocate). D1 is reads and writes together: cachegrind counts a
// read-modify-write instruction (bump's addq $1,(mem)) as one "modify" access, QEMU as a load
// and a store, and the store always hits the line the load just brought in.
func TestCacheAgreesWithCachegrind(t *testing.T) {
	if runtime.GOARCH != "amd64" {
		t.Skip("cachegrind runs the x86-64 program natively: an x86-64 host is needed")
	}
	qemutest.Require(t, "gcc", "valgrind", "qemu-x86_64")
	bin := filepath.Join(t.TempDir(), "cacheref")
	if out, err := exec.Command("gcc", "-static", "-O2", "-no-pie", "-g", "-o", bin, filepath.Join("testdata", "cacheref.c")).CombinedOutput(); err != nil {
		t.Fatalf("gcc: %v\n%s", err, out)
	}
	g, err := cost.ParseCacheGeometry("l1i=16k:4:64,l1d=16k:4:64,l2=128k:8:64")
	if err != nil {
		t.Fatal(err)
	}
	native, nativeTotal := cachegrind(t, bin, g)
	c, err := runCollect(t, RunOptions{Program: bin, Cache: &g, CacheSource: "--cache"})
	if err != nil {
		t.Fatal(err)
	}
	if got := c.Geometries[c.Processes[0].PID]; !got.SameGeometry(g) || c.GeometrySource != "--cache" {
		t.Errorf("the run's geometry is %v from %q, want %v from --cache", got, c.GeometrySource, g)
	}
	emulated, emulatedTotal := pluginMisses(c)
	for _, fn := range refereeFunctions {
		if native[fn] != emulated[fn] {
			t.Errorf("%s: plugin %+v, cachegrind %+v", fn, emulated[fn], native[fn])
		} else {
			t.Logf("%s: %+v in both", fn, native[fn])
		}
		if native[fn].D1 == 0 && native[fn].I1 == 0 {
			t.Errorf("%s: cachegrind counted no misses: the referee program tests nothing", fn)
		}
	}
	t.Logf("whole program: plugin %+v, cachegrind %+v (startup, libc and the stack differ)", emulatedTotal, nativeTotal)
}

// cachegrind runs bin natively under cachegrind with g's l1i, l1d and l2 as I1, D1 and LL, and
// reads its output file: misses per function and in total.
func cachegrind(t *testing.T, bin string, g cost.CacheGeometry) (map[string]missCounts, missCounts) {
	t.Helper()
	out := filepath.Join(t.TempDir(), "cachegrind.out")
	level := func(name string) string {
		l := g.Level(name)
		return strconv.FormatInt(l.SizeBytes, 10) + "," + strconv.Itoa(l.Ways) + "," + strconv.Itoa(l.LineBytes)
	}
	cmd := exec.Command("valgrind", "--tool=cachegrind", "--cache-sim=yes", "--I1="+level(cost.L1I),
		"--D1="+level(cost.L1D), "--LL="+level(cost.L2), "--cachegrind-out-file="+out, bin)
	if b, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("valgrind: %v\n%s", err, b)
	}
	return readCachegrind(t, out)
}

// readCachegrind reads a cachegrind.out file: `events:` names the columns, `fn=` opens a
// function, and each line after it is a source line number and its counts (missing trailing
// counts are 0). A function may appear under several `fl=` files; they add up.
func readCachegrind(t *testing.T, path string) (map[string]missCounts, missCounts) {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	byFn := map[string]missCounts{}
	var total missCounts
	var events []string
	fn := ""
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		ln := sc.Text()
		switch {
		case strings.HasPrefix(ln, "events: "):
			events = strings.Fields(strings.TrimPrefix(ln, "events: "))
		case strings.HasPrefix(ln, "fn="):
			fn = strings.TrimPrefix(ln, "fn=")
		case ln == "" || !strings.ContainsAny(ln[:1], "0123456789") || fn == "":
		default:
			m := missCounts{}
			for i, v := range strings.Fields(ln)[1:] {
				n, err := strconv.ParseInt(v, 10, 64)
				if err != nil || i >= len(events) {
					t.Fatalf("%s: bad line %q", path, ln)
				}
				switch events[i] {
				case "I1mr":
					m.I1 += n
				case "D1mr", "D1mw":
					m.D1 += n
				case "ILmr", "DLmr", "DLmw":
					m.LL += n
				}
			}
			byFn[fn] = byFn[fn].plus(m)
			total = total.plus(m)
		}
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	if len(events) == 0 || len(byFn) == 0 {
		t.Fatalf("%s: no events or no functions", path)
	}
	return byFn, total
}

// pluginMisses sums a run's misses lines the same way, per block name and in total.
func pluginMisses(run *bbprofile.Collector) (map[string]missCounts, missCounts) {
	byFn := map[string]missCounts{}
	var total missCounts
	for k, c := range run.Cache {
		m := missCounts{c.FetchMiss[0], c.ReadMiss[0] + c.WriteMiss[0], c.FetchMiss[1] + c.ReadMiss[1] + c.WriteMiss[1]}
		fn := run.Blocks[k.BlockKey].Symbol
		byFn[fn] = byFn[fn].plus(m)
		total = total.plus(m)
	}
	return byFn, total
}
