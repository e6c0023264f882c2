package analysis

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"fyne.io/fyne/v2/test"

	"androprof/app/cli"
	"androprof/controller"
	"androprof/model/flame"
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
		fmt.Fprintf(&b, "%s %v %v %.6f %v\n", r["key"], r["self_a"], r["self_b"], r["self_change_pts"], r["unchanged"])
	}
	return b.String()
}

// panelDiff is the Diff tab's rows as cliDiff writes them.
func (v *View) panelDiff() string {
	var b strings.Builder
	for _, r := range v.Diff.Result().Rows {
		fmt.Fprintf(&b, "%s %d %d %.6f %v\n", r.Key, r.SelfA, r.SelfB, 100*r.SelfChange, r.Unchanged)
	}
	return b.String()
}

// The emulator runs' Diff tab: the ARM sieve against the Thumb one, by function and by image,
// instructions executed, the rows `androprof diff A B --json` prints; a table only (no stacks,
// no graph), and the threshold lets more rows through as it goes down.
func TestEmulatorDiffTab(t *testing.T) {
	db := sieves.open(t)
	v := openWindow(test.NewTempApp(t), controller.NewWorkspace(db), nil)
	v.Wait()
	showRun(v, "demo-sieve-arm", "")
	v.Tabs.SelectIndex(8)
	v.Wait()
	d := v.Diff
	if v.Tabs.Items[8].Text != TabDiff || d.Flame != nil || len(d.By.Options) != 2 {
		t.Fatalf("last tab %q, graph %v, rows by %v", v.Tabs.Items[len(v.Tabs.Items)-1].Text, d.Flame != nil, d.By.Options)
	}
	d.Other.SetSelected("demo-sieve-thumb")
	v.Wait()
	if d.Result() == nil {
		t.Fatalf("no diff: %q", d.Header.Text)
	}
	if got, want := v.panelDiff(), cliDiff(t, db.Path(), "demo-sieve-arm", "demo-sieve-thumb"); got != want || want == "" {
		t.Fatalf("by function, the window's rows:\n%s\nthe command line's:\n%s", got, want)
	}
	if !strings.Contains(d.Header.Text, "instructions executed") || !strings.Contains(d.Header.Text, "rows under 1 point not listed") {
		t.Errorf("header %q", d.Header.Text)
	}
	shown := len(d.Table.Rows())
	d.By.SetSelected(string(flame.DiffByOrigin))
	d.Threshold.SetValue(0)
	v.Wait()
	if got, want := v.panelDiff(), cliDiff(t, db.Path(), "demo-sieve-arm", "demo-sieve-thumb", "--by", "image", "--threshold", "0"); got != want || want == "" {
		t.Errorf("by image, the window's rows:\n%s\nthe command line's:\n%s", got, want)
	}
	if n := len(d.Table.Rows()); n != len(d.Result().Rows) || n <= shown {
		t.Errorf("threshold 0 lists %d of %d rows (1 point: %d)", n, len(d.Result().Rows), shown)
	}
}
