package cli

import (
	"context"
	"crypto/sha256"
	"database/sql"
	"encoding/hex"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"androprof/internal/testio"
	"androprof/store/workspacedb"
)

// childEnv makes the test binary the androprof command line: the battery and the crash test
// run each command in a child process, so a panic, an exit status, a signal and the peak
// memory are the real program's.
const childEnv = "ANDROPROF_CLI_CHILD"

// peakEnv names the file a child writes its peak resident memory into as it exits. The
// parent cannot take it from wait4's rusage: Go starts children with vfork, and Linux counts
// the parent's peak, from before the exec, as the child's.
const peakEnv = "ANDROPROF_CLI_PEAK_FILE"

func TestMain(m *testing.M) {
	if os.Getenv(childEnv) == "1" {
		code := Main(os.Args[1:], Env{Stdin: os.Stdin, Stdout: os.Stdout, Stderr: os.Stderr, GUI: noGUI{}, Databases: workspacedb.Databases()})
		if p := os.Getenv(peakEnv); p != "" {
			writePeak(p)
		}
		os.Exit(code)
	}
	code := m.Run()
	removeFixtures()
	os.Exit(code)
}

// writePeak writes the process's peak resident memory in KiB (VmHWM) into the file path.
func writePeak(path string) {
	status, err := os.ReadFile("/proc/self/status")
	if err != nil {
		return
	}
	for _, ln := range strings.Split(string(status), "\n") {
		if v, ok := strings.CutPrefix(ln, "VmHWM:"); ok {
			os.WriteFile(path, []byte(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(v), "kB"))), 0o644)
		}
	}
}

// childTimeout only keeps a hung child from hanging the suite; no case comes near it.
const childTimeout = 3 * time.Minute

// child is the command line started in a child process.
type child struct {
	cmd            *exec.Cmd
	stdout, stderr testio.Buffer
	peakFile       string
	exited         chan struct{} // closed when the child has ended and been waited for
	waitErr        error
}

// startChild starts `androprof ARGS...`; stdin, when not nil, is fed through a pipe.
func startChild(t testing.TB, stdin io.Reader, args ...string) *child {
	t.Helper()
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	c := &child{cmd: exec.Command(exe, args...), peakFile: filepath.Join(t.TempDir(), "peak"), exited: make(chan struct{})}
	c.cmd.Env = append(os.Environ(), childEnv+"=1", peakEnv+"="+c.peakFile)
	c.cmd.Stdin, c.cmd.Stdout, c.cmd.Stderr = stdin, &c.stdout, &c.stderr
	if err := c.cmd.Start(); err != nil {
		t.Fatal(err)
	}
	go func() {
		c.waitErr = c.cmd.Wait()
		close(c.exited)
	}()
	return c
}

// until waits until cond holds, and tells whether it does; it gives up when the child ends
// before, or after childTimeout.
func (c *child) until(cond func() bool) bool {
	deadline := time.After(childTimeout)
	for !cond() {
		select {
		case <-c.exited:
			return cond()
		case <-deadline:
			return false
		case <-time.After(time.Millisecond):
		}
	}
	return true
}

// signal sends sig to the child unless it has ended.
func (c *child) signal(sig os.Signal) {
	c.cmd.Process.Signal(sig) // after the end: "process already finished"
}

// childResult is how a child ended and what it printed.
type childResult struct {
	code           int            // exit status; -1 when a signal ended it
	signal         syscall.Signal // the signal that ended it, if one did
	stdout, stderr string
	peak           int64 // most resident memory, bytes; 0 when the child did not exit by itself
	timedOut       bool
}

// wait waits for the child, killing it after childTimeout.
func (c *child) wait(t testing.TB) childResult {
	t.Helper()
	timedOut := false
	select {
	case <-c.exited:
	case <-time.After(childTimeout):
		timedOut = true
		c.cmd.Process.Kill()
		<-c.exited
	}
	if _, ok := c.waitErr.(*exec.ExitError); c.waitErr != nil && !ok {
		t.Fatal(c.waitErr)
	}
	st := c.cmd.ProcessState
	r := childResult{code: st.ExitCode(), stdout: c.stdout.String(), stderr: c.stderr.String(), timedOut: timedOut}
	if ws, ok := st.Sys().(syscall.WaitStatus); ok && ws.Signaled() {
		r.signal = ws.Signal()
	}
	if kib, err := os.ReadFile(c.peakFile); err == nil {
		n, _ := strconv.ParseInt(string(kib), 10, 64)
		r.peak = n << 10
	}
	return r
}

// runChild runs `androprof ARGS...` to its end.
func runChild(t testing.TB, stdin io.Reader, args ...string) childResult {
	t.Helper()
	return startChild(t, stdin, args...).wait(t)
}

// crashed tells a panic, a runtime fatal error or a death by signal from how androprof ends:
// 0, 1 for an error, or a shell's status for a stop signal it handled (129 SIGHUP, 130
// SIGINT, 143 SIGTERM).
func (r childResult) crashed() bool {
	stop := r.code == 129 || r.code == 130 || r.code == 143
	return r.code < 0 || r.code > 1 && !stop || strings.Contains(r.stderr, "panic:") ||
		strings.Contains(r.stderr, "fatal error:") || strings.Contains(r.stderr, "goroutine ")
}

func (r childResult) String() string {
	return fmt.Sprintf("exit %d, peak %d MB, stdout %q, stderr %q", r.code, r.peak>>20, clipText(r.stdout), clipText(r.stderr))
}

func clipText(s string) string {
	if len(s) > 400 {
		return s[:400] + "…"
	}
	return s
}

// wsState is what a workspace holds, as a test compares it before and after a command.
type wsState struct {
	integrity string   // PRAGMA integrity_check: "ok" when sound
	runs      []string // the runs' names, sorted
	digest    string   // of the schema and every table's rows, but for the times they were made
}

// readWorkspace reads a workspace file the way sqlite3 would, after its writer has ended (a
// killed writer's WAL is recovered on open).
func readWorkspace(t testing.TB, path string) wsState {
	t.Helper()
	db, err := sql.Open("sqlite", "file:"+path+"?_pragma=busy_timeout(5000)")
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	var s wsState
	var checks []string
	if err := queryStrings(db, `PRAGMA integrity_check`, func(row []string) { checks = append(checks, row[0]) }); err != nil {
		t.Fatalf("%s: integrity_check: %v", path, err)
	}
	s.integrity = strings.Join(checks, "; ")
	if err := queryStrings(db, `SELECT name FROM run ORDER BY name`, func(row []string) { s.runs = append(s.runs, row[0]) }); err != nil {
		t.Fatalf("%s: runs: %v", path, err)
	}
	var tables []string
	h := sha256.New()
	if err := queryStrings(db, `SELECT type, name, coalesce(sql, '') FROM sqlite_master ORDER BY type, name`, func(row []string) {
		fmt.Fprintf(h, "%q\n", row)
		if row[0] == "table" {
			tables = append(tables, row[1])
		}
	}); err != nil {
		t.Fatalf("%s: schema: %v", path, err)
	}
	for _, tab := range tables {
		var cols []string
		if err := queryStrings(db, `SELECT name FROM pragma_table_info('`+tab+`')`, func(row []string) {
			if row[0] != "created_at" && row[0] != "applied_at" { // when, not what
				cols = append(cols, `"`+row[0]+`"`)
			}
		}); err != nil {
			t.Fatalf("%s: table %s: %v", path, tab, err)
		}
		var rows []string
		if err := queryStrings(db, `SELECT `+strings.Join(cols, ", ")+` FROM "`+tab+`"`, func(row []string) { rows = append(rows, fmt.Sprintf("%q", row)) }); err != nil {
			t.Fatalf("%s: table %s: %v", path, tab, err)
		}
		slices.Sort(rows)
		fmt.Fprintf(h, "table %s %d\n%s\n", tab, len(rows), strings.Join(rows, "\n"))
	}
	s.digest = hex.EncodeToString(h.Sum(nil))
	return s
}

// queryStrings calls fn with each row of a query, every column as text.
func queryStrings(db *sql.DB, query string, fn func(row []string)) error {
	rows, err := db.QueryContext(context.Background(), query)
	if err != nil {
		return err
	}
	defer rows.Close()
	cols, err := rows.Columns()
	if err != nil {
		return err
	}
	vals := make([]sql.NullString, len(cols))
	ptrs := make([]any, len(cols))
	for i := range vals {
		ptrs[i] = &vals[i]
	}
	for rows.Next() {
		if err := rows.Scan(ptrs...); err != nil {
			return err
		}
		row := make([]string, len(cols))
		for i, v := range vals {
			row[i] = v.String
			if !v.Valid {
				row[i] = "NULL"
			}
		}
		fn(row)
	}
	return rows.Err()
}

// copyWorkspace copies a closed workspace (its writer has ended, so there is no WAL to take
// along: a clean close checkpoints it) to dst.
func copyWorkspace(t testing.TB, src, dst string) {
	t.Helper()
	if _, err := os.Stat(src + "-wal"); err == nil {
		t.Fatalf("%s has a WAL: the workspace to copy must be closed", src)
	}
	data, err := os.ReadFile(src)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(dst, data, 0o644); err != nil {
		t.Fatal(err)
	}
}

// importInto imports files into a new run of the workspace db in a child, failing the test
// when it does not succeed.
func importInto(t testing.TB, db, run string, files ...string) childResult {
	t.Helper()
	r := runChild(t, nil, append([]string{"import", "--db", db, "--run", run}, files...)...)
	if r.code != 0 {
		t.Fatalf("import %s: %v", strings.Join(files, " "), r)
	}
	return r
}

// writeFile writes data to dir/name and returns the path.
func writeFile(t testing.TB, dir, name string, data []byte) string {
	t.Helper()
	p := filepath.Join(dir, name)
	if err := os.WriteFile(p, data, 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}
