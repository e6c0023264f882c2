package chart

import (
	"bytes"
	"encoding/xml"
	"errors"
	"image/png"
	"io"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"androprof/chart/render"
	"androprof/model/cost"
)

var outDir = os.Getenv("CHART_TEST_OUT") // set to look at the charts the tests draw

func sample(kind Kind) Chart {
	c := Chart{Title: "Cycles by function — run <demo> & co", YLabel: "cycles", Kind: kind}
	for i, n := range []string{"main", "sieve_of_eratosthenes_with_a_very_long_name<int>", "memset", "printf", "__libc_start_main", "strlen"} {
		c.Bars = append(c.Bars, Bar{Label: n, Value: float64(1000*(6-i)*(6-i)) + 0.5})
	}
	return c
}

func save(t *testing.T, name string, data []byte) {
	if outDir != "" {
		if err := os.WriteFile(filepath.Join(outDir, name), data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

func TestPNGDecodesAtSize(t *testing.T) {
	for name, kind := range Kinds {
		var buf bytes.Buffer
		if err := sample(kind).Paint(&buf, render.PNG, 640, 360); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		save(t, name+".png", buf.Bytes())
		img, err := png.Decode(&buf)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if b := img.Bounds(); b.Dx() != 640 || b.Dy() != 360 {
			t.Errorf("%s: %v", name, b)
		}
	}
}

// wellFormed parses an SVG to its end.
func wellFormed(t *testing.T, data []byte) {
	t.Helper()
	d := xml.NewDecoder(bytes.NewReader(data))
	root := ""
	for {
		tok, err := d.Token()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatalf("SVG is not well-formed XML: %v\n%s", err, data)
		}
		if se, ok := tok.(xml.StartElement); ok && root == "" {
			root = se.Name.Local
		}
	}
	if root != "svg" {
		t.Errorf("root element %q", root)
	}
}

func TestSVGIsWellFormed(t *testing.T) {
	for name, kind := range Kinds {
		var buf bytes.Buffer
		if err := sample(kind).Paint(&buf, render.SVG, 800, 400); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		save(t, name+".svg", buf.Bytes())
		wellFormed(t, buf.Bytes())
		if !strings.Contains(buf.String(), "&lt;") {
			t.Errorf("%s: the label with < was not escaped", name)
		}
	}
}

func TestEmptyAndZeroDrawNoData(t *testing.T) {
	for name, kind := range Kinds {
		for _, c := range []Chart{{Kind: kind}, {Kind: kind, Title: "zeros", Bars: []Bar{{Label: "a", Value: 0}, {Label: "b", Value: 0}}}} {
			if !c.Empty() {
				t.Errorf("%s: %+v is not empty", name, c)
			}
			var buf bytes.Buffer
			if err := c.Paint(&buf, render.SVG, 300, 200); err != nil {
				t.Fatalf("%s: %v", name, err)
			}
			wellFormed(t, buf.Bytes())
			if !strings.Contains(buf.String(), "No data") {
				t.Errorf("%s: empty chart does not say No data", name)
			}
			img, err := render.Image(c, 300, 200)
			if err != nil || img.Bounds().Dx() != 300 {
				t.Errorf("%s: image %v, %v", name, img, err)
			}
		}
	}
}

// One bar, equal bars and one huge bar are where go-chart fails or panics by itself.
func TestAwkwardDataDoesNotPanic(t *testing.T) {
	cases := [][]Bar{{{Label: "only", Value: 5}}, {{Label: "a", Value: 3}, {Label: "b", Value: 3}}, {{Label: "big", Value: 1e300}, {Label: "tiny", Value: 1e-300}}, {{Label: "", Value: 1}}}
	for name, kind := range Kinds {
		for _, bars := range cases {
			if _, err := render.Image((Chart{Kind: kind, Bars: bars}), 200, 120); err != nil {
				t.Errorf("%s %v: %v", name, bars, err)
			}
		}
	}
	for _, v := range []float64{math.NaN(), math.Inf(1), -1} {
		err := Chart{Bars: []Bar{{Label: "x", Value: v}}}.Paint(io.Discard, render.PNG, 200, 120)
		if !errors.Is(err, ErrBadValue) {
			t.Errorf("value %v: %v", v, err)
		}
	}
	if err := sample(Bars).Paint(io.Discard, render.PNG, 10, 10); err == nil {
		t.Error("a 10×10 chart was drawn")
	}
}

func TestTopKeepsLargestAndSumsOther(t *testing.T) {
	c := Chart{Top: 3}
	for i := range 10 {
		c.Bars = append(c.Bars, Bar{Label: string(rune('a' + i)), Value: float64(i + 1)})
	}
	items, err := c.items(0)
	if err != nil || len(items) != 3 {
		t.Fatalf("%v, %v", items, err)
	}
	if items[0].label != "j" || items[1].label != "i" || items[2].label != "other (8)" || items[2].value != 36 || items[2].index != -1 {
		t.Errorf("items %+v", items)
	}
}

func TestBarAtFindsTheDrawnBar(t *testing.T) {
	c := sample(Bars)
	l := barRows(c, 800, 400).fit(len(c.Bars))
	for i := range c.Bars {
		y := l.top + i*l.rowH + l.rowH/2
		if got := c.BarAt(800, 400, 400, y); got != i { // sample bars are already largest first
			t.Errorf("row %d: BarAt = %d", i, got)
		}
	}
	if c.BarAt(800, 400, 400, 2) != -1 || c.BarAt(800, 400, 400, 399) != -1 {
		t.Error("title or caption hit a bar")
	}
}

func TestFromReport(t *testing.T) {
	rep := &cost.Report{Run: "r", Profile: "p", By: cost.ByPID,
		Rows: []cost.ReportRow{{Key: "1", Cycles: 10, EnergyJ: 2}, {Key: "2", Cycles: 5, EnergyJ: 4}}}
	c := FromReport(rep, Energy, Pie, map[string]string{"1": "1 sieve"})
	if c.Title != "Energy (J) by process — r, p" || c.Bars[0] != (Bar{Label: "1 sieve", Value: 2}) || c.Bars[1] != (Bar{Label: "2", Value: 4}) || c.Kind != Pie {
		t.Errorf("%+v", c)
	}
}

// "other" can sum to more than the largest bar; it must still fit the chart.
func TestOtherLargerThanLargestBarFits(t *testing.T) {
	c := Chart{Top: 2, Kind: Bars}
	for i := range 50 {
		c.Bars = append(c.Bars, Bar{Label: "b", Value: float64(10 + i%3)})
	}
	img, err := render.Image(c, 400, 200)
	if err != nil {
		t.Fatal(err)
	}
	for y := range 200 { // the right margin stays background
		if r, g, b, _ := img.At(395, y).RGBA(); r != 0xffff || g != 0xffff || b != 0xffff {
			t.Fatalf("pixel (395, %d) is drawn on", y)
		}
	}
}

func TestFromComparison(t *testing.T) {
	c := FromComparison([]cost.CompareRow{{Item: "a", Cycles: 3, Instructions: 7}, {Item: "b:2", Cycles: 1}}, Instructions, Bars)
	if c.Title != "Instructions compared" || len(c.Bars) != 2 || c.Bars[0] != (Bar{Label: "a", Value: 7}) || c.Bars[1].Label != "b:2" {
		t.Errorf("%+v", c)
	}
}
