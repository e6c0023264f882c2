package layers

import (
	"path"
	"regexp"
	"strings"

	"androprof/model/javaname"
)

// LibraryPrefixes are the packages of the Java platform and the Android framework: a Java frame
// in one of them is a library frame unless the user named it as the application's.
var LibraryPrefixes = []string{"java.", "javax.", "jdk.", "sun.", "com.sun.", "org.ietf.", "org.w3c.",
	"org.xml.", "android.", "androidx.", "dalvik.", "libcore.", "com.android.", "kotlin.", "kotlinx."}

// LayerClassifier decides each sampled frame's layer and, within it, a component (a Java package, a
// part of the VM, a native library's file).
type LayerClassifier struct {
	// AppPackages are the application's Java packages (or class prefixes). Empty: every Java
	// class outside LibraryPrefixes is the application's.
	AppPackages []string
}

// Components of the VM layer, as far as symbols or thread names tell.
const (
	VMInterpreter   = "interpreter"
	VMCompiler      = "JIT compiler"
	VMGC            = "GC"
	VMClassLoading  = "class loading"
	VMRuntime       = "runtime"
	VMGeneratedCode = "generated code" // stubs and adapters the VM generates into its code cache
)

// Classify returns the layer of a frame named sym, run by a thread named comm, and its
// component. Thread names only refine the VM's components: a compiler thread's unnamed VM
// frames are the JIT compiler's.
func (c LayerClassifier) Classify(sym SampleSymbol, comm string) (Layer, string) {
	img := sym.Image
	switch {
	case isKernelImage(img):
		return LayerKernel, "kernel"
	case isJavaCodeImage(img):
		if class, _, ok := JavaName(sym.Symbol); ok {
			return c.javaLayer(class), javaPackage(class)
		}
		if sym.Symbol == "" {
			return LayerUnknown, "unnamed generated code"
		}
		if strings.Contains(strings.ToLower(sym.Symbol), "interpreter") {
			return LayerVM, VMInterpreter
		}
		return LayerVM, VMGeneratedCode
	case isVMImage(img):
		if comp := vmComponent(sym.Symbol); comp != "" {
			return LayerVM, comp
		}
		if comp := VMThreadComponent(comm); comp != "" {
			return LayerVM, comp
		}
		return LayerVM, VMRuntime
	case img == "" || img == "[unknown]":
		return LayerUnknown, "unknown"
	}
	return LayerNative, path.Base(img)
}

// javaLayer says whether a Java class is the application's or a library's.
func (c LayerClassifier) javaLayer(class string) Layer {
	if len(c.AppPackages) > 0 {
		for _, p := range c.AppPackages {
			if HasJavaPrefix(class, p) {
				return LayerApp
			}
		}
		return LayerJavaLib
	}
	for _, p := range LibraryPrefixes {
		if strings.HasPrefix(class, p) {
			return LayerJavaLib
		}
	}
	return LayerApp
}

// hasJavaPrefix matches a package or class prefix at a name boundary: "com.example" matches
// com.example.A and com.example.sub.B, not com.examples.C; "com.example." and "com.ex*" work too.
func HasJavaPrefix(name, prefix string) bool {
	if p, ok := strings.CutSuffix(prefix, "*"); ok {
		return strings.HasPrefix(name, p)
	}
	if !strings.HasPrefix(name, prefix) {
		return false
	}
	rest := name[len(prefix):]
	return rest == "" || strings.HasSuffix(prefix, ".") || rest[0] == '.' || rest[0] == '$' || rest[0] == '('
}

func javaPackage(class string) string {
	if i := strings.LastIndexByte(class, '.'); i > 0 {
		return class[:i]
	}
	return "(default package)"
}

func isKernelImage(img string) bool {
	if !strings.HasPrefix(img, "[") {
		return false
	}
	switch {
	case strings.HasPrefix(img, "[kernel"), strings.HasPrefix(img, "[guest.kernel"):
		return true
	case img == "[unknown]", img == "[vdso]", img == "[vsyscall]", img == "[vectors]", img == "[heap]",
		img == "[stack]", strings.HasPrefix(img, "[anon"), strings.HasPrefix(img, "[JIT"):
		return false
	}
	return true // a kernel module: perf prints "[nf_tables]"
}

var perfMapImage = regexp.MustCompile(`(^|/)(perf-\d+\.map|jitted-\d+-\d+\.so)$`)

// isJavaCodeImage says whether an image holds code a Java VM generated or compiled ahead of
// time: HotSpot's code cache as named by a JIT map, ART's JIT cache and oat/dex files.
func isJavaCodeImage(img string) bool {
	switch {
	case perfMapImage.MatchString(img), strings.HasPrefix(img, "[JIT]"), strings.Contains(img, "jit-cache"),
		strings.HasPrefix(img, "[anon:dalvik-"), strings.HasPrefix(img, "//anon"):
		return true
	}
	switch path.Ext(img) {
	case ".odex", ".oat", ".vdex", ".dex", ".jar", ".apk", ".art":
		return true
	}
	return false
}

func isVMImage(img string) bool {
	switch path.Base(img) {
	case "libjvm.so", "libart.so", "libartd.so", "libdvm.so":
		return true
	}
	return false
}

// vmParts name parts of HotSpot and ART by the symbols' leading words; the first match wins.
var vmParts = []struct{ comp, prefixes string }{
	{VMInterpreter, "Interpreter InterpreterRuntime:: TemplateTable TemplateInterpreter BytecodeInterpreter " +
		"AbstractInterpreter art::interpreter:: ExecuteNterpImpl ExecuteSwitchImpl nterp_ NterpGet MterpGet"},
	{VMCompiler, "Compile:: C2Compiler Phase Matcher:: Node:: PhaseChaitin PhaseCFG PhaseIdealLoop IdealLoopTree " +
		"Parse:: GraphKit LinearScan Compilation:: GraphBuilder Compiler:: CompileBroker ciEnv ciMethod ciObject " +
		"ciInstanceKlass ciTypeFlow LIR_ LIRGenerator C1 C2 Type:: TypeOopPtr TypePtr IR:: BlockBegin Optimizer " +
		"PhaseOutput PhaseRegAlloc IndexSet RegMask ConnectionGraph MachNode CodeBuffer Assembler MacroAssembler " +
		"art::jit:: art::optimizing art::Compiler art::x86 art::arm"},
	{VMGC, "G1 PS ParallelScavenge ParallelCompact PSPromotion CardTable GenCollectedHeap SerialHeap DefNew " +
		"Tenured MarkSweep ZGC Z Shenandoah Epsilon CollectedHeap MemAllocator OopClosure OopIterate GCTask " +
		"WorkerThread GangWorker HeapRegion PLAB ThreadLocalAllocBuffer ReferenceProcessor WeakProcessor " +
		"StringDedup Mark Scavenge art::gc::"},
	{VMClassLoading, "ClassFileParser ClassLoader SystemDictionary Verifier ClassVerifier Rewriter " +
		"LinkResolver InstanceKlass::link ClassFileStream Dictionary:: art::ClassLinker art::verifier::"},
}

// vmComponent names the VM part a libjvm/libart symbol belongs to, or "".
func vmComponent(sym string) string {
	if sym == "" {
		return ""
	}
	for _, p := range vmParts {
		for _, pre := range strings.Fields(p.prefixes) {
			if strings.HasPrefix(sym, pre) {
				return p.comp
			}
		}
	}
	return ""
}

// vmThreadComponent names the VM part a HotSpot or ART thread works for, from its name
// (Linux keeps 15 bytes of it: "C2 CompilerThre").
func VMThreadComponent(comm string) string {
	switch {
	case strings.Contains(comm, "CompilerThre"), strings.HasPrefix(comm, "Jit thread"):
		return VMCompiler
	case strings.HasPrefix(comm, "GC Thread"), strings.HasPrefix(comm, "G1 "), strings.HasPrefix(comm, "VM Thread"),
		strings.HasPrefix(comm, "HeapTaskDaemon"), strings.HasPrefix(comm, "ParGC"):
		return VMGC
	}
	return ""
}

// JavaName reads a Java method's class and method from a symbol as the recorders write them:
// "com.example.A.run(I)J" (androprof's agent), "Lcom/example/A;::run" (perf-map-agent),
// "void com.example.A.run(int)" or "com.example.A.run" (ART and simpleperf). ok is false for
// anything else, such as HotSpot's "StubRoutines (1)" or "Interpreter".
func JavaName(sym string) (class, method string, ok bool) {
	if strings.HasPrefix(sym, "L") {
		if c, m, found := strings.Cut(sym[1:], ";::"); found {
			if i := strings.IndexByte(m, '('); i >= 0 {
				m = m[:i]
			}
			return strings.ReplaceAll(c, "/", "."), m, c != "" && m != ""
		}
	}
	name := sym
	if i := strings.IndexByte(name, '('); i >= 0 {
		name = name[:i]
	}
	if i := strings.LastIndexByte(name, ' '); i >= 0 { // ART's return type
		name = name[i+1:]
	}
	dot := strings.LastIndexByte(name, '.')
	if dot <= 0 || dot == len(name)-1 || !javaIdentPath(name) {
		return "", "", false
	}
	return name[:dot], name[dot+1:], true
}

// javaIdentPath says whether s is dotted Java identifiers (with $ for inner classes and <init>).
func javaIdentPath(s string) bool {
	for _, part := range strings.Split(s, ".") {
		if part == "" {
			return false
		}
		for i, r := range part {
			switch {
			case r == '_' || r == '$' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r > 0x7f:
			case r >= '0' && r <= '9' && i > 0:
			case (r == '<' || r == '>') && (part == "<init>" || part == "<clinit>"):
			default:
				return false
			}
		}
	}
	return true
}

// DisplaySymbol is a symbol as tables show it: perf's "[unknown]" when unnamed.
func DisplaySymbol(s SampleSymbol) string {
	if s.Symbol == "" {
		return "[unknown]"
	}
	return s.Symbol
}

// ReadableSymbol is a frame's name as people read it: a Java frame (the application's or a
// Java library's layer) as Java writes it, "Phases.work(int)" in "com.example"; any other, or
// a Java frame whose name does not read, as recorded. Only the layer says a frame is Java, as a
// native symbol can look like a Java name ("foo.constprop.0"). Display only: DisplaySymbol
// stays the symbol's identity.
func ReadableSymbol(symbol string, l Layer) javaname.Name {
	if l == LayerApp || l == LayerJavaLib {
		if n, ok := javaname.Symbol(symbol); ok {
			return n
		}
	}
	return javaname.Raw(symbol)
}
