package builtingen

import (
	"bytes"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"

	"androprof/isaprofiles"
	"androprof/model/cost"
)

// builtinDir is isaprofiles/builtin, seen from this package's directory.
const builtinDir = "../../builtin"

const regenerate = "run `go generate ./isaprofiles` to regenerate"

// TestCommittedProfilesAreCurrent fails when a committed XML file differs from what Generate
// produces now, so the tables, the catalogues and the files cannot drift apart.
func TestCommittedProfilesAreCurrent(t *testing.T) {
	want := map[string]bool{}
	for _, core := range Cores() {
		name := core.Slug + ".xml"
		want[name] = true
		p, err := Generate(core)
		if err != nil {
			t.Fatal(err)
		}
		var buf bytes.Buffer
		if err := isaprofiles.Write(&buf, p); err != nil {
			t.Fatal(err)
		}
		got, err := os.ReadFile(filepath.Join(builtinDir, name))
		if err != nil {
			t.Errorf("%v; %s", err, regenerate)
			continue
		}
		if !bytes.Equal(got, buf.Bytes()) {
			t.Errorf("%s differs from what Generate produces now; %s", name, regenerate)
		}
		back, err := isaprofiles.Read(bytes.NewReader(got), name)
		if err != nil {
			t.Errorf("%s does not read back: %v", name, err)
		} else if back.Name != core.Name {
			t.Errorf("%s reads back as profile %q, want %q", name, back.Name, core.Name)
		}
	}
	files, err := filepath.Glob(filepath.Join(builtinDir, "*.xml"))
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range files {
		if !want[filepath.Base(f)] {
			t.Errorf("%s is not produced by any core table; remove it", f)
		}
	}
}

// TestEveryCatalogueEntryIsCategorised checks that every entry of every catalogue lands in a
// real category of each profile that prices its instruction set, and that every catalogue is
// priced by at least one profile.
func TestEveryCatalogueEntryIsCategorised(t *testing.T) {
	covered := map[cost.ISA]bool{}
	for _, core := range Cores() {
		p, err := Generate(core)
		if err != nil {
			t.Fatal(err)
		}
		if len(p.Undefined.Instructions) != 0 {
			t.Errorf("%s: Undefined holds %d instructions", core.Slug, len(p.Undefined.Instructions))
		}
		cl := cost.NewClassifier(p)
		for _, isa := range core.ISAs {
			covered[isa] = true
			cat := isaprofiles.CatalogFor(isa)
			if cat == nil {
				t.Fatalf("%s: no catalogue for %s", core.Slug, isa)
			}
			if len(cat.Entries) == 0 {
				t.Errorf("catalogue %s is empty", isa)
			}
			for _, e := range cat.Entries {
				in := cost.Instruction{ISA: isa, Mnemonic: e.Mnemonic}
				if got := cl.Classify(in); got.Name == cost.UndefinedCategory {
					t.Errorf("%s: %s (class %s) is uncategorised", core.Slug, in, e.Class)
				}
			}
		}
	}
	for _, isa := range []cost.ISA{cost.ARM, cost.Thumb, cost.MIPS} {
		if !covered[isa] {
			t.Errorf("no built-in profile prices %s", isa)
		}
	}
}

// TestEveryNumberIsCited checks that each category, Undefined included, cites both of its
// costs, and that the ARM cores price every cost class.
func TestEveryNumberIsCited(t *testing.T) {
	for _, core := range Cores() {
		p, err := Generate(core)
		if err != nil {
			t.Fatal(err)
		}
		if strings.TrimSpace(p.Source) == "" {
			t.Errorf("%s: no source text", core.Slug)
		}
		for _, c := range append(append([]cost.Category(nil), p.Categories...), p.Undefined) {
			kinds := map[string]bool{}
			for _, ci := range c.Citations {
				if strings.TrimSpace(ci.Text) == "" {
					t.Errorf("%s/%s: empty %s citation", core.Slug, c.Name, ci.Cost)
				}
				kinds[ci.Cost] = true
			}
			if !kinds["cycles"] || !kinds["power"] {
				t.Errorf("%s/%s: citations %v, want both cycles and power", core.Slug, c.Name, kinds)
			}
		}
		if !p.Reference.IsZero() && len(p.Citations) == 0 {
			t.Errorf("%s: reference data without citations", core.Slug)
		}
		// Every class an instruction of the core's instruction sets is in has a category, so
		// no catalogued instruction is left to the Undefined fallback.
		priced := map[string]bool{}
		for _, cat := range core.Categories {
			for _, cl := range cat.Classes {
				priced[cl] = true
			}
		}
		for _, isa := range core.ISAs {
			for _, e := range isaprofiles.CatalogFor(isa).Entries {
				if !priced[e.Class] {
					t.Errorf("%s does not price class %s (%s %s)", core.Slug, e.Class, isa, e.Mnemonic)
					priced[e.Class] = true // once per class
				}
			}
		}
	}
}

// TestClassesMatchDocs keeps Classes in step with the table in docs/catalogues.md.
func TestClassesMatchDocs(t *testing.T) {
	doc, err := os.ReadFile("../../../docs/catalogues.md")
	if err != nil {
		t.Skip("docs/catalogues.md not found:", err)
	}
	_, table, ok := strings.Cut(string(doc), "## Cost classes")
	if !ok {
		t.Fatal("docs/catalogues.md has no \"## Cost classes\" section")
	}
	var fromDoc []string
	for _, m := range regexp.MustCompile("(?m)^\\| `([a-z0-9-]+)` \\|").FindAllStringSubmatch(table, -1) {
		fromDoc = append(fromDoc, m[1])
	}
	got, want := append([]string(nil), Classes...), fromDoc
	sort.Strings(got)
	sort.Strings(want)
	if strings.Join(got, " ") != strings.Join(want, " ") {
		t.Errorf("Classes = %v, docs/catalogues.md lists %v", got, want)
	}
}

func TestMeanAndFallback(t *testing.T) {
	c := gccFile{"f.md", "r"}.mean("", lat("a", 6, ""), lat("b", 6, ""), lat("c", 5, ""))
	if c.Value != 5.67 || !strings.Contains(c.Notes[0].Text, "mean of the 3 = 5.67") {
		t.Errorf("mean = %v %q", c.Value, c.Notes[0].Text)
	}
	core := Core{Categories: []Category{
		{Cycles: Cost{Value: 1}}, {Cycles: Cost{Value: 4}}, {Cycles: Cost{Value: 9}}, {Cycles: Cost{Value: 2}},
		{Cycles: fallback("x")},
	}}
	if f := fallbackCycles(core); f.Value != 3 || !f.Notes[0].Estimate {
		t.Errorf("median fallback = %+v, want 3 marked estimate", f)
	}
}
