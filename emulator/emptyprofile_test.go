package emulator

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// A profile file the plugin opened but never wrote (QEMU aborted in another thread meanwhile)
// is named as what it is, not as "not an androprof basic-block profile".
func TestEmptyProfileSaysTheProcessDied(t *testing.T) {
	path := filepath.Join(t.TempDir(), "bbprofile-8284.txt")
	if err := os.WriteFile(path, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	err := importProfile(context.Background(), path, profileReading{}, nil)
	if err == nil || !strings.Contains(err.Error(), path+" is empty: its process died") {
		t.Fatalf("got %v", err)
	}
}
