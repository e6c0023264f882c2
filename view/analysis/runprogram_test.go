package analysis

import (
	"strings"
	"testing"

	"fyne.io/fyne/v2"

	"androprof/internal/proc"
	"androprof/view/ui"
)

// In the Run program dialog, Tab from the program's path landed on Browse…, so the arguments
// typed next were lost. Tab now goes from the path to the arguments (Browse… is a click away).
func TestRunProgramTabGoesToTheArguments(t *testing.T) {
	v, _ := openAnalysis(t)
	c := v.Window.Canvas()
	v.commands[acRunProgram].Run()
	path := c.Focused()
	if e := ui.TextEntry(path); e == nil || !strings.HasPrefix(e.PlaceHolder, programPlaceHolder) {
		t.Fatalf("the dialog opens with the keyboard in %T, want the program's path", path)
	}
	tab, ok := path.(fyne.Tabbable)
	if !ok || !tab.AcceptsTab() {
		t.Fatal("Tab in the program's path goes to the window's next control (Browse…)")
	}
	path.TypedKey(&fyne.KeyEvent{Name: fyne.KeyTab})
	if e := ui.TextEntry(c.Focused()); e == nil || !strings.HasPrefix(e.PlaceHolder, "arguments") {
		t.Fatalf("Tab from the path gave the keyboard to %T, want the arguments", c.Focused())
	}
}

// A failed program run's message stayed on screen over the next, successful run. It says how
// the program ended and what it wrote, and goes when the next run starts.
func TestFailedRunMessageGoesWithTheNextRun(t *testing.T) {
	v, imp := openAnalysis(t)
	imp.exitErr = &proc.ExitError{Program: "sieve", Under: "qemu-arm", ExitCode: 2, Imported: 1,
		Said: "usage: sieve [2..200000]", Kept: "1 process profile(s) were read up to that point"}
	v.Runs.Run("bad", "/bin/sieve", []string{"1"}, nil)
	v.Wait()
	said := dialogTexts(v.Window)
	for _, want := range []string{"sieve exited with status 2 under qemu-arm", "usage: sieve [2..200000]", `Run "bad" keeps what it executed`} {
		if !strings.Contains(said, want) {
			t.Errorf("the window says %q, want %q", said, want)
		}
	}
	if strings.Contains(said, "Could not") {
		t.Errorf("the window calls a kept run a failure: %q", said)
	}
	imp.exitErr = nil
	v.Runs.Run("good", "/bin/sieve", []string{"200"}, nil)
	v.Wait()
	if said := dialogTexts(v.Window); said != "" {
		t.Errorf("after a good run the window still shows %q", said)
	}
}
