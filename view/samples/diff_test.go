package samples

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"image"
	"strings"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"

	"androprof/app/cli"
	"androprof/controller"
	"androprof/internal/viewtest"
	"androprof/store/workspacedb"
)

// cliDiff is `androprof diff A B --json`'s rows on the workspace at db, one line each.
func cliDiff(t *testing.T, db string, args ...string) string {
	t.Helper()
	var out, errOut bytes.Buffer
	args = append(append([]string{"diff"}, args...), "--json", "--db", db)
	if code := cli.Run(context.Background(), args, cli.Env{Stdout: &out, Stderr: &errOut, Databases: workspacedb.Databases()}); code != 0 {
		t.Fatalf("%q: exit %d: %s", args, code, errOut.String())
	}
	var res struct{ Rows []map[string]any }
	if err := json.Unmarshal(out.Bytes(), &res); err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	for _, r := range res.Rows {
		fmt.Fprintf(&b, "%s %v %v %v %v %.6f %.6f %v\n", r["key"], r["self_a"], r["self_b"], r["total_a"], r["total_b"],
			r["self_change_pts"], r["total_change_pts"], r["unchanged"])
	}
	return b.String()
}

// panelDiff is the Diff tab's rows as cliDiff writes them.
func (v *View) panelDiff() string {
	var b strings.Builder
	for _, r := range v.Diff.Result().Rows {
		fmt.Fprintf(&b, "%s %d %d %d %d %.6f %.6f %v\n", r.Key, r.SelfA, r.SelfB, r.TotalA, r.TotalB, 100*r.SelfChange, 100*r.Change, r.Unchanged)
	}
	return b.String()
}

// The Diff tab of a sampled run: pick B (the demo's vertical profile against the JVM
// recording), see the rows of `androprof diff A B --json`, move the threshold, and click a frame
// of the differential graph to zoom to it.
func TestSampleDiffTab(t *testing.T) {
	path := viewtest.SamplesWorkspace(t)
	ws := controller.NewWorkspace(viewtest.OpenDB(t, path))
	if err := ws.Importer().ImportFiles(context.Background(), "phases", []string{"../../assets/demo/demo-vertical-phases.perfscript.gz"}, nil); err != nil {
		t.Fatal(err)
	}
	h := viewtest.NewHost(t, ws)
	s := New(h, ws.Samples)
	s.SetDiff(ws.Diff)
	h.Show(s.Bar, s.Tabs)
	s.Open(viewtest.SampleRun)
	h.Wait()
	s.Tabs.SelectIndex(4)
	h.Resize(viewtest.WindowSize)
	if s.Tabs.Items[4].Text != TabDiff || strings.Join(s.Diff.Other.Options, ",") != "phases" {
		t.Fatalf("tab %q offers B from %v", s.Tabs.Items[4].Text, s.Diff.Other.Options)
	}
	s.Diff.Other.SetSelected("phases")
	h.Wait()
	if s.Diff.Result() == nil {
		t.Fatalf("no diff: %q", s.Diff.Header.Text)
	}
	if got, want := s.panelDiff(), cliDiff(t, path, viewtest.SampleRun, "phases"); got != want || want == "" {
		t.Fatalf("the window's rows:\n%s\nthe command line's:\n%s", got, want)
	}
	shown := len(s.Diff.Table.Rows())
	s.Diff.Threshold.SetValue(5)
	h.Wait()
	if got, want := s.panelDiff(), cliDiff(t, path, viewtest.SampleRun, "phases", "--threshold", "5"); got != want {
		t.Errorf("at 5 points the rows differ from the command line's")
	}
	if n := len(s.Diff.Table.Rows()); n == 0 || n >= shown || !strings.Contains(s.Diff.Header.Text, "samples") {
		t.Errorf("5 points lists %d rows, 1 point %d; header %q", n, shown, s.Diff.Header.Text)
	}

	f := s.Diff.Flame.Flame()
	if f.Top() == nil || !strings.Contains(f.Title, "Differential flame graph — A java, B phases") {
		t.Fatalf("graph %q", f.Title)
	}
	frame := f.Top().Children[0]
	c := s.Diff.Flame.Chart
	b := c.Image().Bounds()
	r, ok := f.FrameRect(b.Dx(), b.Dy(), frame)
	if !ok {
		t.Fatalf("%s is not drawn", frame.Name)
	}
	mid := image.Pt((r.Min.X+r.Max.X)/2, (r.Min.Y+r.Max.Y)/2)
	size := c.Area.Size()
	test.TapAt(c.Area, fyne.NewPos(float32(mid.X)*size.Width/float32(b.Dx()), float32(mid.Y)*size.Height/float32(b.Dy())))
	h.Wait()
	if s.Diff.Flame.Flame().Root != frame || !strings.Contains(s.Diff.Flame.Info.Text, "samples") {
		t.Errorf("after a click on %s: root %s, info %q", frame.Name, s.Diff.Flame.Flame().Root.Name, s.Diff.Flame.Info.Text)
	}
}
