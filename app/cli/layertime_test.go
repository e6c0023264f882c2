package cli

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"androprof/model/samples"
	"androprof/store"
)

// Issue 24, finding 13: `chart --by layer-time` of a sampled run whose samples go back in time
// (a perf script imported before the reader refused such input, so some samples are stored at
// negative times) panicked with "index out of range [-1000000000]". It draws the samples from
// the first on and its title says how many it leaves out.
func TestChartLayerTimeSamplesBeforeTheStart(t *testing.T) {
	dir := t.TempDir()
	db := filepath.Join(dir, "w.db")
	b := samples.NewSampleBuilder(samples.SampleSelection{})
	for _, s := range []float64{5, 4, 5.5, 6, 4.5} {
		if err := b.Sample(&samples.Sample{PID: 1, TID: 1, Comm: "main", TimeNS: int64(s * 1e9), Period: 1,
			Stack: []samples.Frame{{Symbol: "work", Image: "/bin/prog"}}}); err != nil {
			t.Fatal(err)
		}
	}
	w, err := store.Open(db)
	if err != nil {
		t.Fatal(err)
	}
	err = w.ImportSampleRun(context.Background(), "back", "back.perfscript", b.Finish(samples.SampleHeader{Format: "perf-script"}))
	w.Close()
	if err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(dir, "t.svg")
	if code, _, errOut := runCLI(t, db, "chart", "--run", "back", "--by", "layer-time", "--buckets", "4", "--out", out); code != 0 {
		t.Fatalf("chart: code %d, %s", code, errOut)
	}
	svg, err := os.ReadFile(out)
	if err != nil || !strings.Contains(string(svg), "2 samples dated before the first are not drawn") {
		t.Errorf("the chart does not say what it leaves out (%v)", err)
	}
}
