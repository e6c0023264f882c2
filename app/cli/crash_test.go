package cli

import (
	"bufio"
	"context"
	"database/sql"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"androprof/formats/bbprofile"
	"androprof/formats/heaplog/heaplogtest"
	"androprof/model"
	"androprof/model/cost"
)

// crashPoint is when the crash test interrupts an import, and with which signal.
type crashPoint struct {
	name string
	sig  syscall.Signal
	// at waits for the moment, given the child, its workspace and how long a whole import
	// takes; it may return early when the child has ended.
	at func(c *child, db string, whole time.Duration)
}

// crashPoints interrupt an import before it starts, while it reads (the progress lines say
// so), at fractions of a whole import's time (through the writes and the commit), once its run
// is visible to a reader (after the commit) and after its summary; SIGKILL at each, and SIGINT
// (Ctrl-C) while it reads and around and after the commit.
func crashPoints() []crashPoint {
	var pts []crashPoint
	for _, sig := range []syscall.Signal{syscall.SIGKILL, syscall.SIGINT} {
		if sig == syscall.SIGKILL {
			pts = append(pts, crashPoint{"at-start", sig, func(*child, string, time.Duration) {}})
		}
		pts = append(pts,
			crashPoint{"first-progress-line", sig, func(c *child, _ string, _ time.Duration) {
				c.until(func() bool { return strings.Contains(c.stderr.String(), "importing:") })
			}},
			crashPoint{"progress-40%", sig, func(c *child, _ string, _ time.Duration) {
				c.until(func() bool { return progressAtLeast(c.stderr.String(), 40) })
			}})
		fractions := []float64{0.25, 0.5, 0.75, 0.9, 1, 1.1}
		if sig == syscall.SIGINT {
			fractions = []float64{0.9, 1}
		}
		for _, f := range fractions {
			pts = append(pts, crashPoint{fmt.Sprintf("at-%d%%-of-the-time", int(f*100)), sig, func(c *child, _ string, whole time.Duration) {
				select {
				case <-c.exited:
				case <-time.After(time.Duration(f * float64(whole))):
				}
			}})
		}
		pts = append(pts, crashPoint{"run-visible", sig, func(c *child, db string, _ time.Duration) { untilRunVisible(c, db, "big") }})
		if sig == syscall.SIGKILL {
			pts = append(pts, crashPoint{"after-the-summary", sig, func(c *child, _ string, _ time.Duration) {
				c.until(func() bool { return strings.Contains(c.stdout.String(), `run "big"`) })
			}})
		}
	}
	return pts
}

var progressLine = regexp.MustCompile(`importing: (\d+)%`)

// progressAtLeast tells whether a progress line of stderr says pct percent or more.
func progressAtLeast(stderr string, pct int) bool {
	for _, m := range progressLine.FindAllStringSubmatch(stderr, -1) {
		if n, _ := strconv.Atoi(m[1]); n >= pct {
			return true
		}
	}
	return false
}

// untilRunVisible polls the workspace, as another reader would, until run is in it: its
// import has committed.
func untilRunVisible(c *child, path, run string) {
	db, err := sql.Open("sqlite", "file:"+path+"?_pragma=busy_timeout(5000)&_pragma=query_only(ON)")
	if err != nil {
		return
	}
	defer db.Close()
	c.until(func() bool {
		var n int
		err := db.QueryRowContext(context.Background(), `SELECT count(*) FROM run WHERE name = ?`, run).Scan(&n)
		return err == nil && n > 0
	})
}

// TestCrashDuringImport kills a child process importing a large file with SIGKILL at many
// points (before the import, while it reads, through its writes and commit, after it) and
// interrupts it with SIGINT. Afterwards the workspace must pass the integrity check and hold
// either nothing of the run or all of it (every row as a clean import writes it), and what the
// child printed must match: a summary only for a stored run, after a Ctrl-C a cancellation
// (exit 1) when nothing was stored and success (exit 0, the summary) when the run was. It runs
// on a heap log (reading dominates) and a basic-block profile (writing dominates), and prints
// its counts (scripts/test.sh shows them).
func TestCrashDuringImport(t *testing.T) {
	if testing.Short() {
		t.Skip("the crash test imports large files some thirty times")
	}
	dir := t.TempDir()
	base := filepath.Join(dir, "base.db")
	importInto(t, base, "methods", "../../formats/dpa/testdata/figure4.dpa")
	before := readWorkspace(t, base)
	for _, in := range []struct {
		name  string
		write func(path string) error
	}{
		{"heaplog", func(path string) error {
			return writeBuffered(path, func(w *bufio.Writer) error { return heaplogtest.Synthetic(w, 2_000_000, 1) })
		}},
		{"bbprofile", func(path string) error {
			return writeBuffered(path, func(w *bufio.Writer) error { return syntheticBBProfile(w, 12_000) })
		}},
	} {
		t.Run(in.name, func(t *testing.T) {
			t.Parallel()
			big := filepath.Join(t.TempDir(), "big."+in.name)
			if err := in.write(big); err != nil {
				t.Fatal(err)
			}
			crashImports(t, base, before, big)
		})
	}
}

// crashImports interrupts imports of big into copies of the workspace base at every crash
// point, checks each, and prints the counts.
func crashImports(t *testing.T, base string, before wsState, big string) {
	// A clean import says how long an import takes and what a whole run is.
	ref := filepath.Join(t.TempDir(), "ref.db")
	copyWorkspace(t, base, ref)
	start := time.Now()
	importInto(t, ref, "big", big)
	whole := time.Since(start)
	complete := readWorkspace(t, ref)

	var kills, ints, nothing, stored, damaged, partial, wrong int
	for _, p := range crashPoints() {
		db := filepath.Join(t.TempDir(), "w.db")
		copyWorkspace(t, base, db)
		c := startChild(t, nil, "import", "--db", db, "--run", "big", big)
		p.at(c, db, whole)
		c.signal(p.sig)
		r := c.wait(t)
		after := readWorkspace(t, db)
		if p.sig == syscall.SIGKILL {
			kills++
		} else {
			ints++
		}
		fail := func(format string, args ...any) {
			t.Errorf("%s %s: %s: %v", p.sig, p.name, fmt.Sprintf(format, args...), r)
			wrong++
		}
		if after.integrity != "ok" {
			damaged++
			t.Errorf("%s %s: integrity check: %s", p.sig, p.name, after.integrity)
		}
		summary := strings.Contains(r.stdout, `run "big"`)
		switch after.digest {
		case before.digest:
			nothing++
			switch {
			case summary:
				fail("the run was reported but is not in the workspace")
			case p.sig == syscall.SIGINT && (r.code != 130 || r.signal != 0 || !strings.Contains(r.stderr, "cancel")):
				fail("a Ctrl-C before the commit must say the import was cancelled, exit 130")
			case r.crashed() && r.signal != syscall.SIGKILL:
				fail("crashed")
			}
		case complete.digest:
			stored++
			switch {
			case p.sig == syscall.SIGINT && (r.code != 0 || !summary):
				fail("a Ctrl-C after the commit must report the stored run, exit 0")
			case r.signal == 0 && (r.code != 0 || !summary):
				fail("the run was stored, but the command did not say so")
			}
		default:
			partial++
			t.Errorf("%s %s: the workspace holds part of the run (runs %v; a whole import gives %v): %v", p.sig, p.name, after.runs, complete.runs, r)
		}
		t.Logf("%s %s: runs %v: %v", p.sig, p.name, after.runs, r)
	}
	if nothing == 0 || stored == 0 {
		t.Errorf("every interruption left %s; the points should reach both sides of the commit", map[bool]string{true: "the whole run", false: "nothing"}[stored > 0])
	}
	st, err := os.Stat(big)
	if err != nil {
		t.Fatal(err)
	}
	fmt.Printf("crash: %s (%d MB, a whole import %.1f s): %d interruptions (%d SIGKILL, %d SIGINT), %d left nothing, %d the whole run; %d damaged workspaces, %d partial runs, %d wrong messages\n",
		filepath.Ext(big)[1:], st.Size()>>20, whole.Seconds(), kills+ints, kills, ints, nothing, stored, damaged, partial, wrong)
}

// writeBuffered writes a file through a buffer.
func writeBuffered(path string, write func(w *bufio.Writer) error) error {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	w := bufio.NewWriter(f)
	if err := write(w); err != nil {
		f.Close()
		return err
	}
	if err := w.Flush(); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

// syntheticBBProfile writes a basic-block profile of one process with blocks distinct blocks
// of eight ARM instructions each, run by two threads: an import of it is mostly writes.
func syntheticBBProfile(w *bufio.Writer, blocks int) error {
	bw := bbprofile.NewWriter(w)
	if err := bw.Process(bbprofile.Process{Process: model.Process{PID: 1, Name: "big"}, Arch: "arm", Path: "./big"}); err != nil {
		return err
	}
	bw.Thread(1, "main")
	bw.Thread(2, "worker")
	mnemonics := []string{"mov", "add", "ldr", "str", "cmp", "sub", "orr", "bl"}
	for i := range blocks {
		b := &cost.Block{PC: 0x10000 + uint64(i)*32, ISA: cost.ARM, Symbol: fmt.Sprintf("f%d", i/40)}
		for k := range 8 {
			b.Insns = append(b.Insns, cost.Insn{Addr: b.PC + uint64(4*k), Encoding: "e1a00000", Mnemonic: mnemonics[(i+k)%8], Operands: "r0, r0"})
		}
		if err := bw.Block(uint64(i), b, []bbprofile.ThreadCount{{TID: 1, Executions: int64(i + 1)}, {TID: 2, Executions: 3}}); err != nil {
			return err
		}
	}
	if err := bw.End(); err != nil {
		return err
	}
	return bw.Flush()
}

// TestInterruptWaitingForFIFO interrupts with SIGINT an import of a FIFO that no program
// writes: the import must say what it waits for, stop on Ctrl-C with the cancellation message
// and leave the workspace as it was.
func TestInterruptWaitingForFIFO(t *testing.T) {
	dir := t.TempDir()
	db := filepath.Join(dir, "w.db")
	importInto(t, db, "methods", "../../formats/dpa/testdata/figure4.dpa")
	before := readWorkspace(t, db)
	fifo := filepath.Join(dir, "nobody-writes")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Fatal(err)
	}
	c := startChild(t, nil, "import", "--db", db, "--run", "fifo", fifo)
	if !c.until(func() bool { return strings.Contains(c.stderr.String(), fifo) }) {
		t.Errorf("nothing said about the FIFO while waiting for it: %q", c.stderr.String())
	}
	c.signal(syscall.SIGINT)
	r := c.wait(t)
	if r.code != 130 || !strings.Contains(r.stderr, "cancel") {
		t.Errorf("want exit 130 (a shell's for Ctrl-C) and the cancellation message: %v", r)
	}
	if after := readWorkspace(t, db); after.integrity != "ok" || after.digest != before.digest {
		t.Errorf("the workspace changed: %s, runs %v (were %v)", after.integrity, after.runs, before.runs)
	}
}
