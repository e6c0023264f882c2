package analysis

import (
	"strings"
	"testing"

	"androprof/assets"
)

// Issue 23, finding 16: Help ▸ Getting started names every demo run (in full, so a search for
// it finds it) on a line of its own with what to look at: the next demo added must be added there too.
func TestGettingStartedNamesEveryDemoRun(t *testing.T) {
	demos := assets.DemoRuns()
	if len(demos) < 10 {
		t.Fatalf("only %d demo runs", len(demos))
	}
	for _, d := range demos {
		if !strings.Contains(gettingStarted, "\n• "+d.Name+": ") {
			t.Errorf("Getting started does not name the demo run %s", d.Name)
		}
	}
}
