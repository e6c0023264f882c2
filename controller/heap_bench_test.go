package controller_test

import (
	"bufio"
	"context"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"testing"
	"time"

	"androprof/chart"
	"androprof/chart/render"
	"androprof/controller"
	"androprof/formats/heaplog/heaplogtest"
	"androprof/formats/hprof/hproftest"
	"androprof/internal/benchmem"
	"androprof/jvm"
	"androprof/store"
)

// writeBuffered writes a benchmark's input file through write.
func writeBuffered(b *testing.B, path string, write func(io.Writer) error) {
	b.Helper()
	f, err := os.Create(path)
	if err != nil {
		b.Fatal(err)
	}
	w := bufio.NewWriterSize(f, 1<<20)
	if err := write(w); err != nil {
		b.Fatal(err)
	}
	if err := w.Flush(); err != nil {
		b.Fatal(err)
	}
	if err := f.Close(); err != nil {
		b.Fatal(err)
	}
}

// importTimed imports path as the n-th run of the workspace in dir, as `androprof import`
// does, keeping the peak memory meanwhile, and stops the benchmark's timer after it.
func importTimed(b *testing.B, dir, path string, n int, peak *uint64) (*store.DB, string) {
	b.Helper()
	db, err := store.Open(filepath.Join(dir, "w.db"))
	if err != nil {
		b.Fatal(err)
	}
	run := "run" + string(rune('a'+n))
	stop := benchmem.Sample(peak)
	if err := controller.NewWorkspace(db).Importer().ImportFiles(context.Background(), run, []string{path}, nil); err != nil {
		b.Fatal(err)
	}
	stop()
	b.StopTimer()
	return db, run
}

// BenchmarkImportHeapLog is the measure: a heap log of 10 million events imported by
// `androprof import`'s code (reader, cohort builder, one SQLite transaction) in under 30 s with
// flat memory; the 2.5 M case beside it shows the peak does not grow with the log. Then the run
// is opened from the workspace (load-ms, once per run, as the window does) and every figure
// drawn at the export size, each in under 200 ms (max-figure-ms).
func BenchmarkImportHeapLog(b *testing.B) {
	for _, events := range []int{2_500_000, 10_000_000, 20_000_000} {
		b.Run(map[int]string{2_500_000: "2.5M", 10_000_000: "10M", 20_000_000: "20M"}[events], func(b *testing.B) {
			dir := b.TempDir()
			path := filepath.Join(dir, "big.heaplog")
			writeBuffered(b, path, func(w io.Writer) error { return heaplogtest.Synthetic(w, events, 1) })
			runtime.GC()
			var peak uint64
			var worst, load time.Duration
			var worstFig string
			var cells int
			var cohort uint64
			n := 0
			for b.Loop() {
				db, run := importTimed(b, dir, path, n, &peak)
				t0 := time.Now()
				p, err := controller.NewWorkspace(db).HeapLogs.Profile(context.Background(), run, 1)
				if err != nil {
					b.Fatal(err)
				}
				load = time.Since(t0)
				cells, cohort = len(p.Cells), p.Cohort
				for _, f := range chart.HeapFigures {
					t0 := time.Now()
					if _, err := render.Image(f.Draw(p, run), 1200, 700); err != nil {
						b.Fatalf("figure %s: %v", f.Seed, err)
					}
					if d := time.Since(t0); d > worst {
						worst, worstFig = d, f.Seed
					}
				}
				db.Close()
				n++
				b.StartTimer()
			}
			b.ReportMetric(float64(events)/b.Elapsed().Seconds()*float64(n)/1e6, "M-events/s")
			b.ReportMetric(float64(peak)/(1<<20), "peak-MB")
			b.ReportMetric(float64(worst.Milliseconds()), "max-figure-ms")
			b.ReportMetric(float64(load.Milliseconds()), "load-ms")
			b.Logf("slowest figure: %s; cells %d, cohort %d", worstFig, cells, cohort)
		})
	}
}

// BenchmarkImportHPROF100MB: a 100 MB Android dump imported in under 10 s with a peak under
// 500 MB, then each dump figure drawn.
func BenchmarkImportHPROF100MB(b *testing.B) {
	dir := b.TempDir()
	path := filepath.Join(dir, "big.hprof")
	writeBuffered(b, path, func(w io.Writer) error {
		_, err := hproftest.Generate(w, hproftest.Options{Version: "1.0.3"}, 100<<20, 1)
		return err
	})
	runtime.GC()
	b.SetBytes(100 << 20)
	var peak uint64
	var worst time.Duration
	n := 0
	for b.Loop() {
		db, run := importTimed(b, dir, path, n, &peak)
		d, err := controller.NewWorkspace(db).HeapDumps.Dump(context.Background(), run)
		if err != nil {
			b.Fatal(err)
		}
		for _, fig := range chart.DumpFigures {
			t0 := time.Now()
			if _, err := render.Image(fig.Draw(d, "", run), 1200, 700); err != nil {
				b.Fatalf("%s: %v", fig.Name, err)
			}
			worst = max(worst, time.Since(t0))
		}
		db.Close()
		n++
		b.StartTimer()
	}
	b.ReportMetric(float64(peak)/(1<<20), "peak-MB")
	b.ReportMetric(float64(worst.Milliseconds()), "max-figure-ms")
}

// BenchmarkImportHotSpotDump100MB is issue 15's measure of the dominator tree: a ~100 MB dump
// that HotSpot wrote of a real Java program (demo.Retain holding 700,000 items in a HashMap)
// imported with its summary, exact dominator tree, retained sizes and paths from the roots (and,
// since issue 29, its objects' records) in under 4 s and 270 MB (issue 15 allowed 10 s and 1 GB
// and took 4 s and 540 MB); then what keeps the items alive (path-ms: loading the run's
// retention and the path to an item). Needs java and javac; it skips without them.
func BenchmarkImportHotSpotDump100MB(b *testing.B) {
	java, dir, classes := benchSamples(b)
	path, other := filepath.Join(dir, "big.hprof"), filepath.Join(dir, "after.hprof")
	if out, err := exec.Command(java.Java, "-cp", classes, "demo.Retain", "700000", "0", path, other).CombinedOutput(); err != nil {
		b.Fatalf("demo.Retain: %v\n%s", err, out)
	}
	os.Remove(other)
	st, err := os.Stat(path)
	if err != nil {
		b.Fatal(err)
	}
	runtime.GC()
	b.SetBytes(st.Size())
	var peak uint64
	var worst, path2 time.Duration
	n := 0
	for b.Loop() {
		t0 := time.Now()
		db, run := importTimed(b, dir, path, n, &peak)
		worst = max(worst, time.Since(t0))
		t1 := time.Now()
		r, err := controller.NewWorkspace(db).HeapDumps.Retention(context.Background(), run)
		if err != nil {
			b.Fatal(err)
		}
		for i, c := range r.Classes {
			if c.Name == "demo/Retain$Item" {
				o, ok := r.Nearest(int32(i))
				if !ok || len(r.Path(o.Seq)) < 5 {
					b.Fatalf("no path to an item: %+v", o)
				}
			}
		}
		path2 = max(path2, time.Since(t1))
		db.Close()
		n++
		b.StartTimer()
	}
	b.ReportMetric(float64(st.Size())/(1<<20), "dump-MB")
	b.ReportMetric(float64(peak)/(1<<20), "peak-MB")
	b.ReportMetric(worst.Seconds(), "s-import")
	b.ReportMetric(float64(path2.Milliseconds()), "path-ms")
	if worst > 4*time.Second || peak > 270<<20 {
		b.Errorf("import took %v with a peak of %d MB; issue 29 allows 4 s and 270 MB (issue 15's 4 s and half its 540 MB)", worst, peak>>20)
	}
}

// BenchmarkImportHotSpotDump1GB is issue 29's measure of big dumps: a ~1 GB dump HotSpot wrote
// (`jcmd PID GC.heap_dump`) of demo.AppHeap, a heap shaped like an application's (strings,
// maps, lists, arrays, plain objects; about 20 million objects), imported with its summary,
// exact dominator tree, retained sizes and paths in at most 60 s with a peak of at most twice
// the file's size. Needs java, javac and jcmd and about 1 GB of the temporary directory; it
// skips without the JDK.
func BenchmarkImportHotSpotDump1GB(b *testing.B) {
	java, dir, classes := benchSamples(b)
	path := filepath.Join(dir, "app.hprof")
	jcmdDump(b, java, classes, path, "540000")
	defer os.Remove(path)
	st, err := os.Stat(path)
	if err != nil {
		b.Fatal(err)
	}
	runtime.GC()
	b.SetBytes(st.Size())
	var peak uint64
	var worst time.Duration
	n := 0
	for b.Loop() {
		t0 := time.Now()
		db, _ := importTimed(b, dir, path, n, &peak)
		worst = max(worst, time.Since(t0))
		db.Close()
		n++
		b.StartTimer()
	}
	if ws, err := os.Stat(filepath.Join(dir, "w.db")); err == nil {
		b.ReportMetric(float64(ws.Size())/(1<<20)/float64(n), "workspace-MB")
	}
	b.ReportMetric(float64(st.Size())/(1<<20), "dump-MB")
	b.ReportMetric(float64(peak)/(1<<20), "peak-MB")
	b.ReportMetric(worst.Seconds(), "s-import")
	if worst > time.Minute || peak > 2*uint64(st.Size()) {
		b.Errorf("import of %d MB took %v with a peak of %d MB; the issue allows 60 s and twice the file",
			st.Size()>>20, worst, peak>>20)
	}
}

// jcmdDump runs demo.AppHeap with users, waits for it to say it is ready, has jcmd dump its
// live objects to path, and stops it.
func jcmdDump(b *testing.B, java *jvm.JDK, classes, path, users string) {
	b.Helper()
	cmd := exec.Command(java.Java, "-Xmx3g", "-cp", classes, "demo.AppHeap", users, "wait")
	stdin, err := cmd.StdinPipe()
	if err != nil {
		b.Fatal(err)
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		b.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		b.Fatal(err)
	}
	defer func() {
		stdin.Close() // it ends when its input does
		if err := cmd.Wait(); err != nil {
			b.Errorf("demo.AppHeap: %v", err)
		}
	}()
	lines := bufio.NewScanner(stdout)
	for lines.Scan() && lines.Text() != "ready" {
	}
	if lines.Text() != "ready" {
		b.Fatalf("demo.AppHeap ended before it was ready: %v", lines.Err())
	}
	jcmd := filepath.Join(filepath.Dir(java.Java), "jcmd")
	pid := strconv.Itoa(cmd.Process.Pid)
	if out, err := exec.Command(jcmd, pid, "GC.heap_dump", "-all=false", path).CombinedOutput(); err != nil {
		b.Fatalf("jcmd %s GC.heap_dump: %v\n%s", pid, err, out)
	}
}

// benchSamples finds the JDK (skipping the benchmark without one) and compiles the Java samples
// into a folder of a temporary directory, also returned.
func benchSamples(b *testing.B) (java *jvm.JDK, dir, classes string) {
	b.Helper()
	java, err := jvm.FindJDK()
	if err != nil || java.Javac == "" {
		b.Skip("no JDK (scripts/deps.sh installs openjdk-17-jdk-headless)")
	}
	dir = b.TempDir()
	classes = filepath.Join(dir, "classes")
	if err := jvm.CompileSamples(context.Background(), java.Javac, classes); err != nil {
		b.Fatal(err)
	}
	return java, dir, classes
}
