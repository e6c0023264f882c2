package analysis

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/widget"

	"androprof/internal/viewtest"
	"androprof/view/ui"
)

// File ▸ Export… as a person uses it: on the method run jag it offers the formats of method
// runs only, and Chrome's, chosen then saved under a typed path, is the file
// `androprof export` writes (Workspace.Export), with a notice of what was written; the
// emulator run offers its HTML report only, saved the same way.
func TestFileExportWritesTheChosenFormat(t *testing.T) {
	v, _ := openMethodsWindow(t)
	c := v.exportRun()
	if c == nil || len(c.Formats) != 6 || c.Formats[0].Name != "chrome" || c.Formats[5].Name != "html" || len(c.Choice.Options) != 6 {
		t.Fatalf("the formats offered for a method run: %+v", c)
	}
	c.Choice.SetSelected(c.Choice.Options[0])
	path := filepath.Join(t.TempDir(), "jag.json")
	data := saveExportAs(t, v, path, json.Valid)
	var f struct{ TraceEvents []struct{ Ph string } }
	if err := json.Unmarshal(data, &f); err != nil || len(f.TraceEvents) < 100 {
		t.Fatalf("the saved file: %v, %d events", err, len(f.TraceEvents))
	}
	waitNotice(t, v, "jag.json", "as slices")

	v.SelectRun("small")
	v.Wait()
	c = v.exportRun()
	if c == nil || len(c.Formats) != 1 || c.Formats[0].Name != "html" {
		t.Fatalf("the formats offered for an emulator run: %+v", c)
	}
	page := saveExportAs(t, v, filepath.Join(t.TempDir(), "small.html"), func(d []byte) bool { return strings.Contains(string(d), "</html>") })
	if !strings.Contains(string(page), "small") {
		t.Errorf("the report does not name its run: %.200q", page)
	}
	waitNotice(t, v, "small.html", "self-contained page")
}

// saveExportAs presses Next… in the export dialog, types path in the save dialog, presses
// Save and waits until the file written is whole (done says so).
func saveExportAs(t *testing.T, v *View, path string, done func([]byte) bool) []byte {
	t.Helper()
	viewtest.TapDialogButton(t, v.Window, "Next…")
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
	ui.WaitSaves()
	d, err := os.ReadFile(path)
	if err != nil || !done(d) {
		t.Fatalf("%s was not written whole: %v", path, err)
	}
	return d
}

// waitNotice checks the notice that names the file and says what it holds (the save is done:
// saveExportAs waited for it).
func waitNotice(t *testing.T, v *View, file, says string) {
	t.Helper()
	if notice := dialogText(v); !strings.Contains(notice, file) || !strings.Contains(notice, says) {
		t.Errorf("the notice says %q", notice)
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
