package heap

import (
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
)

func TestDumpRows(t *testing.T) {
	d := &HeapDump{Heaps: []string{"zygote", "app"}, Classes: []DumpClass{
		{Name: "java.lang.String", Heap: "zygote", DumpCount: DumpCount{Objects: 10, Bytes: 200}},
		{Name: "java.lang.String", Heap: "app", DumpCount: DumpCount{Objects: 5, Bytes: 100}},
		{Name: "char[]", Heap: "app", Array: true, DumpCount: DumpCount{Objects: 5, Bytes: 700}},
		{Name: "java.lang.Object[]", Heap: "app", Array: true, DumpCount: DumpCount{Objects: 1, Bytes: 16}},
	}}
	all := d.DumpRows("", false)
	if len(all) != 3 || all[0].Name != "char[]" || all[1].Name != "java.lang.String" || all[1].Objects() != 15 || all[1].Bytes() != 300 {
		t.Fatalf("classes of every heap = %+v", all)
	}
	app := d.DumpRows("app", true)
	want := map[string][2]uint64{"(primitive arrays)": {5, 700}, "java.lang": {6, 116}}
	if len(app) != 2 {
		t.Fatalf("packages of app = %+v", app)
	}
	var share float64
	for _, r := range app {
		if w := want[r.Name]; r.Objects() != w[0] || r.Bytes() != w[1] {
			t.Errorf("package %s = %d objects %d bytes, want %v", r.Name, r.Objects(), r.Bytes(), w)
		}
		share += r.BytesShare
	}
	if share < 99.999 || share > 100.001 {
		t.Errorf("byte shares sum to %v", share)
	}
	if jl := app[1]; jl.Instances.Objects != 5 || jl.Arrays.Objects != 1 || jl.Classes != 2 {
		t.Errorf("java.lang in app = %+v", jl)
	}
	if pk := d.DumpRows("", true); pk[1].Name != "java.lang" || pk[1].Classes != 2 {
		t.Errorf("java.lang of every heap = %+v: String in two heaps is one class", pk[1])
	}
	ch := d.Characteristics()
	if ch.Objects != 21 || ch.Bytes != 1016 || ch.Arrays.Objects != 6 || ch.Instances.Bytes != 300 {
		t.Errorf("characteristics = %+v", ch)
	}
}

// retentionOf is a dump's retention with only its classes (name and instances), for comparisons.
func retentionOf(classes map[string]uint64) *DumpRetention {
	r := &DumpRetention{}
	for name, n := range classes {
		r.Classes = append(r.Classes, RetainedClass{Name: name, Instances: n, Shallow: 16 * n, Retained: 16 * n})
	}
	return r
}

// A comparison says how many classes it left out (unchanged), and warns when the dumps look
// like two programs: few classes in common, or few of their application classes.
func TestDiffDumpsCountsAndRelatedness(t *testing.T) {
	before := retentionOf(map[string]uint64{"java.lang.String": 10, "char[]": 10, "java.lang.Object[]": 3, "com.example.Cache": 1, "com.example.Item": 100})
	after := retentionOf(map[string]uint64{"java.lang.String": 12, "char[]": 10, "java.lang.Object[]": 3, "com.example.Cache": 1, "com.example.Item": 150, "com.example.Extra": 1})
	d := DiffDumps(before, after)
	if d.Classes != 6 || len(d.Rows) != 3 || d.Rows[0].Name != "com.example.Item" {
		t.Fatalf("same program: %d classes, rows %+v", d.Classes, d.Rows)
	}
	if w := d.Unrelated(); w != "" {
		t.Errorf("same program: warning %q", w)
	}

	// Another program on the same VM: the platform's classes in common, none of the app's.
	other := retentionOf(map[string]uint64{"java.lang.String": 12, "char[]": 10, "java.lang.Object[]": 3, "org.other.Main": 1, "org.other.Node": 7, "org.other.Node[]": 1})
	if w := DiffDumps(before, other).Unrelated(); !strings.Contains(w, "0 of 2 application classes") {
		t.Errorf("another program on the same VM: warning %q", w)
	}
	// Another VM's naming (java/lang/String): hardly a class in common.
	hotspot := retentionOf(map[string]uint64{"java/lang/String": 12, "[C": 10, "[Ljava/lang/Object;": 3, "com/example/Cache": 1, "com/example/Item": 150})
	if w := DiffDumps(before, hotspot).Unrelated(); !strings.Contains(w, "0 of 5 classes") {
		t.Errorf("different naming: warning %q", w)
	}
}

// Reachable objects include class objects; a dump's summary counts instances and arrays only.
func TestClassObjectsCounted(t *testing.T) {
	r := &DumpRetention{}
	for i, isClass := range []bool{true, false, false, true, false} {
		r.Objects.Append(DumpObject{ID: uint64(i + 1), IsClass: isClass, Idom: -1, Parent: -1}, 0)
	}
	if n := r.ClassObjects(); n != 2 {
		t.Errorf("class objects = %d, want 2", n)
	}
}

func TestFindAndSeeker(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	r := &DumpRetention{}
	for i := range 5000 {
		id := uint64(rng.IntN(1<<20))<<3 | 0x7f0000000000
		if _, dup := r.Find(id); i > 0 && dup {
			continue
		}
		r = &DumpRetention{Objects: r.Objects}
		r.Objects.Append(DumpObject{ID: id, Idom: -1, Parent: -1}, 0)
	}
	ids := r.Objects.ID
	sorted := slices.Sorted(slices.Values(ids))
	for _, order := range [][]uint64{sorted, ids, append(slices.Clone(sorted), 1, 0x7f0000000000, 1<<63)} {
		s := r.Seeker()
		for _, id := range order {
			want := int32(slices.Index(ids, id))
			if got := s.Seq(id); got != want {
				t.Fatalf("Seq(%#x) = %d, want %d", id, got, want)
			}
			if got := r.SeqOf(id); got != want {
				t.Fatalf("SeqOf(%#x) = %d, want %d", id, got, want)
			}
			if o, ok := r.Find(id); ok != (want >= 0) || ok && o.Seq != want {
				t.Fatalf("Find(%#x) = %v %v", id, o.Seq, ok)
			}
		}
	}
}
