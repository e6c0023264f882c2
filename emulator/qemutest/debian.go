package qemutest

import (
	"os"
	"testing"

	"androprof/internal/debpkg"
)

// Debian returns a root holding Debian's own packages of arch (see debpkg.Root), cached
// under os.UserCacheDir()/androprof/debian, so tests run the stripped, dynamically linked
// programs a user would rather than ones we compile: `qemu-arm -L ROOT ROOT/bin/bzip2`.
func Debian(t testing.TB, arch string, pkgs ...string) string {
	t.Helper()
	Require(t, "apt-get", "dpkg-deb")
	dir, err := debpkg.CacheDir()
	if err == nil {
		dir, err = debpkg.Root(t.Context(), dir, arch, pkgs...)
	}
	if err != nil {
		Missing(t, "Debian's %s packages: %v", arch, err)
	}
	return dir
}

// Missing skips the test on a developer machine (no network, no apt) and fails it in CI,
// where .ci/run installs what the tests need: Require's rule, for anything it cannot look up.
func Missing(t testing.TB, format string, args ...any) {
	t.Helper()
	if os.Getenv("CI") != "" {
		t.Fatalf(format, args...)
	}
	t.Skipf(format, args...)
}
