package cli

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// copyInto copies files into dir, made if missing.
func copyInto(t *testing.T, dir string, files ...string) {
	t.Helper()
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		if err := os.MkdirAll(dir, 0o755); err != nil {
			t.Fatal(err)
		}
		writeFile(t, dir, filepath.Base(f), data)
	}
}

func mustJSON(t *testing.T, out string) any {
	t.Helper()
	var v any
	if err := json.Unmarshal([]byte(out), &v); err != nil {
		t.Fatalf("not JSON: %v\n%s", err, out)
	}
	return v
}

// import --jobs: each file a run, a damaged one listed with its place and exit status 1, the
// rest stored; again, what is stored is skipped; --run is refused beside it.
func TestImportJobs(t *testing.T) {
	dir := t.TempDir()
	lab := filepath.Join(dir, "lab")
	demo := func(file string) string { return filepath.Join("..", "..", "assets", "demo", file) }
	copyInto(t, filepath.Join(lab, "c1"), demo("demo-methods.trace.gz"), demo("demo-sieve-arm.bbprofile.gz"))
	copyInto(t, filepath.Join(lab, "c2"), demo("demo-heap-threads.heaplog.gz"))
	writeFile(t, filepath.Join(lab, "c2"), "cut.bbprofile", []byte("# androprof bbprofile v1\nbogus line\n"))
	db := filepath.Join(dir, "w.db")

	code, out, errOut := runCLI(t, db, "import", "--jobs", "all", lab)
	if code != 1 {
		t.Fatalf("exit %d, want 1:\n%s\n%s", code, out, errOut)
	}
	for _, want := range []string{"3 runs stored", "1 failed", `failed: run "c2/cut": `, "cut.bbprofile:"} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
	if !strings.Contains(errOut, "1 of 4 runs failed") {
		t.Errorf("stderr: %s", errOut)
	}
	code, out, _ = runCLI(t, db, "report", "--run", "c1/demo-methods", "--by", "method", "--top", "1")
	if code != 0 || !strings.Contains(out, "(toplevel)") {
		t.Errorf("report of a run the batch stored: exit %d\n%s", code, out)
	}

	code, out, _ = runCLI(t, db, "import", "--jobs", "2", lab, "--json")
	var again struct {
		Runs     []any `json:"runs"`
		Failures []struct {
			Run   string `json:"run"`
			Error string `json:"error"`
		} `json:"failures"`
		Skipped []struct {
			File, Reason string
		} `json:"skipped"`
	}
	if err := json.Unmarshal([]byte(out), &again); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	if code != 1 || len(again.Runs) != 0 || len(again.Failures) != 1 || len(again.Skipped) != 3 {
		t.Errorf("a second import: exit %d, %d runs, %d failures, %d skipped; want 1, 0, 1, 3:\n%s", code, len(again.Runs), len(again.Failures), len(again.Skipped), out)
	}

	if code, _, errOut := runCLI(t, db, "import", "--jobs", "2", "--run", "x", lab); code != 2 || !strings.Contains(errOut, "--run and --jobs") {
		t.Errorf("--run with --jobs: exit %d: %s", code, errOut)
	}
	if code, _, errOut := runCLI(t, db, "import", "--jobs", "0", lab); code != 2 || !strings.Contains(errOut, "1 or more") {
		t.Errorf("--jobs 0: exit %d: %s", code, errOut)
	}
}
