package analysis

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/widget"

	"androprof/internal/viewtest"
	"androprof/view/ui"
)

// File ▸ Export… as a person uses it: on the method run jag it offers the formats of method
// runs only, and Chrome's, chosen then saved under a typed path, is the file
// `androprof export` writes (Workspace.Export), with a notice of what was written; on the
// emulator run it says there is none.
func TestFileExportWritesTheChosenFormat(t *testing.T) {
	v, _ := openMethodsWindow(t)
	c := v.exportRun()
	if c == nil || len(c.Formats) != 5 || c.Formats[0].Name != "chrome" || len(c.Choice.Options) != 5 {
		t.Fatalf("the formats offered for a method run: %+v", c)
	}
	c.Choice.SetSelected(c.Choice.Options[0])
	viewtest.TapDialogButton(t, v.Window, "Next…")
	path := filepath.Join(t.TempDir(), "jag.json")
	typed := false
	for _, o := range test.LaidOutObjects(v.Window.Canvas().Overlays().Top()) {
		if e := ui.TextEntry(o); e != nil {
			e.SetText(path)
			typed = true
		}
	}
	if !typed {
		t.Fatal("no path to type in the save dialog")
	}
	viewtest.TapDialogButton(t, v.Window, "Save")
	var data []byte
	for deadline := time.Now().Add(30 * time.Second); time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
		if d, err := os.ReadFile(path); err == nil && len(d) > 0 && json.Valid(d) {
			data = d
			break
		}
	}
	var f struct{ TraceEvents []struct{ Ph string } }
	if err := json.Unmarshal(data, &f); err != nil || len(f.TraceEvents) < 100 {
		t.Fatalf("the saved file: %v, %d events", err, len(f.TraceEvents))
	}
	notice := ""
	for deadline := time.Now().Add(10 * time.Second); time.Now().Before(deadline) && !strings.Contains(notice, "as slices"); time.Sleep(20 * time.Millisecond) {
		notice = dialogText(v)
	}
	if !strings.Contains(notice, "jag.json") || !strings.Contains(notice, "as slices") {
		t.Errorf("the notice says %q", notice)
	}

	v.SelectRun("small")
	v.Wait()
	if c := v.exportRun(); c != nil {
		t.Errorf("an emulator run was offered %v", c.Formats)
	}
}

// dialogText is the text of the top dialog's labels.
func dialogText(v *View) string {
	top := v.Window.Canvas().Overlays().Top()
	if top == nil {
		return ""
	}
	var b strings.Builder
	for _, o := range test.LaidOutObjects(top) {
		if l, ok := o.(*widget.Label); ok {
			b.WriteString(l.Text + "\n")
		}
	}
	return b.String()
}
