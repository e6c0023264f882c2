package syscalls

import (
	"bufio"
	"bytes"
	"errors"
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"androprof/emulator/qemutest"
)

// The generated tables are what the installed headers say: a header update without
// `go generate` fails here.
func TestTablesMatchHeaders(t *testing.T) {
	for _, src := range Sources {
		for _, h := range src.Headers {
			if _, err := os.Stat(h); err != nil {
				if os.Getenv("CI") != "" {
					t.Fatalf("%v; .ci/run must install the cross compilers", err)
				}
				t.Skipf("%v (apt-get install gcc-arm-linux-gnueabihf gcc-mipsel-linux-gnu)", err)
			}
		}
		want, err := ParseFiles(src.Predefined, src.Headers...)
		if err != nil {
			t.Fatal(err)
		}
		if len(want) < 300 {
			t.Errorf("%s: only %d calls in %v", src.Table, len(want), src.Headers)
		}
		for _, target := range src.Targets {
			got := tables[target]
			if maps.Equal(got, want) {
				continue
			}
			for _, nr := range slices.Sorted(maps.Keys(want)) {
				if got[nr] != want[nr] {
					t.Errorf("%s %d: table has %q, headers %q", target, nr, got[nr], want[nr])
				}
			}
			for nr, name := range got {
				if _, ok := want[nr]; !ok {
					t.Errorf("%s %d: table has %q, headers nothing", target, nr, name)
				}
			}
			t.Error("tables.go is stale: run go generate ./emulator/syscalls")
		}
	}
}

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
		{"aarch64", 3, "syscall_3", false},
	} {
		name, ok := Name(c.arch, c.nr)
		if name != c.name || ok != c.ok {
			t.Errorf("Name(%q, %#x) = %q, %v; want %q, %v", c.arch, c.nr, name, ok, c.name, c.ok)
		}
	}
	for arch, want := range map[string]bool{"arm": true, "armeb": true, "mips": true, "mipsel": true, "thumb": false, "aarch64": false, "": false} {
		if Known(arch) != want {
			t.Errorf("Known(%q) = %v", arch, !want)
		}
	}
}

func TestParseFiles(t *testing.T) {
	dir := t.TempDir()
	write := func(name, text string) string {
		path := filepath.Join(dir, name)
		if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		return path
	}
	calls := write("calls.h", `#ifndef _GUARD_H
#define _GUARD_H
/* a comment
#define __NR_commented (__NR_BASE + 9)
*/
#define __NR_read (__NR_BASE + 3) /* trailing */
#define __NR_write	(__NR_BASE+4)
#define __NR_syscalls 5
#endif
`)
	private := write("private.h", `#if defined(EABI)
#define __NR_BASE 0
#else
#define __NR_BASE 0x900000
#endif
#define __NR_pwrite2 __NR_write
#define __X_NR_BASE (__NR_BASE+0x0f0000)
#define __X_NR_set_tls (__X_NR_BASE+5)
#define NOT_A_NUMBER "text"
`)
	got, err := ParseFiles(map[string]int64{"__NR_BASE": 0}, calls, private)
	if err != nil {
		t.Fatal(err)
	}
	want := map[int64]string{3: "read", 4: "write", 0x0f0005: "X_set_tls"}
	if !maps.Equal(got, want) {
		t.Errorf("got %v, want %v", got, want)
	}

	for _, c := range []struct{ text, msg string }{
		{"#define __NR_a 1\n#define __NR_b 1\n", "a and b are both 1"},
		{"#define __NR_B 1\n#define __NR_B 2\n", "__NR_B redefined from 1 to 2"},
		{"#define __NR_a (__NR_BASE + 1)\n", "__NR_BASE is not defined before its use"},
		{"#define __NR_a (1 + 2\n", "missing )"},
		{"#define __NR_a 1 * 2\n", `cannot read "1 * 2"`},
	} {
		path := write("bad.h", "/* line 1 */\n"+c.text)
		_, err := ParseFiles(nil, path)
		var se *SyntaxError
		if !errors.As(err, &se) || se.File != path || se.Line != strings.Count(c.text, "\n")+1 || se.Msg != c.msg {
			t.Errorf("%q: error %v, want %s:%d: %s", c.text, err, path, strings.Count(c.text, "\n")+1, c.msg)
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
