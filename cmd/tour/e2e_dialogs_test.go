//go:build linux

package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// dialogKeysJourney: what is typed into a dialog goes where a desktop user expects, and Escape
// closes every dialog. The analysis window's Import dialog (Ctrl+I) takes a typed path, and
// Escape closes it while its Source entry has the keyboard; the editor's Import QEMU log (Ctrl+I)
// opens on a folder ending in a separator, a file name typed without selecting anything goes
// after it, and Escape closes Fyne's file dialog (Browse…) and then the path dialog.
func dialogKeysJourney(t *testing.T, analysis, editor *window) {
	analysis.key(t, "ctrl+i")
	if !analysis.waitDialogs(t, 1) {
		t.Fatalf("Ctrl+I opened no Import dialog:\n%s", analysis.describe(t))
	}
	typed := filepath.Join(os.TempDir(), "sieve-arm.log")
	analysis.typeKeys(t, typed)
	if got := analysis.dialogEntry(t, typed); got != typed {
		t.Fatalf("typed %q into the Import dialog's Source: it reads %q", typed, got)
	}
	analysis.key(t, "Escape")
	if !analysis.waitDialogs(t, 0) {
		t.Fatalf("Escape left the Import dialog open:\n%s", analysis.describe(t))
	}

	editor.key(t, "ctrl+i")
	if !editor.waitDialogs(t, 1) {
		t.Fatalf("Ctrl+I opened no Import QEMU log dialog:\n%s", editor.describe(t))
	}
	folder := editor.dialogEntry(t, "")
	if st, err := os.Stat(folder); err != nil || !st.IsDir() || !strings.HasSuffix(folder, string(filepath.Separator)) {
		t.Fatalf("Import QEMU log opens on %q, want a folder ending in %q", folder, string(filepath.Separator))
	}
	editor.typeKeys(t, "sieve-arm.log")
	if got := editor.dialogEntry(t, folder+"sieve-arm.log"); got != folder+"sieve-arm.log" {
		t.Fatalf("typed sieve-arm.log into the dialog prefilled with %q: it reads %q", folder, got)
	}
	editor.click(t, "Browse…")
	if !editor.waitDialogs(t, 2) {
		t.Fatalf("Browse… opened no file dialog:\n%s", editor.describe(t))
	}
	editor.key(t, "Escape")
	if !editor.waitDialogs(t, 1) {
		t.Fatalf("Escape left Fyne's file dialog open:\n%s", editor.describe(t))
	}
	editor.key(t, "Escape")
	if !editor.waitDialogs(t, 0) {
		t.Fatalf("Escape left the path dialog open:\n%s", editor.describe(t))
	}
}

// typeKeys types text where the keyboard is, adding to what the entry holds, as a person typing
// into a prefilled field does (typeText selects everything first).
func (w *window) typeKeys(t *testing.T, text string) {
	t.Helper()
	w.p.d.xdotool(t, "windowfocus", "--sync", w.id)
	w.p.d.xdotool(t, "type", "--delay", "15", text)
	time.Sleep(300 * time.Millisecond)
}

// dialogEntry is the text of the entry in the top dialog, as the widget map reports it; it waits
// up to five seconds for the text want ("" for any), since the map is written every 300 ms.
func (w *window) dialogEntry(t *testing.T, want string) string {
	t.Helper()
	got := ""
	for deadline := time.Now().Add(5 * time.Second); time.Now().Before(deadline); time.Sleep(150 * time.Millisecond) {
		top := w.dialogs(t)
		for _, c := range w.widgets(t).Widgets {
			if c.Control && c.Layer == top && strings.HasSuffix(c.Type, "Entry") {
				got = c.Text
				break
			}
		}
		if got != "" && (want == "" || got == want) {
			break
		}
	}
	return got
}
