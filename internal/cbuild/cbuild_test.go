package cbuild

import (
	"os/exec"
	"testing"

	"androprof/internal/fastlane"
)

// A source's own headers are written beside it for gcc and are part of the cache key: a
// changed header builds a new object instead of reusing the old one.
func TestBuildWithHeaders(t *testing.T) {
	fastlane.Needs(t, "gcc")
	if _, err := exec.LookPath("gcc"); err != nil {
		t.Skip("gcc is not installed")
	}
	dir := t.TempDir()
	src := Source{Name: "withheader", Code: []byte("#include \"answer.h\"\nint answer(void) { return ANSWER; }\n"),
		Flags: []string{"-O2", "-shared", "-fPIC", "-Wall", "-Werror"}, What: "a test library",
		Headers: map[string][]byte{"answer.h": []byte("#define ANSWER 42\n")}}
	first, err := Build(dir, src)
	if err != nil {
		t.Fatal(err)
	}
	src.Headers = map[string][]byte{"answer.h": []byte("#define ANSWER 43\n")}
	second, err := Build(dir, src)
	if err != nil {
		t.Fatal(err)
	}
	if first == second {
		t.Errorf("a changed header reused %s", first)
	}
	src.Headers = map[string][]byte{"../answer.h": src.Headers["answer.h"]}
	if _, err := Build(dir, src); err == nil {
		t.Error("a header named with a path was written outside the build folder")
	}
}
