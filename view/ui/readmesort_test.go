package ui

import (
	"os"
	"slices"
	"strings"
	"testing"

	"fyne.io/fyne/v2/test"
)

// The README's journeys tell a person that one click on a number's header sorts it largest
// first (issue 23: they said two clicks). The sentence and the table must agree.
func TestReadmeOneClickSortsLargestFirst(t *testing.T) {
	readme, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(readme), "(one click: numbers sort largest first)") {
		t.Fatal("README no longer says what one click on a header does; say it, and keep this test reading it")
	}
	type row struct{ n int64 }
	w := test.NewTempApp(t).NewWindow("table")
	tb := NewSortTable(w, "t", []Column[row]{IntCol("N", 90, func(r row) int64 { return r.n })}, nil)
	tb.Set([]row{{3}, {9}, {1}, {5}})
	tb.SortBy(0) // one click on the header
	var got []int64
	for _, r := range tb.Rows() {
		got = append(got, r.n)
	}
	if !slices.Equal(got, []int64{9, 5, 3, 1}) {
		t.Fatalf("one click sorted %v, not largest first", got)
	}
}
