package ui

import (
	"strings"
	"testing"
)

// Tables write plain decimals: a column of 'g' floats mixed 0.00255 with 6.24e-05.
func TestFormatFloatNeverWritesExponents(t *testing.T) {
	for _, c := range []struct {
		f      float64
		digits int
		want   string
	}{
		{3.884143751885588e-05, 6, "0.0000388414"},
		{0.8926691053428465, 6, "0.892669"},
		{1.5, 6, "1.5"},
		{12345678.9, 4, "12345679"},
		{2557106.4, 0, "2 557 106"},
		{0, 3, "0"},
		{-0.000123, 2, "-0.00012"},
	} {
		if got := FormatFloat(c.f, c.digits); got != c.want || strings.Contains(got, "e") {
			t.Errorf("formatFloat(%g, %d) = %q, want %q", c.f, c.digits, got, c.want)
		}
	}
}

// A quantity column picks one unit for all its values, so they compare down the column, and
// its CSV keeps the base unit exactly.
func TestQuantityColumnPicksOneUnit(t *testing.T) {
	type row struct{ j float64 }
	energy := QuantityCol("Energy", "J", 100, func(r row) float64 { return r.j })
	tb := NewSortTable(nil, "t", []Column[row]{energy}, nil)
	tb.Set([]row{{0.00203643}, {4.293e-05}, {1.18e-06}, {0}})
	var got []string
	for i := range tb.Rows() {
		got = append(got, tb.Cell(i, 0))
	}
	if tb.headers[0] != "Energy (µJ)" || strings.Join(got, " | ") != "2 036.43 | 42.93 | 1.18 | 0.00" {
		t.Errorf("header %q, cells %q", tb.headers[0], got)
	}
	var csv strings.Builder
	if err := tb.WriteCSV(&csv); err != nil || !strings.HasPrefix(csv.String(), "Energy (J)\n0.00203643\n4.293e-05\n") {
		t.Errorf("CSV %q, %v", csv.String(), err)
	}
	for _, c := range []struct {
		vals []float64
		want string
	}{
		{[]float64{0.00255, 6.2e-05}, "µ"},     // 2 550 µs and 62 µs
		{[]float64{2.5, 0.75}, "m"},            // 2 500 ms and 750 ms
		{[]float64{3, 1.5}, ""},                // seconds
		{[]float64{5e6, 2}, "k"},               // the largest stays under a million
		{[]float64{1e-15}, "p"},                // as small as the prefixes go
		{[]float64{0, 0}, ""},                  // nothing to scale
		{[]float64{2400, 1200}, "k"},           // 2.4k
		{[]float64{0.00203643, 4.29e-05}, "µ"}, // the energies of the Processes tab
	} {
		if got := scaleFor(c.vals).Symbol; got != c.want {
			t.Errorf("scaleFor(%v) = %q, want %q", c.vals, got, c.want)
		}
	}
}

// Identifiers are written as they are; fixed decimals are grouped (counts: human.Count).
func TestIDsUngroupedAndFixedGrouped(t *testing.T) {
	type row struct{ pid int64 }
	id := IDCol("PID", 70, func(r row) int64 { return r.pid })
	if got := id.Text(row{27464}); got != "27464" {
		t.Errorf("PID %q", got)
	}
	for _, c := range []struct{ got, want string }{
		{Fixed(-0.001, 2), "-0.00"},
		{Fixed(1234567.891, 2), "1 234 567.89"},
	} {
		if c.got != c.want {
			t.Errorf("%q, want %q", c.got, c.want)
		}
	}
}
