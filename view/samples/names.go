package samples

import (
	"strings"

	"androprof/model/layers"
	samplesmodel "androprof/model/samples"
	"androprof/view/ui"
)

// Java frames read as Java does (layers.ReadableSymbol): "Phases.work(int)" for
// "com.example.Phases.work(I)J" or "Lcom/example/Phases;work(I)J", its package in the
// Component column beside it. Display only: rows are picked by symbol id, and a table's CSV
// keeps the symbol as recorded.

// symbolColumn is a table's symbol column: readable on screen, as recorded in the CSV.
func symbolColumn(title string, width float32) ui.Column[samplesmodel.SampleRow] {
	type row = samplesmodel.SampleRow
	c := ui.TextCol(title, width, func(r row) string { return layers.ReadableSymbol(r.Symbol, r.Layer).Short })
	c.Raw = func(r row) string { return r.Symbol }
	return c
}

// symbolMatches says whether a row's symbol, as recorded or as read (with its package),
// contains text, which is lower case.
func symbolMatches(r samplesmodel.SampleRow, text string) bool {
	return strings.Contains(strings.ToLower(r.Symbol), text) ||
		strings.Contains(strings.ToLower(layers.ReadableSymbol(r.Symbol, r.Layer).Full()), text)
}
