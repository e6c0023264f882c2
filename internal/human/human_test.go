package human

import (
	"math"
	"testing"
)

func TestBytes(t *testing.T) {
	for _, c := range []struct {
		n    uint64
		want string
	}{
		{0, "0 B"}, {24, "24 B"}, {1023, "1023 B"}, {1024, "1 KB"}, {1536, "1.5 KB"},
		{256 << 10, "256 KB"}, {828211, "808.8 KB"}, {1<<20 - 1, "1 MB"}, {3 << 19, "1.5 MB"},
		{22 << 20, "22 MB"}, {10 << 30, "10 GB"}, {13.5 * (1 << 20), "13.5 MB"}, {math.MaxUint64, "16 EB"},
	} {
		if got := Bytes(c.n); got != c.want {
			t.Errorf("Bytes(%d) = %q, want %q", c.n, got, c.want)
		}
	}
}

// Counts are grouped and agree in number, whatever integer type they come in.
func TestCountGroupsAndAgrees(t *testing.T) {
	for _, c := range []struct{ got, want string }{
		{Count(1, "process", "processes"), "1 process"},
		{Count(2, "process", "processes"), "2 processes"},
		{Count(0, "category", "categories"), "0 categories"},
		{Count(uint64(1), "row", "rows"), "1 row"},
		{Count(1131442, "instruction", "instructions"), "1 131 442 instructions"},
		{Noun(int64(1), "method", "methods"), "method"},
		{Grouped(int64(56750218825)), "56 750 218 825"},
		{Grouped(-1234567), "-1 234 567"},
		{Grouped(999), "999"},
		{Grouped(uint64(math.MaxUint64)), "18 446 744 073 709 551 615"},
		{Grouped(int64(math.MinInt64)), "-9 223 372 036 854 775 808"},
	} {
		if c.got != c.want {
			t.Errorf("got %q, want %q", c.got, c.want)
		}
	}
}

func TestQuantity(t *testing.T) {
	for _, c := range []struct {
		v    float64
		unit string
		want string
	}{
		{0.002621, "s", "2.62 ms"},
		{0.000546, "s", "546 µs"},
		{0.00574, "J", "5.74 mJ"},
		{6.45e6, "cycles", "6.45 M cycles"},
		{13.03, "cycles", "13 cycles"},
		{0.893, "W", "893 mW"},
		{1.5, "s", "1.5 s"},
		{0, "J", "0 J"},
		{2310, "", "2.31k"},
	} {
		if got := Quantity(c.v, c.unit); got != c.want {
			t.Errorf("Quantity(%g, %q) = %q, want %q", c.v, c.unit, got, c.want)
		}
	}
	if got := Micros(1070); got != "1.07 ms" {
		t.Errorf("Micros(1070) = %q", got)
	}
}

// Along an axis, times take the unit of the step and the decimals it needs.
func TestMicrosStep(t *testing.T) {
	for _, c := range []struct {
		us, step float64
		want     string
	}{
		{12000, 1000, "12 ms"}, {13000, 5000, "13 ms"}, {500, 100, "500 µs"},
		{2e6, 1e6, "2 s"}, {1.5e6, 5e5, "1500 ms"}, {250, 0.5, "250.0 µs"},
		{1500, 500, "1500 µs"}, {1500, 1000, "2 ms"}, {12500, 500, "12500 µs"}, {14000, 2000, "14 ms"},
		{1250000, 200000, "1250 ms"}, {1250, 250, "1250 µs"}, {1250, 0.5, "1250.0 µs"}, {2250000, 500000, "2250 ms"},
		{3e6, 1e6, "3 s"}, {2500, 100, "2500 µs"}, {15000, 5000, "15 ms"},
	} {
		if got := MicrosStep(c.us, c.step); got != c.want {
			t.Errorf("MicrosStep(%g, %g) = %q, want %q", c.us, c.step, got, c.want)
		}
	}
}

func TestCompact(t *testing.T) {
	for v, want := range map[float64]string{1234: "1.23k", 56750218825: "56.8G", 0.000739: "739µ", 999.7: "1k", 12: "12", 0: "0", 1.5: "1.5"} {
		if got := Compact(v); got != want {
			t.Errorf("Compact(%v) = %q, want %q", v, got, want)
		}
	}
}
