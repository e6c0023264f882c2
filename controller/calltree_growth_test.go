package controller

import (
	"context"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"testing"
	"time"

	"androprof/internal/benchmem"
	"androprof/internal/refcheck"
	"androprof/internal/shapes"
	"androprof/store"
)

// importCost is what importing one file cost.
type importCost struct {
	allocated, peak uint64 // bytes allocated; most memory held above what was held before
	workspace       int64  // bytes the import added to the workspace file
	took            time.Duration
}

// measureImport writes a shape of size n into a file and imports it into a fresh workspace.
func measureImport(t *testing.T, name string, shape func(io.Writer, int) error, n int) importCost {
	t.Helper()
	dir := t.TempDir()
	file := filepath.Join(dir, name)
	f, err := os.Create(file)
	if err != nil {
		t.Fatal(err)
	}
	if err := shape(f, n); err != nil {
		t.Fatal(err)
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, "w.db")
	db := openAt(t, path)
	db.Close()
	empty := workspaceBytes(t, path)
	db = openAt(t, path)
	im := NewWorkspace(db).Importer()
	var c importCost
	var peak uint64
	// Collect often, so the peak follows what the import holds rather than when the collector
	// happened to run.
	defer debug.SetGCPercent(debug.SetGCPercent(10))
	runtime.GC()
	base := heldMemory()
	stop := benchmem.Sample(&peak)
	start := time.Now()
	c.allocated = benchmem.Allocated(func() { err = im.ImportFiles(context.Background(), "r", []string{file}, nil) })
	c.took = time.Since(start)
	stop()
	if err != nil {
		t.Fatal(err)
	}
	c.peak = peak - min(peak, base)
	db.Close()
	c.workspace = workspaceBytes(t, path) - empty
	return c
}

// heldMemory is what benchmem.Sample measures, now.
func heldMemory() uint64 {
	var peak uint64
	benchmem.Sample(&peak)()
	return peak
}

func openAt(t testing.TB, path string) *store.DB {
	t.Helper()
	db, err := store.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		db.Close()
		if err := refcheck.Check(path); err != nil {
			t.Error(err)
		}
	})
	return db
}

// workspaceBytes is a closed workspace's bytes, its write-ahead log (if one is left) included.
func workspaceBytes(t *testing.T, path string) int64 {
	t.Helper()
	var n int64
	for _, p := range []string{path, path + "-wal"} {
		if st, err := os.Stat(p); err == nil {
			n += st.Size()
		}
	}
	return n
}

// checkLinear fails t when doubling an input more than maxRatio-folds the memory or workspace
// it cost, or (checkTime) more than triples the time: linear is 2×, quadratic 4×, and a machine
// shared with other work adds noise to time alone.
func checkLinear(t *testing.T, what string, small, large importCost, maxRatio float64, checkTime bool) {
	t.Helper()
	ratio := func(a, b float64) float64 { return b / max(a, 1) }
	for _, m := range []struct {
		name string
		a, b float64
	}{
		{"bytes allocated", float64(small.allocated), float64(large.allocated)},
		{"peak memory", float64(small.peak) + 8<<20, float64(large.peak) + 8<<20}, // 8 MB: the runtime's noise
		{"workspace bytes", float64(small.workspace), float64(large.workspace)},
	} {
		if r := ratio(m.a, m.b); r > maxRatio {
			t.Errorf("%s: twice the input, %.1f× the %s (%.0f → %.0f), more than linear", what, r, m.name, m.a, m.b)
		}
	}
	if r := ratio(float64(small.took), float64(large.took)); checkTime && r > 3 {
		t.Errorf("%s: twice the input, %.1f× the time (%v → %v), more than linear", what, r, small.took, large.took)
	}
	t.Logf("%s: %+v → %+v", what, small, large)
}

var callShapes = []struct {
	name          string
	deep, threads func(io.Writer, int) error
}{
	{"x.trace", shapes.DeepTraceview, shapes.ManyThreadsTraceview},
	{"x.dpa", shapes.DeepDPA, shapes.ManyThreadsDPA},
	{"x.rmp", shapes.DeepRMP, shapes.ManyThreadsRMP},
}

// Issue 24, finding 8: a call tree nesting N deep costs memory and workspace linear in N (each
// path was held and stored whole: quadratic). Time is not compared: at these sizes it is the
// workspace's fixed cost.
func TestCallTreeDepthCostIsLinear(t *testing.T) {
	for _, s := range callShapes {
		t.Run(s.name, func(t *testing.T) {
			small := measureImport(t, s.name, s.deep, 2000)
			large := measureImport(t, s.name, s.deep, 4000)
			checkLinear(t, "depth", small, large, 2.5, false)
		})
	}
}

// Issue 24, finding 10: N threads of one call each cost time, memory and workspace linear in N.
func TestManyThreadsCostIsLinear(t *testing.T) {
	if testing.Short() {
		t.Skip("imports 3×2 traces of 8,000 and 16,000 threads")
	}
	for _, s := range callShapes {
		t.Run(s.name, func(t *testing.T) {
			// The faster of two imports of each size, so a busy machine does not decide.
			best := func(n int) importCost {
				a, b := measureImport(t, s.name, s.threads, n), measureImport(t, s.name, s.threads, n)
				if b.took < a.took {
					return b
				}
				return a
			}
			checkLinear(t, "threads", best(8000), best(16000), 2.5, true)
		})
	}
}

// Issue 24, finding 8, pprof export: every sample lists its stack, so a deep tree's export was
// quadratic (a 20,000-deep trace took 5 GB). Stacks are cut at pprofMaxFrames: memory linear in
// depth, every sample's value kept, the innermost frames kept.
func TestPprofOfDeepTreeIsLinear(t *testing.T) {
	export := func(depth int) (uint64, int) {
		db := openStore(t)
		w := NewWorkspace(db)
		file := filepath.Join(t.TempDir(), "deep.trace")
		f, err := os.Create(file)
		if err != nil {
			t.Fatal(err)
		}
		if err := shapes.DeepTraceview(f, depth); err != nil {
			t.Fatal(err)
		}
		f.Close()
		if err := w.Importer().ImportFiles(context.Background(), "deep", []string{file}, nil); err != nil {
			t.Fatal(err)
		}
		var frames int
		allocated := benchmem.Allocated(func() {
			p, err := w.Methods.Pprof(context.Background(), "deep")
			if err != nil {
				t.Fatal(err)
			}
			if err := p.Write(io.Discard); err != nil {
				t.Fatal(err)
			}
			var cpu int64
			for _, s := range p.Sample {
				frames = max(frames, len(s.Location))
				cpu += s.Value[0]
			}
			// Each of the 2×depth events gives 1 µs to the call on top.
			if want := int64(2*depth-1) * 1000; cpu != want || len(p.Sample) != depth {
				t.Errorf("depth %d: %d samples of %d ns CPU in all, want %d samples of %d", depth, len(p.Sample), cpu, depth, want)
			}
		})
		return allocated, frames
	}
	small, frames := export(2000)
	large, _ := export(4000)
	if frames != pprofMaxFrames {
		t.Errorf("the deepest sample has %d frames, want %d", frames, pprofMaxFrames)
	}
	if r := float64(large) / float64(small); r > 2.5 {
		t.Errorf("pprof of a tree twice as deep allocated %.1f× (%d → %d bytes), more than linear", r, small, large)
	}
}
