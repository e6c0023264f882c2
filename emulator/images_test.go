package emulator

import (
	"debug/elf"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"androprof/emulator/qemutest"
	"androprof/formats/bbprofile"
	"androprof/model/cost"
)

// dynTarget is a dynamically linked guest: its compiler and qemu target, the Debian cross
// sysroot holding its libraries ("" for x86-64, whose loader and libraries are the host's own),
// and the paths of its dynamic loader and libc.
type dynTarget struct {
	tg           qemutest.Target
	sysroot      string
	loader, libc string
}

var dynTargets = []dynTarget{
	{qemutest.Targets[0], "/usr/arm-linux-gnueabihf", "/usr/arm-linux-gnueabihf/lib/ld-linux-armhf.so.3", "/usr/arm-linux-gnueabihf/lib/libc.so.6"},
	{qemutest.Targets[2], "/usr/mipsel-linux-gnu", "/usr/mipsel-linux-gnu/lib/ld.so.1", "/usr/mipsel-linux-gnu/lib/libc.so.6"},
	{qemutest.AArch64, "/usr/aarch64-linux-gnu", "/usr/aarch64-linux-gnu/lib/ld-linux-aarch64.so.1", "/usr/aarch64-linux-gnu/lib/libc.so.6"},
	{qemutest.X86_64, "", "/lib64/ld-linux-x86-64.so.2", "/lib/x86_64-linux-gnu/libc.so.6"},
}

// qemuOpts are the options that run the target's dynamically linked programs as the runner does.
func (d dynTarget) qemuOpts() []string {
	if d.sysroot == "" {
		return nil
	}
	return []string{"-L", d.sysroot}
}

// buildDynamic compiles a sample as Debian builds programs: -O2, dynamically linked.
func buildDynamic(t *testing.T, d dynTarget, sample string) string {
	t.Helper()
	qemutest.Require(t, d.tg.CC, d.tg.QEMU)
	if _, err := os.Stat(d.loader); err != nil {
		qemutest.Missing(t, "no %s sysroot: %v", d.tg.Name, err)
	}
	bin := filepath.Join(t.TempDir(), strings.TrimSuffix(sample, ".c")+"-dyn-"+d.tg.Name)
	src := filepath.Join(qemutest.SamplesDir(), sample)
	if msg, err := exec.Command(d.tg.CC, "-O2", "-o", bin, src).CombinedOutput(); err != nil {
		t.Fatalf("%v\n%s", err, msg)
	}
	return bin
}

// A real run of a dynamically linked program: every block is in an image of the right kind and
// has a name, the per-image sums add up, and the total is still exactly what -singlestep counts
// with the same libraries (-L); system calls come with names and the instructions before them.
func TestRunImagesDynamic(t *testing.T) {
	for _, d := range dynTargets {
		t.Run(d.tg.Name, func(t *testing.T) {
			bin := buildDynamic(t, d, "sieve.c")
			// Output to a pipe, as in the -singlestep run (glibc sizes stdout's buffer from fstat).
			c, err := runCollect(t, RunOptions{Program: bin, Args: []string{"3000"}, Stdout: io.Discard})
			if err != nil {
				t.Fatal(err)
			}
			checkImages(t, c, bin, d)
			checkSyscalls(t, c)
			want := qemutest.SinglestepCount(t, d.tg, bin, d.qemuOpts(), "3000")
			if c.Instructions() != want {
				t.Errorf("plugin counted %d instructions, -singlestep %v %d", c.Instructions(), d.qemuOpts(), want)
			}
			t.Logf("%s: plugin %d instructions, -singlestep %d", d.tg.Name, c.Instructions(), want)
		})
	}
}

func checkImages(t *testing.T, c *bbprofile.Collector, bin string, d dynTarget) {
	t.Helper()
	libc, err := filepath.EvalSymlinks(d.libc) // as the kernel's table of mappings names it
	if err != nil {
		t.Fatal(err)
	}
	kinds := map[string]cost.ImageKind{}
	byPath := map[string]cost.Image{}
	for _, im := range c.Images {
		kinds[im.Name], byPath[im.Path] = im.Kind, im
	}
	for name, want := range map[string]cost.ImageKind{filepath.Base(bin): cost.ImageProgram,
		"libc.so.6": cost.ImageLibrary, filepath.Base(d.loader): cost.ImageLoader} {
		if kinds[name] != want {
			t.Errorf("image %s is %q, want %q (images %+v)", name, kinds[name], want, c.Images)
		}
	}
	if im := byPath[libc]; im.Base == 0 || im.Base%4096 != 0 {
		t.Errorf("libc image %+v: want the page its offset 0 is mapped at", im)
	}
	exported := dynamicNames(t, libc)
	fromDebug := strings.HasPrefix(byPath[libc].Symbols, "debug file ")
	perImage := map[string]int64{}
	var total, libcNamed, libcOffsets int64
	sawMain := false
	for k, n := range c.Counts {
		b := c.Blocks[k.BlockKey]
		perImage[b.Image] += n * int64(len(b.Insns))
		total += n * int64(len(b.Insns))
	}
	for _, b := range c.Blocks {
		if _, ok := byPath[b.Image]; !ok {
			t.Errorf("block 0x%x is in image %q, which the collector did not get", b.PC, b.Image)
		}
		if b.Symbol == "" {
			t.Errorf("block 0x%x of %s has no name", b.PC, b.Image)
		}
		sawMain = sawMain || b.Symbol == "main" && byPath[b.Image].Kind == cost.ImageProgram
		if b.Image != libc {
			continue
		}
		switch {
		case exported[b.Symbol] || fromDebug && !isImageOffset(b.Symbol, "libc.so.6"):
			libcNamed++
		case isImageOffset(b.Symbol, "libc.so.6"):
			libcOffsets++
		case byPath[libc].Symbols == ".dynsym":
			t.Errorf("libc block 0x%x is named %q: neither in .dynsym nor libc.so.6+0x…", b.PC, b.Symbol)
		}
	}
	if !sawMain {
		t.Error("no block of the program is named main")
	}
	// A stripped libc names some blocks from .dynsym and the rest by the unwind tables'
	// function starts; with its debug file installed (libc6-dbg on the host) names come from it.
	if libcNamed == 0 || libcOffsets == 0 && !fromDebug {
		t.Errorf("libc blocks (names from %s): %d named, %d as libc.so.6+0x… (want both)", byPath[libc].Symbols, libcNamed, libcOffsets)
	}
	if total != c.Instructions() || perImage[""] != 0 {
		t.Errorf("per-image sums %v add up to %d, the run counted %d", perImage, total, c.Instructions())
	}
	for _, im := range c.Images {
		if im.Kind != cost.ImageNoFile && perImage[im.Path] == 0 {
			t.Errorf("image %s ran no instructions", im.Path)
		}
	}
	t.Logf("images %+v; per image %v", c.Images, perImage)
}

func checkSyscalls(t *testing.T, c *bbprofile.Collector) {
	t.Helper()
	checkNamedSyscalls(t, c, "write", "exit_group")
	byName := map[string]cost.Syscall{}
	var before int64
	for _, s := range c.Syscalls {
		if s.PID != c.Processes[0].PID || s.TID != s.PID {
			t.Errorf("system call of pid %d tid %d in a one-thread run", s.PID, s.TID)
		}
		byName[s.Name] = s
		before += s.Insns
	}
	if byName["exit_group"].Count != 1 || byName["write"].Count == 0 {
		t.Errorf("system calls %+v: want exit_group once and write", c.Syscalls)
	}
	// One thread, ended by exit_group: the instructions before its calls are all it ran.
	if before != c.Instructions() {
		t.Errorf("instructions before system calls add up to %d, the run counted %d", before, c.Instructions())
	}
}

// dynamicNames are the function names a library exports.
func dynamicNames(t *testing.T, path string) map[string]bool {
	t.Helper()
	f, err := elf.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	syms, err := f.DynamicSymbols()
	if err != nil {
		t.Fatal(err)
	}
	names := map[string]bool{}
	for _, s := range syms {
		names[s.Name] = true
	}
	return names
}

// isImageOffset tells a fallback name IMAGE+0xHEX.
func isImageOffset(sym, image string) bool {
	hex, ok := strings.CutPrefix(sym, image+"+0x")
	_, err := strconv.ParseUint(hex, 16, 64)
	return ok && err == nil
}
