package cli

import (
	"androprof/model/layers"
	"androprof/model/samples"
)

// readableSymbols are sampled rows as a text table shows them: Java frames' symbols as Java
// reads them, the package after two spaces as readableText writes it, unless --raw-names. JSON and CSV
// keep the symbols as recorded: they are what scripts match.
func readableSymbols(rows []samples.SampleRow, rawNames bool) []samples.SampleRow {
	if rawNames {
		return rows
	}
	out := make([]samples.SampleRow, len(rows))
	for i, r := range rows {
		if n := layers.ReadableSymbol(r.Symbol, r.Layer); n.Short != r.Symbol {
			r.Symbol = n.Short // the writer makes it safe for a terminal
			if n.Package != "" {
				r.Symbol += "  " + n.Package
			}
		}
		out[i] = r
	}
	return out
}

// symbolFound says whether --find's text is in a row's symbol as recorded or as Java reads it.
func symbolFound(r samples.SampleRow, find string) bool {
	return containsFold(r.Symbol, find) || containsFold(layers.ReadableSymbol(r.Symbol, r.Layer).Full(), find)
}

// readableSymbolText is one symbol as a line of text shows it.
func readableSymbolText(symbol string, l layers.Layer, rawNames bool) string {
	if rawNames {
		return printable(symbol, "")
	}
	return readableText(layers.ReadableSymbol(symbol, l))
}
