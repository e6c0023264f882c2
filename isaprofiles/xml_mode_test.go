//go:build unix

package isaprofiles

import (
	"os"
	"path/filepath"
	"syscall"
	"testing"

	"androprof/model/cost"
)

// A saved profile used to be mode 0600 (os.CreateTemp's), so a colleague could not read it;
// it now gets the mode any new file gets under the user's umask.
func TestWriteFileHonoursUmask(t *testing.T) {
	old := syscall.Umask(0o022)
	defer syscall.Umask(old)
	path := filepath.Join(t.TempDir(), "p.xml")
	p := cost.NewProfile("Mode", cost.ARM)
	if err := WriteFile(path, p); err != nil {
		t.Fatal(err)
	}
	st, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	if got := st.Mode().Perm(); got != 0o644 {
		t.Fatalf("saved profile has mode %o, want 644 under umask 022", got)
	}
}
