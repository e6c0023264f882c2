package cli

import (
	"path/filepath"
	"strings"
	"testing"

	"androprof/formats/dpa"
	"androprof/formats/rmp"
	"androprof/internal/benchmem"
	"androprof/internal/human"
	"androprof/internal/shapes"
)

// Issue 24, finding 8 at the command line: a DPA or RMP log nesting as deep as its format
// allows (65,536, docs/dpa-format.md and rmp-format.md) imports, reports its recursive callers
// and exports to pprof in memory that follows the file (it ran out of memory: every call path
// was held and stored whole).
func TestImportAtDepthLimit(t *testing.T) {
	if testing.Short() {
		t.Skip("imports two logs 65,536 calls deep")
	}
	for _, c := range []struct {
		name   string
		depth  int
		method string
	}{
		{"deep.dpa", dpa.MaxDepth, "com.example.Deep.m1"},
		{"deep.rmp", rmp.MaxDepth, "com.example.Deep.m1"},
	} {
		t.Run(c.name, func(t *testing.T) {
			dir := t.TempDir()
			write := shapes.DeepDPA
			if strings.HasSuffix(c.name, ".rmp") {
				write = shapes.DeepRMP
			}
			file := writeShape(t, dir, c.name, c.depth, write)
			db := filepath.Join(dir, "w.db")
			var out string
			allocated := benchmem.Allocated(func() {
				for _, args := range [][]string{
					{"import", "--run", "deep", file},
					{"report", "--run", "deep", "--callers", c.method},
					{"export", "--run", "deep", "--format", "pprof", "--out", filepath.Join(dir, "deep.pb")},
				} {
					code, stdout, errOut := runCLI(t, db, args...)
					if code != 0 {
						t.Fatalf("%v: exit %d: %s", args, code, errOut)
					}
					out += stdout
				}
			})
			if !strings.Contains(out, "recursive") || !strings.Contains(out, human.Count(c.depth, "call path", "call paths")) {
				t.Errorf("output:\n%s", clipText(out))
			}
			// Whole paths took 65,536²/2 ids: some 17 GB.
			if limit := uint64(1 << 30); allocated > limit {
				t.Errorf("import, report and export allocated %d bytes, more than %d", allocated, limit)
			}
			t.Logf("%s: %d bytes allocated", c.name, allocated)
		})
	}
}
