package qemutest

import (
	"debug/elf"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// machines is the ELF machine each qemu-user runs: a build for a target must be one.
var machines = map[string]elf.Machine{
	"qemu-arm":     elf.EM_ARM,
	"qemu-mipsel":  elf.EM_MIPS,
	"qemu-aarch64": elf.EM_AARCH64,
	"qemu-x86_64":  elf.EM_X86_64,
}

// Every target builds the sieve for its guest, the guest runs it, and the two ground truths of
// docs/formats.md#qemu-execution-lines, a kept -singlestep log and one streamed through a FIFO,
// count the same instructions.
func TestTargets(t *testing.T) {
	src := filepath.Join(SamplesDir(), "sieve.c")
	for _, tg := range Targets {
		t.Run(tg.Name, func(t *testing.T) {
			bin := Build(t, tg, src)
			f, err := elf.Open(bin)
			if err != nil {
				t.Fatal(err)
			}
			f.Close()
			if want, ok := machines[tg.QEMU]; !ok || f.Machine != want || f.Data != elf.ELFDATA2LSB {
				t.Errorf("%s built a %v %v program for %s", tg.CC, f.Data, f.Machine, tg.QEMU)
			}
			out, err := exec.Command(tg.QEMU, bin, "3000").Output()
			if err != nil || !strings.Contains(string(out), "primes below 3000: 430") {
				t.Fatalf("%s %s 3000: %v, output %q", tg.QEMU, bin, err, out)
			}
			kept := SinglestepCount(t, tg, bin, nil, "3000")
			streamed := SinglestepStream(t, nil, tg.QEMU, bin, "3000")
			if kept != streamed || kept < 10_000 {
				t.Errorf("-singlestep counted %d instructions from the log, %d through the FIFO", kept, streamed)
			}
			t.Logf("%s: %d instructions", tg.Name, kept)
		})
	}
}
