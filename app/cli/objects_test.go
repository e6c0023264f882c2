package cli

import (
	"encoding/json"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"androprof/internal/corpus"
)

// objectOut is `report --object --json` as a test reads it.
type objectOut struct {
	Object struct {
		ID    string `json:"id"`
		Class string `json:"class"`
		Kind  string `json:"kind"`
		Heap  string `json:"heap"`
		Field string `json:"field"`
	} `json:"object"`
	Fields    []fieldOut `json:"fields"`
	Length    int        `json:"length"`
	Elements  []fieldOut `json:"elements"`
	Text      *string    `json:"text"`
	Referrers []struct {
		ID     string   `json:"id"`
		Class  string   `json:"class"`
		Fields []string `json:"fields"`
	} `json:"referrers"`
	Dominator *struct {
		Class string `json:"class"`
	} `json:"dominator"`
	Path []struct {
		Class string `json:"class"`
		Field string `json:"field"`
	} `json:"path"`
}

type fieldOut struct {
	Name  string `json:"name"`
	Type  string `json:"type"`
	Value string `json:"value"`
	RefID string `json:"ref_id"`
}

func (o objectOut) field(t *testing.T, name string) fieldOut {
	t.Helper()
	for _, f := range o.Fields {
		if f.Name == name {
			return f
		}
	}
	t.Fatalf("object %s %s has no field %s: %+v", o.Object.ID, o.Object.Class, name, o.Fields)
	return fieldOut{}
}

func (o objectOut) referrers() map[string]string {
	out := map[string]string{}
	for _, r := range o.Referrers {
		out[r.ID] = strings.Join(r.Fields, ",")
	}
	return out
}

func reportObject(t *testing.T, db, run, id string) objectOut {
	t.Helper()
	code, out, errOut := runCLI(t, db, "report", "--run", run, "--object", id, "--json")
	var o objectOut
	if code != 0 || json.Unmarshal([]byte(out), &o) != nil {
		t.Fatalf("report --object %s: exit %d %s %s", id, code, out, errOut)
	}
	return o
}

// The object view of demo.Objects, whose field values the sample sets: every value as Java
// prints it, the arrays' contents and text, the reference cycle's referrers, the path from a
// GC root; in --json and in text.
func TestObjectViewOfKnownSample(t *testing.T) {
	requireJava(t)
	classes := javaSampleClasses(t)
	dir := t.TempDir()
	dump, db := filepath.Join(dir, "objects.hprof"), filepath.Join(dir, "w.db")
	if out, err := exec.Command("java", "-cp", classes, "demo.Objects", dump).CombinedOutput(); err != nil {
		t.Fatalf("demo.Objects: %v\n%s", err, out)
	}
	if code, _, errOut := runCLI(t, db, "import", "--run", "objects", dump); code != 0 {
		t.Fatal(errOut)
	}
	v := reportObject(t, db, "objects", "demo.Objects$Values")
	want := map[string]string{"count": "42", "negative": "-7", "big": "1234567890123", "flag": "true", "ratio": "2.5"}
	for name, value := range want {
		if f := v.field(t, name); f.Value != value {
			t.Errorf("Values.%s = %q (%s), want %s", name, f.Value, f.Type, value)
		}
	}
	if f := v.field(t, "label"); !strings.HasSuffix(f.Value, ` java/lang/String "hello, heap"`) {
		t.Errorf("Values.label = %q", f.Value)
	}
	if got := v.referrers(); len(got) != 1 || !slices.Contains(mapValues(got), "values") {
		t.Errorf("Values' referrers = %v, want the class demo/Objects through values", got)
	}
	if n := len(v.Path); n < 2 || v.Path[n-1].Field != "values" || v.Path[n-2].Class != "class demo/Objects" {
		t.Errorf("path to Values = %+v", v.Path)
	}
	arrays := []struct {
		field, text string
		elements    []string
	}{
		{"letters", "abc", []string{"'a'", "'b'", "'c'"}},
		{"bytes", "bytes!", []string{"98", "121", "116", "101", "115", "33"}},
		{"numbers", "", []string{"1", "2", "3", "5", "8"}},
	}
	for _, a := range arrays {
		o := reportObject(t, db, "objects", v.field(t, a.field).RefID)
		var els []string
		for _, e := range o.Elements {
			els = append(els, e.Value)
		}
		if o.Object.Kind != "primitive array" || o.Length != len(a.elements) || !slices.Equal(els, a.elements) {
			t.Errorf("Values.%s = %s of %d: %v, want %v", a.field, o.Object.Kind, o.Length, els, a.elements)
		}
		if a.text != "" && (o.Text == nil || *o.Text != a.text) || a.text == "" && o.Text != nil {
			t.Errorf("Values.%s text = %v, want %q", a.field, o.Text, a.text)
		}
	}

	// The cycle: class demo/Objects --cycle--> a --x--> b --x--> a.
	a := reportObject(t, db, "objects", "demo.Objects$Node") // the Node nearest a root
	b := reportObject(t, db, "objects", a.field(t, "x").RefID)
	if a.Object.Field != "cycle" || !strings.HasSuffix(a.field(t, "name").Value, `"a"`) || !strings.HasSuffix(b.field(t, "name").Value, `"b"`) {
		t.Fatalf("a = %+v, b = %+v", a, b)
	}
	if b.field(t, "x").RefID != a.Object.ID {
		t.Errorf("b.x = %s, want a %s", b.field(t, "x").RefID, a.Object.ID)
	}
	if got := b.referrers(); len(got) != 1 || got[a.Object.ID] != "x" {
		t.Errorf("b's referrers = %v, want a through x", got)
	}
	if got := a.referrers(); len(got) != 2 || got[b.Object.ID] != "x" || !slices.Contains(mapValues(got), "cycle") {
		t.Errorf("a's referrers = %v, want b through x and class demo/Objects through cycle", got)
	}
	if b.Dominator == nil || b.Dominator.Class != "demo/Objects$Node" {
		t.Errorf("b's dominator = %+v, want a", b.Dominator)
	}

	code, out, _ := runCLI(t, db, "report", "--run", "objects", "--object", "demo.Objects$Values")
	for _, line := range []string{`label +java.lang.Object +0x[0-9a-f]+ java/lang/String "hello, heap"`, `count +int +42`,
		`ratio +double +2\.5`, `big +long +1234567890123`, `1 referrer`, `values +\d+`} {
		if !matchLine(out, line) {
			t.Errorf("report --object: no line matching %q in\n%s", line, out)
		}
	}
	if code != 0 {
		t.Errorf("report --object: exit %d", code)
	}
}

func mapValues(m map[string]string) []string {
	var out []string
	for _, v := range m {
		out = append(out, v)
	}
	return out
}

// On the corpus dumps: a class's instances, the count of how many, and the text of Strings.
func TestInstancesOfCorpusDump(t *testing.T) {
	db := filepath.Join(t.TempDir(), "w.db")
	if code, _, errOut := runCLI(t, db, "import", "--run", "dialer", corpus.File(t, "perflib-dialer.hprof")); code != 0 {
		t.Fatal(errOut)
	}
	code, out, errOut := runCLI(t, db, "report", "--run", "dialer", "--instances", "java.lang.String", "--find", `^android\.intent\.action\.MAIN$`, "--json")
	var rep struct {
		Reachable int `json:"reachable_instances"`
		Dump      int `json:"dump_instances"`
		Rows      []struct {
			ID   string `json:"id"`
			Text string `json:"text"`
		} `json:"rows"`
	}
	if code != 0 || json.Unmarshal([]byte(out), &rep) != nil {
		t.Fatalf("report --instances: exit %d %s %s", code, out, errOut)
	}
	// 11,556 Strings in the dump (docs/hprof.md), of which these are reachable.
	if rep.Dump != 11556 || rep.Reachable == 0 || rep.Reachable > rep.Dump || len(rep.Rows) == 0 || rep.Rows[0].Text != "android.intent.action.MAIN" {
		t.Fatalf("report --instances = %+v", rep)
	}
	code, out, _ = runCLI(t, db, "report", "--run", "dialer", "--object", rep.Rows[0].ID)
	if code != 0 || !strings.Contains(out, `text: "android.intent.action.MAIN"`) {
		t.Errorf("report --object %s: exit %d\n%s", rep.Rows[0].ID, code, out)
	}
	code, out, _ = runCLI(t, db, "report", "--run", "dialer", "--instances", "java.lang.String", "--top", "3")
	if code != 0 || !matchLine(out, `^3 of \d+ reachable instances of java.lang.String`) {
		t.Errorf("report --instances --top 3: exit %d\n%s", code, out)
	}
	// The JVM's spelling of an array class finds ART's: [C is char[].
	code, out, _ = runCLI(t, db, "report", "--run", "dialer", "--instances", "[C", "--top", "1")
	if code != 0 || !matchLine(out, `^1 of \d+ reachable instances of \[C`) || !matchLine(out, `^0x[0-9a-f]+ +\d+ +\d+ +\d+ +"`) {
		t.Errorf("report --instances [C: exit %d\n%s", code, out)
	}
}

// matchLine says whether a line of out matches the regular expression.
func matchLine(out, expr string) bool {
	re := regexp.MustCompile(expr)
	for line := range strings.Lines(out) {
		if re.MatchString(strings.TrimRight(line, "\n")) {
			return true
		}
	}
	return false
}
