package rmp

import (
	"bytes"
	"errors"
	"flag"
	"fmt"
	"io"
	"maps"
	"math/rand"
	"os"
	"reflect"
	"slices"
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

func readFixture(t testing.TB) string {
	t.Helper()
	b, err := os.ReadFile("testdata/browser.rmp")
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// report prints a round's profile: every span with its deduction, then the rows per probe,
// component and resolution.
func report(recs []Record, cost calls.ProbeCost) (string, *calls.RMPProfile) {
	var b strings.Builder
	p := calls.NewRMPProfile(cost)
	fmt.Fprintf(&b, "probe cost: app %v, framework %v\n", cost.App, cost.Framework)
	for _, rec := range recs {
		if rec.Kind != KindOut {
			continue
		}
		s := rec.Span
		p.Add(s)
		fmt.Fprintf(&b, "tid %d %s %s %s: measured %v, inside %d app + %d framework, corrected %v (outer %v)\n",
			s.TID, s.Resolution, s.Kind, s.Name, s.Measured(), s.NestedApp, s.NestedFramework, s.Corrected(cost), s.Outer)
	}
	for _, row := range p.Hotspots(0, 0, 0) {
		fmt.Fprintf(&b, "probe %d %s: %d calls, measured %v, corrected %v\n", row.Probe, row.Name, row.Calls, row.Measured, row.Corrected)
	}
	for _, c := range slices.Sorted(maps.Keys(p.Components)) {
		st := p.Components[c]
		fmt.Fprintf(&b, "component %s: %d spans, corrected %v\n", c, st.Calls, st.Corrected)
	}
	for r := calls.ResolutionProcess; r <= calls.ResolutionLoop; r++ {
		fmt.Fprintf(&b, "%s level: %d outer spans, corrected %v\n", r, p.Resolutions[r].Calls, p.Resolutions[r].Corrected)
	}
	return b.String(), p
}

// docs/rmp-format.md "Deduction", at seed 002's costs (0.488 ms per application probe, 0.631 ms
// per framework probe, §4.2.2): restoreState 4.400 − 0.631 − 0.488 = 3.281 ms; onCreate
// 10.000 − 2 × 0.488 − 0.631 = 8.393 ms; the leaves keep 1.000, 1.400 and 5.000 ms.
func TestBrowserGolden(t *testing.T) {
	recs, r, err := readAll(t, readFixture(t), "browser.rmp")
	if err != nil {
		t.Fatal(err)
	}
	got, p := report(recs, r.Cost())
	const golden = "testdata/browser.golden"
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
	ms := func(f float64) time.Duration { return time.Duration(f*1e6 + 0.5) }
	for id, want := range map[uint64]time.Duration{1: ms(8.393), 2: ms(5), 3: ms(3.281), 4: ms(1.4), 5: ms(1)} {
		if got := p.Probes[id].Corrected; got != want {
			t.Errorf("probe %d corrected %v, want %v", id, got, want)
		}
	}
	if p.Components["com.android.browser.BrowserActivity"].Corrected != ms(8.393) ||
		p.Resolutions[calls.ResolutionMethod].Corrected != ms(3.281) { // loadUrl is inside restoreState
		t.Errorf("component %+v, method level %+v", p.Components, p.Resolutions[calls.ResolutionMethod])
	}
}

type sink struct {
	header  calls.TraceHeader
	methods []calls.MethodInfo
	threads []calls.ThreadInfo
	events  []string
	failOn  int
}

func (s *sink) Header(h calls.TraceHeader) error { s.header = h; return nil }
func (s *sink) Thread(t calls.ThreadInfo) error  { s.threads = append(s.threads, t); return nil }
func (s *sink) Method(m calls.MethodInfo) error  { s.methods = append(s.methods, m); return nil }
func (s *sink) Event(e calls.MethodEvent) error {
	a := "in"
	if e.Action == calls.Exit {
		a = "out"
	}
	s.events = append(s.events, fmt.Sprintf("%s%d@%d", a, e.Method, e.Wall))
	if len(s.events) == s.failOn {
		return errors.New("disk full")
	}
	return nil
}

func read(t *testing.T, src string, setup func(*Reader)) *sink {
	t.Helper()
	r := NewReader(strings.NewReader(src), "browser.rmp")
	if setup != nil {
		setup(r)
	}
	var s sink
	if err := r.Feed(&s); err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(r.Header(), s.header) {
		t.Errorf("Header() %+v, the sink got %+v", r.Header(), s.header)
	}
	return &s
}

// The corrected timeline of the fixture (µs), half a probe before each in and after each out:
//
//	onCreate in      0      (outside every span: no shift)
//	restoreState in  1000 − 244                       = 756
//	loadUrl in       2000 − 244 − 315.5               = 1440.5 → 1440
//	loadUrl out      3000 − 559.5                     = 2440.5 → 2440, then shift 875
//	loop in          3600 − 875 − 244                 = 2481
//	loop out         5000 − 1119                      = 3881,  then shift 1363
//	restoreState out 5400 − 244 − (631 + 488)         = 4037   (inclusive 3281)
//	Loader.run       4000 … 9000                      (its thread has no probe inside)
//	onCreate out     10000 − 0 − (2 × 488 + 631)      = 8393
func TestReadIntoSink(t *testing.T) {
	s := read(t, readFixture(t), nil)
	want := "[in1@0 in3@756 in5@1440 out5@2440 in4@2481 out4@3881 out3@4037 in2@4000 out2@9000 out1@8393]"
	if got := fmt.Sprint(s.events); got != want {
		t.Errorf("corrected events\n%s\nwant\n%s", got, want)
	}
	h := s.header
	if h.Format != "rmp" || h.PID != 1234 || h.Properties["times"] != "corrected" || h.Properties["process"] != "com.android.browser" ||
		h.Properties["probe-cost-app-ns"] != "488000" || h.Properties["probe-cost-framework-ns"] != "631000" {
		t.Errorf("header %+v", h)
	}
	if len(s.methods) != 6 || s.methods[3] != (calls.MethodInfo{ID: 4, Class: "com.android.browser.TabControl", Name: "restoreState#1", Line: -1}) ||
		s.methods[1].Class != "com.android.browser.TabControl$Loader" || len(s.threads) != 2 {
		t.Errorf("methods %+v threads %+v", s.methods, s.threads)
	}
	m := read(t, readFixture(t), func(r *Reader) { r.Measured = true })
	want = "[in1@0 in3@1000 in5@2000 out5@3000 in4@3600 out4@5000 out3@5400 in2@4000 out2@9000 out1@10000]"
	if got := fmt.Sprint(m.events); got != want || m.header.Properties["times"] != "measured" {
		t.Errorf("measured events %s", got)
	}
}

// Offline zoom-in (docs/rmp-format.md "Zoom-in"): the areas of the examples keep restoreState
// and loadUrl, the loop only, Loader.run only; the kept spans keep the full deduction.
func TestReadZoomed(t *testing.T) {
	for _, c := range []struct {
		area calls.ProfilingArea
		want string
	}{
		{calls.ProfilingArea{Resolution: calls.ResolutionMethod, Callers: []string{"com.android.browser.BrowserActivity.onCreate"}},
			"[in3@756 in5@1440 out5@2440 out3@4037]"},
		{calls.ProfilingArea{Resolution: calls.ResolutionLoop, Callers: []string{"com.android.browser.TabControl.restoreState"}},
			"[in4@2481 out4@3881]"},
		{calls.ProfilingArea{Resolution: calls.ResolutionThread}, "[in2@4000 out2@9000]"},
		{calls.ProfilingArea{Callers: []string{"nobody"}}, "[]"},
	} {
		area := c.area
		s := read(t, readFixture(t), func(r *Reader) { r.Area = &area })
		if got := fmt.Sprint(s.events); got != c.want {
			t.Errorf("%+v: %s, want %s", c.area, got, c.want)
		}
		if len(s.methods) != 6 || s.header.Properties["area"] == "" {
			t.Errorf("%+v: methods %d, header %v", c.area, len(s.methods), s.header.Properties)
		}
	}
}

func TestReadRounds(t *testing.T) {
	src := "androprof-rmp 1\nfilter Ta\nprobe 1 thread app on a.W.run\nthread 7\nin 7 5000 1\nout 7 9000 1\nend\n" +
		"androprof-rmp 1\nprocess 9 a\ncost app 1000\ncost framework 2000\nprobe 1 loop framework on a.W.run#1\nthread 7\nin 7 5000 1 a.W.run\nend\n"
	s := read(t, src, nil)
	if s.header.PID != 0 || s.header.Properties["filter"] != "Ta" || s.header.Properties["probe-cost-app-ns"] != "488000" ||
		fmt.Sprint(s.events) != "[in1@5 out1@9]" {
		t.Errorf("round 1: %+v %v", s.header, s.events)
	}
	s = read(t, src, func(r *Reader) { r.Round = 2 })
	if s.header.PID != 9 || s.header.Properties["probe-cost-framework-ns"] != "2000" || s.header.Properties["round"] != "2" ||
		fmt.Sprint(s.events) != "[in1@5]" || s.methods[0].Name != "run#1" {
		t.Errorf("round 2: %+v %v %v", s.header, s.events, s.methods)
	}
	r := NewReader(strings.NewReader(src), "rounds.rmp")
	r.Round = 3
	if err := r.Feed(&sink{}); err == nil || !strings.Contains(err.Error(), "no round 3") {
		t.Errorf("round 3: %v", err)
	}
	err := NewReader(strings.NewReader(readFixture(t)), "browser.rmp").Feed(&sink{failOn: 3})
	if err == nil || !strings.Contains(err.Error(), "browser.rmp:16: disk full") {
		t.Errorf("sink error: %v", err)
	}
}

// genLog writes random well-formed rounds: a probe list of every resolution and kind, threads
// with nested spans.
func genLog(rng *rand.Rand, w *Writer) error {
	for round := 0; round < 1+rng.Intn(3); round++ {
		if rng.Intn(2) == 0 {
			w.Process(100+round, "app")
		}
		if rng.Intn(2) == 0 {
			w.Costs(calls.ProbeCost{App: time.Duration(rng.Intn(1e6)), Framework: time.Duration(rng.Intn(1e6))})
		}
		if rng.Intn(3) == 0 {
			w.Filter("a.W.run")
		}
		np := 1 + rng.Intn(6)
		var on []uint64
		for id := 0; id < np; id++ {
			p := Probe{ID: uint64(id), Resolution: calls.ProbeResolution(1 + rng.Intn(4)), Kind: calls.ProbeKind(1 + rng.Intn(2)),
				On: id == 0 || rng.Intn(4) > 0, Name: fmt.Sprintf("a.W.m%d", id)}
			if p.On {
				on = append(on, p.ID)
			}
			w.Probe(p)
		}
		nt := 1 + rng.Intn(3)
		for tid := 1; tid <= nt; tid++ {
			w.Thread(calls.ThreadInfo{TID: tid, Name: fmt.Sprintf("T%d", tid)})
		}
		now := map[int]time.Duration{}
		stacks := map[int][]calls.ProbeSpan{}
		for step := 0; step < 60; step++ {
			tid := 1 + rng.Intn(nt)
			now[tid] += time.Duration(rng.Intn(1e6))
			st := stacks[tid]
			if len(st) > 0 && rng.Intn(2) == 0 {
				s := st[len(st)-1]
				s.End = now[tid]
				stacks[tid] = st[:len(st)-1]
				if err := w.Out(s); err != nil {
					return err
				}
				continue
			}
			s := calls.ProbeSpan{TID: tid, Probe: on[rng.Intn(len(on))], Start: now[tid], Caller: "a.W.run"}
			stacks[tid] = append(st, s)
			if err := w.In(s); err != nil {
				return err
			}
		}
		w.End()
	}
	return w.Flush()
}

// Writer → Reader → Writer: records survive and the second file is byte for byte the first.
func TestRoundTrip(t *testing.T) {
	rng := rand.New(rand.NewSource(2))
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
		}
		w.Flush()
		if b1.String() != b2.String() {
			t.Fatalf("rewritten log differs:\n%s\n---\n%s", b1.String(), b2.String())
		}
	}
	// The fixture's records, written again, are the fixture without its comment.
	recs, _, err := readAll(t, readFixture(t), "browser.rmp")
	if err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	w := NewWriter(&b)
	for _, rec := range recs {
		w.Write(rec)
	}
	w.Flush()
	lines := strings.Split(readFixture(t), "\n")
	lines = slices.DeleteFunc(lines, func(s string) bool { return strings.HasPrefix(s, "#") })
	if b.String() != strings.Join(lines, "\n") {
		t.Errorf("fixture rewritten:\n%s", b.String())
	}
}

func TestWriterOrder(t *testing.T) {
	w := NewWriter(io.Discard)
	w.Probe(Probe{ID: 1, Resolution: calls.ResolutionLoop, Kind: calls.AppProbe, Name: "x"})
	for _, err := range []error{
		w.Process(5, "a"), w.Cost(calls.AppProbe, 1), w.Filter("x"),
		w.Probe(Probe{ID: 2, Name: "y"}), w.Cost(0, 1), w.Thread(calls.ThreadInfo{}), w.Process(0, ""),
		w.In(calls.ProbeSpan{}), w.Out(calls.ProbeSpan{TID: 1, Start: 5, End: 4}), w.Write(Record{}),
	} {
		if err == nil {
			t.Error("writer accepted a misplaced or bad record")
		}
	}
	w.Thread(calls.ThreadInfo{TID: 1})
	if w.Probe(Probe{ID: 3, Resolution: calls.ResolutionLoop, Kind: calls.AppProbe, Name: "z"}) == nil {
		t.Error("probe after a thread accepted")
	}
	w.End()
	if w.End() == nil {
		t.Error("End outside a round accepted")
	}
}

func TestNotMine(t *testing.T) {
	for _, src := range []string{"", "\n", "hello\n", "androprof-dpa 1\n", "# androprof-rmp 1\n", strings.Repeat("x", 2<<20)} {
		_, _, err := readAll(t, src, "other.txt")
		if !errors.Is(err, ErrNotRMP) || !strings.Contains(err.Error(), "other.txt") {
			t.Errorf("%.40q: %v", src, err)
		}
	}
}

// Each case is a log and the line and message its error must carry.
func TestErrors(t *testing.T) {
	const h = "androprof-rmp 1\n"
	const p = h + "probe 1 method app on a.B.c\nprobe 2 loop framework on a.B.c#1\nprobe 3 method app off a.B.d\nthread 5 main\n" // lines 1–5
	for _, tc := range []struct {
		src  string
		line int64
		msg  string
	}{
		// unknown versions
		{"androprof-rmp 2\n", 1, "unsupported RMP log version"},
		{"androprof-rmp\n", 1, "unsupported RMP log version"},
		{"androprof-rmp v1\n", 1, "unsupported RMP log version"},
		// truncated
		{h, 1, "file ends inside round 1 (no end line): truncated"},
		{p + "in 5 0 1\n", 6, "truncated"},
		{p + "end\n" + h + "thread 1\n", 8, "inside round 2"},
		{p + "in 5 0", 6, "the file ends inside a line (truncated?)"},
		// garbled fields
		{p + "in 5 x 1\nend\n", 6, "bad time"},
		{p + "in 5 99999999999999999999 1\nend\n", 6, "bad time"},
		{p + "in 0 1 1\nend\n", 6, "bad thread id"},
		{p + "in 5 1 -1\nend\n", 6, "bad probe id"},
		{p + "out 5 1 1 x\nend\n", 6, "unexpected"},
		{p + "in 5 1 1 a\x02b\n", 6, "control character in text"},
		{h + "cost app 1.5\n", 2, "bad cost"},
		{h + "cost core 1\n", 2, "unknown probe kind"},
		{h + "cost app\n", 2, "want 2 fields"},
		{h + "probe 1 statement app on x\n", 2, "unknown resolution"},
		{h + "probe 1 method native on x\n", 2, "unknown probe kind"},
		{h + "probe 1 method app maybe x\n", 2, "bad probe state"},
		{h + "probe 1 method app on\n", 2, "probe 1 has no name"},
		{h + "probe 1 method app on \n", 2, "probe 1 has no name"},
		{h + "probe x method app on y\n", 2, "bad probe id"},
		{h + "process 0 a\n", 2, "bad pid"},
		{h + "frob\n", 2, "unknown record"},
		{p + "end x\n", 6, "end line with fields"},
		{p + strings.Repeat("x", 2<<20) + "\n", 6, "longer than 1 MiB"},
		// structure
		{h + "process 5 a\nprocess 6 b\n", 3, "second process line"},
		{p + "probe 4 method app on e\n", 6, "probe line after the first thread or event"},
		{h + "probe 1 method app on x\ncost app 5\n", 3, "cost line after the probe list"},
		{h + "thread 1\nfilter x\n", 3, "filter line after the first thread or event"},
		{p + "end\nthread 5\n", 7, "after the round's end line"},
		{p + h, 6, "header inside round 1"},
		{h + "probe 1 method app on x\nprobe 1 loop app on y\n", 3, "probe 1 declared twice"},
		{p + "thread 5\n", 6, "thread 5 declared twice"},
		{p + "in 6 0 1\n", 6, "thread 6 has no thread line"},
		{p + "in 5 0 9\n", 6, "probe 9 is not in the probe list"},
		{p + "in 5 0 3\n", 6, "event of probe 3, which is off"},
		{p + "out 5 0 1\n", 6, "thread 5 has no open probe"},
		{p + "in 5 0 1\nin 5 1 2\nout 5 2 1\n", 8, "innermost open probe on thread 5 is 2"},
		{p + "in 5 10 1\nout 5 9 1\n", 7, "before the thread's previous event"},
		// a round's probes and threads end with it
		{p + "end\n" + h + "thread 5\nin 5 0 1\n", 9, "probe 1 is not in the probe list"},
	} {
		_, _, err := readAll(t, tc.src, "bad.rmp")
		var se *inputerr.Error
		if !errors.As(err, &se) || se.File != "bad.rmp" || se.Line != tc.line || !strings.Contains(se.Msg, tc.msg) {
			t.Errorf("%.70q:\n got %v\nwant line %d %q", tc.src, err, tc.line, tc.msg)
		}
	}
}

func TestErrorSticks(t *testing.T) {
	r := NewReader(strings.NewReader("androprof-rmp 1\nfrob\nend\n"), "x")
	_, err1 := r.Next()
	_, err2 := r.Next()
	if err1 == nil || err1 != err2 {
		t.Errorf("%v then %v", err1, err2)
	}
}

// Sniff judges a file's first bytes: the RMP log is one, Go source is not.
func TestSniff(t *testing.T) {
	for file, mine := range map[string]bool{"testdata/browser.rmp": true, "rmp.go": false} {
		data, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		if err := Sniff(data); (err == nil) != mine || err != nil && !errors.Is(err, ErrNotRMP) {
			t.Errorf("%s: %v", file, err)
		}
	}
}

// FuzzReader: the reader ends on any input without panicking; whatever it accepts, written
// back record by record, reads again to the same records, and Read with a zoom area agrees.
func FuzzReader(f *testing.F) {
	f.Add([]byte(readFixture(f)))
	f.Fuzz(func(t *testing.T, b []byte) {
		recs, _, err := readAll(t, string(b), "fuzz")
		if err != nil {
			var se *inputerr.Error
			if !errors.As(err, &se) && !errors.Is(err, ErrNotRMP) {
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
		r := NewReader(bytes.NewReader(b), "fuzz")
		r.Area = &calls.ProfilingArea{Resolution: calls.ResolutionMethod, Callers: []string{"a.W.run"}}
		if err := r.Feed(&sink{}); err != nil {
			t.Fatalf("Read of an accepted log: %v", err)
		}
	})
}
