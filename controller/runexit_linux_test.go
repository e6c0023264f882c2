package controller

import (
	"context"
	"errors"
	"path/filepath"
	"strings"
	"testing"

	"androprof/emulator/qemutest"
	"androprof/internal/proc"
	"androprof/store"
)

// A program run that failed said "Could not import into the run …" although what it executed
// was imported, and never what the program itself said. Now the exit is the message, the
// program's own last line (its usage) is in it, and the run is kept.
func TestFailedRunSaysHowItEndedAndWhatItSaid(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs a real ARM program under qemu-arm")
	}
	tg := qemutest.Targets[0]
	bin := qemutest.Build(t, tg, filepath.Join(qemutest.SamplesDir(), "sieve.c"))
	db, err := store.Open(filepath.Join(t.TempDir(), "w.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	im := NewWorkspace(db).Importer()
	im.CacheDir = t.TempDir()
	err = im.RunProgram(context.Background(), "bad", bin, []string{"1"}, nil)
	var exit *proc.ExitError
	if !errors.As(err, &exit) {
		t.Fatalf("sieve 1: %v, want the program's exit", err)
	}
	if !strings.HasPrefix(exit.Said, "usage: sieve") {
		t.Errorf("the program said %q, want its usage line", exit.Said)
	}
	p := Explain("run the program into", "bad", err)
	if !strings.HasPrefix(p.What, filepath.Base(bin)+" exited with status ") || !strings.HasSuffix(p.What, " under qemu-arm") {
		t.Errorf("what: %q", p.What)
	}
	if strings.Contains(p.What, "Could not") || !strings.Contains(p.Hint, "usage: sieve") || !strings.Contains(p.Hint, `Run "bad" keeps what it executed`) {
		t.Errorf("the window would say %q", p.Error())
	}
	runs, err := db.Runs(context.Background())
	if err != nil || len(runs) != 1 || runs[0].Name != "bad" || runs[0].Instructions == 0 {
		t.Errorf("runs after the failed program: %+v, %v", runs, err)
	}
}
