//go:build linux

package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// Issue 24, finding 7: `heap --keep DIR` where DIR/heap.heaplog is a folder is refused before
// the program runs, naming the path; it used to run the whole program, then lose its log
// (`rename …: file exists`).
func TestHeapKeepIntoAFolder(t *testing.T) {
	requireJava(t)
	keep := t.TempDir()
	inTheWay := filepath.Join(keep, "heap.heaplog")
	if err := os.Mkdir(inTheWay, 0o755); err != nil {
		t.Fatal(err)
	}
	db := filepath.Join(t.TempDir(), "w.db")
	c, output := startChildToFile(t, "heap", "--db", db, "--keep", keep, "--", "java", "-version")
	r := c.wait(t)
	out := output()
	if r.code != 1 || !strings.Contains(out, inTheWay+" is a folder") {
		t.Errorf("want exit 1 and a refusal naming %s: exit %d, %q", inTheWay, r.code, out)
	}
	if strings.Contains(out, "version \"") || strings.Contains(out, "running java") {
		t.Errorf("the program ran: %q", out)
	}
}
