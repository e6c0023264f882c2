package termtext

import (
	"bytes"
	"fmt"
	"math/rand"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"text/tabwriter"
	"unicode/utf8"
)

func TestEscape(t *testing.T) {
	for in, want := range map[string]string{
		"java/lang/Object":         "java/lang/Object",
		"évil 名前":                  "évil 名前",
		"evil\x1b[2J\nname\u202e":  `evil\x1b[2J\nname\u202e`,
		"\x1b]0;title\x07":         `\x1b]0;title\a`,
		"nul\x00cr\rtab\tdel\x7f":  `nul\x00cr\rtab\tdel\x7f`,
		"c1\u0085\u009b":           `c1\u0085\u009b`,
		"bad\xff\xfeutf8\xc3":      `bad\xff\xfeutf8\xc3`,
		"lsep\u2028\u2066\ufffe":   `lsep\u2028\u2066\ufffe`,
		"replacement \ufffd stays": "replacement \ufffd stays",
	} {
		got := Escape(in)
		if got != want {
			t.Errorf("Escape(%q) = %q, want %q", in, got, want)
		}
		if !utf8.ValidString(got) || Escape(got) != got {
			t.Errorf("Escape(%q) = %q is not valid UTF-8 or not stable", in, got)
		}
	}
	if got := EscapeExcept("a\nb\x1b", "\n"); got != "a\nb\\x1b" {
		t.Errorf("EscapeExcept kept %q", got)
	}
}

func TestCut(t *testing.T) {
	for _, c := range []struct {
		in    string
		width int
		want  string
	}{
		{"short", 10, "short"},
		{"exactly10!", 10, "exactly10!"},
		{"eleven char", 10, "eleven ch…"},
		{"名前名前名前", 7, "名前名…"},
		{"名前名前", 8, "名前名前"},
		{"abc", 1, "…"},
		{"abc", 0, ""},
	} {
		if got := Cut(c.in, c.width); got != c.want || Width(got) > c.width {
			t.Errorf("Cut(%q, %d) = %q (width %d), want %q", c.in, c.width, got, Width(got), c.want)
		}
	}
	if got := Cell(strings.Repeat("x", 1<<20)); Width(got) != MaxCell {
		t.Errorf("a 1 MiB cell is %d columns wide, want %d", Width(got), MaxCell)
	}
}

// TestTableAsTabwriter: for ASCII text the table lays out what tabwriter does, left and right.
func TestTableAsTabwriter(t *testing.T) {
	rnd := rand.New(rand.NewSource(1))
	words := []string{"", "a", "bb", "ccc", "total", "java/lang/String", "12345678"}
	for n := 0; n < 300; n++ {
		var text strings.Builder
		for l := rnd.Intn(6); l >= 0; l-- {
			for c := rnd.Intn(5); c >= 0; c-- {
				text.WriteString(words[rnd.Intn(len(words))])
				if c > 0 {
					text.WriteByte('\t')
				}
			}
			if rnd.Intn(8) > 0 {
				text.WriteByte('\n')
			}
		}
		for _, right := range []bool{false, true} {
			var want, got bytes.Buffer
			flags, table := uint(0), NewTable(&got)
			if right {
				flags, table = tabwriter.AlignRight, NewRightTable(&got)
			}
			tw := tabwriter.NewWriter(&want, 0, 4, 2, ' ', flags)
			fmt.Fprint(tw, text.String())
			tw.Flush()
			fmt.Fprint(table, text.String())
			table.Flush()
			if got.String() != want.String() {
				t.Fatalf("text %q (right %v):\ngot\n%q\nwant (tabwriter)\n%q", text.String(), right, got.String(), want.String())
			}
		}
	}
}

// TestTableWidths: non-ASCII names line up by display columns, escapes and long names are
// cut, and a name of 1 MiB costs its row a cell, not every row its width.
func TestTableWidths(t *testing.T) {
	var b bytes.Buffer
	tab := NewTable(&b)
	fmt.Fprintln(tab, "RUN\tKIND")
	fmt.Fprintln(tab, "日本語の名前\tmethods")
	fmt.Fprintln(tab, "café\theap")
	fmt.Fprintln(tab, "e\u0301vil\x1b[2J\theap")
	fmt.Fprintln(tab, strings.Repeat("L", 1<<20)+"\theap")
	tab.Flush()
	lines := strings.Split(strings.TrimSuffix(b.String(), "\n"), "\n")
	col := Width(lines[0][:strings.Index(lines[0], "KIND")])
	for _, l := range lines[1:] {
		i := strings.LastIndex(l, "  ") + 2
		if Width(l[:i]) != col {
			t.Errorf("line %q: second column at %d, want %d", l, Width(l[:i]), col)
		}
	}
	if strings.Contains(b.String(), "\x1b") || b.Len() > 1000 {
		t.Errorf("table of %d bytes, with escapes raw or a long name whole:\n%s", b.Len(), b.String())
	}
}

// TestShell: a name quoted by Shell, pasted into sh, is the name and runs nothing.
func TestShell(t *testing.T) {
	dir := t.TempDir()
	names := []string{"plain-name.v2", "it's", "$(touch PWNED)", "`touch PWNED2`", "a b;touch PWNED3", "'$(touch P4)'\\", "", "x\"$HOME\"", "-n"}
	for _, n := range names {
		cmd := exec.Command("sh", "-c", "printf %s "+Shell(n))
		cmd.Dir = dir
		out, err := cmd.Output()
		if err != nil || string(out) != n {
			t.Errorf("sh -c 'printf %%s %s' = %q, %v; want %q", Shell(n), out, err, n)
		}
	}
	if files, _ := os.ReadDir(dir); len(files) > 0 {
		t.Errorf("pasting quoted names made %s", filepath.Join(dir, files[0].Name()))
	}
}
