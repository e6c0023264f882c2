package chart

import (
	"bytes"
	"image"
	"image/color"
	"slices"
	"strings"
	"testing"

	"androprof/chart/render"
	"androprof/model/layers"
	"androprof/model/samples"
)

// phases is a timeline of four buckets of 1 s, each dominated by one layer as the Phases
// sample's phases are: application, java library, native, kernel.
var phases = samples.LayerTimeline{StartNS: 0, BucketNS: 1e9, Counts: [][6]int{
	{90, 5, 5, 0, 0, 0}, {5, 80, 5, 0, 10, 0}, {2, 0, 3, 95, 0, 0}, {0, 0, 5, 10, 85, 0}}}

func rgb(c color.Color) [3]uint8 {
	r, g, b, _ := c.RGBA()
	return [3]uint8{uint8(r >> 8), uint8(g >> 8), uint8(b >> 8)}
}

// dominant is the colour most pixels of column x between rows y0 and y1 have.
func dominant(img image.Image, x, y0, y1 int) [3]uint8 {
	n := map[[3]uint8]int{}
	for y := y0; y < y1; y++ {
		n[rgb(img.At(x, y))]++
	}
	var best [3]uint8
	for c, k := range n {
		if k > n[best] {
			best = c
		}
	}
	return best
}

// Each bucket is a column stacked by layer: its dominant layer's colour covers most of it, and
// as shares every column reaches the top.
func TestLayerSharesColumnsShowTheDominantLayer(t *testing.T) {
	want := []layers.Layer{layers.LayerApp, layers.LayerJavaLib, layers.LayerNative, layers.LayerKernel}
	for _, shares := range []bool{false, true} {
		c := FromLayerTimeline(phases, "r", "all threads", shares)
		var buf bytes.Buffer
		f, err := c.render(&buf, render.PNG, 800, 400)
		if err != nil {
			t.Fatal(err)
		}
		save(t, "layer-shares.png", buf.Bytes())
		img, err := render.Image(c, 800, 400)
		if err != nil {
			t.Fatal(err)
		}
		for i, l := range want {
			x := f.px(float64(i) + 0.5)
			if got := dominant(img, x, f.top, f.bottom); got != rgb(layerColour(l)) {
				t.Errorf("shares %v: bucket %d is mostly %v, want %s's %v", shares, i, got, l, rgb(layerColour(l)))
			}
			if shares && rgb(img.At(x, f.top+1)) == rgb(background) {
				t.Errorf("bucket %d as shares does not reach 100%%", i)
			}
		}
	}
	var svg bytes.Buffer
	if err := FromLayerTimeline(phases, "r <1>", "all", true).Paint(&svg, render.SVG, 800, 400); err != nil {
		t.Fatal(err)
	}
	wellFormed(t, svg.Bytes())
	for _, s := range []string{"application", "kernel", "time (s)", "r &lt;1&gt;", ">0.5<"} { // seconds, not "500m"
		if !strings.Contains(svg.String(), s) {
			t.Errorf("the SVG lacks %q", s)
		}
	}
	if !(LayerShares{Timeline: samples.LayerTimeline{BucketNS: 1, Counts: make([][6]int, 3)}}).Empty() || FromLayerTimeline(phases, "r", "s", false).Empty() {
		t.Error("Empty is wrong")
	}
}

func TestFromSampleAndThreadRows(t *testing.T) {
	rows := []samples.SampleRow{{Key: "application", Layer: layers.LayerApp, Self: 70, Total: 100}, {Key: "kernel", Layer: layers.LayerKernel, Self: 30, Total: 40}}
	c := FromSampleRows(rows, "layer", "r", "all threads")
	if c.Title != "Samples by layer — r, all threads" || len(c.Bars) != 2 || c.Bars[0] != (Bar{Label: "application", Value: 70}) || c.Unit != "samples" {
		t.Errorf("chart %+v", c)
	}
	threads := []samples.ThreadRow{{PID: 1, TID: 2, Comm: "main", Samples: 10, Layers: [6]int{6, 0, 1, 0, 3, 0}}, {TID: 3, Samples: 1, Layers: [6]int{0, 0, 1}}}
	tc := FromThreadRows(threads, "r", "s")
	if !tc.Stacked || len(tc.Series) != 6 || tc.Series[0] != "application" || tc.Bars[0] != (Bar{Label: "2 main", Value: 10}) || tc.Bars[1].Label != "3" ||
		!slices.Equal(tc.Values[0], []float64{6, 0, 1, 0, 3, 0}) {
		t.Errorf("chart %+v", tc)
	}
	// The stacked bars take the layers' colours: the application's part is drawn in its colour.
	img, err := render.Image(tc, 800, 300)
	if err != nil {
		t.Fatal(err)
	}
	l := barRows(tc, 800, 300).fit(2)
	y, thick := l.bar(0)
	found := false
	for x := range 800 {
		if rgb(img.At(x, y+thick/2)) == rgb(layerColour(layers.LayerApp)) {
			found = true
		}
	}
	if !found {
		t.Error("the thread's application part is not in the application's colour")
	}
}
