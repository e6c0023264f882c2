// Package human writes numbers the way a person reads them: sizes in binary units, counts with
// their digits grouped and their noun in the right number, quantities with an SI prefix and
// their unit. The command line, the charts and the window all write numbers through it, so
// one value reads the same everywhere. JSON and CSV carry the raw numbers, never these texts.
package human

import (
	"fmt"
	"math"
	"strconv"
	"strings"
)

// Integer is what counts are counted in.
type Integer interface {
	~int | ~int8 | ~int16 | ~int32 | ~int64 | ~uint | ~uint8 | ~uint16 | ~uint32 | ~uint64
}

// Grouped writes an integer with its digits in threes, separated by spaces (56 750 218 825):
// instruction counts run to eleven digits. Spaces, not commas, read the same in every locale.
func Grouped[N Integer](n N) string {
	s := strconv.FormatInt(int64(n), 10)
	if n > 0 && uint64(n) > math.MaxInt64 {
		s = strconv.FormatUint(uint64(n), 10)
	}
	digits := strings.TrimPrefix(s, "-")
	var b strings.Builder
	if len(digits) < len(s) {
		b.WriteByte('-')
	}
	for i, r := range digits {
		if i > 0 && (len(digits)-i)%3 == 0 {
			b.WriteByte(' ')
		}
		b.WriteRune(r)
	}
	return b.String()
}

// Count writes a count, grouped, with its noun in the right number ("1 process", "1 131 442
// instructions"), so no window or command says "1 processes".
func Count[N Integer](n N, one, many string) string {
	return Grouped(n) + " " + Noun(n, one, many)
}

// Noun is one for a count of 1, else many: for the verb or noun after a count ("1 file has").
func Noun[N Integer](n N, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

var byteUnits = [...]string{"B", "KB", "MB", "GB", "TB", "PB", "EB"}

// Bytes writes a size in binary units with at most one decimal, as the seed's tables do: "24 B",
// "1023 B", "808.8 KB", "1.5 MB". One decimal rather than three significant digits: a size
// under a kilobyte stays exact, and 808.8 KB next to 809.2 KB still tells them apart.
func Bytes(n uint64) string {
	v, unit := BytesParts(n)
	return v + " " + unit
}

// BytesParts is Bytes as its number and unit apart ("1.5", "MB"), so that a span of sizes can
// write a shared unit once ("0–256 KB").
func BytesParts(n uint64) (value, unit string) {
	if n < 1024 {
		return strconv.FormatUint(n, 10), byteUnits[0]
	}
	f := float64(n)
	u := 0
	for u+1 < len(byteUnits) && f >= 1024 {
		f /= 1024
		u++
	}
	s := strconv.FormatFloat(f, 'f', 1, 64)
	if s == "1024.0" && u+1 < len(byteUnits) { // rounding reached the next unit
		s, u = "1.0", u+1
	}
	return strings.TrimSuffix(s, ".0"), byteUnits[u]
}

// ByteUnits are the units Bytes writes, smallest first: charts' byte axes use the same.
func ByteUnits() []string { return byteUnits[:] }

// SIPrefix is a metric prefix and the factor it stands for.
type SIPrefix struct {
	Factor float64
	Symbol string
}

// SIPrefixes are the prefixes values are written with, largest first: costs span from
// picojoules to tera-cycles, and charts and tables must agree on how they read.
var SIPrefixes = []SIPrefix{{1e12, "T"}, {1e9, "G"}, {1e6, "M"}, {1e3, "k"}, {1, ""}, {1e-3, "m"}, {1e-6, "µ"}, {1e-9, "n"}, {1e-12, "p"}}

// Compact writes a value in three significant digits with an SI prefix (1.23G, 45.6m), the
// way bar labels and axes show costs that span many orders of magnitude.
func Compact(v float64) string {
	if v == 0 || math.IsNaN(v) || math.IsInf(v, 0) {
		return fmt.Sprint(v)
	}
	a := math.Abs(v)
	for _, p := range SIPrefixes {
		if a >= p.Factor*0.9995 {
			return TrimZeros(fmt.Sprintf("%.3g", v/p.Factor)) + p.Symbol
		}
	}
	return fmt.Sprintf("%.3g", v)
}

// Quantity writes a value with its unit the way people read one: three significant digits and
// the SI prefix joined to the unit ("2.62 ms", "546 µs", "5.74 mJ", "6.45 M cycles"). Units that
// are counts, not SI units, take the prefix as a word of its own.
func Quantity(v float64, unit string) string {
	c := Compact(v)
	if unit == "" {
		return c
	}
	num := strings.TrimRight(c, "TGMkmµnp")
	prefix := c[len(num):]
	if prefix != "" && CountUnit(unit) {
		return num + " " + prefix + " " + unit // 6.45 M cycles
	}
	return num + " " + prefix + unit
}

// CountUnit tells a count ("cycles", "instructions") from an SI unit, which takes its prefix.
func CountUnit(unit string) bool {
	return len([]rune(unit)) > 1 && unit != "Hz" && unit != "GHz"
}

// Micros writes a duration given in µs as Quantity does ("2.62 ms", "685 µs"): method traces
// count time in µs.
func Micros(us float64) string { return Quantity(us/1e6, "s") }

// MicrosStep writes a time in µs in the unit of its scale (µs, ms or s) with the decimals that
// step needs, so axis labels and hover texts along one axis read "12 ms" rather than
// "12500", and neighbours differ in their last digit.
func MicrosStep(us, step float64) string {
	unit, name := 1.0, "µs"
	switch {
	case step >= 1e6:
		unit, name = 1e6, "s"
	case step >= 1e3:
		unit, name = 1e3, "ms"
	}
	decimals := 0
	if s := step / unit; s < 1 {
		decimals = int(math.Ceil(-math.Log10(s) - 1e-9))
	}
	return strconv.FormatFloat(us/unit, 'f', decimals, 64) + " " + name
}

// TrimZeros drops the zeros after a decimal point, and the point when nothing is left after
// it ("1.50" → "1.5", "2.00" → "2"); exponents and integers stay as they are.
func TrimZeros(s string) string {
	if strings.ContainsAny(s, "e") || !strings.Contains(s, ".") {
		return s
	}
	return strings.TrimSuffix(strings.TrimRight(s, "0"), ".")
}
