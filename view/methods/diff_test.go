package methods

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"image"
	"math"
	"strings"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"

	"androprof/app/cli"
	"androprof/chart/render"
	"androprof/controller"
	"androprof/internal/viewtest"
	"androprof/model/flame"
	"androprof/store/workspacedb"
	"androprof/view/ui"
)

// diffTabIndex is the Diff tab's place among the method tabs.
const diffTabIndex = 6

// cliDiffRows are `androprof diff A B --json`'s rows on the workspace at db, each as the
// window's table says it (key, A, B, changes in points), "unchanged" marked.
func cliDiffRows(t *testing.T, db string, args ...string) []string {
	t.Helper()
	var out, errOut bytes.Buffer
	args = append(append([]string{"diff"}, args...), "--json", "--db", db)
	if code := cli.Run(context.Background(), args, cli.Env{Stdout: &out, Stderr: &errOut, Databases: workspacedb.Databases()}); code != 0 {
		t.Fatalf("%q: exit %d: %s", args, code, errOut.String())
	}
	var res struct {
		Rows []struct {
			Key       string   `json:"key"`
			SelfA     int64    `json:"self_a"`
			SelfB     int64    `json:"self_b"`
			TotalA    int64    `json:"total_a"`
			TotalB    int64    `json:"total_b"`
			SelfPts   *float64 `json:"self_change_pts"`
			TotalPts  *float64 `json:"total_change_pts"`
			Unchanged bool     `json:"unchanged"`
		}
	}
	dec := json.NewDecoder(&out)
	if err := dec.Decode(&res); err != nil {
		t.Fatal(err)
	}
	var rows []string
	for _, r := range res.Rows {
		rows = append(rows, diffRowText(r.Key, r.SelfA, r.SelfB, r.TotalA, r.TotalB, ptsOf(r.SelfPts), ptsOf(r.TotalPts), r.Unchanged))
	}
	return rows
}

func ptsOf(p *float64) float64 {
	if p == nil {
		return math.NaN()
	}
	return *p
}

// diffRowText is a diff row as the two sides are compared: its numbers to a millionth of a point.
func diffRowText(key string, selfA, selfB, totalA, totalB int64, selfPts, totalPts float64, unchanged bool) string {
	return fmt.Sprintf("%s %d %d %d %d %.6f %.6f %v", key, selfA, selfB, totalA, totalB, selfPts, totalPts, unchanged)
}

// panelRows are the rows of the diff the panel shows, as cliDiffRows says them.
func panelRows(p *ui.DiffPanel) []string {
	var rows []string
	for _, r := range p.Result().Rows {
		rows = append(rows, diffRowText(r.Key, r.SelfA, r.SelfB, r.TotalA, r.TotalB, 100*r.SelfChange, 100*r.Change, r.Unchanged))
	}
	return rows
}

// tapDiffFrame clicks the middle of frame n of the panel's graph, as a person does.
func tapDiffFrame(t *testing.T, h *viewtest.Host, p *ui.DiffPanel, n *flame.Node) {
	t.Helper()
	c := p.Flame.Chart
	b := c.Image().Bounds()
	r, ok := p.Flame.Flame().FrameRect(b.Dx(), b.Dy(), n)
	if !ok {
		t.Fatalf("%s is not drawn", n.Name)
	}
	mid := image.Pt((r.Min.X+r.Max.X)/2, (r.Min.Y+r.Max.Y)/2)
	size := c.Area.Size()
	test.TapAt(c.Area, fyne.NewPos(float32(mid.X)*size.Width/float32(b.Dx()), float32(mid.Y)*size.Height/float32(b.Dy())))
	h.Wait()
}

// The Diff tab: pick B, see the rows `androprof diff A B --json` prints (same keys, same
// numbers; the table lists the changed ones), move the threshold and see the rows it lets
// through, choose the clock when both runs have both, click a frame to zoom to it and select
// its row.
func TestDiffTab(t *testing.T) {
	path := viewtest.MethodsWorkspace(t)
	ws := controller.NewWorkspace(viewtest.OpenDB(t, path))
	h := viewtest.NewHost(t, ws)
	v := &methodsWindow{Host: h, Methods: New(h, ws.Methods)}
	m := v.Methods
	m.SetDiff(ws.Diff)
	h.Show(m.Bar, m.Tabs)
	v.SelectRun("jag")
	v.Wait()
	showTab(v, diffTabIndex)
	d := m.Diff
	if m.Tabs.Items[diffTabIndex].Text != TabDiff || d.Result() != nil || !strings.Contains(d.Header.Text, "Choose run B") {
		t.Fatalf("before B: tab %q, header %q", m.Tabs.Items[diffTabIndex].Text, d.Header.Text)
	}
	if got := strings.Join(d.Other.Options, ","); got != "jag2,art,sns" {
		t.Errorf("B is one of %q", got)
	}

	d.Other.SetSelected("sns")
	v.Wait()
	if d.Result() == nil {
		t.Fatalf("no diff: %q", d.Header.Text)
	}
	want := cliDiffRows(t, path, "jag", "sns")
	if got := panelRows(d.DiffPanel); strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Fatalf("the window's rows are not the command line's:\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	changed := 0
	for _, r := range d.Result().Rows {
		if !r.Unchanged {
			changed++
		}
	}
	if changed == 0 || len(d.Table.Rows()) != changed || !d.Clock.Disabled() || !strings.Contains(d.Header.Text, "thread-CPU time") {
		t.Errorf("%d rows shown, %d changed; clock offered %v (sns has thread-CPU only); header %q",
			len(d.Table.Rows()), changed, !d.Clock.Disabled(), d.Header.Text)
	}

	d.Threshold.SetValue(0)
	v.Wait()
	if got, want := panelRows(d.DiffPanel), cliDiffRows(t, path, "jag", "sns", "--threshold", "0"); strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("at threshold 0 the rows differ from the command line's")
	}
	if len(d.Table.Rows()) <= changed || !strings.Contains(d.ThresholdText.Text, "0 points") {
		t.Errorf("threshold 0 lists %d rows, 1 point listed %d; says %q", len(d.Table.Rows()), changed, d.ThresholdText.Text)
	}

	d.By.SetSelected(string(flame.DiffByOrigin))
	v.Wait()
	if got, want := panelRows(d.DiffPanel), cliDiffRows(t, path, "jag", "sns", "--threshold", "0", "--by", "image"); strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("by package the rows differ from the command line's:\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}

	// Both traces of jag have both clocks: real time is offered and asked.
	d.Other.SetSelected("jag2")
	v.Wait()
	if d.Clock.Disabled() {
		t.Fatal("jag against jag2: the clock is not offered")
	}
	d.Clock.SetSelected(ui.DiffClockReal)
	v.Wait()
	if !strings.Contains(d.Header.Text, "real time (as chosen)") {
		t.Errorf("header %q after choosing real time", d.Header.Text)
	}
	for _, r := range d.Result().Rows {
		if r.SelfChange != 0 {
			t.Errorf("a trace against itself: %s moved %v", r.Key, r.SelfChange)
		}
	}

	// A click on a frame zooms to it, says its numbers and selects its row.
	d.Other.SetSelected("sns")
	d.Clock.ClearSelected()
	d.By.SetSelected(string(flame.DiffByFunction))
	v.Wait()
	top := d.Flame.Flame().Top()
	if top == nil || len(top.Children) == 0 {
		t.Fatal("no graph")
	}
	frame := top.Children[0]
	for len(frame.Children) > 0 && frame.Children[0].Total*2 > frame.Total {
		frame = frame.Children[0]
	}
	tapDiffFrame(t, h, d.DiffPanel, frame)
	if d.Flame.Flame().Root != frame || !strings.Contains(d.Flame.Info.Text, ": A ") || !strings.Contains(d.Flame.Info.Text, " points") {
		t.Errorf("after a click on %s: root %s, info %q", frame.Name, d.Flame.Flame().Root.Name, d.Flame.Info.Text)
	}

	// A focus step (merge the frame into its callers) diffs the two focused runs again: the rows
	// are `androprof diff --merge`'s, and the graph is still a diff graph (its hover says points).
	d.Flame.AddFocus(controller.FocusStep{Op: flame.OpMerge, Arg: frame.Name})
	v.Wait()
	if got, want := panelRows(d.DiffPanel), cliDiffRows(t, path, "jag", "sns", "--threshold", "0", "--merge", frame.Name); strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("merged, the rows differ from the command line's:\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	if len(d.Result().FocusB) != 1 || !strings.Contains(d.Flame.Focus.Hidden.Text, "moved") {
		t.Errorf("after the merge: focus %v, the focus line says %q", d.Result().FocusB, d.Flame.Focus.Hidden.Text)
	}
	var svg bytes.Buffer
	if err := d.Flame.Flame().Paint(&svg, render.SVG, 1200, 700); err != nil || !strings.Contains(svg.String(), "points") {
		t.Errorf("the focused graph is no longer a diff graph (%v)", err)
	}
}
