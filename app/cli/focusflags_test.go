package cli

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"androprof/chart"
	"androprof/controller"
	"androprof/internal/corpus"
	"androprof/model/flame"
	"androprof/model/samples"
)

// The focus flags on `chart --by flame` give the graph the window's flame panel shows for the
// same steps (controller.FocusFlame after the tab's graph, then its search), byte for byte in
// SVG and CSV, for method and sampled runs; each flag alone and in order; the SVG says what
// was hidden and the JSON lists it under "focus".
func TestFocusFlagsChart(t *testing.T) {
	t.Parallel()
	db, ws := importedRuns(t, map[string]string{"jag": corpus.File(t, "jag-dmtrace.trace"), "java": javaScript})
	dir := filepath.Dir(db)
	ctx := context.Background()
	methods, err := ws.Methods.FlameChart(ctx, "jag", controller.FlameOptions{})
	if err != nil {
		t.Fatal(err)
	}
	d, err := ws.Samples.Chart(ctx, "java", samples.SampleSelection{}, nil, controller.SampleChartSpec{By: controller.SampleByFlame})
	if err != nil {
		t.Fatal(err)
	}
	sampled := d.(chart.Flame)
	window := func(f chart.Flame, steps []controller.FocusStep, find string) chart.Drawing {
		got, _, err := controller.FocusFlame(f, controller.FocusOptions{Steps: steps})
		if err != nil {
			t.Fatal(err)
		}
		if got, err = controller.FindFrames(got, find); err != nil {
			t.Fatal(err)
		}
		return got
	}
	thread, deep := widest(methods.Root), widest(widest(widest(methods.Root)))
	hide := strings.Join(flame.PathOf(methods.Root, widest(widest(methods.Root))), ";")
	sThread := widest(widest(sampled.Root))
	for _, c := range []struct {
		f     chart.Flame
		run   string
		flags []string
		steps []controller.FocusStep
	}{
		{methods, "jag", []string{"--focus", regexp.QuoteMeta(deep.Name)}, []controller.FocusStep{{Op: flame.OpKeep, Arg: regexp.QuoteMeta(deep.Name)}}},
		{methods, "jag", []string{"--only", "Canvas|draw"}, []controller.FocusStep{{Op: flame.OpOnly, Arg: "Canvas|draw"}}},
		{methods, "jag", []string{"--hide", hide}, []controller.FocusStep{{Op: flame.OpHide, Arg: hide}}},
		{methods, "jag", []string{"--merge", deep.Name, "--hide", thread.Name, "--find", "draw"},
			[]controller.FocusStep{{Op: flame.OpMerge, Arg: deep.Name}, {Op: flame.OpHide, Arg: thread.Name}}},
		{sampled, "java", []string{"--merge", sThread.Name, "--only", "java|Java"},
			[]controller.FocusStep{{Op: flame.OpMerge, Arg: sThread.Name}, {Op: flame.OpOnly, Arg: "java|Java"}}},
	} {
		find := ""
		if i := indexOf(c.flags, "--find"); i >= 0 {
			find = c.flags[i+1]
		}
		flags := append([]string{"--run", c.run, "--by", "flame"}, c.flags...)
		if diff := chartsDiffer(t, db, window(c.f, c.steps, find), flags...); diff != "" {
			t.Errorf("androprof chart %v is not the window's focused graph: %s", flags, diff)
		}
	}

	svg := filepath.Join(dir, "focus.svg")
	code, out, errOut := runCLI(t, db, "chart", "--run", "jag", "--by", "flame", "--hide", hide, "--out", svg, "--json")
	if code != 0 {
		t.Fatal(errOut)
	}
	checkXML(t, svg)
	b, _ := os.ReadFile(svg)
	if !strings.Contains(string(b), "Focus: hide ") || !strings.Contains(string(b), "%) hidden") {
		t.Error("the focused SVG does not say what was hidden")
	}
	var j struct {
		Focus []controller.FocusJSON `json:"focus"`
	}
	if err := json.Unmarshal([]byte(out), &j); err != nil || len(j.Focus) != 1 || j.Focus[0].Op != flame.OpHide ||
		j.Focus[0].Arg != hide || j.Focus[0].Hidden != widest(widest(methods.Root)).Total || j.Focus[0].Frames == 0 {
		t.Errorf("chart --json: %v %s", err, out)
	}
}

// widest is n's widest callee (n itself when it has none).
func widest(n *flame.Node) *flame.Node {
	best := n
	for _, c := range n.Children {
		if best == n || c.Total > best.Total {
			best = c
		}
	}
	return best
}

func indexOf(s []string, v string) int {
	for i, x := range s {
		if x == v {
			return i
		}
	}
	return -1
}

// The flags' errors: a bad expression names the flag and the expression, a --hide path not in
// the graph says so, a chart that is not a flame graph and an export that is not folded stacks
// refuse them; export --format folded and diff take them and say what they hid.
func TestFocusFlagsErrorsExportDiff(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	db := filepath.Join(dir, "w.db")
	for _, run := range []string{"exc", "exc2"} {
		if code, _, errOut := runCLI(t, db, "import", "--run", run, corpus.File(t, "perflib-exception.trace")); code != 0 {
			t.Fatal(errOut)
		}
	}
	out := filepath.Join(dir, "o")
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"chart", "--run", "exc", "--by", "flame", "--out", out + ".svg", "--only", "(x"}, `invalid value "(x" for flag -only: not a regular expression`},
		{[]string{"chart", "--run", "exc", "--by", "flame", "--out", out + ".svg", "--focus", "a[b"}, `--focus "a[b": not a regular expression`},
		{[]string{"diff", "exc", "exc2", "--focus", "a[b"}, `invalid value "a[b" for flag -focus: not a regular expression`},
		{[]string{"chart", "--run", "exc", "--by", "flame", "--out", out + ".svg", "--hide", "no;such;frame"}, `--hide "no;such;frame": no frame at that path in the graph`},
		{[]string{"chart", "--run", "exc", "--by", "method", "--out", out + ".svg", "--merge", "x"}, "--only, --hide and --merge are for flame graphs (--by flame)"},
		{[]string{"export", "--run", "exc", "--format", "speedscope", "--out", out + ".json", "--merge", "x"}, "do not apply to --format speedscope"},
		{[]string{"export", "--run", "exc", "--format", "folded", "--out", out + ".folded", "--hide", "nope"}, `--hide "nope": no frame`},
		{[]string{"diff", "exc", "exc2", "--hide", "nope"}, `--hide "nope": no frame`},
		{[]string{"diff", "exc", "exc2", "--merge", "nothing"}, `--merge "nothing": no frame of that name`},
	} {
		code, _, errOut := runCLI(t, db, c.args...)
		if code != 2 || !strings.Contains(errOut, c.want) {
			t.Errorf("%v: exit %d, %q; want 2 and %q", c.args, code, errOut, c.want)
		}
	}
	if _, err := os.Stat(out + ".folded"); err == nil {
		t.Error("a refused export left its file")
	}

	code, stdout, errOut := runCLI(t, db, "export", "--run", "exc", "--format", "folded", "--out", out+".folded", "--only", "^thread|Exception")
	if code != 0 {
		t.Fatal(errOut)
	}
	b, _ := os.ReadFile(out + ".folded")
	for _, line := range strings.Split(strings.TrimSpace(string(b)), "\n") {
		stack, _, _ := strings.Cut(line, " ")
		for _, frame := range strings.Split(stack, ";")[1:] {
			if !strings.Contains(frame, "Exception") && !strings.HasPrefix(frame, "thread") {
				t.Errorf("folded --only kept %q", frame)
			}
		}
	}
	if !strings.Contains(stdout, "focus: ") || !strings.Contains(stdout, "in frames not matching /^thread|Exception/") {
		t.Errorf("export says %q", stdout)
	}
	code, stdout, errOut = runCLI(t, db, "diff", "exc", "exc2", "--only", "Exception", "--json")
	if code != 0 {
		t.Fatal(errOut)
	}
	var j struct {
		Focus struct{ A, B []controller.FocusJSON } `json:"focus"`
		Rows  []struct{ Key string }                `json:"rows"`
	}
	if err := json.Unmarshal([]byte(stdout), &j); err != nil || len(j.Focus.A) != 1 || len(j.Focus.B) != 1 || j.Focus.A[0].Op != flame.OpOnly {
		t.Errorf("diff --json: %v %s", err, stdout)
	}
	for _, r := range j.Rows {
		if !strings.Contains(r.Key, "Exception") && !strings.HasPrefix(r.Key, "thread") {
			t.Errorf("diff --only kept row %q", r.Key)
		}
	}
	var name string
	for _, r := range j.Rows {
		if !strings.HasPrefix(r.Key, "thread") {
			name = r.Key
			break
		}
	}
	if code, stdout, _ = runCLI(t, db, "diff", "exc", "exc2", "--merge", name); code != 0 || !strings.Contains(stdout, "focus A: "+name+" merged into its callers") {
		t.Errorf("diff --merge %q: %d %s", name, code, stdout)
	}
}
