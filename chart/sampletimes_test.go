package chart

import (
	"strings"
	"testing"
)

// Samples a layer timeline could not place (dated before the recording's first, issue 24,
// finding 13) are said in its title, so the columns adding up to less than the tables is told.
func TestLayerTimelineSaysSamplesBeforeTheStart(t *testing.T) {
	tl := phases
	for before, want := range map[int]string{0: "Layers over time — r, all", 1: "1 sample dated before the first is not drawn",
		2: "2 samples dated before the first are not drawn"} {
		tl.Before = before
		if title := FromLayerTimeline(tl, "r", "all", true).Title; !strings.Contains(title, want) || before == 0 && title != want {
			t.Errorf("%d before the start: title %q, want %q", before, title, want)
		}
	}
}
