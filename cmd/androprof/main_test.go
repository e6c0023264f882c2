package main

import (
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// TestMain lets the test binary stand in for androprof, so a test runs the real program
// without a second cgo build.
func TestMain(m *testing.M) {
	if os.Getenv("ANDROPROF_AS_MAIN") == "1" {
		main()
		return
	}
	os.Exit(m.Run())
}

// Started where there is no display, the window says so and exits 1; it used to panic in GLFW.
func TestNoDisplaySaysSo(t *testing.T) {
	cmd := exec.Command(os.Args[0], "--db", filepath.Join(t.TempDir(), "w.db"))
	cmd.Env = append(slices.DeleteFunc(os.Environ(), func(kv string) bool {
		return strings.HasPrefix(kv, "DISPLAY=") || strings.HasPrefix(kv, "WAYLAND_DISPLAY=")
	}), "ANDROPROF_AS_MAIN=1")
	out, err := cmd.CombinedOutput()
	var exit *exec.ExitError
	if !errors.As(err, &exit) || exit.ExitCode() != 1 || !strings.Contains(string(out), "no display to open the window on") ||
		strings.Contains(string(out), "panic") {
		t.Errorf("without a display: %v\n%s", err, out)
	}
}
