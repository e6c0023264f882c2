package jvm

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// Issue 24, finding 7, for vertical --keep: a folder where perf.data or perf.script is to be
// kept is refused before perf and the program run, naming the path (moving the file there
// would fail after the whole recording).
func TestVerticalKeepRefusedBeforeTheRun(t *testing.T) {
	if _, err := exec.LookPath("java"); err != nil {
		t.Skip("java is not installed")
	}
	for _, name := range []string{"perf.data", "perf.script"} {
		keep := t.TempDir()
		inTheWay := filepath.Join(keep, name)
		if err := os.Mkdir(inTheWay, 0o755); err != nil {
			t.Fatal(err)
		}
		var said bytes.Buffer
		rec, err := RecordVertical(context.Background(), VerticalOptions{Args: []string{"-version"}, Keep: keep, Stdout: &said, Stderr: &said}, nil)
		rec.Close()
		if err == nil || !strings.Contains(err.Error(), inTheWay+" is a folder") {
			t.Errorf("%s: want a refusal naming %s, have %v", name, inTheWay, err)
		}
		if ents, _ := os.ReadDir(keep); said.Len() > 0 || len(ents) != 1 {
			t.Errorf("%s: the program ran: it said %q, left %v", name, said.String(), ents)
		}
	}
}
