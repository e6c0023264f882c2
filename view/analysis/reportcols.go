package analysis

import (
	"cmp"
	"slices"
	"strconv"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/widget"

	"androprof/model/cost"
	"androprof/view/ui"
)

// reportCols are the columns a report adds to its rows (cost.Report.Columns: pipeline cycles,
// stall cycles, misses per level, the L1 miss rate), headed as `report` heads them and saved
// under the keys of `report --csv`, "unknown" where a number cannot be known. rep is read when
// a cell is drawn, so the columns stay (and the user's sort with them) while the report they
// show is replaced by the next one of the same kind.
func reportCols(cols []cost.RowColumn, rep func() *cost.Report) []ui.Column[cost.ReportRow] {
	out := make([]ui.Column[cost.ReportRow], len(cols))
	for i, c := range cols {
		value := func(r cost.ReportRow) (float64, bool) { return c.Value(r, rep()) }
		out[i] = ui.Column[cost.ReportRow]{Title: c.Label, Key: c.Key, Width: 110, Num: true,
			Text: func(r cost.ReportRow) string { return c.Text(r, rep()) },
			Raw: func(r cost.ReportRow) string {
				if v, ok := value(r); ok {
					return strconv.FormatFloat(v, 'g', -1, 64)
				}
				return "unknown"
			},
			Cmp: func(a, b cost.ReportRow) int { // unknown below every number
				va, oka := value(a)
				vb, okb := value(b)
				if oka != okb {
					if oka {
						return 1
					}
					return -1
				}
				return cmp.Compare(va, vb)
			}}
	}
	return out
}

// columnKeys names a report's columns, to tell when a table needs others.
func columnKeys(cols []cost.RowColumn) []string {
	keys := make([]string, len(cols))
	for i, c := range cols {
		keys[i] = c.Key
	}
	return keys
}

// reportColumns keeps a table's columns in step with the reports it shows: its own columns,
// then the report's (reportCols), replaced only when the report's columns change.
type reportColumns struct {
	rep  *cost.Report
	keys []string
	set  bool
}

// update takes rep and reports the report's columns when the table needs new ones (nil when
// it keeps its own).
func (c *reportColumns) update(rep *cost.Report) ([]ui.Column[cost.ReportRow], bool) {
	c.rep = rep
	var cols []cost.RowColumn
	if rep != nil {
		cols = rep.Columns()
	}
	keys := columnKeys(cols)
	if c.set && slices.Equal(keys, c.keys) {
		return nil, false
	}
	c.keys, c.set = keys, true
	return reportCols(cols, func() *cost.Report { return c.rep }), true
}

// missesFirstText is the Functions and Basic blocks tabs' toggle.
const missesFirstText = "Misses first (L1, then L2 and L3)"

// newMissesFirst is a tab's Misses first toggle, hidden until a cache-simulated run is shown.
func newMissesFirst(v *View) *widget.Check {
	c := widget.NewCheck(missesFirstText, v.setMissesFirst)
	c.Hide()
	return c
}

// setMissesFirst orders the functions and blocks by their misses (on) or their cycles: the
// blocks listed are then the blocksTop that miss most, not those that cost most.
func (v *View) setMissesFirst(on bool) {
	if on == v.sel.missesFirst {
		return
	}
	v.sel.missesFirst = on
	for _, c := range []*widget.Check{v.Functions.MissesFirst, v.Blocks.MissesFirst} {
		c.SetChecked(on)
	}
	v.Functions.Table.Unsort()
	v.Blocks.Table.Unsort()
	v.recompute()
}

// showMissesFirst shows a tab's toggle for a cache-simulated run only.
func showMissesFirst(c *widget.Check, res *results) {
	if res == nil || res.data.Cache == nil {
		c.Hide()
		return
	}
	c.SetChecked(res.sel.missesFirst)
	c.Show()
}

// scrollToMisses brings a table's misses into view when it lists the rows that miss most
// first: they are its last columns, past the right edge of a laptop's screen.
func scrollToMisses(tb *ui.SortTable[cost.ReportRow], res *results) {
	if res != nil && res.sel.missesFirst && res.data.Cache != nil && len(tb.Rows()) > 0 {
		// Past the end, which the scroller cuts back to its right edge. (ScrollToTrailing moves
		// the header row and leaves the cells where they were.)
		tb.Table.ScrollToOffset(fyne.NewPos(1e6, 0))
	}
}
