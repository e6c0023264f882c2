package samples

import (
	"androprof/model/flame"
	"reflect"
	"testing"

	layersmodel "androprof/model/layers"
)

// phasesProfile is a small recording: thread 11 runs the app's loop with a kernel write under
// it, thread 12 sorts through the library, with a VM frame between main and the code.
func phasesProfile(t *testing.T, target SampleSelection) *SampleProfile {
	t.Helper()
	jit, libc, kernel := "/tmp/perf-10.map", "/usr/lib/libc.so.6", "[kernel.kallsyms]"
	mainF := Frame{Symbol: "demo.Phases.main([Ljava/lang/String;)V", Image: jit}
	call := Frame{Symbol: "JavaCalls::call_helper(JavaValue*, methodHandle const&, JavaCallArguments*, JavaThread*)", Image: "/x/libjvm.so"}
	loop := Frame{Symbol: "demo.Phases.appLoop(I)J", Image: jit}
	write := Frame{Symbol: "write", Image: libc}
	ksys := Frame{Symbol: "ksys_write", Image: kernel}
	sort := Frame{Symbol: "java.util.Arrays.sort([Ljava/lang/Object;)V", Image: jit}
	b := NewSampleBuilder(target)
	add := func(tid int, comm string, ms int64, stack ...Frame) {
		if err := b.Sample(&Sample{PID: 10, TID: tid, Comm: comm, TimeNS: 5e9 + ms*1e6, Period: 1e6, Stack: stack}); err != nil {
			t.Fatal(err)
		}
	}
	for i := range int64(6) { // 0–5 ms: the loop, 2 of 6 in a write
		if i%3 == 0 {
			add(11, "phase-app", i, ksys, write, loop, call, mainF)
		} else {
			add(11, "phase-app", i, loop, call, mainF)
		}
	}
	for i := range int64(4) { // 10–13 ms: sorting
		add(12, "phase-library", 10+i, sort, loop, call, mainF) // the loop calls sort: a second caller path
	}
	add(13, "C2 CompilerThre", 14, Frame{Image: "/x/libjvm.so"})
	return b.Finish(SampleHeader{Format: "test"})
}

func TestSampleQueries(t *testing.T) {
	p := phasesProfile(t, SampleSelection{})
	if len(p.Samples) != 11 || p.Samples[0].TimeNS != 0 || p.Samples[10].TimeNS != 14e6 {
		t.Fatalf("samples %d, times %d…%d", len(p.Samples), p.Samples[0].TimeNS, p.Samples[len(p.Samples)-1].TimeNS)
	}
	s := p.Select(layersmodel.LayerClassifier{}, SampleSelection{})
	layers := map[string][2]int{}
	for _, r := range s.ByLayer() {
		layers[r.Key] = [2]int{r.Self, r.Total}
	}
	want := map[string][2]int{"application": {4, 10}, "java library": {4, 4}, "vm": {1, 11}, "native": {0, 2}, "kernel": {2, 2}}
	if !reflect.DeepEqual(layers, want) {
		t.Errorf("by layer %v, want %v", layers, want)
	}
	sym := s.BySymbol()
	if sym[0].Symbol != "demo.Phases.appLoop(I)J" || sym[0].Self != 4 || sym[0].Total != 10 || sym[0].SelfPct != 100*4.0/11 {
		t.Errorf("top symbol %+v", sym[0])
	}
	threads := s.ByThread()
	if len(threads) != 3 || threads[0].Comm != "phase-app" || threads[0].Top != layersmodel.LayerApp || threads[1].Top != layersmodel.LayerJavaLib {
		t.Errorf("threads %+v", threads)
	}
	comps := map[string]int{}
	for _, r := range s.ByComponent() {
		comps[r.Key] = r.Self
	}
	if comps["vm / JIT compiler"] != 1 || comps["vm / runtime"] != 0 || comps["kernel / kernel"] != 2 {
		t.Errorf("components %v", comps)
	}

	loop := s.FindSymbols("applOOp")
	if len(loop) != 1 {
		t.Fatalf("FindSymbols: %v", loop)
	}
	callers, callees := s.Neighbours(loop[0])
	if len(callers) != 1 || callers[0].Total != 10 || callers[0].Layer != layersmodel.LayerVM {
		t.Errorf("callers %+v", callers)
	}
	got := map[string]int{}
	for _, r := range callees {
		got[r.Symbol] = r.Total
	}
	if !reflect.DeepEqual(got, map[string]int{"(self)": 4, "write": 2, "java.util.Arrays.sort([Ljava/lang/Object;)V": 4}) {
		t.Errorf("callees %v", got)
	}

	f := s.Flame()
	if f.Total != 11 || len(f.Children) != 2 || f.Children[0].Name != "JavaCalls::call_helper(JavaValue*, methodHandle const&, JavaCallArguments*, JavaThread*)" && f.Children[0].Name != "[unknown]" {
		t.Fatalf("flame root %+v", f)
	}
	var mainNode *flame.Node
	for _, c := range f.Children {
		if c.Name == "demo.Phases.main([Ljava/lang/String;)V" {
			mainNode = c
		}
	}
	if mainNode == nil || mainNode.Total != 10 || mainNode.Children[0].Children[0].Total != 10 {
		t.Errorf("flame main %+v", mainNode)
	}

	tl := s.Timeline(3) // 0–14 ms in thirds
	if tl.BucketNS != 4666667 || tl.Counts[0] != [6]int{3, 0, 0, 0, 2, 0} || tl.Counts[2] != [6]int{0, 4, 1, 0, 0, 0} {
		t.Errorf("timeline %+v", tl)
	}
}

func TestSelectionsSayWhatTheyLeaveOut(t *testing.T) {
	p := phasesProfile(t, SampleSelection{ThreadNames: []string{"phase-*"}})
	if len(p.Samples) != 10 || p.LeftOut != 1 || p.LeftOutWhy != "threads phase-*" {
		t.Errorf("recording target kept %d, left out %d (%q)", len(p.Samples), p.LeftOut, p.LeftOutWhy)
	}
	s := p.Select(layersmodel.LayerClassifier{}, SampleSelection{Focus: []string{"java.util"}})
	if s.Kept != 4 || s.LeftOut != 6 || s.LeftOutWhy != "focus java.util" {
		t.Errorf("focus kept %d, left out %d (%q)", s.Kept, s.LeftOut, s.LeftOutWhy)
	}
	s = p.Select(layersmodel.LayerClassifier{}, SampleSelection{FromNS: 2e6, ToNS: 12e6})
	if s.Kept != 6 || s.LeftOutWhy != "time 0.002 s to 0.012 s" {
		t.Errorf("window kept %d (%q)", s.Kept, s.LeftOutWhy)
	}
	s = p.Select(layersmodel.LayerClassifier{}, SampleSelection{TIDs: []int{12}})
	if s.Kept != 4 || s.ByThread()[0].TID != 12 {
		t.Errorf("tid kept %d", s.Kept)
	}
}
