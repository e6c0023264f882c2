package samples

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
