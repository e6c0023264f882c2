package cli

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	gzbound "androprof/internal/gunzip"
	"androprof/internal/shapes"
	"androprof/internal/testio"
)

// writeShape writes what write makes at size n into dir/name.
func writeShape(t *testing.T, dir, name string, n int, write func(io.Writer, int) error) string {
	t.Helper()
	var b bytes.Buffer
	if err := write(&b, n); err != nil {
		t.Fatal(err)
	}
	return writeFile(t, dir, name, b.Bytes())
}

// Issue 24, findings 11, 13, 16 and 17 at the command line: gzip-compressed DPA and RMP logs
// import as their plain files do; a gzip bomb, a heap log or perf script cut inside its last
// line and a perf script going back in time are refused, naming the file and the place, and
// the workspace keeps no run of them; the bomb imports when the user lifts the bound.
func TestImportHostileInput(t *testing.T) {
	dir := t.TempDir()
	db := filepath.Join(dir, "w.db")
	for _, src := range []string{"../../formats/dpa/testdata/figure4.dpa", "../../formats/rmp/testdata/browser.rmp"} {
		data := testio.ReadPlain(t, src)
		var reports []string
		for i, content := range [][]byte{data, testio.Gzip(data)} {
			name := filepath.Base(src) + [...]string{"", ".gz"}[i]
			run := strings.ReplaceAll(name, ".", "-")
			if code, _, errOut := runCLI(t, db, "import", "--run", run, writeFile(t, dir, name, content)); code != 0 {
				t.Fatalf("import %s: code %d: %s", name, code, errOut)
			}
			_, out, _ := runCLI(t, db, "report", "--run", run, "--by", "method")
			_, table, _ := strings.Cut(out, "\n") // below the line that names the run
			reports = append(reports, table)
		}
		if reports[0] != reports[1] || reports[0] == "" {
			t.Errorf("%s: the compressed log reports\n%s\nthe plain one\n%s", src, reports[1], reports[0])
		}
	}
	before := runsOf(t, db)
	heaplog := writeShape(t, dir, "cut.heaplog", 100, shapes.TruncatedHeapLog)
	heaplogLines := bytes.Count(testio.ReadPlain(t, heaplog), []byte("\n")) + 1
	for _, c := range []struct {
		path, want string // want follows the path in the message
	}{
		{writeShape(t, dir, "bomb.hprof.gz", 64, shapes.HPROFBomb), ": byte 16777270: read: gzip data expands more than 500 times"},
		{heaplog, fmt.Sprintf(":%d: the file ends inside a line (truncated?)", heaplogLines)},
		{writeShape(t, dir, "cut.perfscript", 10, shapes.TruncatedPerfScript), ":49: the file ends inside a line (truncated?)"},
		{writeShape(t, dir, "back.perfscript", 10, shapes.PerfBackInTime), ":26: sample time 999.000000 is before the previous sample's 1000.004000"},
	} {
		code, _, errOut := runCLI(t, db, "import", c.path)
		if code == 0 || !strings.Contains(errOut, c.path+c.want) {
			t.Errorf("import %s: code %d: %s; want it refused: %s%s", filepath.Base(c.path), code, errOut, c.path, c.want)
		}
	}
	if after := runsOf(t, db); after != before {
		t.Errorf("refused imports changed the runs:\n%s\nwere\n%s", after, before)
	}
	t.Setenv(gzbound.RatioEnv, "0")
	if code, _, errOut := runCLI(t, db, "import", filepath.Join(dir, "bomb.hprof.gz")); code != 0 {
		t.Errorf("the bomb with %s=0: code %d: %s", gzbound.RatioEnv, code, errOut)
	}
	os.Remove(db)
}
