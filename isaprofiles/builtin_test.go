package isaprofiles

import (
	"testing"

	"androprof/model/cost"
)

func TestBuiltinsLoadAndCoverTheirCatalogues(t *testing.T) {
	names := BuiltinNames()
	if len(names) < 5 {
		t.Fatalf("built-in profiles = %v, want at least Cortex-A8, A9, A15, 24K, 74K", names)
	}
	for _, name := range names {
		p, err := Builtin(name)
		if err != nil {
			t.Fatal(err)
		}
		if p.Source == "" || len(p.Categories) < 8 {
			t.Errorf("%s: %d categories, source %q", name, len(p.Categories), p.Source)
		}
		cl := cost.NewClassifier(p)
		for _, isa := range p.ISAs {
			for _, in := range CatalogFor(isa).Instructions() {
				if cl.Classify(in).Name == cost.UndefinedCategory {
					t.Errorf("%s: %s is uncategorised", name, in)
				}
			}
		}
		for _, c := range p.Categories {
			if len(c.Citations) == 0 {
				t.Errorf("%s: category %q cites no source", name, c.Name)
			}
		}
	}
	for _, ref := range []string{"cortex-a8", "cortex-a8.xml", names[0]} {
		if _, err := Builtin(ref); err != nil {
			t.Errorf("Builtin(%q): %v", ref, err)
		}
	}
	if _, err := Builtin("pentium"); err == nil {
		t.Error("Builtin(pentium) found something")
	}
}

// The issue asks for < 20 ms to load any built-in profile.
func BenchmarkLoadBuiltin(b *testing.B) {
	for _, file := range []string{"cortex-a8.xml", "cortex-a9.xml", "cortex-a15.xml", "mips-24k.xml", "mips-74k.xml"} {
		b.Run(file, func(b *testing.B) {
			for i := 0; i < b.N; i++ {
				if _, err := LoadBuiltinFile(file); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
