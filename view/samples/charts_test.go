package samples

import (
	"bytes"
	"testing"

	"fyne.io/fyne/v2/test"

	"androprof/chart"
	"androprof/chart/render"
	"androprof/controller"
	"androprof/internal/viewtest"
	samplesmodel "androprof/model/samples"
)

// One chart per question (issue 25): each chart of the Layers and Flame tabs is the one
// controller.SampleDrawing draws for the selection shown, which `androprof chart` writes too
// (app/cli's TestSampleChartsAgree). Compared as SVG, byte for byte.
func TestChartsAreTheControllers(t *testing.T) {
	w := openSamples(t)
	v := w.Samples
	v.SelectThread(32765)
	test.Type(v.From, "0.5")
	w.Wait()
	set := w.selected(t, samplesmodel.SampleSelection{TIDs: []int{32765}, FromNS: 5e8})
	type spec = controller.SampleChartSpec
	for _, c := range []struct {
		tab, show string
		spec      spec
	}{
		{TabLayers, chartShares, spec{By: controller.SampleByLayerTime}},
		{TabLayers, chartCounts, spec{By: controller.SampleByLayerTime, Counts: true}},
		{TabLayers, chartLayers, spec{By: controller.SampleByLayer}},
		{TabLayers, chartThreads, spec{By: controller.SampleByThread}},
		{TabFlame, "", spec{By: controller.SampleByFlame}},
	} {
		w.showTab(c.tab)
		got := v.Flame.Chart.Drawing()
		if c.tab == TabLayers {
			v.Layers.Show.SetSelected(c.show)
			got = v.Layers.Chart.Drawing()
		}
		want, err := controller.SampleDrawing(set, viewtest.SampleRun, c.spec)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(svg(t, got), svg(t, want)) {
			t.Errorf("%s %q is not the controller's %+v chart", c.tab, c.show, c.spec)
		}
	}
}

func svg(t *testing.T, d chart.Drawing) []byte {
	t.Helper()
	var b bytes.Buffer
	if err := render.Render(&b, d, render.SVG, 900, 500); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}
