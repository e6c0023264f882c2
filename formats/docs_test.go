package formats

import (
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// docAnchors are the sections of a Markdown page as GitHub links them: a heading's text in lower
// case, spaces as hyphens, other punctuation dropped.
func docAnchors(t *testing.T, path string) map[string]bool {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	drop := regexp.MustCompile("[^a-z0-9 _-]")
	anchors := map[string]bool{}
	for _, ln := range strings.Split(string(b), "\n") {
		if text, ok := strings.CutPrefix(strings.TrimLeft(ln, "#"), " "); ok && strings.HasPrefix(ln, "#") {
			anchors[strings.ReplaceAll(drop.ReplaceAllString(strings.ToLower(text), ""), " ", "-")] = true
		}
	}
	return anchors
}

// Every comment in the repository that cites a section of docs/formats.md cites one that exists,
// so the format reference and the code that relies on it cannot drift apart unseen.
func TestFormatsDocCitations(t *testing.T) {
	anchors := docAnchors(t, "../docs/formats.md")
	cite := regexp.MustCompile(`docs/formats\.md#([a-z0-9_-]+)`)
	cited := 0
	err := filepath.WalkDir("..", func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(path, ".go") {
			return err
		}
		b, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		for _, m := range cite.FindAllStringSubmatch(string(b), -1) {
			cited++
			if !anchors[m[1]] {
				t.Errorf("%s cites docs/formats.md#%s, which is no section of it", path, m[1])
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if cited == 0 {
		t.Error("no comment cites docs/formats.md")
	}
}
