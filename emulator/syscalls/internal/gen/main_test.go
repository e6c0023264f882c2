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
				t.Skipf("%v (apt-get install gcc-arm-linux-gnueabihf gcc-mipsel-linux-gnu)", err)
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
