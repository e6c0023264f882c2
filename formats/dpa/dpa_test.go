package dpa

import (
	"bytes"
	"errors"
	"flag"
	"fmt"
	"io"
	"math/rand"
	"os"
	"reflect"
	"strings"
	"testing"
	"time"

	"androprof/internal/inputerr"
	"androprof/model/calls"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata")

func readAll(t testing.TB, src, name string) ([]Record, *Reader, error) {
	t.Helper()
	r := NewReader(strings.NewReader(src), name)
	var recs []Record
	for {
		rec, err := r.Next()
		if err == io.EOF {
			return recs, r, nil
		}
		if err != nil {
			return recs, r, err
		}
		recs = append(recs, rec)
	}
}

// report prints what the workbench shows of a log: every call with its deduction, then the
// process times. The golden file holds the numbers worked out by hand in figure4.dpa's test.
func report(recs []Record, cost calls.ClockCost) string {
	var b strings.Builder
	pt := calls.NewDPAProcessTimes(cost)
	fmt.Fprintf(&b, "clock read: %.3f ns\n", cost.PerRead())
	for _, rec := range recs {
		if rec.Kind != KindExit {
			continue
		}
		c := rec.Call
		pt.Add(c)
		fmt.Fprintf(&b, "pid %d tid %d level %d method %d: measured %d ns, %d reads (nested %d), corrected %d ns\n",
			c.PID, c.TID, c.Level, c.Method, c.Measured(), c.ClockReads, c.Nested, c.Corrected(cost))
	}
	for _, rec := range recs {
		if rec.Kind == KindProcess {
			p := pt.ByPID[rec.PID]
			fmt.Fprintf(&b, "process %d %s: %d level-1 calls, measured %d ns, corrected %d ns\n",
				rec.PID, rec.Name, p.Calls, p.Measured, p.Corrected)
		}
	}
	return b.String()
}

// Seed 003 figure 4 (see docs/dpa-format.md): at 300 ns per read, M2 keeps its 5 000 ns, M1's
// 8 600 ns lose M2's two reads (8 000), M0's 10 700 ns lose M1's and M2's four (9 500), and the
// process time is the level-1 sum: 9 500 ns.
func TestFigure4Golden(t *testing.T) {
	src, err := os.ReadFile("testdata/figure4.dpa")
	if err != nil {
		t.Fatal(err)
	}
	recs, r, err := readAll(t, string(src), "figure4.dpa")
	if err != nil {
		t.Fatal(err)
	}
	got := report(recs, r.Cost())
	const golden = "testdata/figure4.golden"
	if *update {
		if err := os.WriteFile(golden, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatal(err)
	}
	if got != string(want) {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
	var corrected []time.Duration
	for _, rec := range recs {
		if rec.Kind == KindExit {
			corrected = append(corrected, rec.Call.Corrected(r.Cost()))
			if rec.Call.ClockReads != calls.DPAClockReads(rec.Call.Nested) {
				t.Errorf("method %d: logged %d reads, %d nested calls", rec.Call.Method, rec.Call.ClockReads, rec.Call.Nested)
			}
		}
	}
	if fmt.Sprint(corrected) != "[5µs 8µs 9.5µs]" {
		t.Errorf("corrected M2, M1, M0 = %v", corrected)
	}
}

type sink struct {
	header  calls.TraceHeader
	headers int
	threads []calls.ThreadInfo
	methods []calls.MethodInfo
	events  []calls.MethodEvent
	failOn  int // fail at this event (1-based); 0 never
}

func (s *sink) Header(h calls.TraceHeader) error { s.header = h; s.headers++; return nil }
func (s *sink) Thread(t calls.ThreadInfo) error  { s.threads = append(s.threads, t); return nil }
func (s *sink) Method(m calls.MethodInfo) error  { s.methods = append(s.methods, m); return nil }
func (s *sink) Event(e calls.MethodEvent) error {
	s.events = append(s.events, e)
	if len(s.events) == s.failOn {
		return errors.New("disk full")
	}
	return nil
}

func walls(evs []calls.MethodEvent) []uint64 {
	var w []uint64
	for _, e := range evs {
		w = append(w, e.Wall)
	}
	return w
}

// Imported into a MethodSink, figure 4's times are corrected on the thread's timeline
// (model.TestOverheadTimelineFigure4: 10 000, 11 000, 13 000, 18 000, 19 000, 19 500 ns), so
// the sink's inclusive times are 9.5, 8 and 5 µs; as microseconds, truncated.
func TestReadIntoSink(t *testing.T) {
	src, _ := os.ReadFile("testdata/figure4.dpa")
	var s sink
	if err := NewReader(bytes.NewReader(src), "figure4.dpa").Feed(&s); err != nil {
		t.Fatal(err)
	}
	h := s.header
	if h.Format != "dpa" || h.PID != 2001 || h.Clock != calls.ClockWall || h.Properties["times"] != "corrected" ||
		h.Properties["clock-read-ns"] != "300" || h.Properties["process"] != "com.example.bench" {
		t.Errorf("header %+v", h)
	}
	if len(s.threads) != 1 || s.threads[0] != (calls.ThreadInfo{TID: 2001, Name: "main"}) || len(s.methods) != 3 ||
		s.methods[2] != (calls.MethodInfo{ID: 3, Class: "java/lang/Math", Name: "max", Signature: "(II)I", Line: -1}) {
		t.Errorf("threads %+v methods %+v", s.threads, s.methods)
	}
	if got := fmt.Sprint(walls(s.events)); got != "[10 11 13 18 19 19]" {
		t.Errorf("corrected µs %s", got)
	}
	if s.events[3].Action != calls.Exit || s.events[3].Method != 3 || s.events[0].Action != calls.Enter {
		t.Errorf("events %+v", s.events)
	}
	var m sink
	r := NewReader(bytes.NewReader(src), "figure4.dpa")
	r.Measured = true
	if err := r.Feed(&m); err != nil {
		t.Fatal(err)
	}
	if got := fmt.Sprint(walls(m.events)); got != "[10 11 13 18 19 20]" || m.header.Properties["times"] != "measured" {
		t.Errorf("measured µs %s, %v", got, m.header.Properties)
	}
}

// Two processes: Read takes the first, or the one asked for; the other is read and checked
// but not passed on.
func TestReadChoosesProcess(t *testing.T) {
	src := "androprof-dpa 1\nprocess 5 a\nthread 5\nmethod 1 A f\nenter 5 1 1000 1\nexit 5 1 2000 0 1\nend\n" +
		"process 6 b\nthread 6\nthread 7 worker\nmethod 1 B g\nenter 7 1 3000 1\nunwind 7 1 4000 0 1\nend\n"
	var s sink
	r := NewReader(strings.NewReader(src), "two.dpa")
	r.PID = 6
	if err := r.Feed(&s); err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(r.Header(), s.header) {
		t.Errorf("Header() %+v, the sink got %+v", r.Header(), s.header)
	}
	if s.header.PID != 6 || s.header.Properties["times"] != "measured" || len(s.threads) != 2 || len(s.events) != 2 ||
		s.events[1].Action != calls.Unroll || s.events[1].Wall != 4 {
		t.Errorf("header %+v threads %+v events %+v", s.header, s.threads, s.events)
	}
	r = NewReader(strings.NewReader(src), "two.dpa")
	r.PID = 9
	if err := r.Feed(&sink{}); err == nil || !strings.Contains(err.Error(), "no process 9") {
		t.Errorf("missing pid: %v", err)
	}
	var empty sink
	if err := NewReader(strings.NewReader("androprof-dpa 1\n"), "empty.dpa").Feed(&empty); err != nil || empty.headers != 1 {
		t.Errorf("empty log: %v, %d headers", err, empty.headers)
	}
	err := NewReader(strings.NewReader(src), "two.dpa").Feed(&sink{failOn: 2})
	if err == nil || !strings.Contains(err.Error(), "two.dpa:6: disk full") {
		t.Errorf("sink error: %v", err)
	}
}

// genLog writes a random but well-formed log: per thread, calls nested at random depths, with
// READS = 2 × nested as the seed's VM would count them.
func genLog(rng *rand.Rand, w *Writer) error {
	w.Calibrate(calls.ClockCost{Reads: 32000, Elapsed: time.Duration(5e6 + rng.Intn(1e7))})
	for pid := 100; pid < 100+1+rng.Intn(3); pid++ {
		w.Process(pid, fmt.Sprintf("proc %d", pid))
		nm := 1 + rng.Intn(5)
		for m := 0; m < nm; m++ {
			w.Method(calls.MethodInfo{ID: uint64(m), Class: "p/C", Name: fmt.Sprintf("m%d", m), Signature: "()V"})
		}
		for tid := pid; tid < pid+1+rng.Intn(3); tid++ {
			w.Thread(calls.ThreadInfo{TID: tid, Name: "t"})
			now := time.Duration(rng.Intn(1000))
			type open struct {
				c      calls.DPACall
				nested int64
			}
			var stack []open
			for step := 0; step < 50; step++ {
				now += time.Duration(rng.Intn(5000))
				if len(stack) > 0 && (rng.Intn(2) == 0 || step > 40) {
					o := stack[len(stack)-1]
					stack = stack[:len(stack)-1]
					o.c.Exit, o.c.ClockReads, o.c.Unwound = now, calls.DPAClockReads(o.nested), rng.Intn(10) == 0
					if err := w.Exit(o.c); err != nil {
						return err
					}
					if len(stack) > 0 {
						stack[len(stack)-1].nested += o.nested + 1
					}
					continue
				}
				c := calls.DPACall{TID: tid, Level: len(stack) + 1, Entry: now, Method: uint64(rng.Intn(nm))}
				if err := w.Enter(c); err != nil {
					return err
				}
				stack = append(stack, open{c: c})
			}
		}
		w.End()
	}
	return w.Flush()
}

// Writer → Reader → Writer: the records survive and the second file is byte for byte the
// first; nested counts read back match the READS the writer derived from them.
func TestRoundTrip(t *testing.T) {
	rng := rand.New(rand.NewSource(4))
	for i := 0; i < 20; i++ {
		var b1 bytes.Buffer
		if err := genLog(rng, NewWriter(&b1)); err != nil {
			t.Fatal(err)
		}
		recs, _, err := readAll(t, b1.String(), "gen")
		if err != nil {
			t.Fatalf("%v\n%s", err, b1.String())
		}
		var b2 bytes.Buffer
		w := NewWriter(&b2)
		for _, rec := range recs {
			if err := w.Write(rec); err != nil {
				t.Fatal(err)
			}
			if rec.Kind == KindExit && rec.Call.ClockReads != calls.DPAClockReads(rec.Call.Nested) {
				t.Errorf("call %+v: reads and nested disagree", rec.Call)
			}
		}
		w.Flush()
		if b1.String() != b2.String() {
			t.Fatalf("rewritten log differs:\n%s\n---\n%s", b1.String(), b2.String())
		}
	}
}

// What the writer turns into something a reader takes: control characters in names, blanks
// in class names, a calibration after a section (a new part with its own header).
func TestWriterShapes(t *testing.T) {
	var b bytes.Buffer
	w := NewWriter(&b)
	w.Process(3, "com.x\tapp")
	w.Thread(calls.ThreadInfo{TID: 3})
	w.Method(calls.MethodInfo{ID: 9, Class: "a b", Name: "c"})
	w.End()
	w.Calibrate(calls.ClockCost{Reads: 2, Elapsed: 3})
	w.Flush()
	want := "androprof-dpa 1\nprocess 3 com.x app\nthread 3\nmethod 9 a_b c\nend\nandroprof-dpa 1\ncalibrate 2 3\n"
	if b.String() != want {
		t.Errorf("got\n%q\nwant\n%q", b.String(), want)
	}
	if _, _, err := readAll(t, b.String(), "w"); err != nil {
		t.Error(err)
	}
	w = NewWriter(io.Discard)
	for _, err := range []error{
		w.Thread(calls.ThreadInfo{TID: 1}), w.End(), w.Enter(calls.DPACall{TID: 1, Level: 1}),
		w.Process(0, ""), w.Calibrate(calls.ClockCost{}), w.Write(Record{}),
	} {
		if err == nil {
			t.Error("writer accepted a misplaced or bad record")
		}
	}
	w.Process(1, "")
	if w.Method(calls.MethodInfo{ID: 1}) == nil || w.Exit(calls.DPACall{TID: 1, Level: 1, Entry: 5, Exit: 4}) == nil ||
		w.Process(2, "") == nil || w.Calibrate(calls.ClockCost{Reads: 1, Elapsed: 1}) == nil {
		t.Error("writer accepted a bad record inside a process")
	}
	var e bytes.Buffer
	NewWriter(&e).Flush()
	if e.String() != "androprof-dpa 1\n" {
		t.Errorf("empty log %q", e.String())
	}
}

func TestNotMine(t *testing.T) {
	for _, src := range []string{"", "\n\n", "hello\n", "*version\n3\n", "# androprof-dpa 1\n", "androprof-rmp 1\n",
		"androprof-dpa\x001\n", strings.Repeat("x", 2<<20)} {
		_, _, err := readAll(t, src, "other.txt")
		if !errors.Is(err, ErrNotDPA) || !strings.Contains(err.Error(), "other.txt") {
			t.Errorf("%.40q: %v", src, err)
		}
	}
}

// Each case is a log and the line and message its error must carry.
func TestErrors(t *testing.T) {
	const h = "androprof-dpa 1\n"
	const p = h + "process 5 app\nthread 5 main\nmethod 1 A f\nmethod 2 A g\n" // lines 1–5
	for _, tc := range []struct {
		src  string
		line int64
		msg  string
	}{
		// unknown versions
		{"androprof-dpa 2\n", 1, "unsupported DPA log version"},
		{"androprof-dpa\n", 1, "unsupported DPA log version"},
		{"androprof-dpa 1.0\n", 1, "unsupported DPA log version"},
		// truncated
		{p + "enter 5 1 10 1\n", 6, "file ends inside process 5 (no end line): truncated"},
		{h + "process 5\n", 2, "truncated"},
		{p + "exit 5 1", 6, "the file ends inside a line (truncated?)"},
		// garbled fields
		{p + "enter 5 1 1x 1\nend\n", 6, "bad time"},
		{p + "enter 5 1 -3 1\nend\n", 6, "bad time"},
		{p + "enter 5 1 99999999999999999999 1\nend\n", 6, "bad time"},
		{p + "enter 5 0 10 1\nend\n", 6, "bad level"},
		{p + "enter 5 70000 10 1\nend\n", 6, "bad level"},
		{p + "enter 0 1 10 1\nend\n", 6, "bad thread id"},
		{p + "enter 5 1 10 x\nend\n", 6, "bad method id"},
		{p + "enter 5 1 10 1 9\nend\n", 6, "unexpected"},
		{p + "enter 5 1 10 1\nexit 5 1 20 -1 1\nend\n", 7, "bad clock-read count"},
		{p + "enter 5 1 10 1\nexit 5 1 20 4611686018427387905 1\nend\n", 7, "bad clock-read count"},
		{h + "calibrate 0 100\n", 2, "bad calibration"},
		{h + "calibrate 5\n", 2, "want 2 fields"},
		{h + "process x\n", 2, "bad pid"},
		{h + "process 2147483648\n", 2, "bad pid"},
		{p + "thread 6 a\x01b\n", 6, "control character"},
		{p + "method 3 A h (I)V x\n", 6, "after the signature"},
		{p + "method 3 A\n", 6, "want 3 fields"},
		{p + "method 3 A\x00 h\n", 6, "control character in a field"},
		{p + "frob\n", 6, "unknown record"},
		{h + "frob\n", 2, "unknown record"},
		{p + "end x\n", 6, "end line with fields"},
		{p + strings.Repeat("x", 2<<20) + "\n", 6, "longer than 1 MiB"},
		// structure
		{h + "thread 5\n", 2, "thread line outside a process section"},
		{p + "process 6\n", 6, "end line is missing"},
		{p + h, 6, "header inside process 5"},
		{p + "calibrate 1 1\n", 6, "outside the file header"},
		{p + "end\ncalibrate 1 1\n", 7, "outside the file header"},
		{p + "thread 5\n", 6, "thread 5 declared twice"},
		{p + "method 2 B g\n", 6, "method 2 declared twice"},
		{p + "enter 6 1 10 1\n", 6, "thread 6 has no thread line"},
		{p + "enter 5 1 10 3\n", 6, "method 3 has no method line"},
		{p + "enter 5 2 10 1\n", 6, "enter at level 2, but thread 5 has 0 open calls"},
		{p + "enter 5 1 10 1\nenter 5 1 11 2\n", 7, "enter at level 1, but thread 5 has 1 open calls"},
		{p + "exit 5 1 10 0 1\n", 6, "thread 5 has no open call"},
		{p + "enter 5 1 10 1\nenter 5 2 11 2\nexit 5 1 12 0 2\n", 8, "exit at level 1, but thread 5 has 2 open calls"},
		{p + "enter 5 1 10 1\nexit 5 1 12 0 2\n", 7, "exit of method 2, but the open call on thread 5 is method 1"},
		{p + "enter 5 1 10 1\nexit 5 1 9 0 1\n", 7, "before the thread's previous event"},
		// a process's threads and methods end with it
		{p + "end\nprocess 6\nenter 5 1 10 1\n", 8, "thread 5 has no thread line"},
	} {
		_, _, err := readAll(t, tc.src, "bad.dpa")
		var se *inputerr.Error
		if !errors.As(err, &se) || se.File != "bad.dpa" || se.Line != tc.line || !strings.Contains(se.Msg, tc.msg) {
			t.Errorf("%.70q:\n got %v\nwant line %d %q", tc.src, err, tc.line, tc.msg)
		}
	}
}

// The first error sticks: a caller that keeps calling Next does not read past damage.
func TestErrorSticks(t *testing.T) {
	r := NewReader(strings.NewReader("androprof-dpa 1\nfrob\nprocess 5\nend\n"), "x")
	_, err1 := r.Next()
	_, err2 := r.Next()
	if err1 == nil || err1 != err2 {
		t.Errorf("%v then %v", err1, err2)
	}
}

// Calls still open at end never returned (a main looper): dropped, not an error. Blank lines,
// comments and CRLF line ends are fine.
func TestOpenCallsAtEnd(t *testing.T) {
	src := "androprof-dpa 1\r\n\r\n# x\nprocess 5 app\r\nthread 5\nmethod 1 android/os/Looper loop\nmethod 2 A f\n" +
		"enter 5 1 0 1\nenter 5 2 10 2\nexit 5 2 30 0 2\nend\n"
	recs, _, err := readAll(t, src, "looper.dpa")
	if err != nil {
		t.Fatal(err)
	}
	last := recs[len(recs)-2]
	if last.Kind != KindExit || last.Call.Measured() != 20 || recs[0].Name != "app" {
		t.Errorf("records %+v", recs)
	}
}

// Sniff judges a file's first bytes: the DPA log is one, Go source is not.
func TestSniff(t *testing.T) {
	for file, mine := range map[string]bool{"testdata/figure4.dpa": true, "dpa.go": false} {
		data, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		if err := Sniff(data); (err == nil) != mine || err != nil && !errors.Is(err, ErrNotDPA) {
			t.Errorf("%s: %v", file, err)
		}
	}
}

// FuzzReader: the reader ends on any input without panicking; whatever it accepts, written
// back record by record, reads again to the same records.
func FuzzReader(f *testing.F) {
	src, err := os.ReadFile("testdata/figure4.dpa")
	if err != nil {
		f.Fatal(err)
	}
	f.Add(src)
	f.Fuzz(func(t *testing.T, b []byte) {
		recs, _, err := readAll(t, string(b), "fuzz")
		if err != nil {
			var se *inputerr.Error
			if !errors.As(err, &se) && !errors.Is(err, ErrNotDPA) {
				t.Fatalf("error of an unexpected type: %v", err)
			}
			return
		}
		var w bytes.Buffer
		wr := NewWriter(&w)
		for _, rec := range recs {
			if err := wr.Write(rec); err != nil {
				t.Fatalf("writing %+v: %v", rec, err)
			}
		}
		wr.Flush()
		again, _, err := readAll(t, w.String(), "rewritten")
		if err != nil {
			t.Fatalf("rereading what was written: %v\n%s", err, w.String())
		}
		if !reflect.DeepEqual(recs, again) {
			t.Fatalf("records differ after a round trip\n%+v\n%+v", recs, again)
		}
	})
}
