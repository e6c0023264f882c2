//go:build linux

package main

import (
	"path/filepath"
	"strings"
	"testing"
	"time"

	"androprof/emulator/qemutest"
	"androprof/view/ui"
)

// failedRunJourney runs the ARM sieve with an argument it refuses, by the Run program dialog:
// the window says how it ended and the program's own usage line, the run is listed (what it
// executed is kept), and the message goes when the next run starts.
func failedRunJourney(t *testing.T, analysis *window) {
	bin := qemutest.Build(t, qemutest.Targets[0], filepath.Join(qemutest.SamplesDir(), "sieve.c"))
	run := func(name, arg string) {
		analysis.key(t, "ctrl+r")
		analysis.typeText(t, bin)
		analysis.key(t, "Tab")
		analysis.typeText(t, arg)
		analysis.key(t, "Tab")
		analysis.typeText(t, name)
		analysis.key(t, "Return")
	}
	said := func(c ui.WidgetPos) bool { return strings.Contains(c.Text, "usage: sieve") }
	run("sieve-refused", "1")
	if _, ok := analysis.findBy(t, 120*time.Second, said, leftmost); !ok {
		t.Fatalf("the window does not show what the program wrote:\n%s", analysis.describe(t))
	}
	if _, ok := analysis.findBy(t, time.Second, func(c ui.WidgetPos) bool { return strings.Contains(c.Text, "exited with status") }, leftmost); !ok {
		t.Errorf("the window does not say how the program ended:\n%s", analysis.describe(t))
	}
	analysis.screenshot(t, "journey-failed-run")
	if _, ok := analysis.row(t, "sieve-refused", 10*time.Second); !ok {
		t.Fatalf("the failed run is not listed:\n%s", analysis.describe(t))
	}
	run("sieve-after", "300") // over the message, as a person presses Ctrl+R again
	if _, ok := analysis.row(t, "sieve-after", 120*time.Second); !ok {
		t.Fatalf("the next run is not listed:\n%s", analysis.describe(t))
	}
	if c, ok := analysis.findBy(t, time.Second, said, leftmost); ok {
		t.Fatalf("the failed run's message stays over the next run: %q", c.Text)
	}
}
