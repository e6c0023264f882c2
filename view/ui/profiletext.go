package ui

import (
	"strconv"
	"strings"

	"androprof/model/cost"
)

// FormatCost writes a profile's cost (cycles, mW) as it was typed, in as few digits as it needs:
// the editor's entries and the analysis window's Profiles tab show the same text.
func FormatCost(v float64) string { return strconv.FormatFloat(v, 'g', -1, 64) }

// CitationText lists where a category's costs come from, one bullet each, estimates marked.
func CitationText(cites []cost.Citation) string {
	if len(cites) == 0 {
		return "No sources recorded."
	}
	lines := make([]string, len(cites))
	for i, c := range cites {
		mark := ""
		if c.Estimate {
			mark = " [estimate]"
		}
		lines[i] = "• " + c.Cost + mark + ": " + c.Text
	}
	return strings.Join(lines, "\n")
}
