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

// dynTarget is a dynamically linked guest: its compiler, the qemu target, the Debian cross
// sysroot holding its libraries, and its dynamic loader's name.
type dynTarget struct {
	tg      qemutest.Target
	sysroot string
	loader  string
}

var dynTargets = []dynTarget{
	{qemutest.Targets[0], "/usr/arm-linux-gnueabihf", "ld-linux-armhf.so.3"},
	{qemutest.Targets[2], "/usr/mipsel-linux-gnu", "ld.so.1"},
}

// buildDynamic compiles a sample as Debian builds programs: -O2, dynamically linked.
func buildDynamic(t *testing.T, d dynTarget, sample string) string {
	t.Helper()
	qemutest.Require(t, d.tg.CC, d.tg.QEMU)
	if _, err := os.Stat(filepath.Join(d.sysroot, "lib", d.loader)); err != nil {
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
			if want := qemutest.SinglestepCount(t, d.tg, bin, []string{"-L", d.sysroot}, "3000"); c.Instructions() != want {
				t.Errorf("plugin counted %d instructions, -singlestep -L %s %d", c.Instructions(), d.sysroot, want)
			}
		})
	}
}

func checkImages(t *testing.T, c *bbprofile.Collector, bin string, d dynTarget) {
	t.Helper()
	libc := filepath.Join(d.sysroot, "lib", "libc.so.6")
	kinds := map[string]cost.ImageKind{}
	byPath := map[string]cost.Image{}
	for _, im := range c.Images {
		kinds[im.Name], byPath[im.Path] = im.Kind, im
	}
	for name, want := range map[string]cost.ImageKind{filepath.Base(bin): cost.ImageProgram,
		"libc.so.6": cost.ImageLibrary, d.loader: cost.ImageLoader} {
		if kinds[name] != want {
			t.Errorf("image %s is %q, want %q (images %+v)", name, kinds[name], want, c.Images)
		}
	}
	if im := byPath[libc]; im.Base == 0 || im.Base%4096 != 0 {
		t.Errorf("libc image %+v: want the page its offset 0 is mapped at", im)
	}
	exported := dynamicNames(t, libc)
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
		case exported[b.Symbol]:
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
	if libcNamed == 0 || libcOffsets == 0 {
		t.Errorf("libc blocks: %d named from .dynsym, %d as libc.so.6+0x… (want both)", libcNamed, libcOffsets)
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
	byName := map[string]cost.Syscall{}
	var before int64
	for _, s := range c.Syscalls {
		if s.Name == "" || strings.HasPrefix(s.Name, "syscall_") {
			t.Errorf("system call %d has no name: %+v", s.Number, s)
		}
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
