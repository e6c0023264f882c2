package chart

import (
	"bytes"
	"image/png"
	"slices"
	"testing"

	"androprof/chart/render"
	"androprof/model/cost"
)

// layerRows are two processes' reports --by image: 10 runs a program, a library and the
// loader; 11 only the program and code with no file.
var layerRows = []cost.ReportRow{
	{PID: 10, Image: "sieve", ImageKind: cost.ImageProgram, Cycles: 100},
	{PID: 10, Image: "libc.so.6", ImageKind: cost.ImageLibrary, Cycles: 30},
	{PID: 10, Image: "libm.so.6", ImageKind: cost.ImageLibrary, Cycles: 20},
	{PID: 10, Image: "ld-linux-armhf.so.3", ImageKind: cost.ImageLoader, Cycles: 50},
	{PID: 11, Image: "sieve", ImageKind: cost.ImageProgram, Cycles: 5},
	{PID: 11, Image: "[vdso]", ImageKind: cost.ImageNoFile, Cycles: 1},
}

func TestFromLayers(t *testing.T) {
	calls := []cost.SyscallRow{{PID: 10, Name: "write", Count: 2}, {PID: 10, Name: "exit_group", Count: 1}}
	c := FromLayers("r", "p", layerRows, calls, map[string]string{"10": "10 sieve"}, Cycles)
	if !c.Stacked || c.Title != "Cycles by layer — r, p" {
		t.Errorf("chart %+v", c)
	}
	if want := []string{"program", "libraries", "loader", "no file"}; !slices.Equal(c.Series, want) {
		t.Errorf("series %v, want %v", c.Series, want)
	}
	if c.Bars[0] != (Bar{Label: "10 sieve", Value: 200}) || c.Bars[1] != (Bar{Label: "11", Value: 6}) {
		t.Errorf("bars %v", c.Bars)
	}
	if !slices.Equal(c.Values[0], []float64{100, 50, 50, 0}) || !slices.Equal(c.Values[1], []float64{5, 0, 0, 1}) {
		t.Errorf("values %v", c.Values)
	}
	if !slices.Equal(c.Notes, []string{"3 system calls", "0 system calls"}) {
		t.Errorf("notes %q", c.Notes)
	}
	if c := FromLayers("r", "p", layerRows, nil, nil, Cycles); c.Notes != nil {
		t.Errorf("a trace without system calls gets notes %q", c.Notes)
	}
	// A trace that names no image: one layer, named so.
	c = FromLayers("r", "p", []cost.ReportRow{{PID: 1, Cycles: 3}}, nil, nil, Cycles)
	if !slices.Equal(c.Series, []string{cost.NoImage}) || c.Bars[0].Value != 3 {
		t.Errorf("no images: series %v, bars %v", c.Series, c.Bars)
	}
}

// The layers are drawn end to end, each in its series' colour, whatever kind is asked for;
// a tap on a process's bar finds it.
func TestStackedBarsDraw(t *testing.T) {
	c := FromLayers("r", "p", layerRows, []cost.SyscallRow{{PID: 10, Count: 3}}, nil, Cycles)
	for _, kind := range []Kind{Bars, Columns, Pie} {
		c.Kind = kind
		var buf bytes.Buffer
		if err := c.Paint(&buf, render.PNG, 800, 300); err != nil {
			t.Fatal(err)
		}
		save(t, "layers.png", buf.Bytes())
		img, err := png.Decode(&buf)
		if err != nil {
			t.Fatal(err)
		}
		l := barRows(c, 800, 300).fit(2)
		y, thick := l.bar(0)
		seen := map[int]bool{}
		for x := range 800 {
			px := img.At(x, y+thick/2)
			for s, p := range palette[:len(c.Series)] {
				if r, g, b, _ := px.RGBA(); uint8(r>>8) == p.R && uint8(g>>8) == p.G && uint8(b>>8) == p.B {
					seen[s] = true
				}
			}
		}
		if !seen[0] || !seen[1] || !seen[2] || seen[3] {
			t.Errorf("kind %d: process 10's bar shows series %v, want program, libraries and loader", kind, seen)
		}
		if got := c.BarAt(800, 300, 400, y+thick/2); got != 0 {
			t.Errorf("kind %d: BarAt on process 10's bar = %d", kind, got)
		}
	}
	var svg bytes.Buffer
	if err := c.Paint(&svg, render.SVG, 800, 300); err != nil {
		t.Fatal(err)
	}
	wellFormed(t, svg.Bytes())
	if !bytes.Contains(svg.Bytes(), []byte("3 system calls")) || !bytes.Contains(svg.Bytes(), []byte("libraries")) {
		t.Error("the SVG lacks the note or the legend")
	}
}

func TestFromSyscalls(t *testing.T) {
	c := FromSyscalls("r", []cost.SyscallRow{{PID: 1, TID: 1, Name: "read", Count: 4}, {PID: 1, TID: 2, Name: "read", Count: 1},
		{PID: 2, Name: "exit_group", Count: 1}})
	if len(c.Bars) != 2 || c.Bars[0] != (Bar{Label: "read", Value: 5}) || c.Bars[1] != (Bar{Label: "exit_group", Value: 1}) || c.Unit != "calls" {
		t.Errorf("chart %+v", c)
	}
}

func TestFromImageComparison(t *testing.T) {
	rows := []cost.ImageCompareRow{{Key: "(loader)", Kind: cost.ImageLoader, Names: []string{"ld-linux-armhf.so.3", "ld.so.1"},
		Cells: []cost.ReportRow{{Instructions: 10}, {Instructions: 30}}}}
	c := FromImageComparison([]string{"arm", "mips"}, rows, Instructions)
	if !slices.Equal(c.Series, []string{"arm", "mips"}) || c.Bars[0] != (Bar{Label: "(loader)", Value: 40}) || !slices.Equal(c.Values[0], []float64{10, 30}) {
		t.Errorf("chart %+v", c)
	}
}
