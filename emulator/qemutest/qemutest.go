// Package qemutest builds real programs with Debian's cross-compilers and runs them under
// real qemu-user for tests. Missing tools skip a test on a developer machine and fail it in CI
// (CI=true), where .ci/run installs them.
package qemutest

import (
	"bufio"
	"bytes"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"syscall"
	"testing"

	"androprof/internal/fastlane"
)

// Target is a guest configuration: how to compile for it and which qemu runs it.
type Target struct {
	Name  string
	CC    string
	Flags []string
	QEMU  string
}

// Targets are the builds the issues ask for: ARMv7, MIPS32, AArch64 and x86-64. The ARM build
// still runs Thumb-2 code in the static glibc (docs/formats.md#arm-and-thumb), so it exercises
// both instruction sets. x86-64 is built by its triplet's name rather than plain gcc, so a
// machine of another architecture builds for the guest or skips.
var Targets = []Target{
	{"arm", "arm-linux-gnueabihf-gcc", []string{"-marm"}, "qemu-arm"},
	{"thumb", "arm-linux-gnueabihf-gcc", []string{"-mthumb"}, "qemu-arm"},
	{"mips", "mipsel-linux-gnu-gcc", nil, "qemu-mipsel"},
	AArch64,
	X86_64,
}

// AArch64 and X86_64 are the 64-bit targets of issue 26, named for tests of them alone.
var (
	AArch64 = Target{"aarch64", "aarch64-linux-gnu-gcc", nil, "qemu-aarch64"}
	X86_64  = Target{"x86_64", "x86_64-linux-gnu-gcc", nil, "qemu-x86_64"}
)

// Require skips (or in CI fails) unless every tool is on PATH, and skips in the fast lane
// (-short), which runs no QEMU, cross-compiler or apt.
func Require(t testing.TB, tools ...string) {
	t.Helper()
	fastlane.Needs(t, strings.Join(tools, ", "))
	for _, tool := range tools {
		if _, err := exec.LookPath(tool); err != nil {
			if os.Getenv("CI") != "" {
				t.Fatalf("%s is not installed; .ci/run must install it", tool)
			}
			t.Skipf("%s is not installed (scripts/deps.sh installs it)", tool)
		}
	}
}

// Build compiles a C source statically for the target into the test's temp dir.
func Build(t testing.TB, tg Target, src string) string {
	t.Helper()
	Require(t, tg.CC, tg.QEMU)
	out := filepath.Join(t.TempDir(), filepath.Base(src)+"-"+tg.Name)
	args := append([]string{"-O2", "-static", "-o", out}, tg.Flags...)
	cmd := exec.Command(tg.CC, append(args, src)...)
	if b, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("%s: %v\n%s", tg.CC, err, b)
	}
	return out
}

// Log runs bin under the target's qemu with the given options (e.g. "-d", "in_asm,exec,nochain"
// or "-singlestep", "-d", "exec,nochain") plus `-D log`, and returns the log path.
func Log(t testing.TB, tg Target, bin string, qemuOpts []string, args ...string) string {
	t.Helper()
	log := filepath.Join(t.TempDir(), filepath.Base(bin)+".log")
	qargs := append(append(append([]string{}, qemuOpts...), "-D", log, bin), args...)
	if b, err := exec.Command(tg.QEMU, qargs...).CombinedOutput(); err != nil {
		t.Fatalf("%s %v: %v\n%s", tg.QEMU, qargs, err, b)
	}
	return log
}

// SamplesDir is assets/samples, found from this source file so tests run from any package.
func SamplesDir() string {
	_, file, _, _ := runtime.Caller(0)
	return filepath.Join(filepath.Dir(file), "..", "..", "assets", "samples")
}

// TraceLines counts the blocks a `-d exec` log says QEMU ran: its Trace lines, less the
// "Stopped execution" lines that take back a block just logged (another thread had asked its
// vCPU to stop; under -singlestep this happens in about one multi-threaded run in eight).
func TraceLines(t testing.TB, path string) int64 {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	n, err := countTrace(f)
	if err != nil {
		t.Fatal(err)
	}
	return n
}

func countTrace(r io.Reader) (int64, error) {
	var n int64
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64<<10), 1<<20)
	for sc.Scan() {
		switch {
		case bytes.HasPrefix(sc.Bytes(), []byte("Trace ")):
			n++
		case bytes.HasPrefix(sc.Bytes(), []byte("Stopped execution")):
			n--
		}
	}
	return n, sc.Err()
}

// SinglestepStream is SinglestepCount for runs too long to keep their log (about 70 bytes per
// instruction): QEMU writes the log into a FIFO that a counter reads as it comes. qemuArgs
// are qemu's options, the program and its arguments; the program's output goes into a pipe
// and is discarded. env
// is the environment (nil: this process's): the guest's start-up code reads it, so a count to
// compare with another run's must see the same.
func SinglestepStream(t testing.TB, env []string, qemu string, qemuArgs ...string) int64 {
	t.Helper()
	Require(t, qemu)
	fifo := filepath.Join(t.TempDir(), "exec.fifo")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(qemu, append([]string{"-singlestep", "-d", "exec,nochain", "-D", fifo}, qemuArgs...)...)
	var stderr bytes.Buffer
	// A pipe, not /dev/null: glibc asks a character device whether it is a terminal, which
	// costs instructions a run writing into a pipe or file does not make.
	cmd.Stdout, cmd.Stderr, cmd.Env = io.Discard, &stderr, env
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	f, err := os.Open(fifo) // returns once QEMU opened it for writing
	if err != nil {
		cmd.Process.Kill()
		t.Fatal(err)
	}
	n, cerr := countTrace(f)
	f.Close()
	if err := cmd.Wait(); err != nil {
		t.Fatalf("%s %v: %v\n%s", qemu, qemuArgs, err, stderr.Bytes())
	}
	if cerr != nil {
		t.Fatal(cerr)
	}
	return n
}

// SinglestepCount is the ground truth of docs/formats.md#qemu-execution-lines: under `-singlestep -d exec,nochain`
// every block is one instruction, so the blocks QEMU ran are the program's instruction count.
func SinglestepCount(t testing.TB, tg Target, bin string, qemuOpts []string, args ...string) int64 {
	t.Helper()
	opts := append([]string{"-singlestep", "-d", "exec,nochain"}, qemuOpts...)
	return TraceLines(t, Log(t, tg, bin, opts, args...))
}
