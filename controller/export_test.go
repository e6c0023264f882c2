package controller

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"androprof/formats/traceview"
	"androprof/internal/corpus"
	"androprof/internal/fastlane"
	"androprof/internal/htmltest"
	"androprof/model/calls"
)

// exportTraces are the corpus's method traces.
var exportTraces = []string{"perflib-basic.trace", "perflib-exception.trace", "perflib-mismatched.trace",
	"jag-dmtrace.trace", "sns-logout.trace", "art-trace-regular.trace.gz"}

// builtRun reads a corpus trace with the real reader into the call builder: its profile, and
// every call as EachCall hands them (threads by id, a thread's in the order they ended).
func builtRun(t *testing.T, name string) (calls.TraceHeader, *calls.CallProfile, []calls.Call) {
	t.Helper()
	path := corpus.File(t, name)
	if strings.HasSuffix(name, ".gz") {
		path = gunzipTo(t, path)
	}
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var all []calls.Call
	b := calls.NewCallBuilder()
	b.OnCall = func(c calls.Call) { all = append(all, c) }
	r := traceview.NewReader(f, path)
	if err := r.Feed(b); err != nil {
		t.Fatal(err)
	}
	p := b.Finish() // closes the calls still open, which end last
	slices.SortStableFunc(all, func(a, b calls.Call) int { return a.TID - b.TID })
	return r.Header(), p, all
}

// threadWant is what the profile table says of a thread: its calls (every call of every
// method, recursive or not) and the inclusive time of its level-1 calls on the export's clock.
type threadWant struct {
	Calls int64
	Top   uint64
}

func profileWants(p *calls.CallProfile, wall bool) map[int]threadWant {
	out := map[int]threadWant{}
	for k, m := range p.PerThread {
		if k.Method == calls.TopLevelMethod {
			continue
		}
		w := out[k.TID]
		w.Calls += m.Calls + m.RecursiveCalls
		out[k.TID] = w
	}
	for _, th := range p.Threads {
		w := out[th.TID]
		w.Top = th.Level1CPU
		if wall {
			w.Top = th.Level1Wall
		}
		if w.Calls > 0 {
			out[th.TID] = w
		}
	}
	return out
}

func exportOf(h calls.TraceHeader, p *calls.CallProfile, all []calls.Call, wall bool) methodCalls {
	return methodCalls{p: p, run: "r", pid: h.PID, at: clockOf(wall), each: func(fn func(calls.Call) error) error {
		for _, c := range all {
			if err := fn(c); err != nil {
				return err
			}
		}
		return nil
	}}
}

// chromeThreads reads back a Chrome trace's slices per thread: how many, and the summed
// durations of those no other slice of the thread holds (the level-1 calls).
func chromeThreads(t *testing.T, data []byte) map[int]threadWant {
	t.Helper()
	var f struct {
		TraceEvents []struct {
			Ph      string
			TID     int
			TS, Dur uint64
		}
	}
	if err := json.Unmarshal(data, &f); err != nil {
		t.Fatalf("the Chrome trace is not JSON: %v", err)
	}
	type span struct{ ts, end uint64 }
	per := map[int][]span{}
	for _, e := range f.TraceEvents {
		if e.Ph == "X" {
			per[e.TID] = append(per[e.TID], span{e.TS, e.TS + e.Dur})
		}
	}
	out := map[int]threadWant{}
	for tid, ss := range per {
		// Outer first: by start, the longer first; a slice inside the last outer one is not level 1.
		slices.SortStableFunc(ss, func(a, b span) int {
			if a.ts != b.ts {
				return int(int64(a.ts) - int64(b.ts))
			}
			return int(int64(b.end) - int64(a.end))
		})
		w := threadWant{Calls: int64(len(ss))}
		var outerEnd uint64
		for i, s := range ss {
			if i == 0 || s.ts >= outerEnd {
				w.Top += s.end - s.ts
				outerEnd = s.end
			}
		}
		out[tid] = w
	}
	return out
}

// Every call of every corpus trace, as the real reader and the call builder make them, is a
// slice of the Chrome trace: per thread as many as the profile table's calls, and the level-1
// slices sum to the table's level-1 time.
func TestChromeTraceHasEveryCall(t *testing.T) {
	for _, name := range exportTraces {
		t.Run(name, func(t *testing.T) {
			h, p, all := builtRun(t, name)
			for _, wall := range []bool{false, true} {
				var buf bytes.Buffer
				s, err := exportOf(h, p, all, wall).chrome(&buf)
				if err != nil {
					t.Fatal(err)
				}
				if s.Slices != len(all) {
					t.Errorf("wall=%v: %d slices written of %d calls", wall, s.Slices, len(all))
				}
				got, want := chromeThreads(t, buf.Bytes()), profileWants(p, wall)
				for tid, w := range want {
					if got[tid] != w {
						t.Errorf("wall=%v thread %d: %d slices, level 1 %d µs; the profile table has %d calls, %d µs", wall, tid,
							got[tid].Calls, got[tid].Top, w.Calls, w.Top)
					}
				}
				if len(got) != len(want) {
					t.Errorf("wall=%v: %d threads with slices, the table has %d", wall, len(got), len(want))
				}
			}
		})
	}
}

// perfettoThreads decodes a Perfetto trace with protoc and perfetto's own schema, and reads back
// each thread's slices: how many, and the summed durations of the outermost.
func perfettoThreads(t *testing.T, data []byte) map[int]threadWant {
	t.Helper()
	cmd := exec.Command("protoc", "--decode=perfetto.protos.Trace", "-I", filepath.Join("..", "export", "perfetto", "testdata"), "perfetto_trace.proto")
	cmd.Stdin = bytes.NewReader(data)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	text, err := cmd.Output()
	if err != nil {
		t.Fatalf("protoc --decode: %v: %s", err, stderr.String())
	}
	tidOf := map[uint64]int{} // track uuid → tid
	type open struct{ ts uint64 }
	stacks := map[uint64][]uint64{}
	out := map[int]threadWant{}
	var ts, uuid, trackUUID uint64
	var typ string
	var tid int
	field := func(line, name string) (string, bool) {
		v, ok := strings.CutPrefix(line, name+": ")
		return v, ok
	}
	num := func(s string) uint64 {
		n, err := strconv.ParseUint(s, 10, 64)
		if err != nil {
			t.Fatalf("protoc printed %q", s)
		}
		return n
	}
	for _, line := range strings.Split(string(text), "\n") {
		line = strings.TrimSpace(line)
		if v, ok := field(line, "timestamp"); ok {
			ts = num(v)
		} else if v, ok := field(line, "uuid"); ok {
			uuid = num(v)
		} else if v, ok := field(line, "tid"); ok {
			tid = int(num(v))
			tidOf[uuid] = tid
		} else if v, ok := field(line, "type"); ok {
			typ = v
		} else if v, ok := field(line, "track_uuid"); ok {
			trackUUID = num(v)
		} else if line == "packet {" {
			ts, typ, trackUUID = 0, "", 0
		} else if line == "}" && typ != "" {
			th := tidOf[trackUUID]
			switch typ {
			case "TYPE_SLICE_BEGIN":
				stacks[trackUUID] = append(stacks[trackUUID], ts)
				w := out[th]
				w.Calls++
				out[th] = w
			case "TYPE_SLICE_END":
				st := stacks[trackUUID]
				if len(st) == 0 {
					t.Fatalf("thread %d: an end with no slice open", th)
				}
				if len(st) == 1 {
					w := out[th]
					w.Top += (ts - st[0]) / 1000
					out[th] = w
				}
				stacks[trackUUID] = st[:len(st)-1]
			}
			typ = ""
		}
	}
	for u, st := range stacks {
		if len(st) > 0 {
			t.Errorf("thread %d: %d slices never ended", tidOf[u], len(st))
		}
	}
	return out
}

// The Perfetto trace of every corpus trace decodes with perfetto's own schema, and holds per
// thread as many slices as the profile table has calls, the outermost summing to its level-1
// time.
func TestPerfettoTraceDecodes(t *testing.T) {
	fastlane.Needs(t, "protoc")
	for _, name := range exportTraces {
		t.Run(name, func(t *testing.T) {
			h, p, all := builtRun(t, name)
			for _, wall := range []bool{false, true} {
				var buf bytes.Buffer
				s, err := exportOf(h, p, all, wall).perfetto(&buf)
				if err != nil {
					t.Fatal(err)
				}
				got, want := perfettoThreads(t, buf.Bytes()), profileWants(p, wall)
				if s.Slices != len(all) || len(got) != len(want) {
					t.Errorf("wall=%v: %d slices on %d threads; %d calls on %d threads", wall, s.Slices, len(got), len(all), len(want))
				}
				for tid, w := range want {
					if got[tid] != w {
						t.Errorf("wall=%v thread %d: %d slices, level 1 %d µs; the profile table has %d calls, %d µs", wall, tid,
							got[tid].Calls, got[tid].Top, w.Calls, w.Top)
					}
				}
			}
		})
	}
}

// speedscopeThreads reads back a speedscope file's evented profiles as speedscope's importer
// does, failing where it would (a close of a frame not on top, time going back): per profile,
// the frames opened and the summed time of the outermost.
func speedscopeThreads(t *testing.T, data []byte) map[string]threadWant {
	t.Helper()
	var f struct {
		Schema   string `json:"$schema"`
		Profiles []struct {
			Type, Name string
			Events     []struct {
				Type  string
				Frame int
				At    uint64
			}
		}
		Shared struct{ Frames []struct{ Name string } }
	}
	if err := json.Unmarshal(data, &f); err != nil {
		t.Fatalf("not JSON: %v", err)
	}
	out := map[string]threadWant{}
	for _, p := range f.Profiles {
		var stack []int
		var opened []uint64
		var last uint64
		w := threadWant{}
		for _, e := range p.Events {
			if e.At < last || e.Frame < 0 || e.Frame >= len(f.Shared.Frames) {
				t.Fatalf("%s: event %+v after %d", p.Name, e, last)
			}
			last = e.At
			switch e.Type {
			case "O":
				stack, opened = append(stack, e.Frame), append(opened, e.At)
				w.Calls++
			case "C":
				if len(stack) == 0 || stack[len(stack)-1] != e.Frame {
					t.Fatalf("%s: close of frame %d, the top is %v", p.Name, e.Frame, stack[max(len(stack)-1, 0):])
				}
				if len(stack) == 1 {
					w.Top += e.At - opened[0]
				}
				stack, opened = stack[:len(stack)-1], opened[:len(opened)-1]
			}
		}
		if len(stack) > 0 {
			t.Errorf("%s: %d frames never closed", p.Name, len(stack))
		}
		out[p.Name] = w
	}
	return out
}

// The speedscope file of every corpus trace has one evented profile per thread, nested as
// speedscope's importer requires, as many opens as the profile table's calls and the outermost
// summing to its level-1 time.
func TestSpeedscopeEvented(t *testing.T) {
	for _, name := range exportTraces {
		t.Run(name, func(t *testing.T) {
			h, p, all := builtRun(t, name)
			for _, wall := range []bool{false, true} {
				var buf bytes.Buffer
				m := exportOf(h, p, all, wall)
				if _, err := m.speedscope(&buf); err != nil {
					t.Fatal(err)
				}
				got, want := speedscopeThreads(t, buf.Bytes()), profileWants(p, wall)
				if len(got) != len(want) {
					t.Errorf("wall=%v: %d profiles for %d threads", wall, len(got), len(want))
				}
				for tid, w := range want {
					if g := got["thread "+m.threadName(tid)]; g != w {
						t.Errorf("wall=%v thread %d: %+v, the profile table %+v", wall, tid, g, w)
					}
				}
			}
		})
	}
}

// viewerPage is a page of our own that reads Chrome trace files as a viewer does, in the
// browser (XMLHttpRequest and JSON.parse), and prints per file and thread the slices and the
// summed durations of the outermost: "file tid slices µs" lines.
const viewerPage = `<!doctype html><html><body><pre id="out">not run</pre><script>
var lines = [];
FILES.forEach(function (name) {
  var x = new XMLHttpRequest();
  x.open('GET', name + '.json', false);
  x.send();
  var per = {};
  JSON.parse(x.responseText).traceEvents.forEach(function (e) {
    if (e.ph === 'X') (per[e.tid] = per[e.tid] || []).push(e);
  });
  Object.keys(per).forEach(function (tid) {
    var ss = per[tid].sort(function (a, b) { return a.ts - b.ts || b.dur - a.dur; });
    var top = 0, outerEnd = -1;
    ss.forEach(function (s) {
      if (s.ts >= outerEnd) { top += s.dur; outerEnd = s.ts + s.dur; }
    });
    lines.push(name + ' ' + tid + ' ' + ss.length + ' ' + top);
  });
});
document.getElementById('out').textContent = lines.join('\n');
</script></body></html>`

// inChromium loads Chrome trace files (name → JSON) in headless Chromium with viewerPage and
// returns what it counted per file and thread.
func inChromium(t *testing.T, files map[string][]byte) map[string]map[int]threadWant {
	t.Helper()
	dir := t.TempDir()
	var names []string
	for name, data := range files {
		if err := os.WriteFile(filepath.Join(dir, name+".json"), data, 0o644); err != nil {
			t.Fatal(err)
		}
		names = append(names, strconv.Quote(name))
	}
	page := strings.Replace(viewerPage, "FILES", "["+strings.Join(names, ",")+"]", 1)
	if err := os.WriteFile(filepath.Join(dir, "viewer.html"), []byte(page), 0o644); err != nil {
		t.Fatal(err)
	}
	dom := htmltest.Chromium(t, "--allow-file-access-from-files", "--dump-dom", "file://"+filepath.Join(dir, "viewer.html"))
	text, _, ok := strings.Cut(string(dom), "</pre>")
	_, text, ok2 := strings.Cut(text, `<pre id="out">`)
	if !ok || !ok2 || text == "not run" {
		t.Fatalf("the page did not run:\n%s", dom)
	}
	out := map[string]map[int]threadWant{}
	for _, line := range strings.Split(strings.TrimSpace(text), "\n") {
		var name string
		var tid int
		var w threadWant
		if _, err := fmt.Sscan(line, &name, &tid, &w.Calls, &w.Top); err != nil {
			t.Fatalf("page printed %q: %v", line, err)
		}
		if out[name] == nil {
			out[name] = map[int]threadWant{}
		}
		out[name][tid] = w
	}
	return out
}

// The check: the Chrome JSON of each corpus trace, read in headless Chromium, has per
// thread as many slices as the profile table has calls, the outermost summing to the table's
// level-1 time — written from the call builder's calls, and through the workspace's door
// (Workspace.Export, the store's every call), on both clocks the trace has.
func TestChromeTraceOpensInChromium(t *testing.T) {
	fastlane.Needs(t, "chromium")
	ctx := context.Background()
	for _, name := range exportTraces {
		t.Run(name, func(t *testing.T) {
			h, p, all := builtRun(t, name)
			ws := NewWorkspace(openStore(t))
			path := corpus.File(t, name)
			if strings.HasSuffix(name, ".gz") {
				path = gunzipTo(t, path)
			}
			importMethodRun(t, ws.Importer(), "r", path)
			files := map[string][]byte{}
			wants := map[string]map[int]threadWant{}
			for _, wall := range []bool{false, true} {
				if cpu, real := ChartClocks(p.Clock); wall && !real || !wall && !cpu {
					continue
				}
				clock := map[bool]string{false: "cpu", true: "wall"}[wall]
				var built, stored bytes.Buffer
				if _, err := exportOf(h, p, all, wall).chrome(&built); err != nil {
					t.Fatal(err)
				}
				s, err := ws.Export(ctx, "r", "chrome", ExportOptions{Clock: clock}, &stored)
				if err != nil || s.Partial != "" {
					t.Fatalf("export: %v %q", err, s.Partial)
				}
				files["builder-"+clock], files["workspace-"+clock] = built.Bytes(), stored.Bytes()
				wants["builder-"+clock], wants["workspace-"+clock] = profileWants(p, wall), profileWants(p, wall)
			}
			got := inChromium(t, files)
			for file, want := range wants {
				if len(got[file]) != len(want) {
					t.Errorf("%s: %d threads with slices, the table has %d", file, len(got[file]), len(want))
				}
				for tid, w := range want {
					if g := got[file][tid]; g != w {
						t.Errorf("%s thread %d: Chromium read %d slices, level 1 %d µs; the profile table has %d calls, %d µs",
							file, tid, g.Calls, g.Top, w.Calls, w.Top)
					}
				}
			}
		})
	}
}

// A sampled run's exports count every sample once: speedscope's profiles (one per thread) hold
// each sample with weight 1, pprof's values sum to the samples, and one thread keeps only its
// own; a format sampled runs lack is refused naming those they have.
func TestExportSampledRun(t *testing.T) {
	ctx := context.Background()
	ws := NewWorkspace(openStore(t))
	if err := ws.Importer().ImportFiles(ctx, "java", []string{javaScript}, nil); err != nil {
		t.Fatal(err)
	}
	p, err := ws.Samples.Profile(ctx, "java")
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	s, err := ws.Export(ctx, "java", "speedscope", ExportOptions{}, &buf)
	if err != nil {
		t.Fatal(err)
	}
	var f struct {
		Profiles []struct {
			Type    string
			Name    string
			Samples [][]int
			Weights []int64
		}
	}
	if err := json.Unmarshal(buf.Bytes(), &f); err != nil {
		t.Fatal(err)
	}
	total := 0
	for _, pr := range f.Profiles {
		if pr.Type != "sampled" || len(pr.Samples) != len(pr.Weights) {
			t.Errorf("%s: %s, %d samples, %d weights", pr.Name, pr.Type, len(pr.Samples), len(pr.Weights))
		}
		total += len(pr.Samples)
	}
	if total != len(p.Samples) || s.Events != total || s.Threads != len(f.Profiles) || s.Threads < 2 {
		t.Errorf("%d samples in %d profiles (summary %+v); the run has %d", total, len(f.Profiles), s, len(p.Samples))
	}

	tid := p.Threads[p.Samples[0].Thread].TID
	own := 0
	for _, r := range p.Samples {
		if p.Threads[r.Thread].TID == tid {
			own++
		}
	}
	for _, one := range []int{0, tid} {
		pp, err := ws.Samples.Pprof(ctx, "java")
		if err != nil {
			t.Fatal(err)
		}
		if one != 0 {
			pp = pprofThread(pp, one)
		}
		var sum int64
		for _, smp := range pp.Sample {
			sum += smp.Value[0]
		}
		if want := map[bool]int{true: len(p.Samples), false: own}[one == 0]; sum != int64(want) {
			t.Errorf("thread %d: pprof holds %d samples, want %d", one, sum, want)
		}
	}
	var no *ErrNoExportFormat
	if _, err := ws.Export(ctx, "java", "perfetto", ExportOptions{}, &buf); !errors.As(err, &no) || !strings.Contains(err.Error(), "speedscope, folded, pprof") {
		t.Errorf("perfetto of a sampled run: %v", err)
	}
	if _, err := ws.Export(ctx, "java", "pprof", ExportOptions{Clock: "wall"}, &buf); err == nil {
		t.Error("a clock for a sampled run was taken")
	}
}

// The nester puts a caller before its callees from calls in the order they ended; an orphan
// (begun before tracing) holds the outermost calls before it; past nestHoldCalls the finished
// outermost calls are written and the rest still nest.
func TestCallNester(t *testing.T) {
	type ev struct {
		open   bool
		method uint64
		ts     uint64
	}
	run := func(in []calls.Call) []ev {
		var out []ev
		n := &callNester{at: clockOf(true),
			open:  func(m, start, _ uint64) error { out = append(out, ev{true, m, start}); return nil },
			close: func(m, ts uint64) error { out = append(out, ev{false, m, ts}); return nil }}
		for _, c := range in {
			if err := n.add(c); err != nil {
				t.Fatal(err)
			}
		}
		if err := n.flush(); err != nil {
			t.Fatal(err)
		}
		return out
	}
	call := func(m uint64, depth int, start, end uint64, orphan bool) calls.Call {
		return calls.Call{Method: m, Depth: depth, StartWall: start, EndWall: end, Orphan: orphan}
	}
	got := run([]calls.Call{call(2, 1, 1, 2, false), call(3, 1, 2, 3, false), call(1, 0, 1, 4, false),
		call(4, 0, 5, 6, false), call(9, 0, 0, 7, true)})
	want := []ev{{true, 9, 0}, {true, 1, 1}, {true, 2, 1}, {false, 2, 2}, {true, 3, 2}, {false, 3, 3}, {false, 1, 4},
		{true, 4, 5}, {false, 4, 6}, {false, 9, 7}}
	if !slices.Equal(got, want) {
		t.Errorf("got  %v\nwant %v", got, want)
	}

	var many []calls.Call
	for i := range uint64(nestHoldCalls) {
		many = append(many, call(10, 1, 2*i, 2*i+1, false), call(11, 0, 2*i, 2*i+1, false))
	}
	out := run(many)
	depth, opened := 0, 0
	var last uint64
	for _, e := range out {
		if e.ts < last {
			t.Fatalf("time went back to %d after %d", e.ts, last)
		}
		last = e.ts
		if e.open {
			depth++
			opened++
			if want := map[uint64]int{11: 1, 10: 2}[e.method]; depth != want {
				t.Fatalf("method %d opened at depth %d", e.method, depth)
			}
		} else {
			depth--
		}
	}
	if depth != 0 || opened != len(many) {
		t.Errorf("%d opened of %d, %d left open", opened, len(many), depth)
	}
}
