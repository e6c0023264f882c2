package traceview

import (
	"os"
	"testing"

	"androprof/internal/corpus"
	"androprof/model/calls"
)

// counter is a MethodSink that counts what a reader yields.
type counter struct {
	header           calls.TraceHeader
	headers          int
	threads, methods int
	events           int64
	tids             map[int]bool
}

func (c *counter) Header(h calls.TraceHeader) error { c.header = h; c.headers++; return nil }
func (c *counter) Thread(calls.ThreadInfo) error    { c.threads++; return nil }
func (c *counter) Method(calls.MethodInfo) error    { c.methods++; return nil }
func (c *counter) Event(e calls.MethodEvent) error {
	c.events++
	if c.tids == nil {
		c.tids = map[int]bool{}
	}
	c.tids[e.TID] = true
	return nil
}

// teeSink feeds several sinks.
type teeSink []calls.MethodSink

func (t teeSink) Header(h calls.TraceHeader) error {
	for _, s := range t {
		if err := s.Header(h); err != nil {
			return err
		}
	}
	return nil
}
func (t teeSink) Thread(v calls.ThreadInfo) error {
	for _, s := range t {
		if err := s.Thread(v); err != nil {
			return err
		}
	}
	return nil
}
func (t teeSink) Method(v calls.MethodInfo) error {
	for _, s := range t {
		if err := s.Method(v); err != nil {
			return err
		}
	}
	return nil
}
func (t teeSink) Event(v calls.MethodEvent) error {
	for _, s := range t {
		if err := s.Event(v); err != nil {
			return err
		}
	}
	return nil
}

// readCorpus reads a corpus file into a counter and a CallBuilder.
func readCorpus(t *testing.T, name string) (*counter, *calls.CallProfile) {
	t.Helper()
	f, err := os.Open(corpus.File(t, name))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	c := &counter{}
	b := calls.NewCallBuilder()
	if err := NewReader(f, name).Feed(teeSink{c, b}); err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	return c, b.Finish()
}

// TestCorpusCounts checks every real trace against the numbers its README gives (read from the
// files themselves): version, clock, records, threads and methods of the key section.
func TestCorpusCounts(t *testing.T) {
	for _, tc := range []struct {
		file             string
		version          int
		clock            calls.Clock
		vm               string
		pid              int
		records          int64
		threads, methods int
		seen             int // threads with records
	}{
		{"perflib-basic.trace", 3, calls.ClockDual, "dalvik", 0, 9, 11, 7, 1},
		{"perflib-exception.trace", 3, calls.ClockDual, "dalvik", 0, 23, 11, 14, 1},
		{"perflib-mismatched.trace", 3, calls.ClockDual, "dalvik", 0, 9, 11, 8, 1},
		{"jag-dmtrace.trace", 3, calls.ClockDual, "dalvik", 0, 4115, 12, 101, 1},
		{"sns-logout.trace", 1, calls.ClockThreadCPU, "dalvik", 0, 56923, 10, 2688, 6},
		{"art-trace-regular.trace.gz", 3, calls.ClockDual, "art", 21491, 13295, 66, 2067, 40},
	} {
		t.Run(tc.file, func(t *testing.T) {
			c, _ := readCorpus(t, tc.file)
			h := c.header
			if c.headers != 1 || h.Format != "traceview" || h.Version != tc.version || h.Clock != tc.clock || h.VM != tc.vm || h.PID != tc.pid {
				t.Errorf("header %+v (%d headers), want version %d clock %s vm %s pid %d", h, c.headers, tc.version, tc.clock, tc.vm, tc.pid)
			}
			if h.StartMicros == 0 {
				t.Errorf("start time not found in the data header")
			}
			if c.events != tc.records || c.threads != tc.threads || c.methods != tc.methods || len(c.tids) != tc.seen {
				t.Errorf("records %d threads %d methods %d threads seen %d, want %d %d %d %d",
					c.events, c.threads, c.methods, len(c.tids), tc.records, tc.threads, tc.methods, tc.seen)
			}
		})
	}
}
