//go:build linux

package main

import (
	"bytes"
	"fmt"
	"testing"
	"time"

	"androprof/view/ui"
)

// profileDetailsJourney: a profile author names a new profile's processor and clock in
// Profile details… and finds them in the saved file (the editor could not set them before).
func profileDetailsJourney(t *testing.T, p *program, editor *window, path string) {
	editor.key(t, "ctrl+n")
	if _, ok := editor.find(t, "Discard", true, 2*time.Second); ok {
		editor.click(t, "Discard") // whatever an earlier step left unsaved
	}
	editor.typeText(t, "Journey details")
	editor.key(t, "Return")
	if !editor.waitDialogs(t, 0) {
		t.Fatalf("New profile did not close:\n%s", editor.describe(t))
	}
	editor.click(t, "Details…")
	editor.clickWhere(t, "e.g. Cortex-A8", topmost) // the organization
	editor.typeText(t, "Cortex-A53")
	editor.clickWhere(t, "unknown", topmost) // the first reference number: the frequency
	editor.typeText(t, "1.2")
	editor.click(t, "Apply")
	if !editor.waitDialogs(t, 0) {
		t.Fatalf("Apply did not close Profile details:\n%s", editor.describe(t))
	}
	editor.key(t, "ctrl+shift+s")
	editor.typeText(t, path)
	editor.key(t, "Return")
	waitFile(t, p, path, func(data []byte) error {
		for _, want := range []string{`name="Journey details"`, `organization="Cortex-A53"`, `frequency-ghz="1.2"`} {
			if !bytes.Contains(data, []byte(want)) {
				return fmt.Errorf("the saved profile has no %s:\n%s", want, data)
			}
		}
		return nil
	})
}

// topmost prefers the control nearest the top.
func topmost(a, b ui.WidgetPos) bool { return a.Y < b.Y }
