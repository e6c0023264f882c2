package samples

import (
	"context"
	"path/filepath"
	"strings"
	"testing"

	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/widget"

	"androprof/chart"
	"androprof/controller"
	"androprof/internal/viewtest"
	samplesmodel "androprof/model/samples"
)

// backInTimeWorkspace holds a sampled run whose samples go back in time, as an unordered perf
// script imported before the reader refused those: two of its five samples are dated before the
// first, at negative times.
func backInTimeWorkspace(t *testing.T) *samplesWindow {
	t.Helper()
	b := samplesmodel.NewSampleBuilder(samplesmodel.SampleSelection{})
	for _, s := range []float64{5, 4, 5.5, 6, 4.5} {
		viewtest.Must(t, b.Sample(&samplesmodel.Sample{PID: 1, TID: 1, Comm: "main", TimeNS: int64(s * 1e9), Period: 1,
			Stack: []samplesmodel.Frame{{Symbol: "work", Image: "/bin/prog"}}}))
	}
	db := viewtest.OpenDB(t, filepath.Join(t.TempDir(), "w.db"))
	viewtest.Must(t, db.ImportSampleRun(context.Background(), "back", "back.perfscript", b.Finish(samplesmodel.SampleHeader{Format: "perf-script"})))
	ws := controller.NewWorkspace(db)
	h := viewtest.NewHost(t, ws)
	w := &samplesWindow{Host: h, Samples: New(h, ws.Samples), a: ws.Samples}
	h.Show(w.Samples.Bar, w.Samples.Tabs)
	w.Samples.Open("back")
	w.Wait()
	return w
}

// Issue 24, finding 13: the Layers tab of such a run took the window down ("index out of
// range"); it draws the samples from the first on and says how many it leaves out.
func TestLayersTabSamplesBeforeTheStart(t *testing.T) {
	w := backInTimeWorkspace(t)
	v := w.Samples
	if w.Problem != "" || v.Set() == nil || v.Set().Kept != 5 {
		t.Fatalf("the run did not open: %q", w.Problem)
	}
	w.showTab(TabLayers)
	for _, show := range v.Layers.Show.Options {
		v.Layers.Show.SetSelected(show)
		w.Resize(viewtest.WindowSize)
		if p := v.Layers.Chart.Problem.Text; p != "" || v.Layers.Chart.Drawing().Empty() {
			t.Errorf("chart %q: problem %q", show, p)
		}
	}
	v.Layers.Show.SetSelected(chartCounts)
	c, ok := v.Layers.Chart.Drawing().(chart.LayerShares)
	if !ok || c.Timeline.Before != 2 || !strings.Contains(c.Title, "2 samples dated before the first are not drawn") {
		t.Errorf("the layers over time are %T titled %q", v.Layers.Chart.Drawing(), c.Title)
	}
}

// A time too large for the clock, or not a number at all, is said in the Kept line like any
// other bad time, not applied as a window that starts before the recording; so is a window
// that ends before it starts.
func TestTimeWindowOutOfRange(t *testing.T) {
	w := openSamples(t)
	v := w.Samples
	for _, s := range []string{"1e300", "NaN", "Inf", "9300000000"} {
		v.From.SetText("")
		w.Wait()
		v.From.SetText(s)
		w.Wait()
		if !strings.Contains(v.Kept.Text, "not a time") {
			t.Errorf("From %q: Kept says %q", s, v.Kept.Text)
		}
	}
	// A window that ends before it starts is refused as the command line refuses it.
	v.From.SetText("2")
	v.To.SetText("1")
	w.Wait()
	if !strings.Contains(v.Kept.Text, "ends (1 s) before it starts (2 s)") {
		t.Errorf("2 s to 1 s: Kept says %q", v.Kept.Text)
	}
}

// A bad time typed while the window still computes what its first keys selected stays said:
// the late result of "1e3" does not cover the warning about "1e30".
func TestBadTimeStaysSaid(t *testing.T) {
	w := openSamples(t)
	v := w.Samples
	test.Type(v.From, "1e30")
	w.Wait()
	if !strings.Contains(v.Kept.Text, "not a time") {
		t.Errorf("From 1e30 typed: Kept says %q", v.Kept.Text)
	}
	v.From.SetText("1")
	w.Wait()
	if strings.Contains(v.Kept.Text, "not a time") || v.Kept.Importance != widget.MediumImportance {
		t.Errorf("From 1: Kept still says %q", v.Kept.Text)
	}
}
