//go:build linux

package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"testing"
)

// Issue 24 finding 1: `tour screenshot --out DIR` (once `androprof screenshot`) replaces a link planted at DIR/editor.png
// instead of writing the PNG through it.
func TestScreenshotReplacesLinks(t *testing.T) {
	if testing.Short() {
		t.Skip("opens the real windows under Xvfb; not under -short")
	}
	xvfb, err := exec.LookPath("xvfb-run")
	if err != nil {
		t.Skip("xvfb-run not installed (apt-get install xvfb xauth)")
	}
	dir := t.TempDir()
	victim, link := filepath.Join(dir, "victim.txt"), filepath.Join(dir, "editor.png")
	const precious = "precious\n"
	if err := os.WriteFile(victim, []byte(precious), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(victim, link); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(xvfb, "-a", "-s", "-screen 0 1280x1024x24", os.Args[0],
		"screenshot", "--out", dir, "--db", filepath.Join(dir, "w.db"))
	cmd.Env = append(os.Environ(), "ANDROPROF_AS_MAIN=1")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("tour screenshot: %v\n%s", err, out)
	}
	if got, _ := os.ReadFile(victim); string(got) != precious {
		t.Errorf("the screenshot was written through the link: the victim now holds %d bytes", len(got))
	}
	if st, err := os.Lstat(link); err != nil || !st.Mode().IsRegular() {
		t.Errorf("editor.png is not a file of its own: %v", err)
	}
	decode(t, link)
}
