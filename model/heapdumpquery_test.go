package model

import "testing"

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
