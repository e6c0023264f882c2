package cli

import (
	"bytes"
	"context"
	"database/sql"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"

	"androprof/controller"
	"androprof/internal/corpus"
	"androprof/internal/testio"
	"androprof/store/workspacedb"
)

// The cases of issue 12 that are about the workspace and the command line rather than one
// format's bytes (the battery covers those): each ran as written and failed before its fix.

// gunzip writes the decompressed content of a gzip file to dir/name.
func gunzip(t *testing.T, src, dir, name string) string {
	t.Helper()
	path := filepath.Join(dir, name)
	if err := os.WriteFile(path, testio.ReadPlain(t, src), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// runsOf is `androprof runs --json` of a workspace, to compare before and after.
func runsOf(t *testing.T, db string) string {
	t.Helper()
	code, out, errOut := runCLI(t, db, "runs", "--json")
	if code != 0 {
		t.Fatalf("runs: exit %d: %s", code, errOut)
	}
	return out
}

// mustFail runs a command that must fail with exit 1 and a message holding every want.
func mustFail(t *testing.T, db string, want []string, args ...string) {
	t.Helper()
	code, out, errOut := runCLI(t, db, args...)
	if code != 1 {
		t.Fatalf("%v: exit %d, want 1\n%s%s", args, code, out, errOut)
	}
	for _, w := range want {
		if !strings.Contains(errOut, w) {
			t.Errorf("%v: message %q does not say %q", args, errOut, w)
		}
	}
}

// Item 1: a heap log whose snapshot counts 2^64−1 references imports, and reads back.
func TestHeapLogHugeCountImportsWhole(t *testing.T) {
	db := filepath.Join(t.TempDir(), "w.db")
	if code, out, errOut := runCLI(t, db, "import", "--run", "small", "../../formats/heaplog/testdata/small.heaplog"); code != 0 {
		t.Fatalf("import: exit %d\n%s%s", code, out, errOut)
	}
	for _, by := range []string{"summary", "cohort", "class"} {
		if code, _, errOut := runCLI(t, db, "report", "--run", "small", "--by", by, "--json"); code != 0 {
			t.Errorf("report --by %s: exit %d: %s", by, code, errOut)
		}
	}
	if code, _, errOut := runCLI(t, db, "chart", "--run", "small", "--figure", "5.23", "--out", filepath.Join(t.TempDir(), "f.png")); code != 0 {
		t.Errorf("chart 5.23 (snapshot distances): exit %d: %s", code, errOut)
	}
}

// Item 2: blocks never go into a run of another kind.
func TestImportRefusesRunOfAnotherKind(t *testing.T) {
	dir := t.TempDir()
	db := filepath.Join(dir, "w.db")
	sieve := gunzip(t, "../../assets/demo/demo-sieve-arm.bbprofile.gz", dir, "sieve.bbprofile")
	log := gunzip(t, "../../assets/demo/sieve-arm.inasm-exec.log.gz", dir, "sieve.log")
	if code, _, errOut := runCLI(t, db, "import", "--run", "M", corpus.File(t, "jag-dmtrace.trace")); code != 0 {
		t.Fatalf("import trace: %s", errOut)
	}
	if code, _, errOut := runCLI(t, db, "import", "--run", "D", corpus.File(t, "perflib-dialer.hprof")); code != 0 {
		t.Fatalf("import dump: %s", errOut)
	}
	before := runsOf(t, db)
	mustFail(t, db, []string{`run "M" is a method trace`, "workspace is unchanged"}, "import", "--run", "M", sieve)
	mustFail(t, db, []string{`run "D" is a heap dump`}, "import", "--run", "D", log)
	if after := runsOf(t, db); after != before {
		t.Errorf("runs changed:\n%s\n%s", before, after)
	}
}

// Item 3: a cancellation that comes after the commit is not a failure.
func TestInterruptAfterCommitSaysComplete(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "w.db")
	if code, _, errOut := runCLI(t, path, "import", "--run", "jag", corpus.File(t, "jag-dmtrace.trace")); code != 0 {
		t.Fatal(errOut)
	}
	ws, err := controller.OpenWorkspace(workspacedb.Databases(), path, true)
	if err != nil {
		t.Fatal(err)
	}
	defer ws.Close()
	ctx, cancel := context.WithCancel(context.Background())
	cancel() // as a Ctrl-C right after the commit
	var out, errOut bytes.Buffer
	if err := printStored(ctx, ws, "jag", false, Env{Stdout: &out, Stderr: &errOut, Databases: workspacedb.Databases()}); err != nil {
		t.Fatalf("summary after the commit: %v", err)
	}
	if !strings.Contains(errOut.String(), `run "jag" was stored; it is complete`) || !strings.Contains(out.String(), "a method trace") {
		t.Errorf("said %q / %q", errOut.String(), out.String())
	}
}

// Item 4: a folder holding one method trace, a pipe and a FIFO import like the file itself (a
// FIFO nobody writes: TestInterruptWaitingForFIFO).
func TestImportFoldersPipesAndFIFOs(t *testing.T) {
	dir := t.TempDir()
	db := filepath.Join(dir, "w.db")
	one := filepath.Join(dir, "one")
	if err := os.Mkdir(one, 0o755); err != nil {
		t.Fatal(err)
	}
	dpa, err := os.ReadFile("../../formats/dpa/testdata/figure4.dpa")
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(one, "figure4.dpa"), dpa, 0o644); err != nil {
		t.Fatal(err)
	}
	if code, _, errOut := runCLI(t, db, "import", "--run", "folder", one); code != 0 {
		t.Errorf("a folder with one DPA file: %s", errOut)
	}
	logData := testio.ReadPlain(t, "../../assets/demo/sieve-arm.inasm-exec.log.gz")
	for name, data := range map[string][]byte{"pipe-dpa": dpa, "pipe-log": logData} {
		r, w, err := os.Pipe()
		if err != nil {
			t.Fatal(err)
		}
		go func() { w.Write(data); w.Close() }()
		code, _, errOut := runCLI(t, db, "import", "--run", name, "/proc/self/fd/"+strconv.Itoa(int(r.Fd())))
		r.Close()
		if code != 0 {
			t.Errorf("%s through a pipe: %s", name, errOut)
		}
	}
	fifo := filepath.Join(dir, "fifo")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Fatal(err)
	}
	go func() {
		w, err := os.OpenFile(fifo, os.O_WRONLY, 0)
		if err == nil {
			w.Write(dpa)
			w.Close()
		}
	}()
	if code, _, errOut := runCLI(t, db, "import", "--run", "fifo", fifo); code != 0 {
		t.Errorf("a FIFO with a writer: %s", errOut)
	}
}

// Item 7: a workspace of a newer schema is read, never written; one missing a column says so.
func TestNewerWorkspaceOpensReadOnly(t *testing.T) {
	dir := t.TempDir()
	trace := corpus.File(t, "jag-dmtrace.trace")
	for name, change := range map[string]string{
		"user_version": `PRAGMA user_version = 999`,
		"migration":    `INSERT INTO schema_migration(version, name) VALUES (999, '999_future.sql')`,
	} {
		db := filepath.Join(dir, name+".db")
		if code, _, errOut := runCLI(t, db, "import", "--run", "jag", trace); code != 0 {
			t.Fatal(errOut)
		}
		sqlExec(t, db, change)
		before := runsOf(t, db)
		mustFail(t, db, []string{"newer androprof", "schema 999", "read-only"}, "import", "--run", "again", trace)
		mustFail(t, db, []string{"read-only"}, "runs", "--delete", "jag")
		if after := runsOf(t, db); after != before {
			t.Errorf("%s: runs changed:\n%s\n%s", name, before, after)
		}
		if code, _, errOut := runCLI(t, db, "report", "--run", "jag", "--json"); code != 0 {
			t.Errorf("%s: reading the newer workspace: %s", name, errOut)
		}
	}
	db := filepath.Join(dir, "renamed.db")
	if code, _, errOut := runCLI(t, db, "import", "--run", "jag", trace); code != 0 {
		t.Fatal(errOut)
	}
	sqlExec(t, db, `ALTER TABLE run RENAME COLUMN source TO origin`)
	mustFail(t, db, []string{"renamed.db", "table run has no column source"}, "runs")
}

// sqlExec changes a workspace behind the program's back, as sqlite3 would.
func sqlExec(t *testing.T, path, stmt string) {
	t.Helper()
	raw, err := sql.Open("sqlite", path)
	if err != nil {
		t.Fatal(err)
	}
	defer raw.Close()
	if _, err := raw.Exec(stmt); err != nil {
		t.Fatal(err)
	}
}

// Item 8: `heap --keep DIR` never writes through a link planted in DIR.
func TestHeapKeepDoesNotFollowLinks(t *testing.T) {
	requireJava(t)
	dir := t.TempDir()
	classes := javaSampleClasses(t)
	keep := filepath.Join(dir, "keep")
	if err := os.Mkdir(keep, 0o755); err != nil {
		t.Fatal(err)
	}
	victim := filepath.Join(dir, "victim.txt")
	if err := os.WriteFile(victim, []byte("precious\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(victim, filepath.Join(keep, "heap.heaplog")); err != nil {
		t.Fatal(err)
	}
	db := filepath.Join(dir, "w.db")
	if code, out, errOut := runCLI(t, db, "heap", "--run", "g", "--keep", keep, "--", "java", "-cp", classes, "demo.Garbage", "1000"); code != 0 {
		t.Fatalf("heap: exit %d\n%s%s", code, out, errOut)
	}
	if got, _ := os.ReadFile(victim); string(got) != "precious\n" {
		t.Errorf("the file the link pointed at was overwritten: %q", got)
	}
	if st, err := os.Lstat(filepath.Join(keep, "heap.heaplog")); err != nil || !st.Mode().IsRegular() {
		t.Errorf("kept log: %v, %v", st, err)
	}
}

// Item 9: names that would break a list or reach the terminal raw are refused.
func TestRunNamesRefused(t *testing.T) {
	db := filepath.Join(t.TempDir(), "w.db")
	trace := corpus.File(t, "jag-dmtrace.trace")
	for _, name := range []string{" ", "two\nlines", "red\x1b[31m"} {
		mustFail(t, db, []string{"run"}, "import", "--run", name, trace)
	}
	if got := printable("evil\x1b[2J\nname\u202e", ""); got != `evil\x1b[2J\nname\u202e` {
		t.Errorf("printable = %q", got)
	}
}

// Item 10: a mistyped --db makes no folders and no workspace; a workspace in a folder the user
// cannot write is still read.
func TestWorkspacePaths(t *testing.T) {
	dir := t.TempDir()
	typo := filepath.Join(dir, "typo", "deep", "w.db")
	mustFail(t, typo, []string{"no workspace at"}, "runs")
	mustFail(t, typo, []string{"does not exist"}, "import", corpus.File(t, "jag-dmtrace.trace"))
	if _, err := os.Stat(filepath.Join(dir, "typo")); err == nil {
		t.Errorf("a mistyped --db made folders")
	}
	ro := filepath.Join(dir, "ro")
	if err := os.Mkdir(ro, 0o755); err != nil {
		t.Fatal(err)
	}
	db := filepath.Join(ro, "w.db")
	if code, _, errOut := runCLI(t, db, "import", "--run", "jag", corpus.File(t, "jag-dmtrace.trace")); code != 0 {
		t.Fatal(errOut)
	}
	readOnlyFolder(t, ro)
	if code, out, errOut := runCLI(t, db, "runs"); code != 0 || !strings.Contains(out, "jag") {
		t.Errorf("runs in a read-only folder: exit %d %s %s", code, out, errOut)
	}
	mustFail(t, db, []string{"open read-only", "not writable"}, "import", "--run", "again", corpus.File(t, "jag-dmtrace.trace"))
}

// readOnlyFolder makes dir a folder nobody may write into until the test ends: by its mode, or,
// for root (whom modes do not stop, and who runs CI), by the immutable attribute.
func readOnlyFolder(t *testing.T, dir string) {
	t.Helper()
	if os.Geteuid() != 0 {
		if err := os.Chmod(dir, 0o555); err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { os.Chmod(dir, 0o755) })
		return
	}
	chattr, err := exec.LookPath("chattr")
	if err != nil {
		t.Skip("root, and no chattr (e2fsprogs) to make a folder read-only for root")
	}
	if out, err := exec.Command(chattr, "+i", dir).CombinedOutput(); err != nil {
		t.Skipf("root, and this file system cannot make a folder immutable: %v %s", err, out)
	}
	t.Cleanup(func() { exec.Command(chattr, "-i", dir).Run() })
}
