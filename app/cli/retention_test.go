package cli

import (
	"context"
	"encoding/json"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"androprof/jvm"
)

// The definitions of done for "why is it alive" and the dump diff, on a real Java
// program: demo.Retain holds N items in a static map through a known chain of fields, dumps
// its heap with HotSpot, adds M items and dumps again.
func TestRetainPathAndDiff(t *testing.T) {
	requireJava(t)
	const n, m = 1000, 250
	dir := t.TempDir()
	classes := filepath.Join(dir, "classes")
	if err := jvm.CompileSamples(context.Background(), "", classes); err != nil {
		t.Fatal(err)
	}
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
