// Package htmlreport writes one run's report as a single HTML file that opens anywhere without
// the workbench: its summary, every chart as inline SVG, its main tables sortable by a click,
// and, for runs with stacks, an interactive flame graph. Everything is in the file (CSS,
// script, data); it names no network address, and its Content-Security-Policy forbids any
// fetch, so a report attached to a bug or shown on a projector is the same offline.
//
// The controller fills a Document from the services every front end uses
// (controller.Workspace.HTMLReport); this package only lays it out and escapes it.
package htmlreport

import (
	"math"
	"strconv"

	"androprof/chart/render"
	"androprof/internal/human"
	"androprof/model/flame"
)

// Document is one run's report as the page shows it, top to bottom.
type Document struct {
	Title  string // the page's heading, e.g. "demo-methods"
	Kind   string // the run's kind as a person reads it ("a method trace")
	Source string // where the run came from (the imported file)
	// Summary is the run's numbers as `androprof report --run R --json` gives them, each under
	// the path of its key in that JSON, so a script can check one against the other.
	Summary []Field
	Notes   []string // what a reader must know of the numbers: warnings, what was left out
	Flame   *Flame   // nil for runs without stacks
	Charts  []Chart
	Tables  []Table
}

// Field is one number (or word) of the summary.
type Field struct {
	Key   string // its path in report --json: "totals.cpu_us", "samples.kept"
	Label string // what a person reads
	Value any    // int, int64, uint64, float64, bool or string; nil when it cannot be known
	Unit  string // "µs", "bytes", "samples"; empty for counts of things the label names
}

// Chart is one of the run's charts, drawn through chart/render as every front end draws it.
type Chart struct {
	Title   string
	Drawing render.Drawing
}

// Table is one of the run's tables. Rows hold at most MaxRows rows; Total is how many the run
// has, so the page can say "first 500 of 12 345 rows".
type Table struct {
	Title   string
	Columns []Column
	Rows    [][]Cell
	Total   int
	Note    string // under the title: the clock, the unit, what the rows are
}

// Column heads a table's column; Numeric columns sort by their cells' numbers, biggest first.
type Column struct {
	Title   string
	Numeric bool
}

// Cell is a table's cell: the text shown, and for numeric columns the number it sorts by
// (Known false: unknown, sorted last whatever the order).
type Cell struct {
	Text  string
	Sort  float64
	Known bool
}

// Flame is a flame graph of the run's stacks: the page draws it as an icicle (callers on top),
// zooms on a click and searches its frames. Unit names what a frame's width counts.
type Flame struct {
	Title string
	Unit  string // "µs of thread-CPU time", "samples"
	Root  *flame.Node
}

// MaxRows is the most rows a table of the page holds: enough for every hot spot, few enough
// that a run with a million rows still makes a file of a few megabytes.
const MaxRows = 500

// Text is a cell of text: a name, a layer.
func Text(s string) Cell { return Cell{Text: s} }

// Number is a numeric cell that shows text and sorts by v; NaN is unknown.
func Number(v float64, text string) Cell {
	if math.IsNaN(v) {
		return Unknown()
	}
	return Cell{Text: text, Sort: v, Known: true}
}

// Count is a numeric cell of a count, its digits grouped as the command line groups them.
func Count[N human.Integer](n N) Cell { return Number(float64(n), human.Grouped(n)) }

// Float is a numeric cell of a measured quantity, in six significant digits.
func Float(v float64) Cell { return Number(v, numberText(v)) }

// Unknown is a numeric cell whose number cannot be known: it says so, and sorts last.
func Unknown() Cell { return Cell{Text: "unknown"} }

// Cap keeps the first MaxRows of n rows: the number of rows a table builds.
func Cap(n int) int { return min(n, MaxRows) }

// numberText writes a number as the summary and the tables show it: whole numbers, and any
// from a thousand on, as whole numbers grouped (1 234 567); others in six significant digits.
// The summary's JSON block keeps every digit.
func numberText(v float64) string {
	switch a := math.Abs(v); {
	case math.IsNaN(v) || math.IsInf(v, 0):
		return "unknown"
	case a < 1e15 && (v == math.Trunc(v) || a >= 1000):
		return human.Grouped(int64(math.Round(v)))
	}
	return strconv.FormatFloat(v, 'g', 6, 64)
}
