package syscalls

import (
	"bufio"
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"androprof/emulator/qemutest"
)

func TestName(t *testing.T) {
	for _, c := range []struct {
		arch string
		nr   int64
		name string
		ok   bool
	}{
		{"arm", 3, "read", true},
		{"arm", 4, "write", true},
		{"arm", 248, "exit_group", true},
		{"arm", 192, "mmap2", true},
		{"armeb", 192, "mmap2", true},
		{"arm", 0x0f0005, "ARM_set_tls", true},
		{"arm", 0x0f0002, "ARM_cacheflush", true},
		{"arm", 0x0f0000, "syscall_983040", false}, // __ARM_NR_BASE is a base, not a call
		{"arm", 9999, "syscall_9999", false},
		{"mips", 4003, "read", true},
		{"mipsel", 4003, "read", true},
		{"mips", 4004, "write", true},
		{"mips", 4246, "exit_group", true},
		{"mips", 4210, "mmap2", true},
		{"mips", 3, "syscall_3", false}, // o32 numbers start at 4000
		// AArch64: the generic table, as arm64's asm/unistd.h chooses its optional calls
		{"aarch64", 3, "io_cancel", true},
		{"aarch64", 64, "write", true},
		{"aarch64", 79, "newfstatat", true},
		{"aarch64", 84, "sync_file_range", true}, // not sync_file_range2: arm64 does not want it
		{"aarch64", 94, "exit_group", true},
		{"aarch64", 222, "mmap", true},
		{"aarch64", 244, "syscall_244", false}, // __NR_arch_specific_syscall: a base, not a call
		{"aarch64", 403, "syscall_403", false}, // clock_gettime64: 32-bit ABIs only
		{"aarch64", 435, "clone3", true},
		{"x86_64", 0, "read", true},
		{"x86_64", 9, "mmap", true},
		{"x86_64", 56, "clone", true},
		{"x86_64", 57, "fork", true},
		{"x86_64", 231, "exit_group", true},
		{"x86_64", 435, "clone3", true},
		{"i386", 1, "syscall_1", false},
	} {
		name, ok := Name(c.arch, c.nr)
		if name != c.name || ok != c.ok {
			t.Errorf("Name(%q, %#x) = %q, %v; want %q, %v", c.arch, c.nr, name, ok, c.name, c.ok)
		}
	}
	for arch, want := range map[string]bool{"arm": true, "armeb": true, "mips": true, "mipsel": true, "aarch64": true, "x86_64": true, "thumb": false, "i386": false, "": false} {
		if Known(arch) != want {
			t.Errorf("Known(%q) = %v", arch, !want)
		}
	}
}

var (
	straceCall    = regexp.MustCompile(`^\d+ ([a-z_0-9]+)\(`)
	straceUnknown = regexp.MustCompile(`^\d+ Unknown syscall (\d+)$`)
)

// Against reality: QEMU's -strace names every call a real program makes, and for the calls
// testdata/calls.c makes by number (printing each number and glibc's SYS_ name first) the
// table must give QEMU's name.
func TestQEMUStraceNames(t *testing.T) {
	for _, tg := range qemutest.Targets {
		t.Run(tg.Name, func(t *testing.T) {
			arch := strings.TrimPrefix(tg.QEMU, "qemu-")
			bin := qemutest.Build(t, tg, filepath.Join("testdata", "calls.c"))
			log := filepath.Join(t.TempDir(), "strace.log")
			out, err := exec.Command(tg.QEMU, "-strace", "-D", log, bin).Output()
			if err != nil {
				t.Fatalf("%s -strace %s: %v", tg.QEMU, bin, err)
			}
			logText, err := os.ReadFile(log)
			if err != nil {
				t.Fatal(err)
			}
			names := map[string]bool{}
			for _, name := range tables[arch] {
				names[name] = true
			}
			var seen []string
			sc := bufio.NewScanner(bytes.NewReader(logText))
			for sc.Scan() {
				if m := straceUnknown.FindStringSubmatch(sc.Text()); m != nil {
					// QEMU has no name for it, but the guest's libc made it: the kernel does.
					nr, _ := strconv.ParseInt(m[1], 10, 64)
					if name, ok := Name(arch, nr); !ok {
						t.Errorf("QEMU ran call %d, which the table lacks (%s)", nr, name)
					}
					seen = append(seen, "")
					continue
				}
				m := straceCall.FindStringSubmatch(sc.Text())
				if m == nil {
					t.Fatalf("unexpected strace line %q", sc.Text())
				}
				if !names[m[1]] {
					t.Errorf("QEMU names a call %q that the %s table does not have", m[1], arch)
				}
				seen = append(seen, m[1])
			}

			made := strings.Split(strings.TrimSuffix(string(out), "\n"), "\n")
			if len(made) < 20 || len(seen) < len(made) {
				t.Fatalf("program printed %d calls, strace shows %d:\n%s", len(made), len(seen), logText)
			}
			seen = seen[len(seen)-len(made):]
			for i, line := range made {
				nrText, sysName, _ := strings.Cut(line, " ")
				nr, err := strconv.ParseInt(nrText, 10, 64)
				if err != nil {
					t.Fatalf("program output %q: %v", line, err)
				}
				if name, _ := Name(arch, nr); name != seen[i] || name != sysName {
					t.Errorf("call %d: table names it %q, QEMU %q, glibc SYS_%s", nr, name, seen[i], sysName)
				}
			}
		})
	}
}
