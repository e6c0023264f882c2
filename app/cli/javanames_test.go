package cli

import (
	"encoding/json"
	"errors"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"androprof/formats/traceview"
	"androprof/internal/corpus"
	"androprof/model/calls"
	"androprof/model/javaname"
)

// Every method of every corpus trace reads as Java (javaname.Method): only the names that are
// not Java's come back raw, and they are counted here by trace, so a reader of names that
// starts falling back shows up as a changed count.
func TestCorpusMethodsReadAsJava(t *testing.T) {
	t.Parallel()
	dir := filepath.Dir(corpus.File(t, "README.md"))
	raw := map[string]int{} // trace → methods left raw
	var found []string
	for _, pattern := range []string{"*.trace", "*.trace.gz"} {
		names, _ := filepath.Glob(filepath.Join(dir, pattern))
		found = append(found, names...)
	}
	if len(found) == 0 {
		t.Fatalf("no traces in %s", dir)
	}
	for _, path := range found {
		name := filepath.Base(path)
		methods := readMethods(t, path)
		for _, m := range methods {
			n, ok := javaname.Method(m.Class, m.Name, m.Signature)
			if !ok {
				raw[name]++
				t.Logf("%s: left raw: %q", name, calls.MethodName(m))
				continue
			}
			if r := calls.ReadableName(m); r != n || n.Short == calls.MethodName(m) {
				t.Errorf("%s: %q reads %+v, ReadableName %+v", name, calls.MethodName(m), n, r)
			}
		}
		t.Logf("%s: %d methods, %d left raw", name, len(methods), raw[name])
	}
	// Every trace's methods are well formed; none is left raw.
	for name, n := range raw {
		t.Errorf("%s: %d methods left raw; want 0", name, n)
	}
}

// readMethods is a trace's method table as the reader gives it.
func readMethods(t *testing.T, path string) []calls.MethodInfo {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	r := traceview.NewReader(f, filepath.Base(path))
	var out []calls.MethodInfo
	for {
		rec, err := r.Next()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			t.Fatalf("%s: %v", path, err)
		}
		if rec.Method != nil {
			out = append(out, *rec.Method)
		}
	}
	if len(out) == 0 {
		t.Fatalf("%s: no methods", path)
	}
	return slices.Clip(out)
}

// report and chart name methods as Java reads them, or as the trace does with --raw-names;
// --find matches both; JSON keeps the raw key and adds name and package.
func TestRawNamesFlag(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	db := filepath.Join(dir, "w.db")
	if code, _, errOut := runCLI(t, db, "import", "--run", "jag", corpus.File(t, "jag-dmtrace.trace")); code != 0 {
		t.Fatal(errOut)
	}
	const raw, readable = "com/jag/positron/GameScreen.paint (F)V", "GameScreen.paint(float)  com.jag.positron"
	for _, c := range []struct {
		args      []string
		want, not string
	}{
		{[]string{"--find", "GameScreen.paint(float)"}, readable, raw},
		{[]string{"--find", "com.jag.positron.GameScreen.paint"}, "NAME  PACKAGE", raw},
		{[]string{"--find", "positron/GameScreen.paint (F", "--raw-names"}, raw, "PACKAGE"},
	} {
		code, out, errOut := runCLI(t, db, append([]string{"report", "--run", "jag"}, c.args...)...)
		if code != 0 || !strings.Contains(out, c.want) || strings.Contains(out, c.not) {
			t.Errorf("report %v: exit %d (%s), want %q and not %q:\n%s", c.args, code, errOut, c.want, c.not, out)
		}
	}
	code, out, errOut := runCLI(t, db, "report", "--run", "jag", "--find", "GameScreen.paint", "--json")
	var rep struct {
		Rows []struct{ Key, Name, Package string }
	}
	if err := json.Unmarshal([]byte(out), &rep); code != 0 || err != nil || len(rep.Rows) != 1 {
		t.Fatalf("report --json: exit %d (%s), %v:\n%s", code, errOut, err, out)
	}
	if r := rep.Rows[0]; r.Key != raw || r.Name != "GameScreen.paint(float)" || r.Package != "com.jag.positron" {
		t.Errorf("JSON row %+v", r)
	}
	for flags, want := range map[string]string{"": "GameScreen.paint(float)", "--raw-names": raw} {
		out := filepath.Join(dir, "hot"+flags+".csv")
		args := []string{"chart", "--run", "jag", "--out", out}
		if flags != "" {
			args = append(args, flags)
		}
		if code, _, errOut := runCLI(t, db, args...); code != 0 {
			t.Fatalf("chart %v: %s", args, errOut)
		}
		b, err := os.ReadFile(out)
		if err != nil || !strings.Contains(string(b), want) {
			t.Errorf("chart %v: %v; lacks %q:\n%s", args, err, want, b)
		}
	}
}
