package cli

import (
	"bufio"
	"compress/gzip"
	"encoding/csv"
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"androprof/model"
)

// javaScript is `perf script` text of a Java program recorded on this machine with HotSpot's
// perf map (formats/perfscript/testdata): threads java, C1 and C2 CompilerThre.
const javaScript = "../../formats/perfscript/testdata/java.perfscript.gz"

// scriptSample is a sample of a perf script file as the test reads it, apart from the reader.
type scriptSample struct {
	comm   string
	tid    int
	timeNS int64
	frames []string // the frame lines, leaf first
}

func readScript(t *testing.T, path string) []scriptSample {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	z, err := gzip.NewReader(f)
	if err != nil {
		t.Fatal(err)
	}
	var out []scriptSample
	sc := bufio.NewScanner(z)
	for sc.Scan() {
		line := sc.Text()
		switch {
		case line == "" || line[0] == '#':
		case line[0] == ' ' || line[0] == '\t':
			out[len(out)-1].frames = append(out[len(out)-1].frames, line)
		default: // COMM [PID/]TID SECONDS.MICROS: PERIOD EVENT:
			fields := strings.Fields(line)
			i := slices.IndexFunc(fields, func(f string) bool { return strings.Trim(f, "0123456789/") == "" })
			tid, _ := strconv.Atoi(fields[i][strings.LastIndex(fields[i], "/")+1:])
			sec, err := strconv.ParseFloat(strings.TrimSuffix(fields[i+1], ":"), 64)
			if err != nil {
				t.Fatalf("%s: %q: %v", path, line, err)
			}
			out = append(out, scriptSample{comm: strings.Join(fields[:i], " "), tid: tid, timeNS: int64(sec * 1e9)})
		}
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return out
}

// countScript counts the samples keep keeps.
func countScript(samples []scriptSample, keep func(s scriptSample) bool) int {
	n := 0
	for _, s := range samples {
		if keep(s) {
			n++
		}
	}
	return n
}

// sampleReportJSON is `report --json` of a sampled run, as scripts read it.
type sampleReportJSON struct {
	Run         string        `json:"run"`
	Kind        model.RunKind `json:"kind"`
	By          string        `json:"by"`
	Format      string        `json:"format"`
	Event       string        `json:"event"`
	RateHz      int           `json:"rate_hz"`
	AppPackages []string      `json:"app_packages"`
	Samples     struct {
		Stored              int    `json:"stored"`
		Kept                int    `json:"kept"`
		LeftOut             int    `json:"left_out"`
		LeftOutWhy          string `json:"left_out_why"`
		LeftOutRecording    int    `json:"left_out_recording"`
		LeftOutRecordingWhy string `json:"left_out_recording_why"`
	} `json:"samples"`
	Rows    []sampleRowJSON `json:"rows"`
	Callers []sampleRowJSON `json:"callers"`
	Callees []sampleRowJSON `json:"callees"`
	Symbol  struct{ Symbol, Image, Layer string }
}

func sampleJSON(t *testing.T, db string, args ...string) sampleReportJSON {
	t.Helper()
	code, out, errOut := runCLI(t, db, append([]string{"report", "--json"}, args...)...)
	var rep sampleReportJSON
	if code != 0 {
		t.Fatalf("report %q: code %d, %s", args, code, errOut)
	}
	if err := json.Unmarshal([]byte(out), &rep); err != nil {
		t.Fatalf("report %q: %v\n%s", args, err, out)
	}
	return rep
}

func selfSum(rows []sampleRowJSON) int {
	n := 0
	for _, r := range rows {
		n += r.Self
	}
	return n
}

// The sampled-run reports over a real recording: each grouping adds up to the samples the
// targets keep, and the totals say what they left out, counted apart from the reader.
func TestSampleReports(t *testing.T) {
	t.Parallel()
	db := filepath.Join(t.TempDir(), "w.db")
	samples := readScript(t, javaScript)
	code, out, errOut := runCLI(t, db, "import", "--run", "java", javaScript)
	if code != 0 || !strings.Contains(out, `run "java": a sampled profile, `+strconv.Itoa(len(samples))+" samples in 4 threads") {
		t.Fatalf("import: code %d, %q, %s", code, out, errOut)
	}
	for _, by := range []string{"layer", "image", "symbol", "component"} {
		rep := sampleJSON(t, db, "--run", "java", "--by", by)
		if rep.Kind != model.RunKindSamples || rep.By != by || rep.Format != "perf-script" || rep.Event != "cpu-clock" || rep.RateHz != 499 ||
			rep.Samples.Stored != len(samples) || rep.Samples.Kept != len(samples) || selfSum(rep.Rows) != len(samples) {
			t.Errorf("--by %s: %+v, Σ self %d; want %d samples", by, rep, selfSum(rep.Rows), len(samples))
		}
	}
	rep := sampleJSON(t, db, "--run", "java", "--by", "symbol", "--top", "1")
	if len(rep.Rows) != 1 || !strings.Contains(rep.Rows[0].Symbol, "DualPivotQuicksort.sort") || rep.Rows[0].Layer != "java library" {
		t.Errorf("the top symbol: %+v", rep.Rows)
	}

	// Targets of interest, each against the file's own count.
	first := samples[0].timeNS
	onStack := func(text string) func(s scriptSample) bool {
		return func(s scriptSample) bool {
			return slices.ContainsFunc(s.frames, func(f string) bool { return strings.Contains(f, text) })
		}
	}
	for _, c := range []struct {
		args []string
		keep func(s scriptSample) bool
		why  string
	}{
		{[]string{"--tid", "32765"}, func(s scriptSample) bool { return s.tid == 32765 }, "thread ids 32765"},
		{[]string{"--threads", "C1*,C2 CompilerThre"}, func(s scriptSample) bool { return strings.HasPrefix(s.comm, "C") }, "threads C1*,C2 CompilerThre"},
		{[]string{"--from", "0.5", "--to", "1"}, func(s scriptSample) bool {
			return s.timeNS-first >= 5e8 && s.timeNS-first < 1e9
		}, "time 0.5 s to 1 s"},
		{[]string{"--focus", "Spin.loop"}, onStack("Spin.loop("), "focus Spin.loop"},
	} {
		want := countScript(samples, c.keep)
		rep := sampleJSON(t, db, append([]string{"--run", "java", "--by", "layer"}, c.args...)...)
		if rep.Samples.Kept != want || rep.Samples.LeftOut != len(samples)-want || rep.Samples.LeftOutWhy != c.why || selfSum(rep.Rows) != want {
			t.Errorf("%q: kept %d, left out %d (%q), Σ self %d; want %d kept, why %q", c.args, rep.Samples.Kept, rep.Samples.LeftOut,
				rep.Samples.LeftOutWhy, selfSum(rep.Rows), want, c.why)
		}
	}
	loops := countScript(samples, onStack("Spin.loop("))
	code, out, _ = runCLI(t, db, "report", "--run", "java", "--focus", "Spin.loop")
	wantLine := strconv.Itoa(loops) + " of " + strconv.Itoa(len(samples)) + " samples; " + strconv.Itoa(len(samples)-loops) + " left out by focus Spin.loop"
	if code != 0 || !strings.Contains(out, wantLine) || !strings.Contains(out, "application") {
		t.Errorf("report --focus: code %d, want %q in\n%s", code, wantLine, out)
	}

	// --app re-classifies: Spin is no longer the application's.
	if rep := sampleJSON(t, db, "--run", "java", "--app", "com.example"); !slices.Equal(rep.AppPackages, []string{"com.example"}) ||
		slices.ContainsFunc(rep.Rows, func(r sampleRowJSON) bool { return r.Layer == "application" }) {
		t.Errorf("--app com.example: %+v", rep)
	}
	if rep := sampleJSON(t, db, "--run", "java"); !slices.ContainsFunc(rep.Rows, func(r sampleRowJSON) bool { return r.Layer == "application" && r.Self > 0 }) {
		t.Errorf("without --app Spin is not the application's: %+v", rep.Rows)
	}

	// Seed figure 13: who calls Spin.loop and what it calls.
	rep = sampleJSON(t, db, "--run", "java", "--callers", "Spin.loop", "--callees", "Spin.loop")
	if rep.Symbol.Symbol != "long Spin.loop(int)" || rep.Symbol.Layer != "application" || len(rep.Callers) == 0 || len(rep.Callees) == 0 {
		t.Fatalf("neighbours of Spin.loop: %+v", rep)
	}
	callers := 0
	for _, r := range rep.Callers {
		callers += r.Total
	}
	if callers > loops || rep.Callees[0].Symbol != "(self)" {
		t.Errorf("callers count %d samples (Spin.loop is on %d); callees %+v", callers, loops, rep.Callees)
	}
	code, out, _ = runCLI(t, db, "report", "--run", "java", "--callers", "Spin.loop")
	if code != 0 || !strings.Contains(out, "\nSpin.loop(int) in /tmp/perf-32761.map (application)") || !strings.Contains(out, "CALLERS") ||
		strings.Contains(out, "CALLEES") {
		t.Errorf("report --callers:\n%s", out)
	}
	if code, out, _ = runCLI(t, db, "report", "--run", "java", "--callers", "Spin.loop", "--raw-names"); code != 0 ||
		!strings.Contains(out, "long Spin.loop(int) in /tmp/perf-32761.map (application)") {
		t.Errorf("report --callers --raw-names:\n%s", out)
	}

	// CSV: the JSON's field names, one row per thread.
	code, out, _ = runCLI(t, db, "report", "--run", "java", "--by", "thread", "--csv")
	recs, err := csv.NewReader(strings.NewReader(out)).ReadAll()
	if code != 0 || err != nil || len(recs) != 5 || !slices.Equal(recs[0][:5], []string{"pid", "tid", "comm", "samples", "top_layer"}) {
		t.Fatalf("--by thread --csv: code %d, %v\n%s", code, err, out)
	}
	for _, r := range recs[1:] {
		tid, _ := strconv.Atoi(r[1])
		if n, _ := strconv.Atoi(r[3]); n != countScript(samples, func(s scriptSample) bool { return s.tid == tid }) {
			t.Errorf("thread %d: %s samples", tid, r[3])
		}
	}

	for _, c := range []struct {
		args []string
		code int
		want string
	}{
		{[]string{"--by", "method"}, 2, "layer, image, symbol, component or thread"},
		{[]string{"--pid", "3"}, 2, "--tid"},
		{[]string{"--json", "--csv"}, 2, "not both"},
		{[]string{"--from", "2", "--to", "1"}, 2, "ends (1 s) before it starts (2 s)"},
		{[]string{"--from", "NaN"}, 2, "NaN is not a time"},
		{[]string{"--tid", "main"}, 2, "--tid"},
		{[]string{"--callers", "Spin."}, 1, "symbols match"},
		{[]string{"--callers", "nothing such"}, 1, "no symbol"},
	} {
		code, _, errOut := runCLI(t, db, append([]string{"report", "--run", "java"}, c.args...)...)
		if code != c.code || !strings.Contains(errOut, c.want) {
			t.Errorf("report %q: code %d, %s; want %d and %q", c.args, code, errOut, c.code, c.want)
		}
	}
}

// import's recording-time target keeps a part of the recording and says what it left out.
func TestSampleImportTarget(t *testing.T) {
	t.Parallel()
	db := filepath.Join(t.TempDir(), "w.db")
	samples := readScript(t, javaScript)
	compilers := countScript(samples, func(s scriptSample) bool { return strings.HasPrefix(s.comm, "C") })
	code, out, errOut := runCLI(t, db, "import", "--run", "jit", "--threads", "C*", "--app", "com.example", "--json", javaScript)
	var imported struct {
		Kind                model.RunKind
		Samples             int
		LeftOutRecording    int    `json:"left_out_recording"`
		LeftOutRecordingWhy string `json:"left_out_recording_why"`
	}
	if code != 0 || json.Unmarshal([]byte(out), &imported) != nil || imported.Kind != model.RunKindSamples || imported.Samples != compilers ||
		imported.LeftOutRecording != len(samples)-compilers || imported.LeftOutRecordingWhy != "threads C*" {
		t.Fatalf("import --threads C*: code %d, %+v, %s\n%s", code, imported, errOut, out)
	}
	rep := sampleJSON(t, db, "--run", "jit", "--by", "component")
	if !slices.Equal(rep.AppPackages, []string{"com.example"}) || rep.Samples.Stored != compilers || rep.Samples.LeftOutRecording != len(samples)-compilers {
		t.Errorf("report of the target: %+v", rep)
	}
	if len(rep.Rows) == 0 || rep.Rows[0].Key != "vm / JIT compiler" {
		t.Errorf("the compiler threads' top component: %+v", rep.Rows)
	}
	code, out, _ = runCLI(t, db, "report", "--run", "jit", "--by", "component")
	want := strconv.Itoa(len(samples)-compilers) + " more left out when recorded (threads C*)"
	if code != 0 || !strings.Contains(out, want) {
		t.Errorf("report: want %q in\n%s", want, out)
	}
	if code, _, errOut := runCLI(t, db, "import", "--run", "bad", "--from", "-1", javaScript); code != 2 || !strings.Contains(errOut, "--from") {
		t.Errorf("import --from -1: code %d, %s", code, errOut)
	}
}

// chart draws a sampled run's layers over time, its tables as bars and its flame graph.
func TestSampleCharts(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	db := filepath.Join(dir, "w.db")
	if code, _, errOut := runCLI(t, db, "import", "--run", "java", javaScript); code != 0 {
		t.Fatal(errOut)
	}
	for _, c := range [][]string{
		{"--by", "layer-time", "--out", filepath.Join(dir, "t.png")},
		{"--out", filepath.Join(dir, "default.svg")},
		{"--by", "layer-time", "--counts", "--buckets", "20", "--threads", "java", "--out", filepath.Join(dir, "counts.svg")},
		{"--by", "layer", "--out", filepath.Join(dir, "layer.png")},
		{"--by", "symbol", "--focus", "Spin", "--out", filepath.Join(dir, "symbol.svg")},
		{"--by", "thread", "--out", filepath.Join(dir, "thread.png")},
		{"--by", "flame", "--out", filepath.Join(dir, "flame.svg")},
	} {
		code, out, errOut := runCLI(t, db, append([]string{"chart", "--run", "java", "--json"}, c...)...)
		var res struct {
			Out   string
			Empty bool
		}
		if code != 0 || json.Unmarshal([]byte(out), &res) != nil || res.Empty {
			t.Errorf("chart %q: code %d, %s%s", c, code, out, errOut)
			continue
		}
		if st, err := os.Stat(res.Out); err != nil || st.Size() < 1000 {
			t.Errorf("chart %q: %v", c, err)
		}
	}
	if code, _, errOut := runCLI(t, db, "chart", "--run", "java", "--by", "pie", "--out", filepath.Join(dir, "x.png")); code != 2 || !strings.Contains(errOut, "flame") {
		t.Errorf("chart --by pie: code %d, %s", code, errOut)
	}
	// The flame graph's SVG names frames of every kind: Java, VM, kernel.
	svg, err := os.ReadFile(filepath.Join(dir, "flame.svg"))
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"Spin.main", "Interpreter", "do_syscall_64"} {
		if !strings.Contains(string(svg), want) {
			t.Errorf("flame graph without %q", want)
		}
	}
}

// --from and --to that are no time (NaN, infinite, past int64 nanoseconds) are refused: they
// used to become MinInt64 and mean "from the start" without a word.
func TestSampleTimesThatAreNoTime(t *testing.T) {
	for _, v := range []string{"NaN", "Inf", "1e300", "-1"} {
		tf := targetFlags{}
		fs := flag.NewFlagSet("t", flag.ContinueOnError)
		tf.addAnalysis(fs)
		if err := fs.Parse([]string{"--from", v}); err != nil {
			continue // the flag package refused it already
		}
		if _, err := tf.selection(); err == nil {
			t.Errorf("--from %s was taken as a time", v)
		}
	}
}
