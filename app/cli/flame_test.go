package cli

import (
	"context"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"androprof/chart"
	"androprof/controller"
	"androprof/internal/corpus"
)

// `chart --run TRACE --by flame` writes the window's Flame tab: the graph FlameChart draws for
// the same thread and clock, searched as --find says, byte for byte in SVG and CSV; the SVG
// keeps each frame's numbers as hover text. What the window cannot be asked is refused.
func TestMethodFlameChart(t *testing.T) {
	t.Parallel()
	db, ws := importedRuns(t, map[string]string{"jag": corpus.File(t, "jag-dmtrace.trace"), "rmp": "../../formats/rmp/testdata/browser.rmp"})
	dir := filepath.Dir(db)
	ctx := context.Background()
	jag, err := ws.Methods.Load(ctx, "jag")
	if err != nil {
		t.Fatal(err)
	}
	tid := busiestThread(jag.Profile)
	window := func(run string, opts controller.FlameOptions, find string) chart.Drawing {
		f, err := ws.Methods.FlameChart(ctx, run, opts)
		if err != nil {
			t.Fatal(err)
		}
		if f, err = controller.FindFrames(f, find); err != nil {
			t.Fatal(err)
		}
		return f
	}
	for _, c := range []struct {
		flags []string
		want  chart.Drawing
	}{
		{[]string{"--run", "jag", "--by", "flame"}, window("jag", controller.FlameOptions{}, "")},
		{[]string{"--run", "jag", "--by", "flame", "--pid", strconv.Itoa(tid), "--clock", "real"}, window("jag", controller.FlameOptions{TID: tid, Wall: true}, "")},
		{[]string{"--run", "jag", "--by", "flame", "--find", "Canvas|draw"}, window("jag", controller.FlameOptions{}, "Canvas|draw")},
		{[]string{"--run", "rmp", "--by", "flame"}, window("rmp", controller.FlameOptions{Wall: true}, "")},
	} {
		if diff := chartsDiffer(t, db, c.want, c.flags...); diff != "" {
			t.Errorf("androprof chart %v is not the window's flame graph: %s", c.flags, diff)
		}
	}
	svg := filepath.Join(dir, "flame.svg")
	if code, _, errOut := runCLI(t, db, "chart", "--run", "jag", "--by", "flame", "--pid", strconv.Itoa(tid), "--find", "draw", "--out", svg); code != 0 {
		t.Fatal(errOut)
	}
	checkXML(t, svg)
	b, _ := os.ReadFile(svg)
	for _, want := range []string{"µs thread CPU", "<title>", `Search &quot;draw&quot;: `, "% of thread " + strconv.Itoa(tid)} {
		if !strings.Contains(string(b), want) {
			t.Errorf("the flame graph's SVG lacks %q", want)
		}
	}
	if code, _, errOut := runCLI(t, db, "chart", "--run", "jag", "--by", "flame", "--out", filepath.Join(dir, "flame.png")); code != 0 {
		t.Fatal(errOut)
	}
	for _, args := range [][]string{{"--run", "rmp", "--by", "flame", "--clock", "cpu"}, {"--run", "jag", "--by", "flame", "--find", "(unclosed"}} {
		if code, _, errOut := runCLI(t, db, append([]string{"chart", "--out", filepath.Join(dir, "no.svg")}, args...)...); code != 2 || errOut == "" {
			t.Errorf("chart %v: exit %d (%s), want 2", args, code, errOut)
		}
	}
}
