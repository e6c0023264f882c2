package controller

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"androprof/internal/fastlane"
	"androprof/internal/testio"
)

// Issue 24, finding 7: `heap --keep DIR` where DIR/heap.heaplog is a folder ran the whole
// program, then failed to move its log there and discarded it. It is refused before the
// program runs, naming the path.
func TestHeapKeepRefusedBeforeTheRun(t *testing.T) {
	fastlane.Needs(t, "java")
	if _, err := exec.LookPath("java"); err != nil {
		t.Skip("java is not installed")
	}
	keep := t.TempDir()
	inTheWay := filepath.Join(keep, "heap.heaplog")
	if err := os.Mkdir(inTheWay, 0o755); err != nil {
		t.Fatal(err)
	}
	im := NewWorkspace(openStore(t)).Importer()
	im.KeepDir = keep
	var said testio.Buffer
	im.Stdout = &said
	err := im.RunJava(context.Background(), "version", []string{"java", "-version"}, nil)
	if err == nil || !strings.Contains(err.Error(), inTheWay) || !strings.Contains(err.Error(), "is a folder") {
		t.Errorf("want a refusal naming %s, have %v", inTheWay, err)
	}
	if said.String() != "" {
		t.Errorf("the program ran: %q", said.String())
	}
	if ents, _ := os.ReadDir(keep); len(ents) != 1 {
		t.Errorf("the kept folder holds %v", ents)
	}
}
