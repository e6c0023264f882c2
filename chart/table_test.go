package chart

import (
	"strings"
	"testing"

	"androprof/model/layers"
)

func csvOf(rows [][]string) string {
	var b strings.Builder
	for _, r := range rows {
		b.WriteString(strings.Join(r, ",") + "\n")
	}
	return b.String()
}

// A grouped chart's table has a column per series and its notes; every bar is in it, the ones
// summed into "other" too.
func TestChartTableKeepsEveryBar(t *testing.T) {
	c := Chart{YLabel: "samples", Series: []string{"app", "vm"}, Top: 1,
		Bars:   []Bar{{Label: "1 main", Value: 3}, {Label: "2 gc", Value: 1}},
		Values: [][]float64{{2, 1}, {0, 1}}, Notes: []string{"2 system calls"}}
	want := "label,samples,app,vm,note\n1 main,3,2,1,2 system calls\n2 gc,1,0,1,\n"
	if got := csvOf(c.Table()); got != want {
		t.Errorf("table\n%s\nwant\n%s", got, want)
	}
}

// A chart's table lists its bars as the chart draws them, largest first with the unknown last,
// names the unit, and writes numbers as a person reads them: 2557105.84 cycles, not
// 2.5571058399999943e+06.
func TestChartTableAsDrawn(t *testing.T) {
	c := Chart{YLabel: "exclusive time", Unit: "µs", Bars: []Bar{{Label: "b", Value: 434}, {Label: "u", Unknown: true},
		{Label: "a", Value: 685}, {Label: "c", Value: 2.5571058399999943e+06}, {Label: "n", Value: 1131442}}}
	want := "label,exclusive time (µs)\nc,2557105.84\nn,1131442\na,685\nb,434\nu,unknown\n"
	if got := csvOf(c.Table()); got != want {
		t.Errorf("table\n%s\nwant\n%s", got, want)
	}
}

// A flame graph's table is its folded stacks, callers first, whatever frame it is zoomed to.
func TestFlameTableIsFoldedStacks(t *testing.T) {
	root, main, _, _, _, _ := flameTree()
	rows := FromFlame(root, "r", "all").Zoom(main).Table()
	if rows[0][0] != "stack" || rows[1][0] != root.Name || len(rows) < 4 {
		t.Fatalf("%v", rows)
	}
	for _, r := range rows[2:] {
		if !strings.HasPrefix(r[0], root.Name+";") {
			t.Errorf("row %v is not under the root", r)
		}
	}
}

// The layers over time write a row per slice, at its start in seconds, one column per layer.
func TestLayerSharesTable(t *testing.T) {
	rows := FromLayerTimeline(phases, "r", "all", false).Table()
	if len(rows) != len(phases.Counts)+1 || len(rows[0]) != len(layers.Layers)+1 || rows[2][0] != "1" {
		t.Errorf("%v", rows)
	}
}
