package cli

import (
	"bytes"
	"encoding/json"
	"encoding/xml"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"unicode"
	"unicode/utf8"

	"androprof/internal/corpus"
	"androprof/internal/termtext"
	"androprof/internal/testio"
)

// Issue 24: names are data. A class, method, thread, symbol or run name comes from a file
// someone else wrote; the program prints it escaped, cut in tables, well-formed in SVG, and
// quoted for a shell in the command lines it suggests.

// evil is what a hostile file puts in a name: a screen clear, a title change, a bidi
// override, NUL, CR and a byte that is not UTF-8.
const evil = "\x1b[2J\x1b]0;pwned\x07\u202e\x00\r\xff"

// hostileTrace is the jag corpus trace with a class and the main thread renamed to hold evil
// (a Traceview key line is tab-separated, so names hold anything but tabs and line breaks).
func hostileTrace(t *testing.T, dir, name string) string {
	t.Helper()
	data := readFile(t, corpus.File(t, "jag-dmtrace.trace"))
	end := bytes.Index(data, []byte("*end\n"))
	key := string(data[:end])
	key = strings.ReplaceAll(key, "\tandroid/graphics/Bitmap\t", "\tandroid/"+evil+"Bitmap\t")
	key = strings.Replace(key, "\n1\tmain\n", "\n1\tmain"+evil+"\n", 1)
	return writeFile(t, dir, name, append([]byte(key), data[end:]...))
}

// hostileHeapLog is a heap log whose class and thread names hold evil; long makes one class
// name of that many bytes, and classes is how many classes it has.
func hostileHeapLog(t *testing.T, dir, name string, classes, long int) string {
	t.Helper()
	var b strings.Builder
	b.WriteString("androprof-heaplog 1\nvm hostile\nt 1 0 main main " + evil + " thread\n")
	at := 0
	for i := 1; i <= classes; i++ {
		cls := fmt.Sprintf("com/example/C%d", i)
		switch {
		case i == 1:
			cls = "com/example/" + evil + "Evil"
		case i == 2 && long > 0:
			cls = "com/example/" + strings.Repeat("L", long)
		}
		fmt.Fprintf(&b, "c %d %s\na %d %d 24 1 %d 0\n", i, cls, i, at, i)
		at += 24
	}
	fmt.Fprintf(&b, "d 1 %d\n", at)
	return writeFile(t, dir, name, []byte(b.String()))
}

// hostileDump is a generated HPROF dump with one class name (and the names it begins) holding
// evil, of the same length so the records stay whole.
func hostileDump(t *testing.T, dir, name string) string {
	t.Helper()
	data := generatedDump(t, 64<<10, "1.0.2")
	old := []byte("com.example.app.C3")
	repl := []byte("c\x1b[2J\u202e\x00\r\xff.app.C3")
	if len(repl) != len(old) || !bytes.Contains(data, old) {
		t.Fatalf("the generated dump has no %s to rename", old)
	}
	return writeFile(t, dir, name, bytes.ReplaceAll(data, old, repl))
}

// hostileQEMULog is a QEMU in_asm/exec log whose function symbol holds evil.
func hostileQEMULog(t *testing.T, dir, name string) string {
	t.Helper()
	data := readFile(t, "../../formats/qemulog/testdata/arm-7.2.log")
	return writeFile(t, dir, name, bytes.ReplaceAll(data, []byte("IN: __libc_start_main_impl"), []byte("IN: __libc"+evil+"main")))
}

// rawControl describes the first thing in s that would act on a terminal: a control
// character other than a line break, a bidi control, or a byte that is not UTF-8.
func rawControl(s string) string {
	for i, r := range s {
		if r == utf8.RuneError {
			if _, n := utf8.DecodeRuneInString(s[i:]); n == 1 {
				return fmt.Sprintf("byte %#x at %d", s[i], i)
			}
		}
		if r != '\n' && (unicode.IsControl(r) || unicode.Is(unicode.Bidi_Control, r)) {
			return fmt.Sprintf("%U at %d: %q", r, i, s[max(0, i-40):min(len(s), i+40)])
		}
	}
	return ""
}

// mustRun runs a command that must succeed, and returns its output.
func mustRun(t *testing.T, db string, args ...string) string {
	t.Helper()
	code, out, errOut := runCLI(t, db, args...)
	if code != 0 {
		t.Fatalf("%q: exit %d\n%s", args, code, errOut)
	}
	return out
}

// Finding 4: names from input files reach the terminal escaped in every text report, exact
// in JSON, and as well-formed XML in every SVG chart.
func TestHostileNamesEscaped(t *testing.T) {
	dir := t.TempDir()
	db := filepath.Join(dir, "w.db")
	imports := map[string]string{
		"trace": hostileTrace(t, dir, "t.trace"),
		"heap":  hostileHeapLog(t, dir, "h.heaplog", 5, 0),
		"dump":  hostileDump(t, dir, "d.hprof"),
		"qemu":  hostileQEMULog(t, dir, "q.log"),
	}
	reports := map[string][][]string{
		"trace": {{"--by", "method"}, {"--by", "class"}, {"--by", "package"}, {"--by", "thread"},
			{"--callers", "Bitmap.getHeight"}, {"--callees", "Bitmap.getHeight"}},
		"heap": {{"--by", "summary"}, {"--by", "cohort"}, {"--by", "thread"}, {"--by", "class"}, {"--by", "package"}, {"--by", "size"}},
		"dump": {{"--by", "summary"}, {"--by", "class"}, {"--by", "package"}},
		"qemu": {{"--by", "function"}, {"--by", "bb"}},
	}
	// The reports that list the renamed class, thread or method.
	shows := map[string]bool{"trace method": true, "trace class": true, "trace Bitmap.getHeight": true,
		"heap thread": true, "heap class": true, "dump class": true, "dump package": true, "qemu function": true}
	charts := map[string][][]string{
		"trace": {{"--by", "method"}, {"--by", "package", "--kind", "pie"}},
		"heap":  {{"--figure", "5.17"}, {"--figure", "5.11"}},
		"dump":  {{"--figure", "dump-classes"}, {"--figure", "dump-packages"}},
		"qemu":  {{"--by", "function"}, {"--by", "function", "--kind", "column"}},
	}
	for run, file := range imports {
		out := mustRun(t, db, "import", "--run", run, file)
		if bad := rawControl(out); bad != "" {
			t.Errorf("import %s says %s raw", run, bad)
		}
		for _, args := range reports[run] {
			out := mustRun(t, db, append([]string{"report", "--run", run}, args...)...)
			if bad := rawControl(out); bad != "" {
				t.Errorf("report --run %s %s prints %s raw", run, strings.Join(args, " "), bad)
			}
			if shows[run+" "+args[len(args)-1]] && !strings.Contains(out, `\x1b[2J`) {
				t.Errorf("report --run %s %s does not show the escaped name:\n%s", run, strings.Join(args, " "), out)
			}
		}
		for i, args := range charts[run] {
			svg := filepath.Join(dir, fmt.Sprintf("%s-%d.svg", run, i))
			mustRun(t, db, append([]string{"chart", "--run", run, "--out", svg}, args...)...)
			if err := decodeXML(readFile(t, svg)); err != nil {
				t.Errorf("chart --run %s %s: SVG is not well-formed: %v", run, strings.Join(args, " "), err)
			}
		}
	}
	// JSON keeps names exact (what is not UTF-8 becomes U+FFFD: JSON is UTF-8).
	var rows struct{ Rows []struct{ Name string } }
	if err := json.Unmarshal([]byte(mustRun(t, db, "report", "--run", "heap", "--by", "class", "--json")), &rows); err != nil {
		t.Fatal(err)
	}
	want := strings.ToValidUTF8("com/example/"+evil+"Evil", "\ufffd")
	found := false
	for _, r := range rows.Rows {
		found = found || r.Name == want
	}
	if !found {
		t.Errorf("report --json has no class named %q: %+v", want, rows.Rows)
	}
}

// decodeXML reads an XML document to its end.
func decodeXML(data []byte) error {
	d := xml.NewDecoder(bytes.NewReader(data))
	for {
		if _, err := d.Token(); err == io.EOF {
			return nil
		} else if err != nil {
			return err
		}
	}
}

// Finding 3: the command an import suggests quotes the run name for a shell, so pasting it
// runs nothing a file's name holds.
func TestImportHintQuotesForShell(t *testing.T) {
	dir := t.TempDir()
	db := filepath.Join(dir, "w.db")
	files := []string{
		hostileTrace(t, dir, "$(touch PWNED1)'it''s'.trace"),
		hostileHeapLog(t, dir, "$(touch PWNED2)`touch PWNED3`.heaplog", 3, 0),
		hostileDump(t, dir, "a;touch PWNED4 $HOME.hprof"),
		writeFile(t, dir, "\"$(touch PWNED5)\".perfscript", testio.ReadPlain(t, "../../assets/demo/demo-vertical-phases.perfscript.gz")),
	}
	paste := t.TempDir()
	for _, f := range files {
		out := mustRun(t, db, "import", f)
		start, end := strings.Index(out, "(androprof "), strings.LastIndex(out, ")")
		if start < 0 || end < start {
			t.Fatalf("import %s suggests no command: %q", f, out)
		}
		hint := out[start+1 : end]
		// androprof is a function here that prints its arguments, one a line.
		cmd := exec.Command("sh", "-c", `androprof() { printf '%s\n' "$@"; }; `+hint)
		cmd.Dir = paste
		got, err := cmd.Output()
		if err != nil {
			t.Fatalf("sh -c %q: %v", hint, err)
		}
		run := strings.TrimSuffix(filepath.Base(f), filepath.Ext(f))
		if args := strings.Split(string(got), "\n"); len(args) < 3 || args[1] != "--run" || args[2] != run {
			t.Errorf("pasting %q runs androprof with %q, want --run %q", hint, args, run)
		}
	}
	if made, _ := os.ReadDir(paste); len(made) > 0 {
		t.Errorf("pasting the hints made %s", made[0].Name())
	}
}

// Finding 12: one long name does not pad every row of a table to its width: a table's size
// follows its rows, and a chart of it is drawn.
func TestLongNameCutInTables(t *testing.T) {
	dir := t.TempDir()
	db := filepath.Join(dir, "w.db")
	const rows, long = 200, 256 << 10
	mustRun(t, db, "import", "--run", "long", hostileHeapLog(t, dir, "long.heaplog", rows, long))
	for _, by := range []string{"class", "package"} {
		out := mustRun(t, db, "report", "--run", "long", "--by", by)
		if len(out) > rows*200 {
			t.Errorf("report --by %s of %d classes, one named with %d bytes: %d bytes of output", by, rows, long, len(out))
		}
		for _, l := range strings.Split(out, "\n") {
			if w := termtext.Width(l); w > 2*termtext.MaxCell+120 {
				t.Errorf("report --by %s: a line %d columns wide", by, w)
				break
			}
		}
	}
	mustRun(t, db, "chart", "--run", "long", "--figure", "5.17", "--out", filepath.Join(dir, "long.svg"))
}

// Finding 18: a refused long run name is echoed cut.
func TestRefusedLongRunNameEchoedCut(t *testing.T) {
	dir := t.TempDir()
	trace := hostileTrace(t, dir, "t.trace")
	db := filepath.Join(dir, "w.db")
	for _, name := range []string{strings.Repeat("n", 10<<10), " " + strings.Repeat("n", 10<<10), strings.Repeat("n", 10<<10) + "\x1b"} {
		code, _, errOut := runCLI(t, db, "import", "--run", name, trace)
		if code == 0 || len(errOut) > 600 {
			t.Errorf("a refused run name of %d bytes: exit %d, %d bytes of message", len(name), code, len(errOut))
		}
	}
	mustRun(t, db, "import", "--run", "t", trace)
	long := strings.Repeat("n", 10<<10)
	for _, args := range [][]string{{"report", "--run", long}, {"chart", "--run", long, "--out", filepath.Join(dir, "c.svg")},
		{"export", "--run", long, "--out", filepath.Join(dir, "p.pprof")}, {"report", "--compare", long + ",t"}} {
		if code, _, errOut := runCLI(t, db, args...); code == 0 || len(errOut) > 600 {
			t.Errorf("%s of a run named with %d bytes: exit %d, %d bytes of message", args[0], len(long), code, len(errOut))
		}
	}
}

// Finding 18: a usage error is one line and where to read more, not the whole usage.
func TestUsageErrorIsShort(t *testing.T) {
	db := filepath.Join(t.TempDir(), "w.db")
	for _, args := range [][]string{{"bogus"}, {"import", "--bogus", "x"}, {"report"}, {"report", "--by"}, {"--bogus"}, {"import"}} {
		code, _, errOut := runCLI(t, db, args...)
		lines := strings.Split(strings.TrimSpace(errOut), "\n")
		if code != 2 || len(lines) > 2 || !strings.Contains(errOut, "see androprof help") {
			t.Errorf("%q: exit %d, %d lines:\n%s", args, code, len(lines), errOut)
		}
	}
	if code, out, _ := runCLI(t, db, "help"); code != 0 || !strings.Contains(out, "androprof report --run") {
		t.Errorf("help: exit %d\n%s", code, out)
	}
	if code, out, _ := runCLI(t, db, "import", "-h"); code != 0 || !strings.Contains(out, "-cohort") {
		t.Errorf("import -h: exit %d\n%s", code, out)
	}
}

// Finding 18: the runs table lines up names that take two columns a letter.
func TestRunsTableAlignsWideNames(t *testing.T) {
	dir := t.TempDir()
	db := filepath.Join(dir, "w.db")
	trace := hostileTrace(t, dir, "t.trace")
	for _, name := range []string{"日本語のトレース", "ascii", "café"} {
		mustRun(t, db, "import", "--run", name, trace)
	}
	out := mustRun(t, db, "runs")
	lines := strings.Split(strings.TrimSpace(out), "\n")
	col := -1
	for _, l := range lines {
		i := strings.Index(l, "KIND")
		if i < 0 {
			i = strings.Index(l, "methods")
		}
		if w := termtext.Width(l[:i]); col < 0 {
			col = w
		} else if w != col {
			t.Errorf("runs: KIND at column %d in %q, %d in the header", w, l, col)
		}
	}
}

// Finding 18: a --db that is a folder or a device says so and what to do, not SQLite's codes.
func TestOddDBPathsSayWhatToDo(t *testing.T) {
	dir := t.TempDir()
	for _, db := range []string{dir, "/dev/null"} {
		for _, cmd := range []string{"runs", "import"} {
			args := []string{cmd}
			if cmd == "import" {
				args = append(args, "--run", "x", "/dev/null")
			}
			code, _, errOut := runCLI(t, db, args...)
			if code == 0 {
				continue // nothing to explain
			}
			for _, raw := range []string{"(14)", "(1034)", "unable to open database file", "disk I/O error"} {
				if strings.Contains(errOut, raw) {
					t.Errorf("--db %s %s: %q says %q", db, cmd, errOut, raw)
				}
			}
			if !strings.Contains(errOut, db) || !strings.Contains(errOut, "--db") {
				t.Errorf("--db %s %s: %q does not name the path and --db", db, cmd, errOut)
			}
		}
	}
}

// Finding 18: a file whose name holds a line break, or is only a space before its extension,
// imports under a cleaned default run name.
func TestDefaultRunNameCleaned(t *testing.T) {
	dir := t.TempDir()
	db := filepath.Join(dir, "w.db")
	for name, want := range map[string]string{"two\nlines.trace": `two\nlines`, " .trace": "run", "\x1b[31mred.trace": `\x1b[31mred`} {
		f := hostileTrace(t, dir, name)
		if code, out, errOut := runCLI(t, db, "import", f); code != 0 || !strings.Contains(out, fmt.Sprintf("%q", want)) {
			t.Errorf("import %q: exit %d, want run %q\n%s%s", name, code, want, out, errOut)
		}
	}
}
