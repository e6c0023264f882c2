package cli

import (
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"androprof/formats/hprof/hproftest"
	"androprof/internal/corpus"
)

// The definitions of done for "why is it alive" and the dump diff, on a real Java
// program: demo.Retain holds N items in a static map through a known chain of fields, dumps
// its heap with HotSpot, adds M items and dumps again.
func TestRetainPathAndDiff(t *testing.T) {
	requireJava(t)
	const n, m = 1000, 250
	dir := t.TempDir()
	classes := javaSampleClasses(t)
	before, after := filepath.Join(dir, "before.hprof"), filepath.Join(dir, "after.hprof")
	if out, err := exec.Command("java", "-cp", classes, "demo.Retain", "1000", "250", before, after).CombinedOutput(); err != nil {
		t.Fatalf("demo.Retain: %v\n%s", err, out)
	}
	db := filepath.Join(dir, "w.db")
	for run, file := range map[string]string{"before": before, "after": after} {
		if code, _, errOut := runCLI(t, db, "import", "--run", run, file); code != 0 {
			t.Fatalf("import %s: %s", file, errOut)
		}
	}
	report := func(v any, args ...string) {
		t.Helper()
		code, out, errOut := runCLI(t, db, append([]string{"report", "--json"}, args...)...)
		if code != 0 {
			t.Fatalf("report %v: exit %d: %s", args, code, errOut)
		}
		if err := json.Unmarshal([]byte(out), v); err != nil {
			t.Fatalf("report %v: %v\n%s", args, err, out)
		}
	}

	// The path: whatever system class leads to the class, then exactly the sample's chain.
	var path struct {
		Path []struct {
			Field string `json:"field"`
			Class string `json:"class"`
		} `json:"path"`
	}
	report(&path, "--run", "after", "--path-to", "demo.Retain$Item")
	var chain []string
	for _, p := range path.Path {
		chain = append(chain, p.Field+" "+p.Class)
	}
	got := strings.Join(chain, " → ")
	want := "class demo/Retain → registry java/util/HashMap → table [Ljava/util/HashMap$Node; → [] java/util/HashMap$Node → value demo/Retain$Item"
	if k := len(chain); k < 5 || !strings.HasSuffix(stripIndex(got), want) {
		t.Errorf("path to an Item:\n %s\nwant it to end\n %s", got, want)
	}

	// The diff: exactly M more Items.
	var diff struct {
		Rows []struct {
			Name   string `json:"name"`
			After  uint64 `json:"instances_after"`
			Growth int64  `json:"instances_growth"`
		} `json:"rows"`
	}
	report(&diff, "--compare", "before,after")
	found := false
	for _, r := range diff.Rows {
		if r.Name == "demo/Retain$Item" {
			found = true
			if r.Growth != m || r.After != n+m {
				t.Errorf("Items: %d after, %+d, want %d and %+d", r.After, r.Growth, n+m, m)
			}
		}
	}
	if !found {
		t.Errorf("the diff has no demo/Retain$Item row: %+v", diff.Rows)
	}

	// Per class: the Items retain their own bytes (16 each), the class object the whole map.
	var retained struct {
		Reachable uint64 `json:"reachable"`
		Rows      []struct {
			Name      string `json:"name"`
			Instances uint64 `json:"instances"`
			Shallow   uint64 `json:"shallow"`
			Retained  uint64 `json:"retained"`
		} `json:"rows"`
	}
	report(&retained, "--run", "after", "--by", "retained", "--find", "Retain$Item")
	if len(retained.Rows) != 1 || retained.Rows[0].Instances != n+m || retained.Rows[0].Retained != retained.Rows[0].Shallow {
		t.Errorf("Items by retained: %+v", retained.Rows)
	}
	var top struct {
		Rows []struct {
			ID       string `json:"id"`
			Retained uint64 `json:"retained"`
		} `json:"rows"`
	}
	report(&top, "--run", "after", "--by", "dominators")
	var sum uint64
	for _, r := range top.Rows {
		sum += r.Retained
	}
	if sum != retained.Reachable {
		t.Errorf("the top level retains %d bytes, the reachable heap is %d", sum, retained.Reachable)
	}
}

// stripIndex writes array elements as [] so a chain compares whatever slot the item is in.
func stripIndex(chain string) string {
	var b strings.Builder
	for i := 0; i < len(chain); i++ {
		b.WriteByte(chain[i])
		if chain[i] == '[' && i+1 < len(chain) && chain[i+1] >= '0' && chain[i+1] <= '9' {
			for i+1 < len(chain) && chain[i+1] != ']' {
				i++
			}
		}
	}
	return b.String()
}

// synthDump writes hproftest's app-shaped dump (seed picks the counts; the classes are the same).
func synthDump(t *testing.T, dir string, seed uint64) string {
	t.Helper()
	path := filepath.Join(dir, fmt.Sprintf("syn%d.hprof", seed))
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := hproftest.Generate(f, hproftest.Options{Version: "1.0.3"}, 200<<10, seed); err != nil {
		t.Fatal(err)
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
	return path
}

// The dump comparison says how many classes it shows of how many, and warns when the two dumps
// look like different programs (issue 23, finding 14), in text and in JSON.
func TestDumpDiffCountsAndWarnsOnDifferentApps(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	db := filepath.Join(dir, "w.db")
	runs := map[string]string{"s1": synthDump(t, dir, 1), "s2": synthDump(t, dir, 2),
		"ahat": corpus.File(t, "ahat-RI.hprof"), "dialer": corpus.File(t, "perflib-dialer.hprof")}
	for run, file := range runs {
		if code, _, errOut := runCLI(t, db, "import", "--run", run, file); code != 0 {
			t.Fatalf("import %s: %s", file, errOut)
		}
	}
	type diffJSON struct {
		Total    int      `json:"classes_total"`
		Changed  int      `json:"classes_changed"`
		Warnings []string `json:"warnings"`
		Rows     []struct {
			Name string `json:"name"`
		} `json:"rows"`
	}
	diff := func(pair string, args ...string) (string, diffJSON) {
		t.Helper()
		code, text, errOut := runCLI(t, db, append([]string{"report", "--compare", pair}, args...)...)
		if code != 0 {
			t.Fatalf("report --compare %s: %s", pair, errOut)
		}
		code, out, errOut := runCLI(t, db, append([]string{"report", "--json", "--compare", pair}, args...)...)
		var j diffJSON
		if err := json.Unmarshal([]byte(out), &j); code != 0 || err != nil {
			t.Fatalf("report --json --compare %s: %v %s\n%s", pair, err, errOut, out)
		}
		return text, j
	}

	// Two dumps of one program: no warning; all the changed classes, of how many.
	text, j := diff("s1,s2")
	if j.Warnings == nil || len(j.Warnings) != 0 || strings.Contains(text, "warning:") {
		t.Errorf("one program: warnings %q\n%s", j.Warnings, text)
	}
	if j.Total == 0 || j.Changed != len(j.Rows) || j.Changed > j.Total ||
		!strings.Contains(text, fmt.Sprintf("%d of %d classes changed", j.Changed, j.Total)) {
		t.Errorf("one program: %d rows, %d changed of %d; text:\n%s", len(j.Rows), j.Changed, j.Total, firstLines(text, 2))
	}
	// Cut short by --top: "the top 3 of N" changed ones.
	text, top := diff("s1,s2", "--top", "3")
	if len(top.Rows) != 3 || top.Changed != j.Changed || top.Total != j.Total ||
		!strings.Contains(text, fmt.Sprintf("the top 3 of the %d changed classes shown", j.Changed)) {
		t.Errorf("--top 3: %d rows, %d changed of %d; text:\n%s", len(top.Rows), top.Changed, top.Total, firstLines(text, 2))
	}

	// A HotSpot-like reference dump against an Android app's: a warning.
	text, j = diff("ahat,dialer")
	if len(j.Warnings) != 1 || !strings.Contains(j.Warnings[0], "different programs") ||
		!strings.Contains(text, "warning: "+j.Warnings[0]) {
		t.Errorf("two apps: warnings %q\n%s", j.Warnings, firstLines(text, 3))
	}
}

// A dump's summary counts instances and arrays, its retained report every reachable object,
// class objects too: each says so (issue 23, finding 14).
func TestDumpObjectCountsSayWhatTheyCount(t *testing.T) {
	t.Parallel()
	db := filepath.Join(t.TempDir(), "w.db")
	if code, _, errOut := runCLI(t, db, "import", "--run", "dialer", corpus.File(t, "perflib-dialer.hprof")); code != 0 {
		t.Fatal(errOut)
	}
	code, summary, _ := runCLI(t, db, "report", "--run", "dialer")
	if code != 0 || !strings.Contains(summary, "class objects are not counted") {
		t.Errorf("summary:\n%s", summary)
	}
	code, retained, _ := runCLI(t, db, "report", "--run", "dialer", "--by", "retained", "--top", "1")
	if code != 0 || !regexp.MustCompile(`reachable from the GC roots in [0-9]+ objects: [0-9]+ of the dump's [0-9]+ instances and arrays, and [0-9]+ class objects`).MatchString(retained) {
		t.Errorf("retained:\n%s", firstLines(retained, 2))
	}
	var j struct {
		Objects      *int `json:"reachable_objects"`
		ClassObjects *int `json:"reachable_class_objects"`
		Dumped       *int `json:"dump_objects"`
	}
	_, out, _ := runCLI(t, db, "report", "--json", "--run", "dialer", "--by", "retained", "--top", "1")
	if err := json.Unmarshal([]byte(out), &j); err != nil || j.Objects == nil || j.ClassObjects == nil || j.Dumped == nil || *j.ClassObjects == 0 ||
		*j.ClassObjects >= *j.Objects || *j.Objects-*j.ClassObjects > *j.Dumped {
		t.Errorf("retained JSON: %v %s", err, firstLines(out, 3))
	}
}

func firstLines(s string, n int) string {
	lines := strings.SplitN(s, "\n", n+1)
	return strings.Join(lines[:min(n, len(lines))], "\n")
}

// --by retained --heap: each heap's rows count its reachable instances, so the heaps together
// count every reachable instance and array once; no class retains more than is reachable (the
// rows overlap: an instance of one class can hold another's).
func TestRetainedByHeapCountsEveryReachableInstanceOnce(t *testing.T) {
	db := filepath.Join(t.TempDir(), "w.db")
	if code, _, errOut := runCLI(t, db, "import", "--run", "dialer", corpus.File(t, "perflib-dialer.hprof")); code != 0 {
		t.Fatal(errOut)
	}
	type rows struct {
		Heap      *string `json:"heap"`
		Reachable uint64  `json:"reachable"`
		Objects   int     `json:"reachable_objects"`
		Classes   int     `json:"reachable_class_objects"`
		Rows      []struct {
			Instances uint64 `json:"instances"`
			Retained  uint64 `json:"retained"`
		} `json:"rows"`
	}
	var instances uint64
	var all rows
	for _, heap := range []string{"zygote", "app"} {
		code, out, errOut := runCLI(t, db, "report", "--run", "dialer", "--by", "retained", "--heap", heap, "--json")
		var r rows
		if code != 0 || json.Unmarshal([]byte(out), &r) != nil || r.Heap == nil || *r.Heap != heap {
			t.Fatalf("--heap %s: exit %d %s %s", heap, code, out, errOut)
		}
		for _, row := range r.Rows {
			instances += row.Instances
			if row.Retained > r.Reachable {
				t.Errorf("heap %s: a class retains %d of %d reachable", heap, row.Retained, r.Reachable)
			}
		}
		all = r
	}
	if want := uint64(all.Objects - all.Classes); instances != want {
		t.Errorf("the heaps count %d reachable instances and arrays, want %d", instances, want)
	}
	if code, _, errOut := runCLI(t, db, "report", "--run", "dialer", "--by", "retained", "--heap", "image"); code == 0 || !strings.Contains(errOut, `no heap "image"`) {
		t.Errorf("an unknown heap: exit %d, %s", code, errOut)
	}
}
