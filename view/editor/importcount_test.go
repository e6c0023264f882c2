package editor

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"androprof/internal/viewtest"
)

// The editor's log import used to say nothing of what it read. It now says how many executed
// instructions of how many kinds, and how many of those kinds no category holds.
func TestImportLogSaysWhatItRead(t *testing.T) {
	_, v := newTestEditor(t)
	log := filepath.Join(t.TempDir(), "sieve.log")
	text := "IN: main\n0x00010000:  e3a00001      mov      r0, #1\n0x00010004:  e12fff1e      bx       lr\n\n" +
		strings.Repeat("Trace 0x00010000 [00010000] main\n", 3)
	viewtest.Must(t, os.WriteFile(log, []byte(text), 0o644))
	done := make(chan error, 1)
	v.ImportLog(log, func(err error) { done <- err })
	select {
	case err := <-done:
		viewtest.Must(t, err)
	case <-time.After(10 * time.Second):
		t.Fatal("import did not finish")
	}
	want := "Read 6 executed instructions of 2 kinds from sieve.log; 2 of the kinds are in no category."
	if v.Imported == nil || v.Imported.Text != want || !v.Imported.Visible() {
		t.Fatalf("after the import the window says %v, want %q", v.Imported, want)
	}
	for _, size := range viewtest.LayoutSizes { // the line it takes hides nothing
		v.Window.Resize(size)
		relayout(v.Window.Content()) // as the driver does when the wrapped line's height changed
		viewtest.CheckReachable(t, v.Window)
	}
}
