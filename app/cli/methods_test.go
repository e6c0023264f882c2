package cli

import (
	"encoding/json"
	"os/exec"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"androprof/internal/corpus"
)

// A real Traceview trace through the command line: import, the profile table as JSON with
// dmtracedump's numbers, a hotspot chart, and a pprof file that go tool pprof reads.
func TestMethodTraceCommands(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	db := filepath.Join(dir, "w.db")
	if code, _, errOut := runCLI(t, db, "import", "--run", "basic", corpus.File(t, "perflib-basic.trace")); code != 0 {
		t.Fatal(errOut)
	}
	if code, _, errOut := runCLI(t, db, "import", "--run", "jag", corpus.File(t, "jag-dmtrace.trace")); code != 0 {
		t.Fatal(errOut)
	}
	code, out, errOut := runCLI(t, db, "report", "--run", "basic", "--by", "method", "--find", "Basic.foo", "--json")
	if code != 0 {
		t.Fatal(errOut)
	}
	var rep struct {
		Rows []struct {
			Key       string
			ExclCPUus uint64 `json:"excl_cpu_us"`
			InclCPUus uint64 `json:"incl_cpu_us"`
			Calls     int64
		}
	}
	if err := json.Unmarshal([]byte(out), &rep); err != nil {
		t.Fatal(err)
	}
	if len(rep.Rows) != 1 || rep.Rows[0].ExclCPUus != 5 || rep.Rows[0].InclCPUus != 7 || rep.Rows[0].Calls != 1 {
		t.Errorf("Basic.foo = %+v; dmtracedump gives 5/7 µs, 1 call", rep.Rows)
	}
	for _, by := range []string{"class", "package", "thread"} {
		if code, _, errOut := runCLI(t, db, "report", "--run", "jag", "--by", by); code != 0 {
			t.Errorf("report --by %s: %s", by, errOut)
		}
	}
	svg := filepath.Join(dir, "hot.svg")
	if code, _, errOut := runCLI(t, db, "chart", "--run", "jag", "--by", "method", "--out", svg); code != 0 {
		t.Fatal(errOut)
	}
	checkXML(t, svg)
	if code, _, errOut := runCLI(t, db, "chart", "--run", "jag", "--by", "package", "--kind", "pie", "--out", filepath.Join(dir, "pkg.png")); code != 0 {
		t.Fatal(errOut)
	}

	pb := filepath.Join(dir, "jag.pb.gz")
	if code, _, errOut := runCLI(t, db, "export", "--run", "jag", "--format", "pprof", "--out", pb); code != 0 {
		t.Fatal(errOut)
	}
	goTool, err := exec.LookPath("go")
	if err != nil {
		t.Skip("go not on PATH to run go tool pprof")
	}
	top, err := exec.Command(goTool, "tool", "pprof", "-top", "-sample_index=cpu", pb).CombinedOutput()
	if err != nil || !strings.Contains(string(top), "flat%") {
		t.Fatalf("go tool pprof: %v\n%s", err, top)
	}
	if code, _, errOut := runCLI(t, db, "export", "--run", "nope", "--format", "pprof", "--out", pb); code != 1 || !strings.Contains(errOut, "nope") {
		t.Errorf("missing run: %d %q", code, errOut)
	}
}

// Issue 23: a method's parents and children on the command line, as dmtracedump lists them and
// the window shows them. On sns-logout ViewGroup.drawChild is called 9 times from dispatchDraw
// with no drawChild below (846,218 µs, its own inclusive time) and 94 times nested (2,615,473
// µs, dmtracedump's rows after "+++++"); one row of 103 calls and 3,461,691 µs would be wrong.
// The trace has no real-time clock: those numbers are unknown (null), never 0.
func TestMethodRelativesCommand(t *testing.T) {
	t.Parallel()
	db := filepath.Join(t.TempDir(), "w.db")
	if code, _, errOut := runCLI(t, db, "import", "--run", "sns", corpus.File(t, "sns-logout.trace")); code != 0 {
		t.Fatal(errOut)
	}
	code, out, errOut := runCLI(t, db, "report", "--run", "sns", "--callers", "android.view.ViewGroup.drawChild", "--json")
	if code != 0 {
		t.Fatal(errOut)
	}
	type row struct {
		Method     string  `json:"method"`
		Calls      int64   `json:"calls"`
		TotalCalls int64   `json:"total_calls"`
		Recursive  bool    `json:"recursive"`
		InclCPU    *uint64 `json:"incl_cpu_us"`
		InclReal   *uint64 `json:"incl_real_us"`
	}
	var rep struct {
		Method  row
		Callers []row
		Callees []row
	}
	if err := json.Unmarshal([]byte(out), &rep); err != nil {
		t.Fatal(err)
	}
	const dispatch = "android/view/ViewGroup.dispatchDraw (Landroid/graphics/Canvas;)V"
	cpu := func(v uint64) *uint64 { return &v }
	want := []row{{dispatch, 9, 103, false, cpu(846218), nil}, {dispatch, 94, 103, true, cpu(2615473), nil}}
	if !reflect.DeepEqual(rep.Callers, want) || rep.Callees != nil || rep.Method.Calls != 9 || *rep.Method.InclCPU != 846218 {
		t.Errorf("callers of drawChild: %+v (method %+v, callees %+v)", rep.Callers, rep.Method, rep.Callees)
	}
	// Java's names by default, the trace's with --raw-names; either finds the method.
	for _, c := range []struct {
		args          []string
		title, callee string
	}{
		{[]string{"ViewGroup.dispatchDraw"}, "CALLEE PACKAGE", "ViewGroup.drawChild(Canvas, View, long) android.view"},
		{[]string{"android.view.ViewGroup.dispatchDraw(Canvas)", "--raw-names"}, "CALLEE",
			"android/view/ViewGroup.drawChild (Landroid/graphics/Canvas;Landroid/view/View;J)Z"},
	} {
		code, out, errOut = runCLI(t, db, append([]string{"report", "--run", "sns", "--callees"}, c.args...)...)
		if code != 0 {
			t.Fatal(errOut)
		}
		var lines []string
		for _, l := range strings.Split(out, "\n") {
			lines = append(lines, strings.Join(strings.Fields(l), " "))
		}
		for _, w := range []string{"CALLS/TOTAL INCL CPU µs INCL REAL µs RECURSIVE " + c.title, "9/103 846218 unknown " + c.callee,
			"94/103 2615473 unknown recursive " + c.callee} {
			if !slices.Contains(lines, w) {
				t.Errorf("callees of dispatchDraw %v lack %q:\n%s", c.args, w, out)
			}
		}
	}
	if code, _, errOut := runCLI(t, db, "report", "--run", "sns", "--callers", "dispatchDraw"); code != 2 || !strings.Contains(errOut, "names 4 methods") {
		t.Errorf("an ambiguous name: exit %d, %q", code, errOut)
	}
}

// RMP's options on the command line: the seed's probe-cost deduction by default, the measured
// times with --measured, and the zoom-in filter (only what restoreState's caller chain calls).
func TestRMPImportOptions(t *testing.T) {
	db := filepath.Join(t.TempDir(), "w.db")
	log := "../../formats/rmp/testdata/browser.rmp"
	for _, c := range [][]string{
		{"import", "--run", "deducted", log},
		{"import", "--run", "measured", "--measured", log},
		{"import", "--run", "zoom", "--area", "method", "--callers", "com.android.browser.BrowserActivity.onCreate", log},
	} {
		if code, _, errOut := runCLI(t, db, c...); code != 0 {
			t.Fatalf("%v: %s", c, errOut)
		}
	}
	total := func(run string) (uint64, int) {
		code, out, errOut := runCLI(t, db, "report", "--run", run, "--by", "method", "--json")
		if code != 0 {
			t.Fatal(errOut)
		}
		var rep struct {
			Rows   []struct{ Key string }
			Totals struct {
				RealUS uint64 `json:"real_us"`
			}
		}
		if err := json.Unmarshal([]byte(out), &rep); err != nil {
			t.Fatal(err)
		}
		return rep.Totals.RealUS, len(rep.Rows)
	}
	deducted, _ := total("deducted")
	measured, all := total("measured")
	_, zoomed := total("zoom")
	if deducted >= measured {
		t.Errorf("deducted %d µs is not below measured %d µs", deducted, measured)
	}
	if zoomed == 0 || zoomed >= all {
		t.Errorf("the zoom-in kept %d of %d rows", zoomed, all)
	}
	if code, _, _ := runCLI(t, db, "import", "--run", "bad", "--area", "galaxy", log); code != 2 {
		t.Errorf("--area galaxy: exit %d, want 2", code)
	}
}
