package chart

import (
	"math"
	"testing"

	"github.com/wcharczuk/go-chart/v2/drawing"

	"androprof/model/heap"
)

// Issue 23, finding 16: figure 5.22's neighbouring distance buckets must not look alike. Every
// series of the figure gets a colour clearly apart (CIE76 ΔE in CIELAB) from its neighbours in
// the legend, and from every other series as long as the colours last.
func TestPointerFigureColoursApart(t *testing.T) {
	const neighbours, others = 40, 25 // ΔE: 2.3 is just noticeable; 25 reads as another colour
	p := &heap.HeapProfile{Cohort: 1 << 10}
	for d := -20; d <= 20; d++ {
		if d == 0 {
			continue
		}
		for time := uint64(1); time <= 3; time++ {
			p.Pointers = append(p.Pointers, heap.HeapPointers{Bucket: time, Distance: d, Count: uint64(21 + d)})
		}
	}
	f, err := FindHeapFigure("5.22")
	if err != nil {
		t.Fatal(err)
	}
	l, ok := f.Draw(p, "test").(Lines)
	if !ok || len(l.Series) != 40 {
		t.Fatalf("figure 5.22 drew %T with %d series", f.Draw(p, "test"), len(l.Series))
	}
	for i := range l.Series {
		for j := i + 1; j < min(len(l.Series), i+len(seriesPalette)); j++ {
			limit := float64(others)
			if j == i+1 {
				limit = neighbours
			}
			if e := deltaE(seriesColour(i), seriesColour(j)); e < limit {
				t.Errorf("%s and %s: colours %v and %v are ΔE %.1f apart, want at least %v", l.Series[i].Label, l.Series[j].Label,
					seriesColour(i), seriesColour(j), e, limit)
			}
		}
	}
}

// deltaE is the CIE76 colour difference: the distance in CIELAB (D65 white).
func deltaE(a, b drawing.Color) float64 {
	la, aa, ba := cielab(a)
	lb, ab, bb := cielab(b)
	return math.Sqrt((la-lb)*(la-lb) + (aa-ab)*(aa-ab) + (ba-bb)*(ba-bb))
}

func cielab(c drawing.Color) (l, a, b float64) {
	lin := func(v uint8) float64 {
		u := float64(v) / 255
		if u <= 0.04045 {
			return u / 12.92
		}
		return math.Pow((u+0.055)/1.055, 2.4)
	}
	r, g, bl := lin(c.R), lin(c.G), lin(c.B)
	x := (0.4124*r + 0.3576*g + 0.1805*bl) / 0.95047
	y := 0.2126*r + 0.7152*g + 0.0722*bl
	z := (0.0193*r + 0.1192*g + 0.9505*bl) / 1.08883
	f := func(t float64) float64 {
		if t > 0.008856 {
			return math.Cbrt(t)
		}
		return 7.787*t + 16.0/116
	}
	return 116*f(y) - 16, 500 * (f(x) - f(y)), 200 * (f(y) - f(z))
}
