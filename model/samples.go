package model

// Sampled runs (seed 004, VARI): a system profiler's samples with their call stacks, each frame
// named by the image its code lies in and a symbol, and classified into the layers of a
// vertical profile: the application's Java methods, Java library methods, the VM, native
// libraries and the kernel.

// Layer is where a sampled frame's code belongs.
type Layer uint8

// The layers, in the order the views stack them (application on top of the kernel).
const (
	LayerApp     Layer = iota + 1 // the application's own Java methods
	LayerJavaLib                  // Java library methods: java.*, jdk.*, sun.*, android.* …
	LayerVM                       // the VM: libjvm.so / libart.so and the code it generates (interpreter, stubs)
	LayerNative                   // native libraries and programs: libc, libz, JNI libraries
	LayerKernel                   // the kernel
	LayerUnknown                  // neither image nor symbol says
)

// Layers lists every layer in display order.
var Layers = []Layer{LayerApp, LayerJavaLib, LayerVM, LayerNative, LayerKernel, LayerUnknown}

// String is the layer's name in tables, charts, JSON and command lines.
func (l Layer) String() string {
	switch l {
	case LayerApp:
		return "application"
	case LayerJavaLib:
		return "java library"
	case LayerVM:
		return "vm"
	case LayerNative:
		return "native"
	case LayerKernel:
		return "kernel"
	}
	return "unknown"
}

// Frame is one frame of a sampled stack as the recording named it.
type Frame struct {
	Addr   uint64
	Symbol string // "" when the recorder had no name (perf's "[unknown]")
	Image  string // the image's path or perf's pseudo image: "[kernel.kallsyms]", "/tmp/perf-123.map", "[unknown]"
}

// Sample is one sample: which thread, when, and its stack.
type Sample struct {
	PID, TID int
	Comm     string // the thread's name when the sample was taken
	TimeNS   int64  // the recorder's clock; only differences mean something
	Period   uint64 // the event's count for this sample (cpu-clock: nanoseconds)
	Event    string
	Stack    []Frame // the leaf first
}

// SampleSink receives a recording's samples in file order. The sample and its stack belong
// to the reader and are reused once Sample returns.
type SampleSink interface {
	Sample(s *Sample) error
}

// SampleHeader is what a recording says about itself.
type SampleHeader struct {
	Format  string // "perf-script" or "simpleperf"
	Command string // the recorded command line, when known
	Event   string // the (first) event sampled, "cpu-clock"
	RateHz  int    // the sampling rate asked for, when known; 0 otherwise
}

// SampleSelection is a target of interest (VARI's method-, application- and service-specific
// levels): only samples of these threads, in this window, whose stack holds one of these Java
// packages, classes or methods. Zero values select everything.
type SampleSelection struct {
	TIDs []int // nil: every thread
	// ThreadNames keeps the threads of these names (as the sample's Comm; a trailing '*' matches
	// a prefix): a recording's threads have no ids before it runs. nil: every thread.
	ThreadNames []string
	FromNS      int64    // from the recording's first sample; 0: from the start
	ToNS        int64    // 0: to the end
	Focus       []string // prefixes of Java names ("com.example", "com.example.Phases.sort"); nil: all
}
