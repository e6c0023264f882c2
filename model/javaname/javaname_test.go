package javaname

import (
	"strings"
	"testing"
	"unicode/utf8"
)

func TestMethod(t *testing.T) {
	for _, c := range []struct {
		class, method, desc string
		short, pkg          string
		ok                  bool
	}{
		{"com/jag/positron/GameScreen", "paint", "(F)V", "GameScreen.paint(float)", "com.jag.positron", true},
		{"com.jag.positron.GameScreen", "paint", "(F)V", "GameScreen.paint(float)", "com.jag.positron", true}, // ART dots
		{"android/view/ViewGroup", "drawChild", "(Landroid/graphics/Canvas;Landroid/view/View;J)Z", "ViewGroup.drawChild(Canvas, View, long)", "android.view", true},
		{"java/lang/String", "<init>", "([CII)V", "String(char[], int, int)", "java.lang", true},
		{"com/a/Outer$Inner", "<init>", "(Lcom/a/Outer;)V", "Outer$Inner(Outer)", "com.a", true}, // javap keeps '$'
		{"com/a/Game", "<clinit>", "()V", "Game" + StaticInit, "com.a", true},
		{"Main", "main", "([Ljava/lang/String;)V", "Main.main(String[])", "", true}, // default package
		{"a/B", "m", "(BCDFIJSZ)V", "B.m(byte, char, double, float, int, long, short, boolean)", "a", true},
		{"a/B", "m", "([[I[Ljava/util/Map$Entry;)[J", "B.m(int[][], Map$Entry[])", "a", true},
		{"a/B", "m", "", "B.m", "a", true}, // a trace without signatures
		{"a/B", "<init>", "", "B()", "a", true},
		{"[I", "clone", "()Ljava/lang/Object;", "int[].clone()", "", true},
		{"[Ljava/lang/String;", "clone", "()Ljava/lang/Object;", "String[].clone()", "java.lang", true},
		{"a/-$$Lambda$Foo$1", "run", "()V", "-$$Lambda$Foo$1.run()", "a", true}, // D8's synthetic classes
		// Malformed: the raw name, ok false.
		{"a/B", "m", "(F", "a/B.m (F", "", false},
		{"a/B", "m", "(F)", "a/B.m (F)", "", false},
		{"a/B", "m", "(V)V", "a/B.m (V)V", "", false},
		{"a/B", "m", "(Ljava/lang/String)V", "a/B.m (Ljava/lang/String)V", "", false},
		{"a/B", "m", "(L;)V", "a/B.m (L;)V", "", false},
		{"a/B", "m", "(Q)V", "a/B.m (Q)V", "", false},
		{"a/B", "m", "(I)VV", "a/B.m (I)VV", "", false},
		{"a/B", "m", "F)V", "a/B.m F)V", "", false},
		{"a/B", "m.n", "()V", "a/B.m.n ()V", "", false},
		{"a/B", "<foo>", "()V", "a/B.<foo> ()V", "", false},
		{"(toplevel)", "", "", "(toplevel)", "", false},
		{"", "m", "()V", "m ()V", "", false},
		{"a//B", "m", "()V", "a//B.m ()V", "", false},
		{"a/b.C", "m", "()V", "a/b.C.m ()V", "", false},
		{"a/B", "m", "(" + strings.Repeat("[", 256) + "I)V", "", "", false},
	} {
		n, ok := Method(c.class, c.method, c.desc)
		if ok != c.ok || c.short != "" && n.Short != c.short || n.Package != c.pkg {
			t.Errorf("Method(%q, %q, %q) = %+v, %v; want {%s %s}, %v", c.class, c.method, c.desc, n, ok, c.short, c.pkg, c.ok)
		}
	}
}

func TestParams(t *testing.T) {
	ps, ret, ok := Params("(ILjava/lang/String;[[Z)Ljava/util/List;")
	if !ok || strings.Join(ps, ",") != "int,String,boolean[][]" || ret != "List" {
		t.Errorf("Params = %q, %q, %v", ps, ret, ok)
	}
	if ps, ret, ok := Params("()V"); !ok || len(ps) != 0 || ret != "void" {
		t.Errorf("Params(()V) = %q, %q, %v", ps, ret, ok)
	}
	for _, d := range []string{"", "(", ")V", "()", "()[V", "(I)V ", "(I;)V", "(Ljava.lang.String;)V"} {
		if _, _, ok := Params(d); ok {
			t.Errorf("Params(%q) is ok; want malformed", d)
		}
	}
	if s, ok := Type("[Ljava/util/Map$Entry;"); !ok || s != "Map$Entry[]" {
		t.Errorf("Type = %q, %v", s, ok)
	}
	if s, ok := Type("II"); ok || s != "II" {
		t.Errorf("Type(II) = %q, %v; want it raw, not ok", s, ok)
	}
}

func TestClassAndPackage(t *testing.T) {
	if n, ok := Class("com/jag/positron/GameScreen$1"); !ok || n != (Name{"GameScreen$1", "com.jag.positron"}) {
		t.Errorf("Class = %+v, %v", n, ok)
	}
	if n, ok := Package("com/jag/positron"); !ok || n.Full() != "com.jag.positron" {
		t.Errorf("Package = %+v, %v", n, ok)
	}
	for _, s := range []string{"(toplevel)", "", "a b"} {
		if n, ok := Class(s); ok || n.Short != s {
			t.Errorf("Class(%q) = %+v, %v; want it raw, not ok", s, n, ok)
		}
	}
	if n := (Name{"GameScreen.paint(float)", "com.jag.positron"}); n.Full() != "com.jag.positron.GameScreen.paint(float)" {
		t.Errorf("Full = %q", n.Full())
	}
}

func TestTraceview(t *testing.T) {
	for key, want := range map[string]Name{
		"com/jag/positron/GameScreen.paint (F)V": {"GameScreen.paint(float)", "com.jag.positron"},
		"com.jag.positron.GameScreen.paint (F)V": {"GameScreen.paint(float)", "com.jag.positron"},
		"a/B.m":                                  {"B.m", "a"},
		"(toplevel)":                             Raw("(toplevel)"),
		"(unknown)":                              Raw("(unknown)"),
		"a/B.m (F":                               Raw("a/B.m (F"),
		"a/B.m junk":                             Raw("a/B.m junk"),
		"12 main":                                Raw("12 main"),
	} {
		if got, ok := Traceview(key); got != want || ok != (got.Package != "" || got.Short != key) {
			t.Errorf("Traceview(%q) = %+v, %v; want %+v", key, got, ok, want)
		}
	}
}

func TestSymbol(t *testing.T) {
	for sym, want := range map[string]Name{
		"com.example.Phases.work(I)J":              {"Phases.work(int)", "com.example"},
		"Lcom/example/Phases;work(I)J":             {"Phases.work(int)", "com.example"},
		"Lcom/example/Phases;::work":               {"Phases.work", "com.example"},
		"void com.example.Phases.work(int)":        {"Phases.work(int)", "com.example"},
		"void com.example.A.b(java.lang.String[])": {"A.b(String[])", "com.example"},
		"com.example.A.<init>(int, long)":          {"A(int, long)", "com.example"},
		"demo.Phases.main([Ljava/lang/String;)V":   {"Phases.main(String[])", "demo"},
		"com.example.Phases.work":                  {"Phases.work", "com.example"},
		"StubRoutines (1)":                         Raw("StubRoutines (1)"),
		"Interpreter":                              Raw("Interpreter"),
		"operator new(unsigned long)":              Raw("operator new(unsigned long)"),
		"G1CollectedHeap::do_collection(bool)":     Raw("G1CollectedHeap::do_collection(bool)"),
		"Lcom/example/A;m(Q)V":                     Raw("Lcom/example/A;m(Q)V"),
	} {
		if got, _ := Symbol(sym); got != want {
			t.Errorf("Symbol(%q) = %+v; want %+v", sym, got, want)
		}
	}
}

// FuzzMethod holds every reader to its promise on any input: no panic, a malformed name comes
// back raw, a readable one is valid UTF-8 when its input was and has no descriptor left in it.
func FuzzMethod(f *testing.F) {
	for _, s := range [][3]string{{"com/jag/positron/GameScreen", "paint", "(F)V"}, {"[I", "clone", "()Ljava/lang/Object;"},
		{"a/B", "<init>", "([[Ljava/util/Map$Entry;J)V"}, {"(toplevel)", "", ""}, {"a.B", "m", "(L;)V"}, {"Lx/Y;", "m", "(" + strings.Repeat("[", 300)}} {
		f.Add(s[0], s[1], s[2])
	}
	f.Fuzz(func(t *testing.T, class, method, desc string) {
		n, ok := Method(class, method, desc)
		if !ok && n.Package != "" {
			t.Fatalf("Method(%q, %q, %q) not ok but has a package: %+v", class, method, desc, n)
		}
		if ok && (n.Short == "" || strings.ContainsAny(n.Short, ";")) {
			t.Fatalf("Method(%q, %q, %q) = %+v: empty or a descriptor left", class, method, desc, n)
		}
		if ok && utf8.ValidString(class) && utf8.ValidString(method) && utf8.ValidString(desc) && !utf8.ValidString(n.Full()) {
			t.Fatalf("Method(%q, %q, %q) = %+v: not UTF-8", class, method, desc, n)
		}
		key := class + "." + method
		if desc != "" {
			key += " " + desc
		}
		if tv, tok := Traceview(key); tok && !strings.Contains(key, " (") && desc != "" {
			t.Fatalf("Traceview(%q) = %+v read a signature that is not one", key, tv)
		}
		Symbol(key)
		Symbol("L" + class + ";" + method + desc)
		Class(class)
		Package(class)
		Type(desc)
	})
}
