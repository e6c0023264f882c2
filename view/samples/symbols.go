package samples

import (
	"fmt"
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/widget"

	"androprof/internal/human"
	"androprof/model/layers"
	samplesmodel "androprof/model/samples"
	"androprof/view/ui"
)

// symbolsTab is seed 004's table V (`opreport -l`): samples per image and symbol with its
// layer, sortable by any column and narrowed by a filter. A tap on a symbol shows its callers
// and callees.
type symbolsTab struct {
	Filter *widget.Entry
	Table  *ui.SortTable[samplesmodel.SampleRow]

	v       *View
	rows    []samplesmodel.SampleRow // every symbol of the selection, before the filter
	content fyne.CanvasObject
}

func newSymbolsTab(v *View) *symbolsTab {
	t := &symbolsTab{v: v}
	t.Filter = widget.NewEntry()
	t.Filter.SetPlaceHolder("Filter: part of a symbol, image, layer or component")
	t.Filter.OnChanged = func(string) { t.filter() }
	t.Table = ui.NewSortTable(v.host.Window(), "sample-symbols", symbolColumns(), func(r samplesmodel.SampleRow) { v.ShowNeighbours(r.SymbolID) })
	t.content = container.NewBorder(t.Filter, nil, nil, nil, t.Table.Content())
	return t
}

// symbolColumns are table V's: samples with the symbol as leaf and their share, the share of
// samples with it anywhere on the stack, where it is and what layer it belongs to.
func symbolColumns() []ui.Column[samplesmodel.SampleRow] {
	type row = samplesmodel.SampleRow
	return []ui.Column[row]{
		ui.IntCol("Samples", 90, func(r row) int64 { return int64(r.Self) }),
		ui.PctCol("%", func(r row) float64 { return r.SelfPct }),
		ui.IntCol("Total", 90, func(r row) int64 { return int64(r.Total) }),
		ui.PctCol("Total %", func(r row) float64 { return r.TotalPct }),
		ui.TextCol("Image", 200, func(r row) string { return r.Image }),
		symbolColumn("Symbol", 420),
		ui.TextCol("Layer", 100, func(r row) string { return r.Layer.String() }),
		ui.TextCol("Component", 140, func(r row) string { return r.Component }),
	}
}

func (t *symbolsTab) show(res *result) {
	t.rows = res.symbols
	t.filter()
}

// filter shows the symbols whose symbol, image, layer or component contains the filter text.
func (t *symbolsTab) filter() {
	rows := matching(t.rows, t.Filter.Text)
	t.Table.Set(rows)
	count := human.Count(len(rows), "symbol", "symbols")
	if len(rows) != len(t.rows) {
		count = fmt.Sprintf("%s of %s", human.Grouped(int64(len(rows))), human.Count(len(t.rows), "symbol", "symbols"))
	}
	t.Table.Count.SetText(count + " · the 100% of the percentages is the samples kept")
}

// matching are the rows whose symbol, image, layer or component contains text, in any case.
func matching(rows []samplesmodel.SampleRow, text string) []samplesmodel.SampleRow {
	text = strings.ToLower(strings.TrimSpace(text))
	if text == "" {
		return rows
	}
	var out []samplesmodel.SampleRow
	for _, r := range rows {
		if symbolMatches(r, text) {
			out = append(out, r)
			continue
		}
		for _, s := range []string{r.Image, r.Layer.String(), r.Component} {
			if strings.Contains(strings.ToLower(s), text) {
				out = append(out, r)
				break
			}
		}
	}
	return out
}

// neighboursTab is seed 004's figure 13 for one symbol: who called it and whom it called, with
// the samples through each edge. The symbol is picked from a list narrowed by a find box, a tap
// on the Symbols table, or a tap on a caller or callee, which walks the call graph.
type neighboursTab struct {
	Find    *widget.Entry
	Matches *ui.SortTable[samplesmodel.SampleRow] // the symbols to pick from
	Title   *widget.Label                         // the symbol picked and its samples
	Callers *ui.SortTable[samplesmodel.SampleRow]
	Callees *ui.SortTable[samplesmodel.SampleRow]

	v       *View
	res     *result
	symbol  int32 // picked; -1 for none
	gen     int
	content fyne.CanvasObject
}

const pickText = "Pick a symbol on the left (or tap one in the Symbols table) to list its callers and callees."

func newNeighboursTab(v *View) *neighboursTab {
	t := &neighboursTab{v: v, symbol: -1}
	win := v.host.Window()
	t.Find = widget.NewEntry()
	t.Find.SetPlaceHolder("Find a symbol: part of its name")
	t.Find.OnChanged = func(string) { t.match() }
	type row = samplesmodel.SampleRow
	t.Matches = ui.NewSortTable(win, "sample-symbol-matches", []ui.Column[row]{
		symbolColumn("Symbol", 260),
		ui.IntCol("Total", 80, func(r row) int64 { return int64(r.Total) }),
	}, func(r row) { t.pick(r.SymbolID) })
	t.Title = widget.NewLabel(pickText)
	t.Title.Truncation = fyne.TextTruncateEllipsis
	walk := func(r row) {
		if r.SymbolID >= 0 { // not "(self)"
			t.pick(r.SymbolID)
		}
	}
	t.Callers = ui.NewSortTable(win, "callers", edgeColumns("Caller"), walk)
	t.Callees = ui.NewSortTable(win, "callees", edgeColumns("Callee"), walk)
	t.Callers.SaveCSV.SetText("Callers CSV…")
	t.Callees.SaveCSV.SetText("Callees CSV…")
	graph := container.NewVSplit(t.Callers.Body(), t.Callees.Body())
	bar := container.NewBorder(nil, nil, nil, container.NewHBox(t.Callers.SaveCSV, t.Callees.SaveCSV), t.Title)
	left := container.NewBorder(t.Find, nil, nil, nil, t.Matches.Content())
	split := container.NewHSplit(left, container.NewBorder(bar, nil, nil, nil, graph))
	split.Offset = 0.3
	t.content = split
	return t
}

// edgeColumns list a caller or callee (key names which) and the samples through the edge.
func edgeColumns(key string) []ui.Column[samplesmodel.SampleRow] {
	type row = samplesmodel.SampleRow
	return []ui.Column[row]{
		symbolColumn(key, 360),
		ui.IntCol("Samples", 90, func(r row) int64 { return int64(r.Total) }),
		ui.PctCol("%", func(r row) float64 { return r.TotalPct }),
		ui.TextCol("Image", 180, func(r row) string { return r.Image }),
		ui.TextCol("Layer", 100, func(r row) string { return r.Layer.String() }),
	}
}

func (t *neighboursTab) show(res *result) {
	t.res = res
	t.match()
	t.list()
}

// match lists the symbols whose name contains the find text, most samples on the stack first.
func (t *neighboursTab) match() {
	if t.res == nil {
		return
	}
	text := strings.ToLower(strings.TrimSpace(t.Find.Text))
	var rows []samplesmodel.SampleRow
	for _, r := range t.res.symbols {
		if symbolMatches(r, text) {
			rows = append(rows, r)
		}
	}
	t.Matches.Set(rows)
	t.Matches.SortBy(1)
}

// pick lists a symbol's callers and callees.
func (t *neighboursTab) pick(symbol int32) {
	t.symbol = symbol
	t.list()
}

// list computes the picked symbol's callers and callees for the selection shown, in the background.
func (t *neighboursTab) list() {
	t.gen++
	res, symbol, gen := t.res, t.symbol, t.gen
	if res == nil || symbol < 0 || int(symbol) >= len(res.profile.Symbols) {
		t.set(nil, nil, pickText)
		return
	}
	t.v.host.Background().Run(func() func() {
		callers, callees := res.set.Neighbours(symbol)
		return func() {
			if gen != t.gen {
				return
			}
			t.set(callers, callees, t.describe(res, symbol))
		}
	})
}

// describe names the symbol picked and its samples in the selection.
func (t *neighboursTab) describe(res *result, symbol int32) string {
	sym := res.profile.Symbols[symbol]
	name := layers.DisplaySymbol(sym)
	if n := layers.ReadableSymbol(name, res.set.Layer(symbol)); n.Short != name {
		name = n.Full() + " [" + name + "]" // the recorded name one glance away
	}
	text := fmt.Sprintf("%s in %s (%s)", name, sym.Image, res.set.Layer(symbol))
	for _, r := range res.symbols {
		if r.SymbolID == symbol {
			return text + fmt.Sprintf(": %s on the stack, %s as leaf", human.Count(r.Total, "sample", "samples"), human.Grouped(int64(r.Self)))
		}
	}
	return text + ": no sample of the selection"
}

func (t *neighboursTab) set(callers, callees []samplesmodel.SampleRow, title string) {
	t.Title.SetText(title)
	t.Callers.Set(callers)
	t.Callees.Set(callees)
}
