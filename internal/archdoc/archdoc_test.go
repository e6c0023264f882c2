package archdoc

import (
	"bufio"
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
)

const (
	// docPath is the architecture page, from the module root.
	docPath = "docs/architecture.md"
	// tableHeading heads the section whose table lists the packages.
	tableHeading = "## Every package"
)

var (
	// tableRow is a row of the package table: its first cell one path in backquotes.
	tableRow = regexp.MustCompile("^\\|\\s*`([^`]+)`\\s*\\|")
	// codeSpan is any text in backquotes.
	codeSpan = regexp.MustCompile("`([^`\n]+)`")
	// treePath is a code span that reads as a path in the tree: lower-case segments joined by
	// slashes (`formats/qemulog`, `app/cli/`, `docs/readers.md`), not Go names or commands.
	treePath = regexp.MustCompile(`^[a-z][a-z0-9_]*(/[a-z0-9_][a-z0-9_.-]*)+/?$`)
)

// TestArchitectureNamesEveryPackage fails when a package is missing from the doc's package
// table, or when the table names a package that is no longer there.
func TestArchitectureNamesEveryPackage(t *testing.T) {
	root := moduleRoot(t)
	listed := listPackages(t, root)
	named := packageTable(t, readDoc(t, root))
	for _, p := range listed {
		if !slices.Contains(named, p) {
			t.Errorf("%s: package %s is missing from the package table (a row \"| `%s` | what it is |\")", docPath, p, p)
		}
	}
	for _, p := range named {
		if !slices.Contains(listed, p) {
			t.Errorf("%s: the package table names %s, which `go list ./...` does not find", docPath, p)
		}
	}
}

// TestDocsCiteOnlyPathsThatExist fails when the architecture page, the README or the benchmarks
// page cites a file or folder of the tree in backquotes that is not there (a package moved, a
// file renamed).
func TestDocsCiteOnlyPathsThatExist(t *testing.T) {
	root := moduleRoot(t)
	top := topDirs(t, root)
	for _, doc := range []string{docPath, "README.md", "docs/benchmarks.md"} {
		text, err := os.ReadFile(filepath.Join(root, filepath.FromSlash(doc)))
		if err != nil {
			t.Fatal(err)
		}
		checked := map[string]bool{}
		for _, m := range codeSpan.FindAllStringSubmatch(string(text), -1) {
			p := m[1]
			if checked[p] || !treePath.MatchString(p) || !top[strings.SplitN(p, "/", 2)[0]] {
				continue
			}
			checked[p] = true
			if _, err := os.Stat(filepath.Join(root, filepath.FromSlash(p))); err != nil {
				t.Errorf("%s cites `%s`, which is not in the tree", doc, p)
			}
		}
	}
}

// moduleRoot is the folder holding go.mod: go test runs a test in its package's folder, two
// below the root.
func moduleRoot(t *testing.T) string {
	t.Helper()
	root, err := filepath.Abs(filepath.Join("..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	return root
}

// readDoc is the architecture page's text.
func readDoc(t *testing.T, root string) []byte {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(root, filepath.FromSlash(docPath)))
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// listPackages is every package of the module as a slash path from its root (`app/cli`), as
// `go list ./...` finds them. -e keeps a package that does not build at the moment in the list:
// the doc is about the tree, not about whether it compiles.
func listPackages(t *testing.T, root string) []string {
	t.Helper()
	cmd := exec.Command("go", "list", "-e", "-f", "{{.Dir}}", "./...")
	cmd.Dir = root
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("go list ./...: %v\n%s", err, stderr.Bytes())
	}
	var pkgs []string
	for _, dir := range strings.Fields(string(out)) {
		rel, err := filepath.Rel(root, dir)
		if err != nil {
			t.Fatal(err)
		}
		pkgs = append(pkgs, filepath.ToSlash(rel))
	}
	return pkgs
}

// packageTable is the first cell of every row of the table under tableHeading that holds one
// path in backquotes, a trailing slash dropped (`app/cli/` names the package app/cli). Other
// tables of the doc (files to touch, say) are not the package list.
func packageTable(t *testing.T, doc []byte) []string {
	t.Helper()
	var named []string
	in := false
	sc := bufio.NewScanner(bytes.NewReader(doc))
	for sc.Scan() {
		line := sc.Text()
		if strings.HasPrefix(line, "## ") {
			in = line == tableHeading
		}
		if m := tableRow.FindStringSubmatch(line); in && m != nil {
			p := strings.TrimSuffix(m[1], "/")
			if slices.Contains(named, p) {
				t.Errorf("%s: the package table names %s twice", docPath, p)
			}
			named = append(named, p)
		}
	}
	if len(named) == 0 {
		t.Fatalf("%s has no package table: rows \"| `path` | what |\" under %q", docPath, tableHeading)
	}
	return named
}

// topDirs are the module root's folders: a code span is taken for a path in the tree only when
// it starts with one of them, so `../shared/corpus` or a MIME type is not.
func topDirs(t *testing.T, root string) map[string]bool {
	t.Helper()
	entries, err := os.ReadDir(root)
	if err != nil {
		t.Fatal(err)
	}
	dirs := map[string]bool{}
	for _, e := range entries {
		if e.IsDir() && !strings.HasPrefix(e.Name(), ".") {
			dirs[e.Name()] = true
		}
	}
	return dirs
}
