package heap

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"androprof/controller"
	"androprof/formats/hprof/hproftest"
	"androprof/internal/human"
	"androprof/internal/viewtest"
	"androprof/model"
)

// secondDump is the synthetic dump of the heap workspace again with other counts: a later
// dump of the same program.
const secondDump = "dump-later"

// openHeapWithSecondDump opens the heap tabs on a copy of the heap workspace to which a second
// dump of the synthetic program was imported.
func openHeapWithSecondDump(t *testing.T) (*heapWindow, *controller.Workspace) {
	t.Helper()
	path, _, _ := viewtest.HeapWorkspace(t)
	db := viewtest.OpenDB(t, path)
	ws := controller.NewWorkspace(db)
	file := filepath.Join(t.TempDir(), "later.hprof")
	f, err := os.Create(file)
	viewtest.Must(t, err)
	_, err = hproftest.Generate(f, hproftest.Options{Version: "1.0.3"}, 200<<10, 2)
	viewtest.Must(t, err)
	viewtest.Must(t, f.Close())
	viewtest.Must(t, ws.Importer().ImportFiles(context.Background(), secondDump, []string{file}, nil))
	h := viewtest.NewHost(t, ws)
	v := &heapWindow{Host: h, Heap: New(h, ws.HeapLogs), Dump: NewDump(h, ws.HeapDumps)}
	v.SelectRun(viewtest.DumpRun)
	v.Wait()
	return v, ws
}

// Issue 23, finding 14: after a switch to another dump the Retained tab shows nothing of the
// dump before (its path above all); the reachable objects say that class objects are among
// them, and the Summary that its objects are not.
func TestRetainedTabForgetsThePreviousDump(t *testing.T) {
	v, ws := openHeapWithSecondDump(t)
	rt := v.Dump.Retained
	rt.Classes.Select(0)
	if len(rt.Path.Rows()) == 0 {
		t.Fatalf("no path to %s", rt.Classes.Rows()[0].Name)
	}
	before := rt.PathTo.Text

	v.SelectRun(secondDump)
	v.Wait()
	if rt.PathTo.Text == before || len(rt.Path.Rows()) != 0 || !strings.HasPrefix(rt.PathTo.Text, "Choose an object") {
		t.Errorf("after the switch the path says %q over %d rows; the dump before's said %q", rt.PathTo.Text, len(rt.Path.Rows()), before)
	}

	r, err := ws.HeapDumps.Retention(context.Background(), secondDump)
	viewtest.Must(t, err)
	classes := 0
	for _, isClass := range r.Objects.IsClass {
		if isClass {
			classes++
		}
	}
	dump, err := ws.HeapDumps.Dump(context.Background(), secondDump)
	viewtest.Must(t, err)
	want := fmt.Sprintf("in %s: %s of the dump's %s instances and arrays, and %s;", human.Count(r.Objects.Len(), "object", "objects"),
		human.Grouped(int64(r.Objects.Len()-classes)), human.Grouped(int64(dump.Characteristics().Objects)), human.Count(classes, "class object", "class objects"))
	if classes == 0 || !strings.Contains(rt.Note.Text, want) {
		t.Errorf("retained note %q, want it to say %q", rt.Note.Text, want)
	}
	if got := viewtest.Fact(v.Dump.Summary, "Objects"); !strings.Contains(got, "class objects are not counted") {
		t.Errorf("summary objects %q", got)
	}
}

// Issue 23, finding 14: the comparison says how many classes it shows of how many, and warns
// when the two dumps look like different programs.
func TestDumpCompareCountsAndWarns(t *testing.T) {
	v, ws := openHeapWithSecondDump(t)
	v.SelectRun(secondDump)
	v.Wait()
	c := v.Dump.Compare
	c.Before.SetSelected(viewtest.DumpRun)
	v.Wait()
	diff, err := ws.HeapDumps.Diff(context.Background(), viewtest.DumpRun, secondDump)
	viewtest.Must(t, err)
	want := fmt.Sprintf("%s of %s classes changed", human.Grouped(int64(len(diff.Rows))), human.Grouped(int64(diff.Classes)))
	if len(c.Table.Rows()) != len(diff.Rows) || !strings.HasPrefix(c.Table.Count.Text, want) {
		t.Errorf("%d rows, count %q, want %q", len(c.Table.Rows()), c.Table.Count.Text, want)
	}
	if c.Warning.Visible() {
		t.Errorf("two dumps of one program: warning %q", c.Warning.Text)
	}

	if !slices.Contains(v.RunsOfKind(model.RunKindHeapDump), "dialer") {
		t.Skip(viewtest.CorpusDump + " is absent: no dump of another program to compare with")
	}
	c.Before.SetSelected("dialer")
	v.Wait()
	if !c.Warning.Visible() || !strings.Contains(c.Warning.Text, "different programs") {
		t.Errorf("the synthetic app against Android's dialer: warning shown %v, %q", c.Warning.Visible(), c.Warning.Text)
	}
}
