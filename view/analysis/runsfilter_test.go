package analysis

import (
	"context"
	"slices"
	"strconv"
	"strings"
	"testing"

	"androprof/store/storetest"

	"fyne.io/fyne/v2/test"
)

// Typing in the runs' filter lists the runs whose names hold the text (any case) and says how
// many of how many; the selected run stays selected while listed, Select shows a hidden run
// again, and clearing the filter lists every run.
func TestRunsFilter(t *testing.T) {
	v, imp := openAnalysis(t)
	for _, n := range []string{"commit-0001/sieve-arm", "commit-0001/sieve-arm64", "commit-0002/sieve-arm"} {
		if err := imp.db.ImportRun(context.Background(), n, "test", storetest.SmallRun); err != nil {
			t.Fatal(err)
		}
	}
	v.Runs.reload("")
	v.Wait()
	all := v.RunNames()
	want, matching := "ARM64", []string{"commit-0001/sieve-arm64"}
	test.Type(v.Runs.Filter, want)
	if got := v.Runs.List.Length(); got != len(matching) {
		t.Fatalf("filter %q: %d runs listed, want %d (%v)", want, got, len(matching), matching)
	}
	if h := v.Runs.heading.Text; !strings.Contains(h, "of "+strconv.Itoa(len(all))) {
		t.Errorf("heading %q does not say how many of %d", h, len(all))
	}
	v.Runs.List.Select(0)
	v.Wait()
	if v.sel.run != matching[0] {
		t.Errorf("the first listed run selected %q, want %q", v.sel.run, matching[0])
	}
	test.Type(v.Runs.Filter, "no run is called this")
	if v.Runs.List.Length() != 0 || !strings.Contains(v.Runs.Empty.Text, "No run") {
		t.Errorf("a filter no name holds: %d listed, %q", v.Runs.List.Length(), v.Runs.Empty.Text)
	}
	hidden := all[0]
	v.Runs.Select(hidden)
	v.Wait()
	if v.Runs.Filter.Text != "" || v.sel.run != hidden || v.Runs.List.Length() != len(all) {
		t.Errorf("Select of a filtered-out run: filter %q, selected %q, %d listed", v.Runs.Filter.Text, v.sel.run, v.Runs.List.Length())
	}
	if !slices.Equal(v.RunNames(), all) {
		t.Errorf("RunNames %v, want every run %v", v.RunNames(), all)
	}
}
