package cli

import (
	"encoding/json"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	heapmodel "androprof/model/heap"
)

type leakStepJSON struct {
	Class   string `json:"class"`
	Field   string `json:"field"`
	Leaking string `json:"leaking"`
	Suspect bool   `json:"suspect_reference"`
}

type suspectsJSON struct {
	Total    int `json:"suspects_total"`
	Suspects []struct {
		Rule  string         `json:"rule"`
		Class string         `json:"class"`
		ID    string         `json:"id"`
		Why   string         `json:"why"`
		Trace []leakStepJSON `json:"trace"`
	} `json:"suspects"`
}

// The definition of done for the leak rules: demo.Leaks keeps a destroyed Activity in
// a static list, the way Android apps leak them, beside the live one. HotSpot dumps it; the
// rules find exactly the destroyed one (its mDestroyed read back through report --object),
// with the exact trace from the class to it and Shark's suspect references; the second dump,
// two rotations later, shows the leak grown to three Activities.
func TestLeaksSample(t *testing.T) {
	requireJava(t)
	dir := t.TempDir()
	first, second := filepath.Join(dir, "first.hprof"), filepath.Join(dir, "second.hprof")
	if out, err := exec.Command("java", "-cp", javaSampleClasses(t), "demo.Leaks", first, second).CombinedOutput(); err != nil {
		t.Fatalf("demo.Leaks: %v\n%s", err, out)
	}
	db := filepath.Join(dir, "w.db")
	for run, file := range map[string]string{"first": first, "second": second} {
		if code, _, errOut := runCLI(t, db, "import", "--run", run, file); code != 0 {
			t.Fatalf("import %s: %s", file, errOut)
		}
	}
	report := func(v any, args ...string) string {
		t.Helper()
		code, out, errOut := runCLI(t, db, append([]string{"report"}, args...)...)
		if code != 0 {
			t.Fatalf("report %v: exit %d: %s", args, code, errOut)
		}
		if v != nil {
			if err := json.Unmarshal([]byte(out), v); err != nil {
				t.Fatalf("report %v: %v\n%s", args, err, out)
			}
		}
		return out
	}

	// Which Activities are destroyed, as their fields say.
	var instances struct {
		Rows []struct {
			ID string `json:"id"`
		} `json:"rows"`
	}
	report(&instances, "--json", "--run", "first", "--instances", "demo.Leaks$MainActivity")
	destroyed := map[string]bool{}
	for _, in := range instances.Rows {
		var obj struct {
			Fields []struct{ Name, Value string } `json:"fields"`
		}
		report(&obj, "--json", "--run", "first", "--object", in.ID)
		for _, f := range obj.Fields {
			if f.Name == "mDestroyed" {
				destroyed[in.ID] = f.Value == "true"
			}
		}
	}
	if len(destroyed) != 2 {
		t.Fatalf("the first dump's Activities: %v, want a destroyed one and a live one", destroyed)
	}

	var got suspectsJSON
	report(&got, "--json", "--run", "first", "--by", "leaks")
	var found []string
	for _, s := range got.Suspects {
		if s.Rule == heapmodel.AccumulationRule {
			continue
		}
		found = append(found, s.ID)
		if s.Rule != "destroyed Activity" || s.Class != "demo/Leaks$MainActivity" || !destroyed[s.ID] || s.Why != "Activity#mDestroyed is true" {
			t.Errorf("suspect %s %s %s (%s): want the destroyed Activity alone", s.Rule, s.Class, s.ID, s.Why)
		}
		// Whatever leads from a GC root to the class, then exactly the sample's chain.
		want := []leakStepJSON{{"class demo/Leaks", "appClass", "NO", false}, {"java/util/ArrayList", "listeners", "UNKNOWN", true},
			{"[Ljava/lang/Object;", "elementData", "UNKNOWN", true}, {"demo/Leaks$MainActivity", "[0]", "YES", true}}
		if n := len(s.Trace); n < len(want) || !equalSteps(s.Trace[n-len(want):], want) || s.Trace[0].Leaking != "NO" {
			t.Errorf("trace %+v\nwant it to end %+v", s.Trace, want)
		}
	}
	if len(found) != 1 {
		t.Errorf("leak patterns found %v, want the one destroyed Activity", found)
	}

	// As Shark prints it: the suspect references underlined.
	text := report(nil, "--run", "first", "--by", "leaks")
	for _, line := range []string{"│    ↓ static Leaks.listeners\n│                   ~~~~~~~~~\n", "│    ↓ Object[0]\n│            ~~~\n",
		"╰→ demo.Leaks$MainActivity instance\n     Leaking: YES (Activity#mDestroyed is true)\n"} {
		if !strings.Contains(text, line) {
			t.Errorf("the text lacks\n%s\n%s", line, text)
		}
	}

	// Two rotations later: three destroyed Activities through the same references.
	var grown struct {
		Grown []struct {
			Rule   string `json:"rule"`
			Before int    `json:"leaking_before"`
			After  int    `json:"leaking_after"`
		} `json:"grown"`
	}
	report(&grown, "--json", "--compare", "first,second", "--by", "leaks")
	n := 0
	for _, g := range grown.Grown {
		if g.Rule == "destroyed Activity" {
			n++
			if g.Before != 1 || g.After != 3 {
				t.Errorf("the leak grew from %d to %d Activities, want 1 to 3", g.Before, g.After)
			}
		}
	}
	if n != 1 {
		t.Errorf("%d destroyed Activity leaks grew, want 1: %+v", n, grown)
	}
}

func equalSteps(a, b []leakStepJSON) bool {
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return len(a) == len(b)
}

// Class names as Java writes them, from either way a dump writes them.
func TestJavaClassName(t *testing.T) {
	for in, want := range map[string]string{"java/util/ArrayList": "java.util.ArrayList", "[Ljava/lang/Object;": "java.lang.Object[]",
		"[[I": "int[][]", "byte[]": "byte[]", "class demo/Leaks": "class demo.Leaks", "android.app.Activity": "android.app.Activity"} {
		if got := heapmodel.JavaClassName(in); got != want {
			t.Errorf("JavaClassName(%q) = %q, want %q", in, got, want)
		}
	}
}
