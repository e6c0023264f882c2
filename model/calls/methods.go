package calls

// Method traces (Traceview .trace files, DPA and RMP logs): the types their readers stream
// into a MethodSink, so the store can import a trace of any size without holding it.

// Clock says which times a method trace carries.
type Clock string

// The clocks of Traceview's key section (docs/formats.md#traceview-key-section); very old Dalvik's "global" is wall.
const (
	ClockThreadCPU Clock = "thread-cpu"
	ClockWall      Clock = "wall"
	ClockDual      Clock = "dual"
)

// HasCPU tells whether events carry thread-CPU time.
func (c Clock) HasCPU() bool { return c == ClockThreadCPU || c == ClockDual }

// HasWall tells whether events carry wall-clock time.
func (c Clock) HasWall() bool { return c == ClockWall || c == ClockDual }

// TraceHeader is what a method trace says about itself.
type TraceHeader struct {
	Format       string // "traceview", "dpa", "rmp"
	Version      int
	Clock        Clock
	VM           string // "dalvik", "art", or empty
	PID          int    // 0 when the trace does not say
	StartMicros  uint64 // wall-clock start, µs since the epoch; 0 when unknown
	ElapsedMicro uint64 // as the key section states; 0 when unknown
	Properties   map[string]string
}

// MethodInfo names one method of a trace.
type MethodInfo struct {
	ID        uint64
	Class     string // "java/lang/String" or "java.lang.String", as the trace writes it
	Name      string
	Signature string
	File      string
	Line      int // -2 native, -1 unknown, as Traceview writes
}

// ThreadInfo names one thread of a trace.
type ThreadInfo struct {
	TID  int
	Name string
}

// MethodAction is what a record says happened.
type MethodAction uint8

// The actions of Traceview records (methodVal & 3).
const (
	Enter  MethodAction = 0
	Exit   MethodAction = 1
	Unroll MethodAction = 2 // exit by exception
)

// MethodEvent is one record: a thread entered or left a method at a time. Times are
// microseconds: thread-CPU time since the thread's first event, and wall time since the
// trace's start; HasCPU/HasWall come from the header's clock.
type MethodEvent struct {
	TID       int
	Method    uint64
	Action    MethodAction
	ThreadCPU uint64
	Wall      uint64
}

// MethodSink receives a method trace as its reader streams it. Methods and threads may arrive
// interleaved with events (ART's streaming format declares them on first use), but always
// before the first event that names them.
type MethodSink interface {
	Header(h TraceHeader) error
	Thread(t ThreadInfo) error
	Method(m MethodInfo) error
	Event(e MethodEvent) error
}

// MethodTrace is a method trace as the workspace keeps it: aggregated, plus the calls long
// enough to see on a timeline.
type MethodTrace struct {
	Header  TraceHeader
	Profile *CallProfile
	// Spans are the calls at least SpanMinMicros long on the wall clock (thread-CPU when the
	// trace has no wall clock). Set on import; loading a trace leaves Spans empty, because the
	// timeline reads them by time range.
	Spans         []Call
	SpanMinMicros uint64
	// Chunks, set on import, hands the store every call (chunks.go); nil keeps only the spans.
	Chunks ChunkSource
}
