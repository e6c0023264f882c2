package emulator

import (
	"slices"
	"testing"

	"androprof/emulator/qemutest"
)

// The plugin is built as the agents are, with warnings as errors: a warning gcc finds in it
// later fails the build here rather than hiding in a user's cache.
func TestPluginBuildsWithWarningsAsErrors(t *testing.T) {
	for _, flag := range []string{"-Wall", "-Wextra", "-Werror"} {
		if !slices.Contains(pluginCFlags, flag) {
			t.Errorf("pluginCFlags %q lack %s", pluginCFlags, flag)
		}
	}
	qemutest.Require(t, "gcc")
	if _, err := BuildPlugin(t.TempDir()); err != nil {
		t.Fatal(err)
	}
}
