package ui

import (
	"os"
	"path/filepath"
	"testing"

	"fyne.io/fyne/v2/test"

	"androprof/chart"
	"androprof/chart/render"
)

// Issue 24 finding 1 in the window: Save CSV, PNG and SVG replace a link planted at the path
// they are given (the path dialog has asked to replace it) instead of writing through it.
func TestSavesReplaceLinksNotTheirTargets(t *testing.T) {
	w := test.NewTempApp(t).NewWindow("save")
	tb := NewSortTable(w, "t", []Column[string]{TextCol("Name", 100, func(s string) string { return s })}, nil)
	tb.Set([]string{"a", "b"})
	bars := chart.Chart{Title: "bars", Bars: []chart.Bar{{Label: "a", Value: 1}}}
	saves := map[string]func(path string) error{
		"t.csv": tb.saveCSV,
		"c.png": func(path string) error { return SaveChart(bars, render.PNG, path) },
		"c.svg": func(path string) error { return SaveChart(bars, render.SVG, path) },
	}
	dir := t.TempDir()
	victim := filepath.Join(dir, "victim.txt")
	const precious = "precious\n"
	if err := os.WriteFile(victim, []byte(precious), 0o644); err != nil {
		t.Fatal(err)
	}
	for name, save := range saves {
		out := filepath.Join(dir, name)
		if err := os.Symlink(victim, out); err != nil {
			t.Fatal(err)
		}
		if err := save(out); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if got, _ := os.ReadFile(victim); string(got) != precious {
			t.Fatalf("saving %s wrote through the link: the victim now holds %d bytes", name, len(got))
		}
		if st, err := os.Lstat(out); err != nil || !st.Mode().IsRegular() || st.Size() == 0 {
			t.Errorf("%s is not a file of its own: %v", name, err)
		}
	}
}
