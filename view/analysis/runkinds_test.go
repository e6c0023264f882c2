package analysis

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"fyne.io/fyne/v2/test"

	"androprof/controller"
	"androprof/internal/corpus"
	"androprof/internal/human"
	"androprof/internal/viewtest"
	"androprof/model/calls"
)

// openMethodsWindow opens the analysis window on a copy of MethodsWorkspace (method traces and
// the emulator run "small") with the method run jag selected.
func openMethodsWindow(t *testing.T) (*View, *controller.MethodAnalysis) {
	t.Helper()
	db := viewtest.OpenDB(t, viewtest.MethodsWorkspace(t))
	ws := controller.NewWorkspace(db)
	v := openWindow(test.NewTempApp(t), ws, ws.Importer())
	v.Wait()
	v.SelectRun("jag")
	v.Wait()
	return v, ws.Methods
}

// openHeapWindow opens the analysis window on a copy of HeapWorkspace with the heap run selected.
func openHeapWindow(t *testing.T) (*View, *controller.HeapLogs) {
	t.Helper()
	path, _, _ := viewtest.HeapWorkspace(t)
	db := viewtest.OpenDB(t, path)
	ws := controller.NewWorkspace(db)
	im := ws.Importer()
	im.Cohort = viewtest.HeapCohort
	v := openWindow(test.NewTempApp(t), ws, im)
	v.Wait()
	v.SelectRun(viewtest.HeapRun)
	v.Wait()
	return v, ws.HeapLogs
}

func TestMethodRunShowsMethodTabs(t *testing.T) {
	v, _ := openMethodsWindow(t)
	m := v.Methods
	if !m.Tabs.Visible() || v.Tabs.Visible() || !m.Bar.Visible() || v.emulatorBar.Visible() {
		t.Fatal("a method run shows the emulator tabs")
	}
	if len(m.Profile.Table.Rows()) == 0 {
		t.Error("the method tabs show nothing of jag")
	}
	v.SelectRun("small")
	v.Wait()
	if m.Tabs.Visible() || !v.Tabs.Visible() || len(v.Processes.Table.Rows()) != 2 {
		t.Errorf("an emulator run after a method run: method tabs %v, %d processes", m.Tabs.Visible(), len(v.Processes.Table.Rows()))
	}
	for _, r := range v.Compare.choices {
		if r.item.Run == "jag" {
			t.Error("the emulator Compare offers a method run")
		}
	}
}

// A method trace imported through the window, with its progress dialog, opens in the method tabs.
func TestImportMethodTraceThroughWindow(t *testing.T) {
	v, methods := openMethodsWindow(t)
	var got error = fmt.Errorf("never finished")
	v.Runs.ImportFrom("basic", corpus.File(t, "perflib-basic.trace"), func(err error) { got = err })
	v.Wait()
	rep, err := methods.Report(context.Background(), calls.MethodReportOptions{Run: "basic", By: calls.ByMethod})
	if err != nil {
		t.Fatal(err)
	}
	if got != nil || v.sel.run != "basic" || !v.Methods.Tabs.Visible() || len(v.Methods.Profile.Table.Rows()) != len(rep.Rows) || len(rep.Rows) < 5 {
		t.Errorf("import: %v, selected %q, %d rows", got, v.sel.run, len(v.Methods.Profile.Table.Rows()))
	}
}

// Each kind of run shows its own tab set and top bar: an emulator run, a heap dump, a method
// trace, and back to the heap log, whose tabs still show it.
func TestRunKindsShowTheirTabSets(t *testing.T) {
	v, _ := openHeapWindow(t)
	visible := func() []bool {
		var out []bool
		for _, s := range v.tabSets {
			out = append(out, s[0].Visible() && s[1].Visible())
		}
		return out
	}
	if !slices.Equal(visible(), []bool{false, false, true, false, false}) {
		t.Fatalf("a heap run shows tab sets %v", visible())
	}
	steps := []struct {
		run  string
		want []bool
	}{{"small", []bool{true, false, false, false, false}}, {viewtest.DumpRun, []bool{false, false, false, true, false}}}
	if slices.Contains(v.RunNames(), "methods") {
		steps = append(steps, struct {
			run  string
			want []bool
		}{"methods", []bool{false, true, false, false, false}})
	}
	steps = append(steps, struct {
		run  string
		want []bool
	}{viewtest.HeapRun, []bool{false, false, true, false, false}})
	for _, s := range steps {
		v.SelectRun(s.run)
		v.Wait()
		if got := visible(); !slices.Equal(got, s.want) || v.Problem.Visible() {
			t.Errorf("run %s shows tab sets %v (problem %q)", s.run, got, v.Problem.Text)
		}
	}
	if len(v.Processes.Table.Rows()) != 2 {
		t.Errorf("the emulator run after the heap run: %d processes", len(v.Processes.Table.Rows()))
	}
	for _, c := range v.Compare.choices {
		if c.item.Run == viewtest.HeapRun || c.item.Run == viewtest.DumpRun {
			t.Errorf("the emulator Compare offers heap run %s", c.item.Run)
		}
	}
	if h := v.Heap; h.Profile() == nil || h.Run() != viewtest.HeapRun {
		t.Errorf("back on the heap run: %q %v", h.Run(), h.Profile() != nil)
	}
}

// A heap log imported through the window opens in the heap tabs; deleting it and importing
// another log under the same name shows the new one, not the cached profile; Cancel stops an
// import of a heap log.
func TestHeapImportDeleteAndCancel(t *testing.T) {
	v, heap := openHeapWindow(t)
	_, dir, _ := viewtest.HeapWorkspace(t)
	other, err := viewtest.HeapFile(t.TempDir(), "other.heaplog", 5000, 2)
	if err != nil {
		t.Fatal(err)
	}
	v.Runs.deleteRun(viewtest.HeapRun)
	v.Wait()
	if slices.Contains(v.RunNames(), viewtest.HeapRun) || v.Heap.Run() == viewtest.HeapRun {
		t.Fatalf("after delete: runs %v, heap view on %q", v.RunNames(), v.Heap.Run())
	}
	var got error = errors.New("never finished")
	v.Runs.ImportFrom(viewtest.HeapRun, other, func(err error) { got = err })
	v.Wait()
	p, err := heap.Profile(context.Background(), viewtest.HeapRun, 1)
	if err != nil {
		t.Fatal(err)
	}
	if got != nil || v.sel.run != viewtest.HeapRun || !v.Heap.Tabs.Visible() || v.Heap.Profile().Allocated != p.Allocated {
		t.Fatalf("import: %v, selected %q", got, v.sel.run)
	}
	if total := viewtest.Fact(v.Heap.Summary.Table, "Total allocation"); !strings.HasPrefix(total, human.Bytes(p.Allocated.Bytes)+" (") {
		t.Errorf("summary of the new log: %q, want %s", total, human.Bytes(p.Allocated.Bytes))
	}
	if v.Runs.suggest(filepath.Join(dir, "x.heaplog.gz")) != "x" {
		t.Errorf("suggested %q", v.Runs.suggest(filepath.Join(dir, "x.heaplog.gz")))
	}

	big, err := viewtest.HeapFile(t.TempDir(), "big.heaplog", 200000, 3)
	if err != nil {
		t.Fatal(err)
	}
	runs := v.RunNames()
	v.Runs.ImportFrom("big", big, func(err error) { got = err })
	viewtest.TapDialogButton(t, v.Window, "Cancel")
	v.Wait()
	if !errors.Is(got, context.Canceled) || !slices.Equal(v.RunNames(), runs) {
		t.Errorf("cancelled import: %v, runs %v", got, v.RunNames())
	}
}
