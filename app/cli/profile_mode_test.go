//go:build unix

package cli

import (
	"os"
	"path/filepath"
	"syscall"
	"testing"
)

// `profile export` used to write mode 0600 files (os.CreateTemp's mode); it now gets the
// user's umask like any other file the user makes.
func TestProfileExportHonoursUmask(t *testing.T) {
	old := syscall.Umask(0o022)
	defer syscall.Umask(old)
	dir := t.TempDir()
	out := filepath.Join(dir, "a8.xml")
	if code, _, errOut := runCLI(t, filepath.Join(dir, "w.db"), "profile", "export", "ARMv7-A Cortex-A8", "--out", out); code != 0 {
		t.Fatalf("export failed: %s", errOut)
	}
	st, err := os.Stat(out)
	if err != nil {
		t.Fatal(err)
	}
	if got := st.Mode().Perm(); got != 0o644 {
		t.Fatalf("exported profile has mode %o, want 644 under umask 022", got)
	}
}
