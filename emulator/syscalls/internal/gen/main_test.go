package main

import (
	"bytes"
	"errors"
	"maps"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// The generated tables are what the installed headers say: a header update without
// `go generate ./emulator/syscalls` fails here. The header comment, which names package
// versions, is left out: a new version of the same numbers is not stale.
func TestTablesMatchHeaders(t *testing.T) {
	for _, src := range sources {
		for _, h := range src.Headers {
			if _, err := os.Stat(h); err != nil {
				if os.Getenv("CI") != "" {
					t.Fatalf("%v; .ci/run must install the cross compilers", err)
				}
				t.Skipf("%v (apt-get install gcc-arm-linux-gnueabihf gcc-mipsel-linux-gnu gcc-aarch64-linux-gnu linux-libc-dev)", err)
			}
		}
		calls, err := parseFiles(src.Predefined, src.Headers...)
		if err != nil {
			t.Fatal(err)
		}
		if len(calls) < 300 {
			t.Errorf("%s: only %d calls in %v", src.Table, len(calls), src.Headers)
		}
	}
	want, err := render(func(string) string { return "" })
	if err != nil {
		t.Fatal(err)
	}
	got, err := os.ReadFile(filepath.Join("..", "..", "tables.go"))
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(code(got), code(want)) {
		t.Error("tables.go is stale: run go generate ./emulator/syscalls")
	}
}

// code is a Go file from its package clause on.
func code(src []byte) []byte {
	_, after, _ := bytes.Cut(src, []byte("\npackage "))
	return after
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
	got, err := parseFiles(map[string]int64{"__NR_BASE": 0}, calls, private)
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
		_, err := parseFiles(nil, path)
		var se *syntaxError
		if !errors.As(err, &se) || se.File != path || se.Line != strings.Count(c.text, "\n")+1 || se.Msg != c.msg {
			t.Errorf("%q: error %v, want %s:%d: %s", c.text, err, path, strings.Count(c.text, "\n")+1, c.msg)
		}
	}
}

// The generic table's optional calls come out as the architecture chose them: #ifdef, #ifndef,
// #if with defined(), ==, !=, !, && and ||, #elif and #else, nested, and #undef, with macros
// defined with no value (the __ARCH_WANT_… choices) and function-like ones.
func TestParseConditionals(t *testing.T) {
	path := filepath.Join(t.TempDir(), "generic.h")
	text := `#define __ARCH_WANT_NEW_STAT
#ifndef __SYSCALL
#define __SYSCALL(x, y)
#endif
#ifdef __ARCH_WANT_SYNC_FILE_RANGE2
#define __NR_sync_file_range2 84
#else
#define __NR_sync_file_range 84
#endif
#if defined(__ARCH_WANT_NEW_STAT) || defined __ARCH_WANT_STAT64
#define __NR_fstat 80
#endif
#if __BITS_PER_LONG == 32 || defined(__SYSCALL_COMPAT)
#define __NR_clock_gettime64 403
#elif !defined(__SYSCALL_COMPAT) && __BITS_PER_LONG != 32
#define __NR_io_getevents 4
#if 0
#define __NR_never 5
#endif
#else
#define __NR_never 6
#endif
#define __NR_gone 7
#undef __NR_gone
#ifdef __NR_gone
#define __NR_never 8
#endif
#define __NR_arch_specific_syscall 244
`
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	got, err := parseFiles(map[string]int64{"__BITS_PER_LONG": 64}, path)
	if err != nil {
		t.Fatal(err)
	}
	want := map[int64]string{84: "sync_file_range", 80: "fstat", 4: "io_getevents", 7: "gone"}
	if !maps.Equal(got, want) {
		t.Errorf("got %v, want %v", got, want)
	}

	for _, c := range []struct{ text, msg string }{
		{"#endif\n", "#endif without #if"},
		{"#else\n", "#else without #if"},
		{"#if defined(X\n#endif\n", "missing ) after defined(X"},
		{"#if 1 *\n#endif\n", `cannot read #if "1 *"`},
	} {
		bad := filepath.Join(t.TempDir(), "bad.h")
		if err := os.WriteFile(bad, []byte(c.text), 0o644); err != nil {
			t.Fatal(err)
		}
		_, err := parseFiles(nil, bad)
		var se *syntaxError
		if !errors.As(err, &se) || se.Msg != c.msg {
			t.Errorf("%q: error %v, want %s", c.text, err, c.msg)
		}
	}
	unclosed := filepath.Join(t.TempDir(), "open.h")
	os.WriteFile(unclosed, []byte("#ifdef X\n"), 0o644)
	if _, err := parseFiles(nil, unclosed); err == nil || !strings.Contains(err.Error(), "#if without #endif") {
		t.Errorf("unclosed #if: %v", err)
	}
}
