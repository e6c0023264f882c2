package cli

import (
	"bufio"
	"fmt"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestParallelImportsAndReports (issue 24, findings 14 and 15): ten `androprof import`
// processes import one large file into one workspace at once while `report` and `runs` run in
// a loop beside them. All ten imports succeed (those that find another writer say they wait
// for it, and wait as long as it takes, longer than SQLite's busy timeout), and no read fails.
func TestParallelImportsAndReports(t *testing.T) {
	if testing.Short() {
		t.Skip("ten imports of a large file, one after another")
	}
	dir := t.TempDir()
	db := filepath.Join(dir, "w.db")
	importInto(t, db, "methods", "../../formats/dpa/testdata/figure4.dpa")
	big := filepath.Join(dir, "big.bbprofile")
	if err := writeBuffered(big, func(w *bufio.Writer) error { return syntheticBBProfile(w, 6_000) }); err != nil {
		t.Fatal(err)
	}
	imports := make([]*child, 10)
	for i := range imports {
		imports[i] = startChild(t, nil, "import", "--db", db, "--run", fmt.Sprintf("big%d", i), big)
	}
	running := func() bool {
		for _, c := range imports {
			select {
			case <-c.exited:
			default:
				return true
			}
		}
		return false
	}
	start := time.Now()
	reads := 0
	for running() {
		for _, args := range [][]string{{"report", "--db", db, "--run", "methods", "--by", "method"}, {"runs", "--db", db}} {
			if r := runChild(t, nil, args...); r.code != 0 {
				t.Errorf("%s beside the imports, %s in: %v", args[0], time.Since(start).Round(time.Millisecond), r)
			}
			reads++
		}
	}
	waited := 0
	for i, c := range imports {
		r := c.wait(t)
		if r.code != 0 || !strings.Contains(r.stdout, fmt.Sprintf(`run "big%d"`, i)) {
			t.Errorf("import %d: %v", i, r)
		}
		if strings.Contains(r.stderr, "waiting for another import to finish") {
			waited++
		}
	}
	if waited == 0 {
		t.Error("no import said it waited for another")
	}
	r := runChild(t, nil, "runs", "--db", db)
	if n := strings.Count(r.stdout, "\nbig"); n != 10 {
		t.Errorf("the workspace has %d of the ten runs: %v", n, r)
	}
	t.Logf("ten imports in %s, %d of them waited; %d reads beside them", time.Since(start).Round(time.Millisecond), waited, reads)
}
