package chart

// Charts of sampled runs (seed 004, VARI): the layers' shares over time, samples by layer,
// image, symbol or thread, and a mixed-mode flame graph. A layer has one colour in all of them
// (series colour Layer-1), so the application is the same blue in the timeline, the thread bars
// and the flame graph.

import (
	"fmt"
	"io"
	"strconv"

	"github.com/wcharczuk/go-chart/v2/drawing"

	"androprof/chart/render"
	layersmodel "androprof/model/layers"
	"androprof/model/samples"
)

// sampleLayerNames are the layers' names as series, in model.Layers order: series i is layer i+1.
func sampleLayerNames() []string {
	names := make([]string, len(layersmodel.Layers))
	for i, l := range layersmodel.Layers {
		names[i] = l.String()
	}
	return names
}

// layerColour is a layer's colour in every chart of sampled runs; grey for none (the root).
func layerColour(l layersmodel.Layer) drawing.Color {
	if l < layersmodel.LayerApp || int(l) > len(layersmodel.Layers) {
		return otherFill
	}
	return seriesColour(int(l) - 1)
}

// FromSampleRows charts rows of a sampled run (by layer, image, symbol or component) as bars of
// their self samples, which add up to the samples kept; by names the rows for the title
// ("layer"), scope the selection ("all threads, 1–3 s").
func FromSampleRows(rows []samples.SampleRow, by, run, scope string) Chart {
	c := Chart{Kind: Bars, YLabel: "samples", Unit: "samples", Title: fmt.Sprintf("Samples by %s — %s, %s", by, run, scope)}
	for _, r := range rows {
		c.Bars = append(c.Bars, Bar{Label: r.Key, Value: float64(r.Self)})
	}
	return c
}

// FromThreadRows charts each thread's samples split by the layer of their leaf frame: which
// thread runs the application, which the VM's compilers and collectors.
func FromThreadRows(rows []samples.ThreadRow, run, scope string) Chart {
	c := Chart{Kind: Bars, Stacked: true, YLabel: "samples", Unit: "samples", Series: sampleLayerNames(),
		Title: fmt.Sprintf("Samples by thread and layer — %s, %s", run, scope)}
	for _, r := range rows {
		label := ThreadLabel(r.TID, r.Comm)
		vals := make([]float64, len(r.Layers))
		for i, n := range r.Layers {
			vals[i] = float64(n)
		}
		c.Bars = append(c.Bars, Bar{Label: label, Value: float64(r.Samples)})
		c.Values = append(c.Values, vals)
	}
	return c
}

// ThreadLabel names a thread as every chart and list of sampled runs does: "7 main", or "7"
// when the recording names no thread.
func ThreadLabel(tid int, comm string) string {
	if comm == "" {
		return strconv.Itoa(tid)
	}
	return strconv.Itoa(tid) + " " + comm
}

// LayerShares is the layers over time: per slice of time, a column of its samples stacked by
// the layer of their leaf frame, the application on top and the kernel below (VARI's vertical
// profile, as it changes from one phase of a program to the next).
type LayerShares struct {
	Title    string
	Timeline samples.LayerTimeline
	// Shares draws each column as 100% of its samples, so phases compare whatever the rate.
	Shares bool
}

// FromLayerTimeline titles a run's layer timeline; scope says which samples it counts, and the
// title says how many of them the columns leave out for being dated before the first.
func FromLayerTimeline(tl samples.LayerTimeline, run, scope string, shares bool) LayerShares {
	title := fmt.Sprintf("Layers over time — %s, %s", run, scope)
	switch {
	case tl.Before == 1:
		title += "; 1 sample dated before the first is not drawn"
	case tl.Before > 1:
		title += fmt.Sprintf("; %d samples dated before the first are not drawn", tl.Before)
	}
	return LayerShares{Title: title, Timeline: tl, Shares: shares}
}

// height is bucket i's part of layer j as drawn: samples, or percent of the bucket's.
func (c LayerShares) height(i, j int) float64 {
	counts := c.Timeline.Counts[i]
	v := float64(counts[j])
	if !c.Shares || v == 0 {
		return v
	}
	total := 0
	for _, n := range counts {
		total += n
	}
	return 100 * v / float64(total)
}

func (c LayerShares) peak() float64 {
	p := 0.0
	for i := range c.Timeline.Counts {
		t := 0.0
		for j := range layersmodel.Layers {
			t += c.height(i, j)
		}
		p = max(p, t)
	}
	return p
}

// Empty reports whether the chart would draw as "No data": no sample in any bucket.
func (c LayerShares) Empty() bool { return c.peak() <= 0 }

// Paint writes the chart as PNG or SVG (render.Drawing; draw it with render.Render).
func (c LayerShares) Paint(w io.Writer, format render.Format, width, height int) error {
	_, err := c.render(w, format, width, height)
	return err
}

// render draws the chart and returns its frame, so tests can find where buckets are drawn.
func (c LayerShares) render(w io.Writer, format render.Format, width, height int) (f frame, err error) {
	defer func() {
		if p := recover(); p != nil { // see Chart.Paint: a chart must never take the window down
			err = fmt.Errorf("drawing chart %q: %v", c.Title, p)
		}
	}()
	r, d, err := begin(c.Title, format, width, height)
	if err != nil {
		return f, err
	}
	tl := c.Timeline
	peak := c.peak()
	if peak <= 0 || tl.BucketNS <= 0 {
		d.noData(r)
		return f, r.Save(w)
	}
	yName := "samples"
	if c.Shares {
		yName, peak = "share of samples", 100
	}
	start, bucket := float64(tl.StartNS)/1e9, float64(tl.BucketNS)/1e9
	// The legend lists the layers top down as they are stacked: the application first.
	a := axes{xName: "time (s)", yName: yName, peak: peak, legend: sampleLayerNames(), yUnit: unitOf(false, c.Shares),
		xUnit: decimalUnit, xmin: start, xmax: start + bucket*float64(len(tl.Counts)), xLabelsH: 18}
	if f, err = d.layout(r, &a); err != nil {
		return f, err
	}
	d.grid(r, f, a)
	for i := range tl.Counts {
		x0, x1 := f.px(start+bucket*float64(i)), f.px(start+bucket*float64(i+1))
		x1 = max(x1, x0+1)
		below, y0 := 0.0, f.bottom
		for j := len(layersmodel.Layers) - 1; j >= 0; j-- { // bottom up: unknown, kernel, … application
			v := c.height(i, j)
			if v <= 0 {
				continue
			}
			below += v
			y1 := f.py(below)
			if y1 < y0 {
				d.fillRect(r, x0, y1, x1, y0, seriesColour(j))
			}
			y0 = y1
		}
	}
	d.frameAxes(r, f, a)
	d.xTicks(r, f, a)
	d.seriesLegend(r, f, a)
	return f, r.Save(w)
}
