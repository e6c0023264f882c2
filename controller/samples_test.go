package controller

import (
	"context"
	"errors"
	"math"
	"slices"
	"strings"
	"testing"

	"androprof/model/cost"
	"androprof/model/layers"
	"androprof/model/samples"
)

// javaScript is `perf script` text of a Java program recorded on this machine with HotSpot's
// perf map (formats/perfscript/testdata): threads java, C1 and C2 CompilerThre.
const javaScript = "../formats/perfscript/testdata/java.perfscript.gz"

// The recording's samples per thread, as grep counts them in the file: zcat FILE | grep -c
// '^java ', '^java +32765 ', '^C[12] CompilerThre'.
const (
	javaSamples     = 416
	mainSamples     = 414 // thread 32765, the other java thread has 2
	compilerSamples = 135
)

func symbolNamed(t *testing.T, p *samples.SampleProfile, name string) int32 {
	t.Helper()
	i := slices.IndexFunc(p.Symbols, func(s layers.SampleSymbol) bool { return s.Symbol == name })
	if i < 0 {
		t.Fatalf("no symbol %q in the recording", name)
	}
	return int32(i)
}

// An import keeps the recording-time target's samples, counts the rest and keeps the
// application's packages; the loader caches the run until it changes.
func TestSampleImportTargetAndCache(t *testing.T) {
	ctx := context.Background()
	db := openStore(t)
	ws := NewWorkspace(db)
	im := ws.Importer()
	im.Samples = SampleOptions{Target: samples.SampleSelection{ThreadNames: []string{"C1*", "C2 CompilerThre"}},
		AppPackages: []string{"com.example"}}
	if err := im.ImportFiles(ctx, "compilers", []string{javaScript}, nil); err != nil {
		t.Fatal(err)
	}
	p, err := ws.Samples.Profile(ctx, "compilers")
	if err != nil {
		t.Fatal(err)
	}
	if len(p.Samples) != compilerSamples || p.LeftOut != javaSamples || !strings.Contains(p.LeftOutWhy, "C1*") {
		t.Errorf("target C1*, C2: %d samples, %d left out (%q); want %d and %d", len(p.Samples), p.LeftOut, p.LeftOutWhy, compilerSamples, javaSamples)
	}
	if !slices.Equal(p.AppPackages, []string{"com.example"}) || p.Header.Format != "perf-script" || p.Header.RateHz != 499 {
		t.Errorf("app packages %q, header %+v", p.AppPackages, p.Header)
	}

	if err := ws.Importer().ImportFiles(ctx, "all", []string{javaScript}, nil); err != nil {
		t.Fatal(err)
	}
	all, err := ws.Samples.Profile(ctx, "all")
	if err != nil {
		t.Fatal(err)
	}
	if len(all.Samples) != compilerSamples+javaSamples || all.LeftOut != 0 || all.AppPackages != nil {
		t.Errorf("no target: %d samples, %d left out, app %q", len(all.Samples), all.LeftOut, all.AppPackages)
	}
	if again, _ := ws.Samples.Profile(ctx, "all"); again != all {
		t.Error("a second load read the run again")
	}

	// The run's own packages (none: Spin is outside the Java libraries, so it is the
	// application's), or others that re-classify it.
	loop := symbolNamed(t, all, "long Spin.loop(int)")
	set, err := ws.Samples.Select(ctx, "all", samples.SampleSelection{}, nil)
	if err != nil || set.Layer(loop) != layers.LayerApp {
		t.Fatalf("Spin.loop with the run's packages: %v, %v", set.Layer(loop), err)
	}
	if set, _ = ws.Samples.Select(ctx, "all", samples.SampleSelection{}, []string{"com.example"}); set.Layer(loop) == layers.LayerApp {
		t.Error("Spin.loop is the application's with --app com.example")
	}
	if set, _ = ws.Samples.Select(ctx, "all", samples.SampleSelection{TIDs: []int{32765}}, nil); set.Kept != mainSamples {
		t.Errorf("thread 32765 keeps %d samples", set.Kept)
	}

	if err := ws.DeleteRun(ctx, "all"); err != nil {
		t.Fatal(err)
	}
	if _, err := ws.Samples.Profile(ctx, "all"); !errors.Is(err, cost.ErrNotFound) {
		t.Errorf("a deleted run loads: %v", err)
	}
}

func TestFindSymbol(t *testing.T) {
	ctx := context.Background()
	db := openStore(t)
	ws := NewWorkspace(db)
	if err := ws.Importer().ImportFiles(ctx, "java", []string{javaScript}, nil); err != nil {
		t.Fatal(err)
	}
	set, err := ws.Samples.Select(ctx, "java", samples.SampleSelection{}, nil)
	if err != nil {
		t.Fatal(err)
	}
	name := func(id int32) string { return set.Profile.Symbols[id].Symbol }
	for _, c := range []struct{ name, image, want string }{
		{"Interpreter", "", "Interpreter"},       // whole, though other names contain it
		{"Spin.loop", "", "long Spin.loop(int)"}, // the only one containing it
		{"spin.LOOP", "", "long Spin.loop(int)"}, // any case
		{"do_syscall_64", "[kernel.kallsyms]", "do_syscall_64"},
	} {
		id, err := FindSymbol(set, c.name, c.image)
		if err != nil || name(id) != c.want {
			t.Errorf("FindSymbol(%q, %q) = %q, %v; want %q", c.name, c.image, name(id), err, c.want)
		}
	}
	if _, err := FindSymbol(set, "Spin.", ""); err == nil || !strings.Contains(err.Error(), "long Spin.loop(int) in /tmp/perf-32761.map") ||
		!strings.Contains(err.Error(), "void Spin.main(java.lang.String[])") {
		t.Errorf("an ambiguous name: %v", err)
	}
	if _, err := FindSymbol(set, "do_syscall_64", "libc.so.6"); !errors.Is(err, cost.ErrNotFound) || !strings.Contains(err.Error(), "libc.so.6") {
		t.Errorf("a symbol in another image: %v", err)
	}
	if _, err := FindSymbol(set, "no such function", ""); !errors.Is(err, cost.ErrNotFound) {
		t.Errorf("a missing symbol: %v", err)
	}
}

// A chart's title says what was selected (threads by id and name, the time window, the focus)
// and how many samples that keeps, and what the recording left out.
func TestSampleScope(t *testing.T) {
	ctx := context.Background()
	ws := NewWorkspace(openStore(t))
	im := ws.Importer()
	im.Samples = SampleOptions{Target: samples.SampleSelection{ThreadNames: []string{"java"}}}
	if err := im.ImportFiles(ctx, "java", []string{javaScript}, nil); err != nil {
		t.Fatal(err)
	}
	recorded := "; 135 more left out when recorded (threads java)" // compilerSamples
	for _, c := range []struct {
		sel  samples.SampleSelection
		want string
	}{
		{samples.SampleSelection{}, "all threads: 416 samples" + recorded},
		{samples.SampleSelection{TIDs: []int{32765}}, "thread 32765 java: 414 of 416 samples" + recorded},
		{samples.SampleSelection{TIDs: []int{32765, 1}, FromNS: 5e8}, "threads 32765 java, 1, 0.5 s to end: "},
		{samples.SampleSelection{ThreadNames: []string{"j*"}, ToNS: 1e9, Focus: []string{"Spin", "java.util"}},
			"threads j*, start to 1 s, focus Spin, java.util: "},
	} {
		set, err := ws.Samples.Select(ctx, "java", c.sel, nil)
		if err != nil {
			t.Fatal(err)
		}
		if got := SampleScope(set); !strings.HasPrefix(got, c.want) {
			t.Errorf("%+v: %q, want %q…", c.sel, got, c.want)
		}
	}
	if _, err := ws.Samples.Chart(ctx, "java", samples.SampleSelection{}, nil, SampleChartSpec{By: "pie"}); err == nil {
		t.Error("a chart by pie was drawn")
	}
	if _, err := ws.Samples.Chart(ctx, "nothing", samples.SampleSelection{}, nil, SampleChartSpec{By: SampleByFlame}); !errors.Is(err, cost.ErrNotFound) {
		t.Errorf("a chart of no run: %v", err)
	}
}

// A time window is seconds a recording can have, and ends after it starts; 0 is an open end.
func TestSampleTimeWindow(t *testing.T) {
	if from, to, err := SampleTimeWindow(0.5, 0); from != 5e8 || to != 0 || err != nil {
		t.Errorf("0.5 s to the end: %d, %d, %v", from, to, err)
	}
	if from, to, err := SampleTimeWindow(0, 2); from != 0 || to != 2e9 || err != nil {
		t.Errorf("start to 2 s: %d, %d, %v", from, to, err)
	}
	for _, w := range [][2]float64{{-1, 0}, {math.NaN(), 0}, {0, math.Inf(1)}, {1e300, 0}, {2, 1}, {1, 1}} {
		if _, _, err := SampleTimeWindow(w[0], w[1]); err == nil {
			t.Errorf("%g to %g s was taken", w[0], w[1])
		}
	}
}
