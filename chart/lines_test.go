package chart

import (
	"bytes"
	"errors"
	"fmt"
	"image"
	"image/png"
	"io"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	gochart "github.com/wcharczuk/go-chart/v2"

	"androprof/chart/render"
	"androprof/internal/human"
)

const (
	kb = 1024.0
	mb = 1024 * kb
)

// cacheCohorts is a heap composition like the seed's figure 5.1: cohorts (12 of 2 MB, or 96
// of 256 KB) over 24 MB of allocation, a collection every 512 KB, the first cohort the classes and objects of
// start-up that live for good, and a phase from 13.5 to 21.5 MB that fills a cache (the
// "stairs") and drops it at its end.
func cacheCohorts(cohorts int) Lines {
	const n, window = 2000, 512 * kb
	cohort := 24 * mb / float64(cohorts)
	l := Lines{Title: "Heap volume by cohort — quadrant <demo>", XLabel: "bytes allocated", YLabel: "live bytes",
		Stacked: true, XBytes: true, YBytes: true}
	for i := range n {
		l.X = append(l.X, float64(i+1)*24*mb/n)
	}
	for c := range cohorts {
		s := LineSeries{Label: fmt.Sprintf("cohort %d (%s–%s)", c, human.Bytes(uint64(float64(c)*cohort)), human.Bytes(uint64(float64(c+1)*cohort)))}
		start := float64(c) * cohort
		for _, t := range l.X {
			if t <= start {
				s.Values = append(s.Values, math.NaN())
				continue
			}
			allocated := math.Min(t-start, cohort)
			lastGC := math.Floor(t/window) * window
			v := 0.0
			switch {
			case start < 2*mb: // start-up: classes, exceptions, the activity
				v = 0.75 * allocated
			case start >= 13.5*mb && start < 21.5*mb && t < 21.5*mb: // the cache phase
				v = 0.6 * allocated
			default: // medium-lived objects, collected over the next few MB
				age := math.Max(lastGC-(start+cohort), 0)
				v = 0.25 * allocated * math.Exp(-age/(3*mb)) * (1 - 0.3*float64(c%3)/2)
				if cohorts > 12 {
					v *= 2 * math.Exp(-age/(0.5*mb)) // small cohorts: the survivors of one window die young
				}
			}
			if t-start < cohort+window && t-lastGC > 0 && lastGC < start+cohort { // garbage since the last collection
				v += 0.7 * (math.Min(t, start+cohort) - math.Max(lastGC, start))
			}
			s.Values = append(s.Values, math.Max(v, 0))
		}
		l.Series = append(l.Series, s)
	}
	return l
}

// sizeDemographics is the seed's figure 5.7: the share of objects of each size, each column
// split by the five cohorts that allocated them.
func sizeDemographics() StackedColumns {
	c := StackedColumns{Title: "Allocated objects by size", XLabel: "object size (bytes)", YLabel: "objects", YPercent: true}
	for size := 8; size <= 256; size += 8 {
		c.Labels = append(c.Labels, fmt.Sprint(size))
	}
	c.Labels = append(c.Labels, "512", "1024", "2048", "4096", ">4096")
	weights := make([]float64, len(c.Labels))
	sum := 0.0
	for i := range weights {
		size := float64(8 * (i + 1))
		weights[i] = math.Exp(-size/40) + 0.02
		if size == 24 {
			weights[i] *= 2.2
		}
		if size == 16 {
			weights[i] *= 1.6
		}
		sum += weights[i]
	}
	share := []float64{0.4, 0.25, 0.15, 0.12, 0.08}
	for k, f := range share {
		s := LineSeries{Label: fmt.Sprintf("cohort %d", k)}
		for i, w := range weights {
			shift := 1 + 0.3*math.Sin(float64(i+k*3)) // cohorts differ in what they allocate
			s.Values = append(s.Values, 100*w/sum*f*shift)
		}
		c.Series = append(c.Series, s)
	}
	return c
}

// shot saves a picture to CHART_TEST_OUT (as save does), to the test's temp dir and to
// /tmp/chartshots, to look at.
func shot(t *testing.T, name string, data []byte) {
	t.Helper()
	save(t, name, data)
	for _, dir := range []string{t.TempDir(), "/tmp/chartshots"} {
		if err := os.MkdirAll(dir, 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, name), data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

type renderer = render.Drawing

func examples() map[string]renderer {
	plain := cacheCohorts(12)
	plain.Stacked, plain.Title, plain.YLabel = false, "Average life time per cohort", "bytes"
	plain.Series = plain.Series[:6]
	histogram := StackedColumns{Title: "Pointer distance snapshot", XLabel: "distance (bytes)", YLabel: "pointers", YPercent: true}
	h := LineSeries{Label: "pointers"}
	for e := -12; e <= 12; e++ {
		if e == 0 {
			histogram.Labels = append(histogram.Labels, "0")
		} else if e < 0 {
			histogram.Labels = append(histogram.Labels, fmt.Sprintf("-2^%d", -e))
		} else {
			histogram.Labels = append(histogram.Labels, fmt.Sprintf("2^%d", e))
		}
		h.Values = append(h.Values, 20*math.Exp(-math.Abs(float64(e)-3)/2))
	}
	histogram.Series = []LineSeries{h}
	many := cacheCohorts(96)
	many.Title = "Heap volume by cohort of 256 KB"
	return map[string]renderer{"lines_stacked": cacheCohorts(12), "lines_plain": plain, "lines_96_cohorts": many,
		"columns_stacked": sizeDemographics(), "columns_single": histogram}
}

func TestLinesPNGDecodesAtSizeAndSVGIsWellFormed(t *testing.T) {
	for name, c := range examples() {
		var buf bytes.Buffer
		if err := c.Paint(&buf, render.PNG, 900, 500); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		shot(t, name+".png", buf.Bytes())
		img, err := png.Decode(&buf)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if b := img.Bounds(); b.Dx() != 900 || b.Dy() != 500 {
			t.Errorf("%s: %v", name, b)
		}
		if name == "lines_96_cohorts" {
			continue // its SVG is large and slow under -race; TestLegendNamesFirstAndLastOfMany draws one
		}
		buf.Reset()
		if err := c.Paint(&buf, render.SVG, 800, 400); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		save(t, name+".svg", buf.Bytes())
		wellFormed(t, buf.Bytes())
		if name == "lines_stacked" && !strings.Contains(buf.String(), "&lt;demo&gt;") {
			t.Errorf("%s: the title with < was not escaped", name)
		}
	}
}

func TestLinesEmptyAndZeroDrawNoData(t *testing.T) {
	cases := []renderer{
		Lines{}, Lines{X: []float64{1, 2}}, Lines{Series: []LineSeries{{Label: "a"}}},
		Lines{Title: "zeros", X: []float64{1, 2}, Series: []LineSeries{{"a", []float64{0, 0}}, {"b", []float64{math.NaN(), 0}}}, Stacked: true},
		StackedColumns{}, StackedColumns{Labels: []string{"8", "16"}},
		StackedColumns{Title: "zeros", Labels: []string{"8"}, Series: []LineSeries{{"a", []float64{0}}}},
	}
	for _, c := range cases {
		if !c.Empty() {
			t.Errorf("%+v is not empty", c)
		}
		var buf bytes.Buffer
		if err := c.Paint(&buf, render.SVG, 300, 200); err != nil {
			t.Fatalf("%+v: %v", c, err)
		}
		wellFormed(t, buf.Bytes())
		if !strings.Contains(buf.String(), "No data") {
			t.Errorf("%+v does not say No data", c)
		}
		if img, err := render.Image(c, 300, 200); err != nil || img.Bounds().Dx() != 300 {
			t.Errorf("%+v: image %v, %v", c, img, err)
		}
	}
}

func TestLinesAwkwardDataDoesNotPanic(t *testing.T) {
	nan := math.NaN()
	many := Lines{Stacked: true, X: []float64{0, 1, 2}}
	manyCols := StackedColumns{Labels: []string{"a", "b", "c"}}
	for i := range 500 {
		s := LineSeries{Label: fmt.Sprint("cohort ", i), Values: []float64{float64(i), 1, nan}}
		many.Series = append(many.Series, s)
		manyCols.Series = append(manyCols.Series, s)
	}
	cases := []renderer{
		Lines{X: []float64{5}, Series: []LineSeries{{"one", []float64{3}}}},
		Lines{X: []float64{5}, Series: []LineSeries{{"one", []float64{3}}, {"two", []float64{1}}}, Stacked: true, XBytes: true},
		Lines{X: []float64{1, 2, 3, 4}, Series: []LineSeries{{"gaps", []float64{1, nan, 3, nan}}, {"zero", []float64{0, 0, 0, 0}}}},
		Lines{X: []float64{1, 2, 3, 3, 4}, Series: []LineSeries{{"gaps", []float64{nan, 1, nan, 2, nan}}, {"short", []float64{1}}}, Stacked: true, YPercent: true},
		Lines{X: []float64{0, 1e15}, Series: []LineSeries{{"huge", []float64{1e15, 3e15}}}, Stacked: true, XBytes: true, YBytes: true},
		Lines{X: []float64{0, 1e15}, Series: []LineSeries{{"huge", []float64{1e15, 3e15}}}},
		Lines{X: []float64{-3, -2}, Series: []LineSeries{{"tiny", []float64{1e-300, 2e-300}}}, YBytes: true},
		Lines{X: []float64{0, 1}, Series: []LineSeries{{"", []float64{1, 1}}}, Title: strings.Repeat("long title ", 40),
			XLabel: strings.Repeat("x", 300), YLabel: strings.Repeat("y", 300)},
		many,
		StackedColumns{Labels: []string{"only"}, Series: []LineSeries{{"a", []float64{1e15}}}},
		StackedColumns{Labels: []string{"a", "b"}, Series: []LineSeries{{"x", []float64{nan, 2}}, {"short", nil}}},
		StackedColumns{Labels: make([]string, 1000), Series: []LineSeries{{"more columns than pixels", slicesRepeat(1, 1000)}}},
		manyCols,
	}
	for i, c := range cases {
		for _, size := range [][2]int{{render.MinWidth, render.MinHeight}, {200, 120}, {900, 500}} {
			if _, err := render.Image(c, size[0], size[1]); err != nil && size[0] > render.MinWidth {
				t.Errorf("case %d at %v: %v", i, size, err)
			}
			if err := c.Paint(io.Discard, render.SVG, size[0], size[1]); err != nil && size[0] > render.MinWidth {
				t.Errorf("case %d at %v, SVG: %v", i, size, err)
			}
		}
	}
}

func slicesRepeat(v float64, n int) []float64 {
	out := make([]float64, n)
	for i := range out {
		out[i] = v
	}
	return out
}

func TestLinesBadValuesAreErrors(t *testing.T) {
	for _, v := range []float64{math.Inf(1), math.Inf(-1), -1} {
		for _, c := range []renderer{
			Lines{X: []float64{0, 1}, Series: []LineSeries{{"a", []float64{1, v}}}},
			Lines{X: []float64{0, 1}, Series: []LineSeries{{"a", []float64{1, v}}}, Stacked: true},
			StackedColumns{Labels: []string{"a", "b"}, Series: []LineSeries{{"a", []float64{1, v}}}},
		} {
			if err := c.Paint(io.Discard, render.PNG, 300, 200); !errors.Is(err, ErrBadValue) {
				t.Errorf("value %v in %T: %v", v, c, err)
			}
			if c.Empty() {
				t.Errorf("value %v in %T: a bad chart is not empty", v, c)
			}
		}
	}
	for _, c := range []renderer{
		Lines{X: []float64{0, math.NaN()}, Series: []LineSeries{{"a", []float64{1, 1}}}},
		Lines{X: []float64{0, math.MaxFloat64}, Series: []LineSeries{{"a", []float64{math.MaxFloat64, 1}}, {"b", []float64{math.MaxFloat64, 1}}}, Stacked: true},
	} {
		if err := c.Paint(io.Discard, render.PNG, 300, 200); !errors.Is(err, ErrBadValue) {
			t.Errorf("%+v: %v", c, err)
		}
	}
	for _, c := range []renderer{
		Lines{X: []float64{1, 0}, Series: []LineSeries{{"descending x", []float64{1, 1}}}},
		Lines{X: []float64{0}, Series: []LineSeries{{"too long", []float64{1, 1}}}},
		StackedColumns{Labels: []string{"a"}, Series: []LineSeries{{"too long", []float64{1, 1}}}},
	} {
		if err := c.Paint(io.Discard, render.PNG, 300, 200); err == nil {
			t.Errorf("%+v was drawn", c)
		}
	}
	if err := cacheCohorts(12).Paint(io.Discard, render.PNG, 10, 10); err == nil {
		t.Error("a 10×10 chart was drawn")
	}
}

// coloured tells a band, line or column from the white background, the grey grid, the axes
// and the text.
func coloured(img *image.RGBA, x, y int) bool {
	c := img.RGBAAt(x, y)
	return int(max(c.R, c.G, c.B))-int(min(c.R, c.G, c.B)) > 40
}

// topmost is the first coloured row of column x in the plot, f.bottom+1 for none.
func topmost(img *image.RGBA, f frame, x int) int {
	for y := f.top; y <= f.bottom; y++ {
		if coloured(img, x, y) {
			return y
		}
	}
	return f.bottom + 1
}

func closeColour(img *image.RGBA, x, y int, want [3]uint8) bool {
	c := img.RGBAAt(x, y)
	d := func(a, b uint8) int { return max(int(a)-int(b), int(b)-int(a)) }
	return d(c.R, want[0]) <= 6 && d(c.G, want[1]) <= 6 && d(c.B, want[2]) <= 6
}

func renderFrame(t *testing.T, paint func(io.Writer, render.Format, int, int) (frame, error), w, h int) (*image.RGBA, frame) {
	t.Helper()
	var iw gochart.ImageWriter
	f, err := paint(&iw, render.PNG, w, h)
	if err != nil {
		t.Fatal(err)
	}
	img, err := iw.Image()
	if err != nil {
		t.Fatal(err)
	}
	return img.(*image.RGBA), f
}

// The stack's top is the total of its series, not its top series, and each band has its
// series' colour: drawn unstacked, the same data tops out at the largest series.
func TestStackedTopReachesTheTotal(t *testing.T) {
	l := Lines{X: []float64{0, 50, 100}, Stacked: true, Series: []LineSeries{
		{"a", []float64{100, 100, 100}}, {"b", []float64{200, 200, 200}}, {"c", []float64{50, 50, 50}}}}
	img, f := renderFrame(t, l.render, 600, 400)
	x := f.px(50)
	if got, want := topmost(img, f, x), f.py(350); got < want-2 || got > want+2 {
		t.Errorf("stack tops out at row %d, the total 350 is at row %d", got, want)
	}
	for s, mid := range []float64{50, 200, 325} {
		c := bandColour(seriesColour(s))
		if !closeColour(img, x, f.py(mid), [3]uint8{c.R, c.G, c.B}) {
			t.Errorf("band %d at row %d is %v, want %v", s, f.py(mid), img.RGBAAt(x, f.py(mid)), c)
		}
	}
	l.Stacked = false
	img, f = renderFrame(t, l.render, 600, 400)
	if got, want := topmost(img, f, f.px(50)), f.py(200); got < want-2 || got > want+2 {
		t.Errorf("unstacked lines top out at row %d, the largest series 200 is at row %d", got, want)
	}

	c := StackedColumns{Labels: []string{"8", "16", "24"}, Series: []LineSeries{
		{"a", []float64{10, 30, 5}}, {"b", []float64{20, 0, 5}}, {"c", []float64{5, 10, 0}}}}
	img, f = renderFrame(t, c.render, 600, 400)
	for i, total := range []float64{35, 40, 10} {
		x := f.left + (f.right-f.left)*(2*i+1)/6
		if got, want := topmost(img, f, x), f.py(total); got < want-1 || got > want+1 {
			t.Errorf("column %d tops out at row %d, its total %v is at row %d", i, got, total, want)
		}
	}
	// Column 0: a is at the bottom, c on top.
	x0 := f.left + (f.right-f.left)/6
	for s, mid := range []float64{5, 20, 32.5} {
		c := seriesColour(s)
		if !closeColour(img, x0, f.py(mid), [3]uint8{c.R, c.G, c.B}) {
			t.Errorf("part %d of column 0 at row %d is %v, want %v", s, f.py(mid), img.RGBAAt(x0, f.py(mid)), c)
		}
	}
}

func TestLegendNamesFirstAndLastOfMany(t *testing.T) {
	labels := make([]string, 100)
	for i := range labels {
		labels[i] = fmt.Sprintf("cohort %d", i)
	}
	rows := legendRows(labels, true, MaxLegend)
	if len(rows) != MaxLegend || rows[0].label != "cohort 99" || rows[len(rows)-1].label != "cohort 0" {
		t.Fatalf("rows %v", rows)
	}
	more := 0
	for _, r := range rows {
		if r.series < 0 {
			more++
			if r.label != "… 89 more" {
				t.Errorf("row %q", r.label)
			}
		}
	}
	if more != 1 {
		t.Errorf("rows %v", rows)
	}
	if rows := legendRows(labels[:5], false, MaxLegend); len(rows) != 5 || rows[0].label != "cohort 0" {
		t.Errorf("rows %v", rows)
	}

	l := Lines{X: []float64{0, 1}, Stacked: true}
	for _, s := range labels {
		l.Series = append(l.Series, LineSeries{s, []float64{1, 2}})
	}
	var buf bytes.Buffer
	if err := l.Paint(&buf, render.SVG, 900, 500); err != nil {
		t.Fatal(err)
	}
	svg := buf.String()
	for s, want := range map[string]bool{">cohort 99<": true, ">cohort 0<": true, "89 more": true, ">cohort 50<": false} {
		if strings.Contains(svg, s) != want {
			t.Errorf("SVG has %q: %v", s, !want)
		}
	}
}

// Decimation keeps each pixel column's lowest and highest point, so the peaks and troughs of
// a sawtooth survive, and draws at most about two points per pixel.
func TestDecimateKeepsPeaksAndTroughs(t *testing.T) {
	n := 100000
	x := make([]float64, n)
	y := make([]float64, n)
	for i := range n {
		x[i] = float64(i)
		y[i] = float64(i % 7)
	}
	f := frame{left: 0, right: 500, xmin: 0, xmax: float64(n - 1)}
	keep := decimate(x, func(i int) float64 { return y[i] }, f)
	if len(keep) > 2*500+2 {
		t.Errorf("%d points kept for 500 px", len(keep))
	}
	lo, hi := math.Inf(1), math.Inf(-1)
	for j, i := range keep {
		if j > 0 && i <= keep[j-1] {
			t.Fatalf("indices not ascending at %d", j)
		}
		lo, hi = min(lo, y[i]), max(hi, y[i])
	}
	if lo != 0 || hi != 6 {
		t.Errorf("kept range %v–%v", lo, hi)
	}
}

func TestAxisLabels(t *testing.T) {
	for _, c := range []struct {
		v, step float64
		want    string
	}{{256 * kb, 256 * kb, "256 KB"}, {1.5 * mb, 512 * kb, "1.5 MB"}, {0, 512 * kb, "0 B"}, {2 * mb, 512 * kb, "2 MB"},
		{1040 * kb, 16 * kb, "1040 KB"}, {1.125 * mb, 128 * kb, "1.125 MB"}, {512, 128, "512 B"}, {24 * mb, 4 * mb, "24 MB"}} {
		if got := bytesUnit.label(c.v, c.step); got != c.want {
			t.Errorf("bytes %v step %v: %q, want %q", c.v, c.step, got, c.want)
		}
	}
	if got := percentUnit.label(40, 20); got != "40%" {
		t.Errorf("percent: %q", got)
	}
	if got := percentUnit.label(2.5, 0.5); got != "2.5%" {
		t.Errorf("percent: %q", got)
	}
	for raw, want := range map[float64]float64{300 * kb: 512 * kb, 1.1 * mb: 2 * mb, 1024: 1024} {
		if got := bytesUnit.step(raw); got != want {
			t.Errorf("bytes step(%v) = %v, want %v", raw, got, want)
		}
	}
	for raw, want := range map[float64]float64{13: 20, 0.3: 0.5, 1: 1, 7e6: 1e7} {
		if got := plainUnit.step(raw); got != want {
			t.Errorf("step(%v) = %v, want %v", raw, got, want)
		}
	}
}

// 50 series of 2000 points, 100 000 values, drawn at window size: well under 100 ms.
func BenchmarkLinesImage(b *testing.B) {
	l := Lines{Title: "50 cohorts", XLabel: "bytes allocated", YLabel: "live bytes", Stacked: true, XBytes: true, YBytes: true}
	for i := range 2000 {
		l.X = append(l.X, float64(i)*12*kb)
	}
	for s := range 50 {
		ser := LineSeries{Label: fmt.Sprint("cohort ", s)}
		for i := range 2000 {
			v := math.NaN()
			if i >= s*40 {
				v = 64*kb*math.Exp(-float64(i-s*40)/800) + float64(i%37)*kb
			}
			ser.Values = append(ser.Values, v)
		}
		l.Series = append(l.Series, ser)
	}
	for _, stacked := range []bool{true, false} {
		l.Stacked = stacked
		b.Run(fmt.Sprint("stacked=", stacked), func(b *testing.B) {
			for b.Loop() {
				if _, err := render.Image(l, 900, 500); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

func TestColumnLabelsTurnAndThin(t *testing.T) {
	r, d, err := begin("", render.PNG, 600, 400)
	if err != nil {
		t.Fatal(err)
	}
	c := StackedColumns{Labels: []string{"8", "16", "24"}}
	if upright, step, _ := c.columnLabels(r, d, 150); upright || step != 1 {
		t.Errorf("3 short labels: upright %v, step %d", upright, step)
	}
	c.Labels = []string{"-2^10", "2^4", "2^12"}
	if upright, step, h := c.columnLabels(r, d, 20); !upright || step != 1 || h < 20 {
		t.Errorf("labels wider than columns: upright %v, step %d, height %d", upright, step, h)
	}
	if upright, step, _ := c.columnLabels(r, d, 2); !upright || step < 6 {
		t.Errorf("columns 2 px wide: upright %v, step %d", upright, step)
	}
}
