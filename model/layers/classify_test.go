package layers

import (
	"testing"
)

func TestClassifyLayers(t *testing.T) {
	jit := "/tmp/perf-4242.map"
	libjvm := "/usr/lib/jvm/java-17-openjdk-amd64/lib/server/libjvm.so"
	cases := []struct {
		img, sym, comm string
		layer          Layer
		comp           string
	}{
		{"[kernel.kallsyms]", "copy_user_enhanced_fast_string", "phase-kernel", LayerKernel, "kernel"},
		{"[nf_tables]", "nft_do_chain", "java", LayerKernel, "kernel"},
		{jit, "demo.Phases.appLoop(I)J", "phase-app", LayerApp, "demo"},
		{jit, "java.util.DualPivotQuicksort.sort([IIII)V", "phase-library", LayerJavaLib, "java.util"},
		{jit, "Interpreter", "main", LayerVM, VMInterpreter},
		{jit, "StubRoutines (1)", "main", LayerVM, VMGeneratedCode},
		{jit, "", "main", LayerUnknown, "unnamed generated code"},
		{"[JIT] tid 12", "Lcom/example/Foo;::bar", "main", LayerApp, "com.example"},
		{"/data/app/base.odex", "void com.example.Foo$1.run(int)", "main", LayerApp, "com.example"},
		{"/system/framework/arm64/boot-framework.oat", "android.os.Looper.loop", "main", LayerJavaLib, "android.os"},
		{libjvm, "G1ParScanThreadState::trim_queue_to_threshold(unsigned int)", "GC Thread#0", LayerVM, VMGC},
		{libjvm, "PhaseIdealLoop::build_loop_late(VectorSet&, Node_List&, Node_Stack&)", "C2 CompilerThre", LayerVM, VMCompiler},
		{libjvm, "InterpreterRuntime::resolve_from_cache(JavaThread*, Bytecodes::Code)", "main", LayerVM, VMInterpreter},
		{libjvm, "", "C1 CompilerThre", LayerVM, VMCompiler},
		{libjvm, "", "main", LayerVM, VMRuntime},
		{"/apex/com.android.art/lib64/libart.so", "art::gc::collector::ConcurrentCopying::MarkingPhase()", "HeapTaskDaemon", LayerVM, VMGC},
		{"/usr/lib/x86_64-linux-gnu/libc.so.6", "__memmove_avx_unaligned_erms", "main", LayerNative, "libc.so.6"},
		{"/tmp/x/libphases.so", "Java_demo_Phases_nativeWork", "phase-native", LayerNative, "libphases.so"},
		{"[vdso]", "__vdso_clock_gettime", "main", LayerNative, "[vdso]"},
		{"[unknown]", "", "main", LayerUnknown, "unknown"},
	}
	for _, c := range cases {
		layer, comp := LayerClassifier{}.Classify(SampleSymbol{Image: c.img, Symbol: c.sym}, c.comm)
		if layer != c.layer || comp != c.comp {
			t.Errorf("Classify(%q, %q, %q) = %v, %q; want %v, %q", c.img, c.sym, c.comm, layer, comp, c.layer, c.comp)
		}
	}
}

func TestAppPackagesDecideApplication(t *testing.T) {
	jit := "/tmp/perf-1.map"
	c := LayerClassifier{AppPackages: []string{"com.example"}}
	for sym, want := range map[string]Layer{
		"com.example.A.run()V":                         LayerApp,
		"com.example.sub.B.run()V":                     LayerApp,
		"com.examples.C.run()V":                        LayerJavaLib, // a prefix only at a package boundary
		"org.thirdparty.Lib.call()V":                   LayerJavaLib, // not the application's when packages are named
		"java.util.ArrayList.add(Ljava/lang/Object;)Z": LayerJavaLib,
	} {
		if got, _ := c.Classify(SampleSymbol{Image: jit, Symbol: sym}, ""); got != want {
			t.Errorf("%s: %v, want %v", sym, got, want)
		}
	}
}

func TestJavaName(t *testing.T) {
	for sym, want := range map[string][2]string{
		"demo.Phases.appLoop(I)J":              {"demo.Phases", "appLoop"},
		"demo.Phases$Worker.<init>()V":         {"demo.Phases$Worker", "<init>"},
		"Lcom/example/Foo;::bar":               {"com.example.Foo", "bar"},
		"void com.example.Foo.bar(int)":        {"com.example.Foo", "bar"},
		"Main.main([Ljava/lang/String;)V":      {"Main", "main"},
		"StubRoutines (1)":                     {},
		"Interpreter":                          {},
		"I2C/C2I adapters":                     {},
		"operator new(unsigned long)":          {},
		"G1CollectedHeap::do_collection(bool)": {},
	} {
		class, method, ok := JavaName(sym)
		if got := [2]string{class, method}; got != want || ok != (want != [2]string{}) {
			t.Errorf("JavaName(%q) = %q, %q, %v; want %q", sym, class, method, ok, want)
		}
	}
}
