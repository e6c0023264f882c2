package cli

import (
	"context"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"

	"androprof/assets"
	"androprof/controller"
	"androprof/jvm"
	"androprof/store/workspacedb"
)

// The tests that run commands in this process on a workspace of their own, and measure neither
// memory nor time, call t.Parallel: Go runs them after the others, two at a time on two cores.
// Those that set the environment or the umask, count allocations (benchmem) or watch pids and
// signals stay sequential.

// fixtures are what the package's tests build once per test binary and then only read or
// copy (demo workspaces, the compiled Java samples): under -race each build takes seconds to
// a minute, and many tests asked for the same one. They live in one folder TestMain removes.
var fixtures struct {
	sync.Mutex
	dir   string
	built map[string]*fixture
}

type fixture struct {
	once sync.Once
	path string
	err  error
}

// sharedFixture is the path of the fixture key, made by build(path) the first time a test asks;
// a failed build fails every test that asks for it.
func sharedFixture(t testing.TB, key string, build func(path string) error) string {
	t.Helper()
	fixtures.Lock()
	if fixtures.built == nil {
		fixtures.built = map[string]*fixture{}
	}
	f := fixtures.built[key]
	if f == nil {
		f = &fixture{path: strconv.Itoa(len(fixtures.built))} // the key may not be a file name
		fixtures.built[key] = f
	}
	fixtures.Unlock()
	f.once.Do(func() {
		dir, err := fixtureDir()
		if err == nil {
			f.path = filepath.Join(dir, f.path)
			err = build(f.path)
		}
		f.err = err
	})
	if f.err != nil {
		t.Fatalf("%s: %v", key, f.err)
	}
	return f.path
}

// fixtureDir makes the fixtures' folder on first use.
func fixtureDir() (string, error) {
	fixtures.Lock()
	defer fixtures.Unlock()
	if fixtures.dir == "" {
		dir, err := os.MkdirTemp("", "androprof-cli-fixtures-")
		if err != nil {
			return "", err
		}
		fixtures.dir = dir
	}
	return fixtures.dir, nil
}

// removeFixtures removes what sharedFixture built, once the tests have run.
func removeFixtures() {
	if fixtures.dir != "" {
		os.RemoveAll(fixtures.dir)
	}
}

// demoDB is a workspace file holding every demo run, as `androprof demo` makes it.
func demoDB(t *testing.T) string {
	return demoRunsDB(t, func(string) bool { return true })
}

// demoRunsDB is a workspace file of the test's own holding the demo runs keep takes: a copy of
// one imported once for every test that asks for the same runs.
func demoRunsDB(t *testing.T, keep func(run string) bool) string {
	t.Helper()
	demos := map[string]controller.DemoRun{}
	for _, d := range assets.DemoRuns() {
		if keep(d.Name) {
			demos[d.Name] = d
		}
	}
	names := slices.Sorted(maps.Keys(demos))
	template := sharedFixture(t, "demo runs "+strings.Join(names, ","), func(path string) error { return importDemo(path, demos) })
	path := filepath.Join(t.TempDir(), "w.db")
	copyWorkspace(t, template, path)
	return path
}

// importDemo makes the workspace path holding demos.
func importDemo(path string, demos map[string]controller.DemoRun) error {
	ws, err := controller.OpenWorkspace(workspacedb.Databases(), path, true)
	if err != nil {
		return err
	}
	_, err = ws.Importer().ImportDemo(context.Background(), demos)
	if cerr := ws.Close(); err == nil {
		err = cerr
	}
	return err
}

// javaSampleClasses is the folder of the Java samples compiled, once for the package's tests,
// which only run them.
func javaSampleClasses(t *testing.T) string {
	t.Helper()
	return sharedFixture(t, "compiling the Java samples", func(dir string) error {
		return jvm.CompileSamples(context.Background(), "", dir)
	})
}

// importedRuns imports each file as the run its key names, through `androprof import`, into a
// new workspace, and opens it read-only for the test's comparisons: the database's path and
// the workspace, closed when the test ends.
func importedRuns(t *testing.T, runs map[string]string) (string, *controller.Workspace) {
	t.Helper()
	db := filepath.Join(t.TempDir(), "w.db")
	for run, file := range runs {
		if code, _, errOut := runCLI(t, db, "import", "--run", run, file); code != 0 {
			t.Fatal(errOut)
		}
	}
	ws, err := controller.OpenWorkspace(workspacedb.Databases(), db, false)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ws.Close() })
	return db, ws
}
