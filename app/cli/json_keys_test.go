package cli

import (
	"encoding/json"
	"fmt"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// snakeKey is a documented JSON key: lowercase letters, digits and underscores.
var snakeKey = regexp.MustCompile(`^[a-z0-9_]+$`)

// badKeys lists every object key in v, at any depth, that is not snake_case, with its path.
func badKeys(v any, path string) []string {
	var out []string
	switch x := v.(type) {
	case map[string]any:
		for k, e := range x {
			if !snakeKey.MatchString(k) {
				out = append(out, fmt.Sprintf("%s.%q", path, k))
			}
			out = append(out, badKeys(e, path+"."+k)...)
		}
	case []any:
		for i, e := range x {
			out = append(out, badKeys(e, fmt.Sprintf("%s[%d]", path, i))...)
		}
	}
	return out
}

// Every command that takes --json writes the documented snake_case keys, at every depth: no Go
// field names (Item, ForeignISAs) and no data as keys (run or layer names), on every kind of
// run of the demo set. (run, heap and vertical need qemu, java and perf; their summaries are
// report's and import's JSON, walked here.) It takes about 4 s, a minute under -race.
func TestEveryCommandsJSONKeysAreSnakeCase(t *testing.T) {
	t.Parallel()
	db := demoDB(t)
	dir := t.TempDir()
	demo := func(file string) string { return filepath.Join("..", "..", "assets", "demo", file) }
	walk := func(args ...string) any {
		t.Helper()
		code, out, errOut := runCLI(t, db, append(args, "--json")...)
		if code != 0 {
			t.Errorf("%s: exit %d: %s", strings.Join(args, " "), code, errOut)
			return nil
		}
		var v any
		if err := json.Unmarshal([]byte(out), &v); err != nil {
			t.Errorf("%s: not JSON: %v\n%s", strings.Join(args, " "), err, out)
			return nil
		}
		if bad := badKeys(v, ""); len(bad) > 0 {
			t.Errorf("%s: keys not snake_case: %s", strings.Join(args, " "), strings.Join(bad, ", "))
		}
		return v
	}
	// first finds the first row's value of key in a report's JSON, to ask about it next.
	first := func(v any, key string) string {
		t.Helper()
		m, _ := v.(map[string]any)
		rows, _ := m["rows"].([]any)
		if len(rows) == 0 {
			t.Fatalf("no rows to take a %s from: %v", key, v)
		}
		s, _ := rows[0].(map[string]any)[key].(string)
		return s
	}

	walk("runs")
	walk("profile", "list")
	walk("profile", "show", "cortex-a8")
	walk("profile", "check", "../../isaprofiles/testdata/valid.xml")
	walk("profile", "categorize", "--profile", "cortex-a8", "../../formats/qemulog/testdata/arm-7.2.log")
	walk("profile", "import", "../../isaprofiles/testdata/valid.xml")
	walk("profile", "export", "cortex-a8", "--out", filepath.Join(dir, "a8.xml"))
	walk("estimate", "--instructions", "1000", "--cpi", "2", "--power-w", "1")
	walk("estimate", "--run", "demo-sieve-arm")
	for _, f := range []string{"../../formats/qemulog/testdata/arm-7.2.log", demo("demo-methods.trace.gz"),
		demo("demo-heap-threads.heaplog.gz"), demo("demo-heap-dump.hprof.gz"), demo("demo-vertical-phases.perfscript.gz")} {
		walk("import", "--run", "imported-"+filepath.Base(f), f)
	}
	lab := filepath.Join(dir, "lab")
	copyInto(t, lab, demo("demo-methods.trace.gz"), demo("demo-sieve-arm.bbprofile.gz"))
	writeFile(t, lab, "notes.txt", []byte("not a trace"))
	if code, out, _ := runCLI(t, db, "import", "--jobs", "2", lab, "--json"); code != 1 || badKeys(mustJSON(t, out), "") != nil {
		t.Errorf("import --jobs with a bad file: exit %d, want 1, and snake_case keys:\n%s", code, out)
	}

	// Emulator runs, one and side by side, under a profile that fits and one that does not.
	for _, by := range []string{"pid", "bb", "insn", "category", "function", "image", "layer", "syscall"} {
		walk("report", "--run", "demo-bzip2-arm", "--by", by, "--top", "3")
	}
	walk("report", "--run", "demo-forker-arm", "--by", "syscall", "--per-thread")
	walk("report", "--run", "demo-sieve-mips", "--profile", "cortex-a8")
	walk("report", "--compare", "demo-sieve-arm,demo-sieve-mips")
	walk("report", "--compare", "demo-sieve-arm,demo-sieve-mips", "--profile", "mips-74k")
	walk("report", "--compare", "demo-bzip2-arm,demo-bzip2-mips", "--by", "image")
	walk("chart", "--run", "demo-sieve-arm", "--out", filepath.Join(dir, "c.svg"))
	walk("chart", "--compare", "demo-sieve-arm,demo-sieve-mips", "--out", filepath.Join(dir, "cmp.svg"))

	// A method trace.
	for _, by := range []string{"method", "class", "package", "thread"} {
		walk("report", "--run", "demo-methods", "--by", by, "--top", "3")
	}
	method := first(walk("report", "--run", "demo-methods", "--by", "method", "--top", "1"), "key")
	walk("report", "--run", "demo-methods", "--callers", method)
	walk("report", "--run", "demo-methods", "--callees", method)
	walk("export", "--run", "demo-methods", "--format", "pprof", "--out", filepath.Join(dir, "m.pprof"))
	walk("chart", "--run", "demo-methods", "--out", filepath.Join(dir, "m.svg"))

	// A heap log and a heap dump.
	for _, by := range []string{"summary", "cohort", "thread", "class", "package", "size"} {
		walk("report", "--run", "demo-heap-cache", "--by", by, "--top", "3")
	}
	walk("chart", "--run", "demo-heap-cache", "--figure", "5.1", "--out", filepath.Join(dir, "h.svg"))
	for _, by := range []string{"summary", "class", "package", "retained", "dominators"} {
		walk("report", "--run", "demo-heap-dump", "--by", by, "--top", "3")
	}
	class := first(walk("report", "--run", "demo-heap-dump", "--by", "retained", "--top", "1"), "name")
	walk("report", "--run", "demo-heap-dump", "--path-to", class)
	walk("report", "--compare", "demo-heap-dump,imported-demo-heap-dump.hprof.gz", "--top", "3")
	walk("chart", "--run", "demo-heap-dump", "--figure", "dump-classes", "--out", filepath.Join(dir, "d.svg"))

	// A sampled run.
	for _, by := range []string{"layer", "image", "symbol", "component", "thread"} {
		walk("report", "--run", "demo-vertical-phases", "--by", by, "--top", "3")
	}
	symbol := first(walk("report", "--run", "demo-vertical-phases", "--by", "symbol", "--top", "1"), "symbol")
	walk("report", "--run", "demo-vertical-phases", "--callers", symbol)
	walk("report", "--run", "demo-vertical-phases", "--callees", symbol)
	walk("chart", "--run", "demo-vertical-phases", "--by", "layer-time", "--out", filepath.Join(dir, "s.svg"))
}
